package index

import (
	"reflect"
	"testing"
)

// scanRows is every stored piece of the working tree's scan state, by row.
func scanRows(t *testing.T, c *Cache) map[int64]string {
	t.Helper()
	rows, err := c.db.Query(`SELECT id, data FROM scan WHERE tree = ?`, treeWorktree)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	out := map[int64]string{}
	for rows.Next() {
		var id int64
		var data []byte
		if err := rows.Scan(&id, &data); err != nil {
			t.Fatal(err)
		}
		out[id] = string(data)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// A refresh that leaves the working tree out (a hook's) neither reads nor
// writes the working tree's scan state, the largest value a snapshot
// keeps: it notes the tree that state's list of HEAD's files is at, and
// the next scan of the working tree brings the list up to date. Catches:
// a hook that loads the whole state to track the one note a commit
// changed, and rewrites a page of it (2 ms of a 10,000-note hook).
func TestARefreshWithoutTheWorkingTreeLeavesItsScanStateAsItIs(t *testing.T) {
	t.Parallel()
	r, repo, c := threeNotes(t)
	refreshAt(t, c, r.Dir)
	state := func() snapState {
		t.Helper()
		s, err := loadSnapState(c.db, SnapshotName(repo))
		if err != nil {
			t.Fatal(err)
		}
		return s.state
	}
	built := state()
	before := scanRows(t, c)
	r.Write("a.md", "# Note a, edited\n")
	r.Write("d.md", "# Note d\n")
	r.Commit("2026-01-02T10:00:00Z", "edit a, add d")
	if _, err := c.Refresh(repo, Options{NoWorktree: true}); err != nil {
		t.Fatal(err)
	}
	if after := scanRows(t, c); !reflect.DeepEqual(after, before) {
		t.Error("the refresh without the working tree rewrote its scan state")
	}
	st := state()
	if st.Commit == built.Commit || st.TrackedTree == nil || *st.TrackedTree != built.Tree {
		t.Errorf("after the refresh without the working tree: commit %s, tracked tree %v; want a new commit, the list at %s", st.Commit, st.TrackedTree, built.Tree)
	}
	s, _, err := c.Fresh(repo, Options{})
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	if st := state(); st.TrackedTree != nil {
		t.Errorf("after a scan of the working tree the list is still at %s", *st.TrackedTree)
	}
	if reflect.DeepEqual(scanRows(t, c), before) {
		t.Error("the scan of the working tree did not track d.md")
	}
	if st, err := c.Status(repo); err != nil || !st.Fresh || len(st.Uncommitted) != 0 {
		t.Errorf("status %+v, %v: want fresh, nothing uncommitted", st, err)
	}
}
