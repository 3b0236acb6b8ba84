package store_test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
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

// runHook runs a hook's refresh as the process a shim starts in the
// background does (omh hooks run --detached).
func runHook(t *testing.T, dir, name string, args ...string) {
	t.Helper()
	s, _ := openStore(t, dir)
	if err := s.RunDetachedHook(name, args); err != nil {
		t.Fatalf("hook %s %v: %v", name, args, err)
	}
}

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

// A hooked commit returns before the refresh: git prints and exits as it
// would without hooks, and the refresh the shim started in the background
// brings the cache to HEAD by itself, many notes or one. While another
// process holds the refresh lock, the commit still returns at once and the
// refresh waits behind it. Catches: a hook that holds git for the refresh
// (112 ms against 39 ms per commit in a small repository); a refresh lost
// while another was running.
func TestAHookedCommitReturnsBeforeItsRefresh(t *testing.T) {
	t.Parallel()
	r := hookRepo(t)
	for i := range 150 {
		r.Write(fmt.Sprintf("notes/many/n%03d.md", i), fmt.Sprintf("# Note %d\n\nA plankton count of %d.\n", i, i))
	}
	mustGit(t, r.Dir, "add", "-A")
	res, wait := vaulttest.StartGit(t, r.Dir, gitDate, "commit", "-q", "-m", "many")
	t.Cleanup(wait)
	if res.Status != 0 || res.Stdout != "" || res.Stderr != "" {
		t.Fatalf("git commit: exit %d, stdout %q, stderr %q", res.Status, res.Stdout, res.Stderr)
	}
	wait() // for the background refresh alone, not omh index
	head := vaulttest.Head(t, r.Dir)
	if st := statusOf(t, r.Dir); !st.Fresh || st.Indexed != head || st.Team != 152 {
		t.Errorf("after the background refresh: %+v", st)
	}
	sameAnswersAsARebuild(t, "background refresh", []string{r.Dir}, withRoots(question("plankton count"), 3))

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
	res, wait = vaulttest.StartGit(t, r.Dir, gitDate, "commit", "-q", "-m", "floes") // returns although the lock is held
	t.Cleanup(wait)
	head = vaulttest.Head(t, r.Dir)
	if res.Status != 0 || res.Stderr != "" {
		t.Fatalf("git commit: exit %d, stderr %q", res.Status, res.Stderr)
	}
	lock.Close()
	wait()
	if st := statusOf(t, r.Dir); !st.Fresh || st.Indexed != head {
		t.Errorf("the hook's refresh did not bring the cache to HEAD: %+v", st)
	}
	sameAnswersAsARebuild(t, "queued refresh", []string{r.Dir}, question("walrus floes"))
}

// One hook refresh runs at a time: a hook that finds another at work
// leaves it a request and returns at once, and the one at work refreshes
// before it stops, so the cache ends at the last commit. Catches: hooks
// piling up refreshes behind one another on a run of commits, and a
// commit made while another hook refreshed left out.
func TestOneHookRefreshesAtATimeAndNoneIsLost(t *testing.T) {
	t.Parallel()
	r := hookRepo(t)
	noHooks := []string{"-c", "core.hooksPath=" + t.TempDir()}
	commit := func(name string) {
		r.Write("notes/"+name+".md", "# "+name+"\n\nA "+name+" memory.\n")
		mustGit(t, r.Dir, "add", "-A")
		mustGit(t, r.Dir, append(noHooks, "commit", "-q", "-m", name)...)
	}
	// Hold the refresh lock, so the first hook waits for it holding its own.
	lock, err := os.OpenFile(filepath.Join(r.Dir, ".git", "omh", "refresh.lock"), os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	if err := syscall.Flock(int(lock.Fd()), syscall.LOCK_EX); err != nil {
		t.Fatal(err)
	}
	commit("seal")
	first := make(chan error)
	go func() {
		s, err := store.Open(r.Dir, options(nil))
		if err == nil {
			err = s.RunDetachedHook("post-commit", nil)
			s.Close()
		}
		first <- err
	}()
	hookLocks, _ := filepath.Glob(filepath.Join(r.Dir, ".git", "omh", "hook-*.lock"))
	for len(hookLocks) == 0 || !heldByAnother(t, hookLocks[0]) {
		runtime.Gosched() // until the first hook holds its lock
		hookLocks, _ = filepath.Glob(filepath.Join(r.Dir, ".git", "omh", "hook-*.lock"))
	}
	commit("orca")
	runHook(t, r.Dir, "post-commit") // returns at once, leaving a request
	if st := statusOf(t, r.Dir); st.Fresh {
		t.Fatal("the cache is fresh while the refresh lock is held")
	}
	lock.Close()
	if err := <-first; err != nil {
		t.Fatal(err)
	}
	if st := statusOf(t, r.Dir); !st.Fresh || st.Indexed != vaulttest.Head(t, r.Dir) {
		t.Errorf("after the hooks: %+v", st)
	}
}

// heldByAnother reports whether a process holds the lock file at path.
func heldByAnother(t *testing.T, path string) bool {
	t.Helper()
	f, err := os.OpenFile(path, os.O_RDWR, 0o644)
	if err != nil {
		return false
	}
	defer f.Close()
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		return true
	}
	syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
	return false
}

// omh hooks run without --detached (what a hook manager's line runs)
// starts the refresh in a process of its own and returns: it refreshes
// nothing itself. Catches: a hook line in husky or lefthook that still
// holds git for the refresh.
func TestRunHookHandsTheRefreshToABackgroundProcess(t *testing.T) {
	t.Parallel()
	r := hookRepo(t)
	r.Write("notes/narwhal.md", "# Narwhal\n")
	mustGit(t, r.Dir, "add", "-A")
	mustGit(t, r.Dir, "-c", "core.hooksPath="+t.TempDir(), "commit", "-q", "-m", "narwhal")
	var started [][]string
	s, err := store.Open(r.Dir, store.Options{Background: func(args ...string) error { started = append(started, args); return nil }})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := s.RunHook("post-commit", nil); err != nil {
		t.Fatal(err)
	}
	want := []string{"-C", r.Dir, "--quiet", "hooks", "run", "--detached", "post-commit"}
	if len(started) != 1 || !slices.Equal(started[0], want) {
		t.Errorf("started %q, want %q", started, want)
	}
	if statusOf(t, r.Dir).Fresh {
		t.Error("RunHook refreshed the cache itself")
	}
}

// A hook that finds the cache damaged does not fail git and does not make
// it wait for a rebuild: it rebuilds in the background, printing nothing,
// after which the cache is at HEAD.
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
	if res.Status != 0 || res.Stderr != "" {
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
