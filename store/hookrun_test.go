package store_test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/omh-notes/omh/store"
	"github.com/omh-notes/omh/vault/vaulttest"
)

// hookRepo is a small store with the hooks installed and its cache built.
func hookRepo(t *testing.T) *vaulttest.Repo {
	t.Helper()
	r := vaulttest.New(t)
	r.Write(".omh/config.yaml", "notes: notes\n")
	r.Write("notes/walrus.md", "# Walrus\n\nThe walrus keeps the tusks clean.\n")
	r.Write("notes/heron.md", "# Heron\n\nThe heron waits by the [[walrus]].\n")
	r.Commit("2026-01-02T10:00:00Z", "first notes")
	arm(t, r.Dir)
	return r
}

// runHook runs a hook's use case as omh hooks run does.
func runHook(t *testing.T, dir, name string, args ...string) {
	t.Helper()
	s, _ := openStore(t, dir)
	if err := s.RunHook(name, args); err != nil {
		t.Fatalf("hook %s %v: %v", name, args, err)
	}
}

// lines counts the lines of s, one at least.
func lines(s string) int { return strings.Count(strings.TrimSpace(s), "\n") + 1 }

// What a hook leaves alone: a checkout of files (post-checkout's third
// argument 0), an amend's post-rewrite (its post-commit came first), the
// commits a rebase picks (its post-rewrite refreshes), and
// a repository omh was never used in (a hooks folder shared by many
// repositories must not build caches in all of them).
func TestHooksRefreshOnlyWhenItHelps(t *testing.T) {
	t.Parallel()
	r := hookRepo(t)
	r.Write("notes/narwhal.md", "# Narwhal\n")
	r.Git("add", "-A")
	r.Git("-c", "core.hooksPath=/nonexistent", "commit", "-q", "-m", "behind omh's back")
	if statusOf(t, r.Dir).Fresh {
		t.Fatal("the cache is fresh without a refresh")
	}
	runHook(t, r.Dir, "post-checkout", "abc", "abc", "0")
	if statusOf(t, r.Dir).Fresh {
		t.Error("a checkout of files refreshed the cache")
	}
	runHook(t, r.Dir, "post-rewrite", "amend")
	if statusOf(t, r.Dir).Fresh {
		t.Error("an amend's post-rewrite refreshed the cache again")
	}
	rebasing := filepath.Join(r.Dir, ".git", "rebase-merge")
	os.Mkdir(rebasing, 0o755)
	runHook(t, r.Dir, "post-commit")
	if statusOf(t, r.Dir).Fresh {
		t.Error("a post-commit during a rebase refreshed the cache")
	}
	runHook(t, r.Dir, "post-rewrite", "rebase")
	if !statusOf(t, r.Dir).Fresh {
		t.Error("the rebase's post-rewrite did not refresh the cache")
	}
	os.Remove(rebasing)

	unused := vaulttest.New(t)
	unused.Write("a.md", "# A\n")
	unused.Commit(gitDate, "a")
	runHook(t, unused.Dir, "post-commit")
	if _, err := os.Stat(filepath.Join(unused.Dir, ".git", "omh")); err == nil {
		t.Error("a hook made a cache in a repository omh was never used in")
	}
}

