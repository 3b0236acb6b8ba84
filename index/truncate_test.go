package index_test

import (
	"database/sql"
	"fmt"
	"os"
	"testing"

	"github.com/omh-notes/omh/index"
	"github.com/omh-notes/omh/internal/pagesum"
)

// A cache file another process cuts short while this one has it open is
// reported as damaged (and so replaced), never a crash. Catches: the file
// mapped into memory (mmap_size), where reading past the cut raised SIGBUS
// and omh died with Go's status 2, the usage status, in 7 of 8 tries.
func TestACacheCutShortWhileOpenIsDamagedNotACrash(t *testing.T) {
	t.Parallel()
	r := seaStore(t)
	for i := 0; i < 300; i++ {
		r.Write(fmt.Sprintf("notes/bulk/n%03d.md", i), fmt.Sprintf("# Bulk %d\n\nA walrus memory number %d, with a tusk.\n", i, i))
	}
	r.Commit("2026-01-03T10:00:00Z", "bulk")
	repo := openRepo(t, r.Dir)
	c := openCache(t, repo.CommonDir)
	defer func() { c.Close() }()
	if _, _, err := c.Fresh(repo, index.Options{}); err != nil {
		t.Fatal(err)
	}
	// Everything in the database file itself, none in the write-ahead log
	// (written through the VFS that checksums every page, as omh writes).
	db, err := sql.Open("sqlite", "file:"+c.Path+"?vfs="+pagesum.Name)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`PRAGMA wal_checkpoint(TRUNCATE)`); err != nil {
		t.Fatal(err)
	}
	db.Close()
	// A snapshot holds a read transaction over the file, as an answer
	// being read does; the file is cut under it.
	s, _, err := c.Fresh(repo, index.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := os.Truncate(c.Path, 8192); err != nil {
		t.Fatal(err)
	}
	if _, err = s.Notes(); err != nil && !index.IsDamaged(err) {
		t.Errorf("reading a cache cut short: %v, which IsDamaged does not call damage", err)
	}
}
