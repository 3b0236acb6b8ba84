package pagesum

import (
	"database/sql"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

const testSchema = `PRAGMA page_size = 8192; PRAGMA journal_mode = WAL; CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT NOT NULL);
CREATE TABLE big (id INTEGER PRIMARY KEY, v BLOB NOT NULL);`

// create makes a database of rows rows through the VFS and closes it,
// every page folded from the write-ahead log into the file.
func create(t *testing.T, rows int) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "db")
	if err := Create(path, testSchema); err != nil {
		t.Fatal(err)
	}
	db := open(t, path)
	for i := range rows {
		if _, err := db.Exec(`INSERT INTO t (v) VALUES (?)`, fmt.Sprintf("row %05d of the table", i)); err != nil {
			t.Fatal(err)
		}
	}
	// Values of several pages each, read from their overflow pages, which
	// SQLite may read straight from the file.
	for i := range 4 {
		v := make([]byte, 5*PageSize+100*i)
		for j := range v {
			v[j] = byte(i + j*31)
		}
		if _, err := db.Exec(`INSERT INTO big (v) VALUES (?)`, v); err != nil {
			t.Fatal(err)
		}
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}

func open(t *testing.T, path string) *sql.DB {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+path+"?vfs="+Name+"&_pragma=journal_mode(WAL)")
	if err != nil {
		t.Fatal(err)
	}
	db.SetMaxOpenConns(1)
	return db
}

// readAll reads every row, returning the first error.
func readAll(path string, t *testing.T) (int, error) {
	db := open(t, path)
	defer db.Close()
	n := 0
	for _, q := range []string{`SELECT id, v FROM t`, `SELECT id, v FROM big`} {
		rows, err := db.Query(q)
		if err != nil {
			return n, err
		}
		for rows.Next() {
			var id int
			var v []byte
			if err := rows.Scan(&id, &v); err != nil {
				rows.Close()
				return n, err
			}
			n++
		}
		if err := rows.Err(); err != nil {
			rows.Close()
			return n, err
		}
		rows.Close()
	}
	return n, nil
}

// A database Create made keeps room for a checksum in every page, and
// every page in the file holds its own: what was written reads back.
// Catches: a database made without the room (SQLite fixes it at the first
// write), or pages written without their checksum.
func TestEveryPageHoldsItsChecksum(t *testing.T) {
	t.Parallel()
	path := create(t, 3000)
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if b[20] != Reserve || int(b[16])<<8|int(b[17]) != PageSize {
		t.Fatalf("header: reserve %d, page size %d", b[20], int(b[16])<<8|int(b[17]))
	}
	if len(b)%PageSize != 0 || len(b) < 10*PageSize {
		t.Fatalf("the file is %d bytes", len(b))
	}
	for pgno := 1; pgno*PageSize <= len(b); pgno++ {
		if !Check(b[(pgno-1)*PageSize:pgno*PageSize], uint32(pgno)) {
			t.Errorf("page %d does not hold its checksum", pgno)
		}
	}
	if n, err := readAll(path, t); err != nil || n != 3004 {
		t.Errorf("read back %d rows: %v", n, err)
	}
}

// Any one bit flipped in any page is an error when the page is read,
// SQLITE_IOERR_DATA, never a row read as something else; a page moved to
// another place fails too. Catches: a flip read as data (SQLite checks no
// content), a checksum that misses some bit or ignores where the page is,
// an overflow page SQLite reads a part of, straight into a value, unchecked.
func TestAFlippedBitOrAMovedPageIsAnErrorNotData(t *testing.T) {
	t.Parallel()
	path := create(t, 3000)
	orig, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for k := 0; k < len(orig)/PageSize; k++ {
		pgno := 1 + k
		at := (pgno-1)*PageSize + (k*4099)%PageSize
		b := append([]byte(nil), orig...)
		b[at] ^= 1 << (k % 8)
		if err := os.WriteFile(path, b, 0o644); err != nil {
			t.Fatal(err)
		}
		n, err := readAll(path, t)
		var e *sqlite.Error
		if err == nil || !errors.As(err, &e) || (e.Code() != sqlite3.SQLITE_IOERR_DATA && e.Code()&0xff != sqlite3.SQLITE_CORRUPT && e.Code()&0xff != sqlite3.SQLITE_NOTADB) {
			t.Errorf("bit %d of byte %d (page %d) flipped: %d rows, error %v", k%8, at, pgno, n, err)
		}
	}
	b := append([]byte(nil), orig...)
	copy(b[2*PageSize:3*PageSize], orig[3*PageSize:4*PageSize])
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	if n, err := readAll(path, t); err == nil {
		t.Errorf("a page copied over another read as %d rows without an error", n)
	}
}

// BenchmarkCheck times checking one page as a read from disk does: what
// verification adds to each page SQLite reads (omh find on vba-docs,
// 38,187 notes, reads 796 pages of the cache).
func BenchmarkCheck(b *testing.B) {
	page := make([]byte, PageSize)
	for i := range page {
		page[i] = byte(i * 7)
	}
	binary.LittleEndian.PutUint32(page[PageSize-Reserve:], Sum(page, 3))
	b.SetBytes(PageSize)
	for b.Loop() {
		if !Check(page, 3) {
			b.Fatal("a page with its checksum failed the check")
		}
	}
}
