package index

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/omh-notes/omh/vault/gitrepo"
)

// freshRow opens the working tree's snapshot as Fresh does and returns
// the row it answered from.
func freshRow(t *testing.T, c *Cache, repo *gitrepo.Repo) *snapRow {
	t.Helper()
	s, _, err := c.Fresh(repo, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	return s.row
}

// lookAt reads and scans the working tree's snapshot as Fresh does, and
// saves nothing.
func lookAt(t *testing.T, c *Cache, repo *gitrepo.Repo) *snapRow {
	t.Helper()
	tgt, err := worktreeTarget(repo, Options{})
	if err != nil {
		t.Fatal(err)
	}
	tx, err := c.readTx()
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback()
	v, err := c.look(tx, repo, tgt, Options{})
	if err != nil {
		t.Fatal(err)
	}
	return v.snap
}

// backdate sets a file's times to offset+1 seconds after the hour back
// that Settle gives every file: a change only a scan's stat memory sees.
func backdate(t *testing.T, path string, offset int) {
	t.Helper()
	at := time.Now().Add(-time.Hour + time.Duration(offset+1)*time.Second)
	if err := os.Chtimes(path, at, at); err != nil {
		t.Fatal(err)
	}
}

// An answer while nothing changed reuses the info and scan states the
// last answer of the same cache read, rather than reading and decoding
// them again; a change a scan records (a file's stat data), or a save by
// another cache of the same file, makes the next answer read the stored
// ones. Catches: a server decoding 38,187 notes' stat memory per question,
// and one answering from states that another process's save made stale.
func TestAnAnswerWhileNothingChangedReusesTheLastOnesScanState(t *testing.T) {
	t.Parallel()
	r, repo, c := threeNotes(t)
	r.Settle()
	refreshAt(t, c, r.Dir) // the first build
	first := freshRow(t, c, repo)
	again := freshRow(t, c, repo)
	if again.worktree != first.worktree || again.private != first.private || &again.info[0] != &first.info[0] {
		t.Fatal("the second answer read the scan states again though nothing changed")
	}

	backdate(t, filepath.Join(r.Dir, "a.md"), 0)
	freshRow(t, c, repo)
	if c.warm.row != nil {
		t.Error("the state a scan changed (and saved) was kept, though the stored one has other rows")
	}
	freshRow(t, c, repo)
	kept := c.warm.row
	if kept == nil {
		t.Fatal("the state read after the save was not kept")
	}

	other, err := Open(repo.CommonDir)
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	backdate(t, filepath.Join(r.Dir, "b.md"), 1)
	freshRow(t, other, repo) // another process saves b's stat data
	if after := lookAt(t, c, repo); after.worktree == kept.worktree {
		t.Error("after another cache saved the scan state, the answer reused the state it read before")
	}
}

// A save of stat data moves the snapshot's seq, so a save from a state
// read before it is refused, as one from before a refresh is. Catches:
// two commands that both scanned after their own touches writing the same
// pages in turn, the second over the first (with a page split, rows whose
// records overlap).
func TestAStatSaveFromAStateReadBeforeAnotherSaveIsRefused(t *testing.T) {
	t.Parallel()
	r, repo, c := threeNotes(t)
	r.Settle()
	refreshAt(t, c, r.Dir)
	backdate(t, filepath.Join(r.Dir, "a.md"), 0)
	early := lookAt(t, c, repo)
	backdate(t, filepath.Join(r.Dir, "b.md"), 1)
	late := lookAt(t, c, repo)
	if !early.scanChanged() || !late.scanChanged() {
		t.Fatal("the scans after the touches changed nothing")
	}
	c.saveScan(late)
	saved := scanRows(t, c)
	c.saveScan(early)
	if got := scanRows(t, c); !reflect.DeepEqual(got, saved) {
		t.Error("a save from a state read before the last save was written over it")
	}
}
