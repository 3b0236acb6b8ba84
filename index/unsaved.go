// A cache in memory, for when the disk cannot take the cache's writes.

package index

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"sync/atomic"
	"syscall"

	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"

	"github.com/omh-notes/omh/internal/pagesum"
)

// CannotSave reports whether err means the disk will not take the cache's
// writes: it is full, over a quota or a file size limit, read-only, or
// failing to write. A command that only reads then answers from a copy of
// the cache in memory (ToMemory) rather than fail: with 16 KB free, every
// omh find exited 3, since even a read needs SQLite's shared-memory file.
func CannotSave(err error) bool {
	for _, errno := range []syscall.Errno{syscall.ENOSPC, syscall.EDQUOT, syscall.EFBIG, syscall.EROFS} {
		if errors.Is(err, errno) {
			return true
		}
	}
	var code int
	var e *sqlite.Error
	var pe *pagesum.Error
	switch {
	case errors.As(err, &e):
		code = e.Code()
	case errors.As(err, &pe):
		code = pe.Code
	default:
		return false
	}
	switch code {
	case sqlite3.SQLITE_FULL, sqlite3.SQLITE_READONLY, sqlite3.SQLITE_IOERR_WRITE, sqlite3.SQLITE_IOERR_FSYNC,
		sqlite3.SQLITE_IOERR_TRUNCATE, sqlite3.SQLITE_IOERR_SHMOPEN, sqlite3.SQLITE_IOERR_SHMSIZE, sqlite3.SQLITE_IOERR_SHMMAP,
		sqlite3.SQLITE_CANTOPEN:
		return true
	}
	return code&0xff == sqlite3.SQLITE_READONLY
}

// memoryCaches numbers this process's caches in memory: each is a
// database of SQLite's memdb, shared by the connections that name it.
var memoryCaches atomic.Int64

// ToMemory closes c and returns a copy of it in memory, which answers as c
// would and which nothing it learns outlives: the next command looks at
// the store again. A cache file that cannot be read (there is none, or it
// is damaged) gives an empty copy, built from the notes.
func (c *Cache) ToMemory() (*Cache, error) {
	path, dir := c.Path, c.Dir
	c.Close()
	m, err := openMemory(dir)
	if err != nil {
		return nil, err
	}
	if err := m.restore(path); err != nil {
		m.Close()
		return OpenInMemory(dir)
	}
	return m, nil
}

// OpenInMemory is an empty cache in memory, for the repository whose
// cache folder (dir, if it exists) cannot take a cache file.
func OpenInMemory(dir string) (*Cache, error) {
	m, err := openMemory(dir)
	if err == nil {
		if _, err = m.db.Exec(schema); err != nil {
			m.Close()
		}
	}
	return m, err
}

// openMemory opens a new database in memory, kept while one connection,
// held for the Cache's life, names it.
func openMemory(dir string) (*Cache, error) {
	name := fmt.Sprintf("file:/omh-unsaved-%d-%d?vfs=memdb", os.Getpid(), memoryCaches.Add(1))
	db, err := sql.Open("sqlite", name+"&_pragma=busy_timeout(20000)&_txlock=immediate")
	if err != nil {
		return nil, fmt.Errorf("opening a cache in memory: %w", err)
	}
	db.SetMaxOpenConns(4)
	keep, err := db.Conn(context.Background())
	if err != nil {
		db.Close()
		return nil, fmt.Errorf("opening a cache in memory: %w", err)
	}
	return &Cache{Dir: dir, db: db, keep: keep, name: name}, nil
}

// restore copies the database file path into m's memory, reading it as
// it is on disk: no lock, no shared memory, nothing written. (SQLite's
// backup copies the file's header too, which names a write-ahead log a
// database in memory cannot have; VACUUM INTO writes a header of its own.)
func (m *Cache) restore(path string) error {
	if path == "" {
		return errors.New("no cache file")
	}
	src, err := sql.Open("sqlite", "file:"+path+"?mode=ro&immutable=1&vfs="+pagesum.Name)
	if err != nil {
		return err
	}
	defer src.Close()
	_, err = src.Exec(`VACUUM INTO ?`, m.name)
	return err
}

// Unsaved reports whether c lives in memory: what it learns is not saved.
func (c *Cache) Unsaved() bool { return c.keep != nil }
