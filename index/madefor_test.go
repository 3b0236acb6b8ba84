package index_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/omh-notes/omh/index"
	"github.com/omh-notes/omh/vault/vaulttest"
)

// A cache folder copied in from another repository is recognised and
// emptied: the answers are this repository's, what else was kept there
// (detected settings) is gone, and Notices names the other repository. A
// repository moved with its folder keeps it: no notice, nothing parsed
// again. Catches: another repository's .git/omh trusted, its detected
// notes root making the store hold nothing, and a rebuild keeping it.
func TestACacheFolderFromAnotherRepositoryIsReplaced(t *testing.T) {
	t.Parallel()
	other := vaulttest.New(t)
	other.Write("vault/elsewhere.md", "# Elsewhere\n\nA walrus memory of another repository.\n")
	other.Commit("2025-11-01T10:00:00Z", "another repository")
	otherRepo := openRepo(t, other.Dir)
	c, err := index.OpenRepo(otherRepo)
	if err != nil {
		t.Fatal(err)
	}
	freshView(t, c, otherRepo, index.Options{}, seaTerms)
	c.Close()
	otherDir := filepath.Join(otherRepo.CommonDir, "omh")
	vaulttest.WriteFile(t, filepath.Join(otherDir, "detected-config.yaml"), "notes: vault\n")

	r := seaStore(t)
	want := rebuild(t, r.Dir, seaTerms).all
	repo := openRepo(t, r.Dir)
	dir := filepath.Join(repo.CommonDir, "omh")
	os.RemoveAll(dir)
	vaulttest.CopyTree(t, otherDir, dir)
	c, err = index.OpenRepo(repo)
	if err != nil {
		t.Fatal(err)
	}
	if d := freshView(t, c, repo, index.Options{}, seaTerms).diff(want); d != "" {
		t.Errorf("answers from another repository's cache folder differ from a rebuild:\n%s", d)
	}
	c.Close()
	if len(c.Notices) != 1 || !strings.Contains(c.Notices[0], other.Dir) {
		t.Errorf("notices %q, want one naming the other repository %s", c.Notices, other.Dir)
	}
	if _, err := os.Lstat(filepath.Join(dir, "detected-config.yaml")); !os.IsNotExist(err) {
		t.Errorf("what the other repository kept in the folder is still there: %v", err)
	}

	moved := filepath.Join(t.TempDir(), "moved")
	if err := os.Rename(r.Dir, moved); err != nil {
		t.Fatal(err)
	}
	movedRepo := openRepo(t, moved)
	c, err = index.OpenRepo(movedRepo)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	s, rep, err := c.Fresh(movedRepo, index.Options{})
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	if len(c.Notices) != 0 || rep.Parsed != 0 {
		t.Errorf("the folder of a moved repository: notices %q, %d notes parsed again; want it kept", c.Notices, rep.Parsed)
	}
}

// A notes root that exists nowhere is blamed on where it came from: the
// config, or, when there is none, what omh detected. Catches: the warning
// naming a .omh/config.yaml that does not exist.
func TestAMissingNotesRootIsBlamedOnWhereItCameFrom(t *testing.T) {
	t.Parallel()
	for _, configured := range []bool{true, false} {
		r := vaulttest.New(t)
		r.Write("a.md", "# A\n")
		if configured {
			r.Write(".omh/config.yaml", "notes: gone\n")
		}
		r.Commit("2026-01-02T10:00:00Z", "notes")
		repo := openRepo(t, r.Dir)
		repo.Detected = []byte("notes: gone\n")
		c := openCache(t, repo.CommonDir)
		s, rep, err := c.Fresh(repo, index.Options{})
		if err != nil {
			t.Fatal(err)
		}
		s.Close()
		c.Close()
		want := "named in .omh/config.yaml"
		if !configured {
			want = "omh detected (there is no .omh/config.yaml)"
		}
		if len(rep.Warnings) != 1 || !strings.Contains(rep.Warnings[0], want) {
			t.Errorf("configured %v: warnings %q, want one saying %q", configured, rep.Warnings, want)
		}
	}
}