// A refresh facing more than store.DetachAbove changed notes runs detached and
// git returns at once; omh index then waits for it and the cache is at
// HEAD. And while another process holds the refresh lock, a hook neither
// waits for it nor loses the commit: a background refresh queues behind.
// Catches: a hook that blocks git for a long refresh or on a busy lock; a
// skipped refresh that leaves the cache behind HEAD.
func TestALongOrContendedRefreshRunsInTheBackground(t *testing.T) {
	t.Parallel()
	r := hookRepo(t)
	for i := 0; i <= store.DetachAbove; i++ {
		r.Write(fmt.Sprintf("notes/many/n%03d.md", i), fmt.Sprintf("# Note %d\n\nA plankton count of %d.\n", i, i))
	}
	mustGit(t, r.Dir, "add", "-A")
	res := vaulttest.RunGit(t, r.Dir, gitDate, "commit", "-q", "-m", "many")
	if res.Status != 0 || !strings.Contains(res.Stderr, fmt.Sprintf("%d notes changed; refreshing the cache in the background", store.DetachAbove+1)) {
		t.Fatalf("exit %d, stderr %q", res.Status, res.Stderr)
	}
	refresh(t, r.Dir) // the documented wait
	head := vaulttest.Head(t, r.Dir)
	if st := statusOf(t, r.Dir); !st.Fresh || st.Indexed != head || st.Team != store.DetachAbove+3 {
		t.Errorf("after omh index: %+v", st)
	}
	sameAnswersAsARebuild(t, "detached refresh", []string{r.Dir}, withRoots(question("plankton count"), 3))

	// Hold the refresh lock as another omh process would.
	lock, err := os.OpenFile(filepath.Join(r.Dir, ".git", "omh", "refresh.lock"), os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	if err := syscall.Flock(int(lock.Fd()), syscall.LOCK_EX); err != nil {
		t.Fatal(err)
	}
	r.Write("notes/walrus.md", "# Walrus\n\nThe walrus sleeps on ice floes.\n")
	mustGit(t, r.Dir, "add", "-A")
	res, wait := vaulttest.StartGit(t, r.Dir, gitDate, "commit", "-q", "-m", "floes") // returns although the lock is held
	t.Cleanup(wait)
	head = vaulttest.Head(t, r.Dir)
	if res.Status != 0 || res.Stderr != "" {
		t.Fatalf("git commit: exit %d, stderr %q", res.Status, res.Stderr)
	}
	if st := statusOf(t, r.Dir); st.Fresh {
		t.Error("the cache is fresh while the lock was held throughout")
	}
	lock.Close()
	// Only the refresh the hook queued can bring the cache to HEAD now.
	wait()
	if st := statusOf(t, r.Dir); !st.Fresh || st.Indexed != head {
		t.Errorf("the hook's queued refresh did not bring the cache to HEAD: %+v", st)
	}
	sameAnswersAsARebuild(t, "queued refresh", []string{r.Dir}, question("walrus floes"))
}

// A hook that finds the cache damaged does not fail git and does not make
// it wait for a rebuild: it says so in one line and rebuilds in the
// background, after which the cache is at HEAD.
func TestAHookRebuildsADamagedCacheInTheBackground(t *testing.T) {
	t.Parallel()
	r := hookRepo(t)
	files, _ := filepath.Glob(filepath.Join(r.Dir, ".git", "omh", "cache-*.db"))
	if len(files) != 1 {
		t.Fatalf("cache files %v", files)
	}
	for _, suffix := range []string{"-wal", "-shm"} {
		os.Remove(files[0] + suffix)
	}
	if err := os.WriteFile(files[0], bytes.Repeat([]byte("garbage!"), 4096), 0o644); err != nil {
		t.Fatal(err)
	}
	r.Write("notes/narwhal.md", "# Narwhal\n\nA narwhal memory.\n")
	mustGit(t, r.Dir, "add", "-A")
	res, wait := vaulttest.StartGit(t, r.Dir, gitDate, "commit", "-q", "-m", "narwhal")
	t.Cleanup(wait)
	if res.Status != 0 || lines(res.Stderr) != 1 || !strings.Contains(res.Stderr, "damaged") {
		t.Errorf("git commit: exit %d, stderr %q", res.Status, res.Stderr)
	}
	// Two processes replacing a damaged cache at once can lose the rebuild
	// (see TestConcurrentRepairsOfADamagedCacheAgree), so the background
	// rebuild is let finish before omh index runs.
	wait()
	refresh(t, r.Dir)
	head := vaulttest.Head(t, r.Dir)
	if st := statusOf(t, r.Dir); !st.Fresh || st.Indexed != head {
		t.Errorf("after omh index: %+v", st)
	}
	sameAnswersAsARebuild(t, "rebuilt", []string{r.Dir}, question("narwhal walrus"))
}
