package index_test

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/omh-notes/omh/index"
	"github.com/omh-notes/omh/vault/gitrepo"
	"github.com/omh-notes/omh/vault/vaulttest"
)

// crashStatus is the status index.CrashEnv makes a refresh exit with.
const crashStatus = 99

// A process killed just before any one of its writes to the cache (the
// fault injection of index.CrashEnv) leaves a cache that the next process
// opens without finding it damaged and that then answers exactly as a cache
// rebuilt from scratch. For k = 1, 2, … each run starts from the same cache
// and crashes before its k-th write, until a run has fewer writes than k and
// completes: for a first build; for a refresh after a commit (edits, a new
// note, a deletion, a rename), an uncommitted edit and a private note; for
// Rebuild; and for a refresh after a private note was only touched.
// Catches: a half-written generation or snapshot that is trusted, a refresh
// whose writes are not one transaction, a temporary file that blocks the
// next build, a crash that leaves the refresh lock held, and a cache that
// looks fresh after a crash and holds the old state.
func TestACrashAtAnyWriteStepIsRecoveredByTheNextRefresh(t *testing.T) {
	t.Parallel()
	scenarios := []struct {
		name  string
		mode  string // what the crashing process does
		built bool   // the cache was built before the changes
		edit  func(t *testing.T, r *vaulttest.Repo)
	}{
		{"first build", "fresh", false, func(t *testing.T, r *vaulttest.Repo) {}},
		{"refresh after changes", "fresh", true, func(t *testing.T, r *vaulttest.Repo) {
			r.Write("notes/heron.md", "# Heron\n\nA heron memory, revised: it eats [[krill]].\n")
			r.Write("notes/seal.md", "# Seal\n\nA seal memory [[heron]].\n")
			r.Remove("notes/mine.md")
			r.Git("mv", "notes/otter.md", "notes/sea-otter.md")
			r.Commit("2025-12-05T10:00:00Z", "revised")
			r.Write("notes/walrus.md", "# Walrus\n\nA walrus memory, edited and not committed [[seal]].\n")
			writePrivate(t, r, "seal.md", "# Seal (mine)\n\nMy seal memory [[sea-otter]].\n")
		}},
		{"rebuild", "rebuild", true, func(t *testing.T, r *vaulttest.Repo) {
			r.Write("notes/heron.md", "# Heron\n\nA heron memory, revised before the rebuild.\n")
		}},
		{"a touched private note", "fresh", true, func(t *testing.T, r *vaulttest.Repo) {
			later := time.Now().Add(time.Hour)
			if err := os.Chtimes(filepath.Join(r.Private, "mine.md"), later, later); err != nil {
				t.Fatal(err)
			}
		}},
	}
	for _, sc := range scenarios {
		t.Run(sc.name, func(t *testing.T) {
			t.Parallel()
			r := seaStore(t)
			cache := filepath.Join(r.Dir, ".git", "omh")
			saved := filepath.Join(t.TempDir(), "saved")
			if sc.built {
				if status, out := helper(t, "fresh", r.Dir); status != 0 {
					t.Fatalf("building the cache: exit %d: %s", status, out)
				}
				vaulttest.CopyTree(t, cache, saved)
			}
			sc.edit(t, r)
			want := rebuild(t, r.Dir, seaTerms).all

			completed := 0
			for k := 1; completed == 0; k++ {
				if k > 10000 {
					t.Fatal("no run completed in 10000 write steps")
				}
				if err := os.RemoveAll(cache); err != nil {
					t.Fatal(err)
				}
				if sc.built {
					vaulttest.CopyTree(t, saved, cache)
				}
				switch status, out := helper(t, sc.mode, r.Dir, fmt.Sprintf("%s=%d", index.CrashEnv, k)); status {
				case 0:
					completed = k
				case crashStatus:
				default:
					t.Fatalf("k=%d: the helper exited %d: %s", k, status, out)
				}
				if d := recovered(t, r.Dir).diff(want); d != "" {
					t.Fatalf("k=%d: after the crash the cache differs from a rebuild:\n%s", k, d)
				}
			}
			if completed < 2 {
				t.Fatalf("the run completed at k=%d: no write step was ever reached", completed)
			}
			t.Logf("crashed before each of %d write steps, then completed", completed-1)
		})
	}
}

// recovered opens the cache of the working tree at dir as the next process
// would, refreshes it and describes it; finding it damaged fails the test.
func recovered(t *testing.T, dir string) view {
	t.Helper()
	repo, err := gitrepo.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer repo.Close()
	c := openCache(t, repo.CommonDir)
	defer c.Close()
	v := freshView(t, c, repo, index.Options{}, seaTerms)
	st, err := c.Status(repo)
	if err != nil {
		t.Fatal(err)
	}
	if !st.Fresh {
		t.Fatal("the cache is not fresh after Fresh")
	}
	return v
}
