package index

import (
	"fmt"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/omh-notes/omh/vault"
	"github.com/omh-notes/omh/vault/gitrepo"
	"github.com/omh-notes/omh/vault/vaulttest"
)

func refreshAt(t *testing.T, c *Cache, dir string) {
	t.Helper()
	r, err := gitrepo.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	s, _, err := c.Fresh(r, Options{})
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
}

// threeNotes commits notes a, b and c and opens the repository and its
// cache, closed when the test ends.
func threeNotes(t *testing.T) (*vaulttest.Repo, *gitrepo.Repo, *Cache) {
	t.Helper()
	r := vaulttest.New(t)
	for _, n := range []string{"a", "b", "c"} {
		r.Write(n+".md", "# Note "+n+"\n")
	}
	r.Commit("2026-01-01T10:00:00Z", "notes")
	repo, c := openStore(t, r.Dir)
	return r, repo, c
}

func count(t *testing.T, c *Cache, query string) int {
	t.Helper()
	var n int
	if err := c.db.QueryRow(query).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// The cache stays proportional to the store, not to its history: blobs no
// snapshot uses are collected once they outnumber the ones in use, and a
// removed worktree's snapshot goes with it.
func TestTheCacheDoesNotGrowWithHistory(t *testing.T) {
	// Serial: it lowers minGarbage, which every cache of the package reads.
	old := minGarbage
	minGarbage = 2
	defer func() { minGarbage = old }()

	r, _, c := threeNotes(t)
	refreshAt(t, c, r.Dir)
	for i := 1; i <= 5; i++ {
		r.Write("a.md", fmt.Sprintf("# Note a, version %d\n", i))
		r.Commit(fmt.Sprintf("2026-01-0%dT10:00:00Z", i+1), "edit")
		refreshAt(t, c, r.Dir)
	}
	if n := count(t, c, `SELECT count(*) FROM blob`); n > 3+3 {
		t.Errorf("%d blobs for a three-note store after five edits", n)
	}

	wt := filepath.Join(t.TempDir(), "wt")
	r.Git("worktree", "add", "-q", "--detach", wt)
	refreshAt(t, c, wt)
	if n := count(t, c, `SELECT count(*) FROM snap`); n != 2 {
		t.Fatalf("%d snapshots with a linked worktree, want 2", n)
	}
	r.Git("worktree", "remove", wt)
	r.Write("d.md", "# Note d\n")
	r.Commit("2026-02-01T10:00:00Z", "another")
	refreshAt(t, c, r.Dir)
	if n := count(t, c, `SELECT count(*) FROM snap`); n != 1 {
		t.Errorf("%d snapshots after removing the worktree, want 1", n)
	}
}

// Past moments asked for with --as-of leave snapshots behind; only the
// newest keptPast stay, so asking about many days does not grow the cache
// without bound.
func TestOnlyTheNewestPastSnapshotsAreKept(t *testing.T) {
	t.Parallel()
	r := vaulttest.New(t)
	var commits []string
	for i := 1; i <= keptPast+3; i++ {
		r.Write("a.md", fmt.Sprintf("# Note a, version %d\n", i))
		commits = append(commits, r.Commit(fmt.Sprintf("2026-01-%02dT10:00:00Z", i), "edit"))
	}
	repo, c := openStore(t, r.Dir)
	var names []string
	for i, id := range commits {
		m := Moment{Commit: plumbing.NewHash(id), Day: vault.Date(fmt.Sprintf("2026-01-%02d", i+1))}
		s, _, err := c.AsOf(repo, m, Options{})
		if err != nil {
			t.Fatal(err)
		}
		s.Close()
		names = append(names, fmt.Sprintf("%s%s:%s", pastPrefix, m.Commit, m.Day))
	}
	rows, err := c.db.Query(`SELECT name FROM snap ORDER BY id`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var kept []string
	for rows.Next() {
		var name string
		rows.Scan(&name)
		kept = append(kept, name)
	}
	if want := names[len(names)-keptPast:]; !reflect.DeepEqual(kept, want) {
		t.Errorf("kept snapshots\n%q\nwant the newest %d\n%q", kept, keptPast, want)
	}
	if n := count(t, c, `SELECT count(DISTINCT snap) FROM doc`); n != keptPast {
		t.Errorf("documents of %d snapshots remain, want %d", n, keptPast)
	}
}

// openStore opens the repository at dir and its cache for an in-package
// test; both are closed when the test ends.
func openStore(t *testing.T, dir string) (*gitrepo.Repo, *Cache) {
	t.Helper()
	repo, err := gitrepo.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { repo.Close() })
	c, err := Open(repo.CommonDir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return repo, c
}
