package store_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/omh-notes/omh/store"
	"github.com/omh-notes/omh/vault"
	"github.com/omh-notes/omh/vault/vaulttest"
)

// A private note written before a repository's first commit is found after
// it, with no warning, from the folder keyed by the root commit; a note of
// the same key already there (another clone's) is kept, and the early one
// found beside it under a free key. Catches: the note staying in the
// folder keyed "no-commits-…" that nothing reads once there is a root
// commit ("0 local", no word).
func TestAPrivateNoteWrittenBeforeTheFirstCommitIsFoundAfterIt(t *testing.T) {
	t.Parallel()
	r := vaulttest.New(t)
	// The default private folder, under the test binary's XDG_DATA_HOME;
	// the commit below is this test's own, so no other test shares it.
	r.Git("config", "--unset", "omh.local")
	s, _ := openStore(t, r.Dir)
	w, err := s.New(store.Draft{Type: "finding", Title: "mount returns ebusy", Body: []byte("The bind mount returns EBUSY.\n")})
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	early := filepath.Dir(filepath.Dir(w.Path))
	if !strings.Contains(filepath.Base(early), "no-commits-") {
		t.Fatalf("before the first commit the note went to %s", w.Path)
	}
	r.Write("readme.md", "# "+t.Name()+"\n")
	root := r.Commit("2026-01-02T10:00:00Z", "first")
	keyed := filepath.Join(filepath.Dir(early), root)
	other := "---\ntype: finding\nrecorded: 2026-01-01\n---\n# Mount returns EBUSY elsewhere\n\nAnother clone's ebusy note.\n"
	vaulttest.WriteFile(t, filepath.Join(keyed, "finding", "mount-returns-ebusy.md"), other)

	answer, warnings := ask(t, r.Dir, withRoots(question("ebusy"), 10))
	for _, key := range []string{"finding/mount-returns-ebusy  finding · local", "finding/mount-returns-ebusy-2  finding · local"} {
		if !strings.Contains(answer, key) {
			t.Errorf("the answer after the first commit lacks %q:\n%s", key, answer)
		}
	}
	if len(warnings) != 0 {
		t.Errorf("warnings %q", warnings)
	}
	if got := vaulttest.Read(t, filepath.Join(keyed, "finding", "mount-returns-ebusy.md")); got != other {
		t.Errorf("the note already in %s was replaced:\n%s", keyed, got)
	}
	if _, err := os.Lstat(early); err == nil {
		t.Errorf("%s is still there", early)
	}
}

// A private folder set inside the repository (its working tree, a notes
// root, git's folder; an omh.local relative to the working tree lands
// there too) is refused with a line naming the folder and where it was
// set, and nothing is written there or listed twice. Catches: omh new
// writing into .omh/notes (git then commits the "private" note) or into
// .git, and every note of the notes root listed twice, once as private.
func TestAPrivateFolderInsideTheRepositoryIsRefused(t *testing.T) {
	t.Parallel()
	r := vaulttest.New(t)
	r.Write(".omh/notes/sync.md", "# Sync\n\nThe sync note.\n")
	r.Commit("2026-01-02T10:00:00Z", "notes")
	for _, dir := range []string{filepath.Join(r.Dir, ".omh", "notes"), filepath.Join(r.Dir, ".git"), filepath.Join(r.Dir, "private"), "private", ".git/omh-private"} {
		r.Git("config", "omh.local", dir)
		before := notesAndGit(t, r.Dir)
		s, _ := openStore(t, r.Dir)
		_, err := s.New(store.Draft{Type: "finding", Title: "inside " + dir})
		if refusedCode(err) != "bad_private_dir" || !strings.Contains(err.Error(), "inside the repository") || !strings.Contains(err.Error(), "git config omh.local") {
			t.Errorf("omh.local %s: omh new said %v", dir, err)
		}
		if _, err := s.Ask(question("sync")); refusedCode(err) != "bad_private_dir" {
			t.Errorf("omh.local %s: find said %v", dir, err)
		}
		s.Close()
		vaulttest.SameTree(t, "omh.local "+dir, before, notesAndGit(t, r.Dir))
	}
}

// OMH_LOCAL_DIR relative is refused (it would name another folder from
// each folder omh runs in); a relative XDG_DATA_HOME is ignored, as the
// XDG specification says, for $HOME/.local/share. Catches: OMH_LOCAL_DIR
// =.omh/notes and XDG_DATA_HOME=rel writing private notes into the
// working tree.
func TestARelativePrivateFolderIsRefusedAndARelativeXDGDataHomeIgnored(t *testing.T) {
	// Serial: it sets OMH_LOCAL_DIR, XDG_DATA_HOME and HOME.
	r := vaulttest.New(t)
	r.Git("config", "--unset", "omh.local")
	r.Write("readme.md", "# "+t.Name()+"\n")
	root := r.Commit("2026-01-02T10:00:00Z", "first")
	t.Chdir(r.Dir)
	before := notesAndGit(t, r.Dir)
	for _, dir := range []string{".omh/notes", ".git", "rel/private", "../elsewhere"} {
		t.Setenv("OMH_LOCAL_DIR", dir)
		s, _ := openStore(t, r.Dir)
		_, err := s.New(store.Draft{Type: "finding", Title: "relative"})
		if refusedCode(err) != "bad_private_dir" || !strings.Contains(err.Error(), "relative") || !strings.Contains(err.Error(), "OMH_LOCAL_DIR") {
			t.Errorf("OMH_LOCAL_DIR=%s: omh new said %v", dir, err)
		}
		s.Close()
	}
	os.Unsetenv("OMH_LOCAL_DIR")
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_DATA_HOME", "rel")
	s, _ := openStore(t, r.Dir)
	w, err := s.New(store.Draft{Type: "finding", Title: "relative xdg"})
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(home, ".local", "share", "omh", root, "finding", "relative-xdg.md"); w.Path != want {
		t.Errorf("with XDG_DATA_HOME=rel the note went to %s, want %s", w.Path, want)
	}
	vaulttest.SameTree(t, "relative private folders", before, notesAndGit(t, r.Dir))
}

// notesAndGit is every file of the repository at dir, git's folder
// included, but for omh's cache and journal.
func notesAndGit(t *testing.T, dir string) map[string]string {
	t.Helper()
	files := vaulttest.Tree(t, dir)
	for path := range files {
		if vault.Within(filepath.Join(dir, ".git", "omh"), path) || vault.Within(filepath.Join(dir, ".git", "omh-journal"), path) {
			delete(files, path)
		}
	}
	return files
}
