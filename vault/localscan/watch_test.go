package localscan

import (
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"testing"

	"github.com/omh-notes/omh/vault/gitrepo"
	"github.com/omh-notes/omh/vault/vaulttest"
)

// A watcher answers which paths changed since a token it handed out: a
// written file, a new folder and the file in it, a removed file; git's own
// folder never; "everything" for a token it did not hand out. Catches: a
// write just before the question missed (events read after answering), a
// new folder left unwatched, a stranger's token trusted.
func TestAWatcherReportsWhatChangedSinceItsToken(t *testing.T) {
	t.Parallel()
	if runtime.GOOS != "linux" {
		t.Skip("omh watches with inotify; elsewhere git's core.fsmonitor spares scans")
	}
	r := vaulttest.New(t)
	r.Write("notes/a.md", "# A\n")
	r.Commit("2026-01-02T10:00:00Z", "a")
	repo, err := gitrepo.Open(r.Dir)
	if err != nil {
		t.Fatal(err)
	}
	defer repo.Close()
	w := Watch(repo)
	if w == nil {
		t.Fatal("no watcher")
	}
	defer w.Close()
	ask := func(token string) (string, []string, bool) {
		t.Helper()
		next, paths, everything, err := w.Query(token)
		if err != nil {
			t.Fatal(err)
		}
		slices.Sort(paths)
		return next, paths, everything
	}
	token, _, everything := ask("")
	if !everything {
		t.Error("an empty token must mean everything")
	}
	r.Write("notes/a.md", "# A, edited\n")
	os.MkdirAll(filepath.Join(r.Dir, "notes", "new"), 0o755)
	r.Write("notes/new/b.md", "# B\n")
	r.Git("status") // git's own files change too
	token2, paths, everything := ask(token)
	if everything || !slices.Equal(paths, []string{"notes/a.md", "notes/new", "notes/new/b.md"}) {
		t.Errorf("since the first token: %q (everything %v)", paths, everything)
	}
	r.Remove("notes/new/b.md")
	if _, paths, _ := ask(token2); !slices.Equal(paths, []string{"notes/new/b.md"}) {
		t.Errorf("since the second token: %q", paths)
	}
	if _, _, everything := ask("inotify:1:2:3"); !everything {
		t.Error("a token this watcher did not hand out must mean everything")
	}
}
