package gitcli

import (
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/omh-notes/omh/vault/gitrepo"
	"github.com/omh-notes/omh/vault/vaulttest"
)

// git log's walk and StepOf's give the same steps, commit by commit: what
// counts as a changed note (added or modified *.md regular files, a mode
// change too; not a deletion, a symbolic link, another kind of file or a
// name that cannot be a key), first parents through a merge, the root, the
// dates. Catches: a cold build dating notes from git's walk differently
// from an incremental one reading the same history through go-git.
func TestGitsHistoryWalkEqualsStepOf(t *testing.T) {
	t.Parallel()
	r := vaulttest.New(t)
	r.Write("a.md", "a\n")
	r.Write("notes/b.md", "b\n")
	r.Write("notes/readme.txt", "not a note\n")
	r.Write(".omh/notes/c.md", "c\n")
	r.Commit("2026-01-01T10:00:00+05:00", "root")
	r.Write("a.md", "a, edited\n")
	if err := os.Symlink("a.md", filepath.Join(r.Dir, "link.md")); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(filepath.Join(r.Dir, "notes", "b.md"), 0o755); err != nil {
		t.Fatal(err)
	}
	r.Write("bad\x01name.md", "a name that is no key\n")
	r.Commit("2026-01-02T23:30:00-07:00", "edit, link, mode")
	r.Git("checkout", "-q", "-b", "side")
	r.Write("side.md", "from a branch\n")
	r.Commit("2026-01-03T10:00:00Z", "side")
	r.Git("checkout", "-q", "main")
	r.Remove("notes/b.md")
	r.Remove("link.md")
	r.Write("link.md", "a file where the link was\n")
	r.Commit("2026-01-04T10:00:00Z", "remove and replace")
	r.GitAt("2026-01-05T10:00:00Z", "merge", "-q", "--no-ff", "-m", "merge side", "side")

	if n := compareWalks(t, r.Dir); n != 4 {
		t.Errorf("walked %d first-parent steps, want 4", n)
	}
	// A shallow clone's walk ends at its boundary, which both see as
	// adding every file.
	shallow := filepath.Join(t.TempDir(), "shallow")
	r.Git("clone", "-q", "--depth", "2", "file://"+r.Dir, shallow)
	if n := compareWalks(t, shallow); n != 2 {
		t.Errorf("walked %d first-parent steps of a clone of depth 2", n)
	}
}

// compareWalks walks a repository's first-parent history both ways and
// returns how many steps it took.
func compareWalks(t *testing.T, dir string) int {
	t.Helper()
	repo, err := gitrepo.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer repo.Close()
	shallow := map[plumbing.Hash]bool{}
	boundary, err := repo.Shallow()
	if err != nil {
		t.Fatal(err)
	}
	for _, h := range boundary {
		shallow[h] = true
	}
	head, err := repo.Head()
	if err != nil {
		t.Fatal(err)
	}
	log, err := LogHistory(repo, head, shallow)
	if err != nil {
		t.Fatal(err)
	}
	defer log.Close()
	n := 0
	for c := head; !c.IsZero(); n++ {
		want, err := repo.StepOf(c, shallow)
		if err != nil {
			t.Fatal(err)
		}
		got, ok := log.Next(c)
		if !ok {
			t.Fatalf("git's walk has no step for %s", c)
		}
		slices.Sort(want.Changed)
		slices.Sort(got.Changed)
		if !reflect.DeepEqual(got, want) {
			t.Errorf("step %d:\n git   %+v\n go-git %+v", n, got, want)
		}
		c = want.Parent
	}
	if _, ok := log.Next(plumbing.Hash{1}); ok {
		t.Error("a step past the root")
	}
	return n
}
