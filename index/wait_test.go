package index_test

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/omh-notes/omh/index"
	"github.com/omh-notes/omh/vault/disk"
)

// A find during another process's cold index or rebuild has no snapshot to
// answer from and waits for the lock; it waited 20–85 s saying nothing.
// Now it says once what it waits for, and answers when the lock is free.
func TestAWaitForAnotherRefreshWithNoSnapshotIsSaidOnce(t *testing.T) {
	t.Parallel()
	r := seaStore(t)
	repo := openRepo(t, r.Dir)
	c := openCache(t, repo.CommonDir)
	defer c.Close()
	lock, err := os.OpenFile(filepath.Join(c.Dir, "refresh.lock"), os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	if err := disk.LockFile(lock, true, true); err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var said []string
	heard := make(chan struct{}, 1)
	opt := index.Options{LockWait: time.Millisecond, WaitGrace: time.Millisecond, Waiting: func(why string) {
		mu.Lock()
		said = append(said, why)
		mu.Unlock()
		heard <- struct{}{}
	}}
	done := make(chan error, 1)
	go func() {
		snap, _, err := c.Fresh(repo, opt)
		if err == nil {
			snap.Close()
		}
		done <- err
	}()
	<-heard // the wait is announced while the lock is still held
	lock.Close()
	if err := <-done; err != nil {
		t.Fatalf("after the lock was released: %v", err)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(said) != 1 || !strings.Contains(said[0], "refresh.lock") {
		t.Fatalf("said %q while waiting, want one line naming the lock", said)
	}
}

// A find whose snapshot is out of date while another process refreshes
// waits up to its LockWait for a fresh answer before answering from the
// snapshot it has: it waited two seconds saying nothing. Now it says once,
// after a short grace, what it waits for and for how long. (A wait of two
// seconds after half a second's grace, as omh's, is this one scaled.)
func TestABriefWaitForAnotherRefreshIsSaidOnce(t *testing.T) {
	t.Parallel()
	r := seaStore(t)
	repo := openRepo(t, r.Dir)
	c := openCache(t, repo.CommonDir)
	defer c.Close()
	if snap, _, err := c.Fresh(repo, index.Options{}); err != nil {
		t.Fatal(err)
	} else {
		snap.Close()
	}
	r.Write("notes/late.md", "# Late\n\nWritten after the index.\n")
	lock, err := os.OpenFile(filepath.Join(c.Dir, "refresh.lock"), os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	if err := disk.LockFile(lock, true, true); err != nil {
		t.Fatal(err)
	}
	var said []string
	opt := index.Options{LockWait: 40 * time.Millisecond, WaitGrace: 10 * time.Millisecond, Waiting: func(why string) { said = append(said, why) }}
	snap, rep, err := c.Fresh(repo, opt) // the lock stays held: the wait runs out
	lock.Close()
	if err != nil {
		t.Fatal(err)
	}
	snap.Close()
	if len(said) != 1 || !strings.Contains(said[0], "up to 40ms") || !strings.Contains(said[0], "refresh.lock") || !rep.Stale {
		t.Fatalf("said %q, stale %v; want one line naming the wait and the lock, then the stale answer", said, rep.Stale)
	}
}
