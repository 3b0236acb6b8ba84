package index

import (
	"fmt"
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
// keeps: HEAD's changed files wait in the snapshot's state, and the next
// scan of the working tree records them. Catches: a hook that loads the
// whole state to track the one note a commit changed, and rewrites a page
// of it (3 ms of a 10,000-note hook).
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
	blob := func(spec string) string { return r.Git("rev-parse", spec) }
	st := state()
	if want := map[string]string{"a.md": blob("HEAD:a.md"), "d.md": blob("HEAD:d.md")}; st.Commit == built.Commit || !reflect.DeepEqual(st.PendingTrack, want) {
		t.Errorf("after the refresh without the working tree: commit %s, pending %v; want a new commit, pending %v", st.Commit, st.PendingTrack, want)
	}
	s, _, err := c.Fresh(repo, Options{})
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	if st := state(); st.PendingTrack != nil {
		t.Errorf("after a scan of the working tree still pending: %v", st.PendingTrack)
	}
	if reflect.DeepEqual(scanRows(t, c), before) {
		t.Error("the scan of the working tree did not track d.md")
	}
	if st, err := c.Status(repo); err != nil || !st.Fresh || len(st.Uncommitted) != 0 {
		t.Errorf("status %+v, %v: want fresh, nothing uncommitted", st, err)
	}
}

// A refresh without the working tree that would leave more than pendingMax
// files pending records them all in the working tree's scan state itself:
// the snapshot's state, which every command reads, stays small. Catches:
// pending files piling up commit after commit.
func TestTooManyPendingFilesAreRecordedByTheRefresh(t *testing.T) {
	t.Parallel()
	r, repo, c := threeNotes(t)
	refreshAt(t, c, r.Dir)
	before := scanRows(t, c)
	for i := 0; i <= pendingMax; i++ {
		r.Write(fmt.Sprintf("many/n%03d.md", i), fmt.Sprintf("# Note %d\n", i))
	}
	r.Commit("2026-01-02T10:00:00Z", "many")
	if _, err := c.Refresh(repo, Options{NoWorktree: true}); err != nil {
		t.Fatal(err)
	}
	s, err := loadSnapState(c.db, SnapshotName(repo))
	if err != nil {
		t.Fatal(err)
	}
	if len(s.state.PendingTrack) != 0 || reflect.DeepEqual(scanRows(t, c), before) {
		t.Errorf("%d files pending, scan state rewritten %v; want none pending, the state rewritten", len(s.state.PendingTrack), !reflect.DeepEqual(scanRows(t, c), before))
	}
	if st, err := c.Status(repo); err != nil || !st.Fresh || len(st.Uncommitted) != 0 || st.Team != pendingMax+4 {
		t.Errorf("status %+v, %v: want fresh, %d team notes, nothing uncommitted", st, err, pendingMax+4)
	}
}
