// Package fts5 is the plain full-text peer omh is measured against: the
// notes under a folder in one SQLite FTS5 table, ranked by bm25(). The
// benchmark (internal/tools/bench) times it as a process per question
// (internal/tools/fts5peer) that first brings the table level with the
// folder, as a peer answering from fresh files must; compare
// (internal/tools/compare) ranks with it in-process. Both read the same
// table, filled the same way.
package fts5

import (
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"unicode"

	_ "modernc.org/sqlite" // the "sqlite" driver, with FTS5
)

// DDL is the schema, printed by both tools so a reader sees exactly what
// was measured. notes.rowid equals files.id, so a changed file's row is
// found by id rather than by scanning the unindexed key column.
const DDL = `CREATE VIRTUAL TABLE notes USING fts5(key UNINDEXED, title, body, tokenize='porter unicode61');
CREATE TABLE files(id INTEGER PRIMARY KEY, path TEXT NOT NULL UNIQUE, size INTEGER NOT NULL, mtime INTEGER NOT NULL);`

// Query is the ranking statement; the MATCH string and the limit are its
// arguments.
const Query = `SELECT key, bm25(notes) FROM notes WHERE notes MATCH ? ORDER BY bm25(notes) LIMIT ?`

// DB is the peer's database over the notes of one folder.
type DB struct {
	db   *sql.DB
	root string
	rank *sql.Stmt
}

// Hit is one ranked note.
type Hit struct {
	Key   string
	Score float64 // bm25(): lower is better
}

// Build writes a fresh database at path over every note under root and
// returns how many it holds.
func Build(path, root string) (int, error) {
	for _, suffix := range []string{"", "-journal", "-wal", "-shm"} {
		if err := os.Remove(path + suffix); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return 0, err
		}
	}
	d, err := open(path, root)
	if err != nil {
		return 0, err
	}
	defer d.Close()
	if _, err := d.db.Exec(DDL); err != nil {
		return 0, fmt.Errorf("creating the schema: %w", err)
	}
	if _, err := d.Refresh(); err != nil {
		return 0, err
	}
	if _, err := d.db.Exec(`INSERT INTO notes(notes) VALUES ('optimize')`); err != nil {
		return 0, err
	}
	var n int
	err = d.db.QueryRow(`SELECT count(*) FROM notes`).Scan(&n)
	return n, err
}

// Open opens the database at path, built by Build over root.
func Open(path, root string) (*DB, error) {
	if _, err := os.Stat(path); err != nil {
		return nil, err
	}
	d, err := open(path, root)
	if err != nil {
		return nil, err
	}
	if d.rank, err = d.db.Prepare(Query); err != nil {
		d.Close()
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return d, nil
}

func open(path, root string) (*DB, error) {
	db, err := sql.Open("sqlite", "file:"+path+"?_pragma=busy_timeout(5000)")
	if err != nil {
		return nil, err
	}
	db.SetMaxOpenConns(1) // one connection: a refresh's transaction and the queries share it
	return &DB{db: db, root: root}, nil
}

// Close closes the database.
func (d *DB) Close() error {
	if d.rank != nil {
		d.rank.Close()
	}
	return d.db.Close()
}

// Search returns the best limit notes for a MATCH string (see Match), best
// first; an empty string matches nothing.
func (d *DB) Search(match string, limit int) ([]Hit, error) {
	hits := []Hit{}
	if match == "" {
		return hits, nil
	}
	rows, err := d.rank.Query(match, limit)
	if err != nil {
		return nil, fmt.Errorf("MATCH %s: %w", match, err)
	}
	defer rows.Close()
	for rows.Next() {
		var h Hit
		if err := rows.Scan(&h.Key, &h.Score); err != nil {
			return nil, err
		}
		hits = append(hits, h)
	}
	return hits, rows.Err()
}

// Match makes phrasings of a question one MATCH string: each distinct word
// (a run of letters and digits, compared lower-cased) double-quoted, OR-ed:
// the loosest bm25 question, the same bag of words omh and rg get. Words
// never hold a quote, so no escaping is needed.
func Match(phrasings ...string) string {
	seen := map[string]bool{}
	var terms []string
	for _, p := range phrasings {
		for _, w := range strings.FieldsFunc(p, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
			lw := strings.ToLower(w)
			if seen[lw] {
				continue
			}
			seen[lw] = true
			terms = append(terms, `"`+w+`"`)
		}
	}
	return strings.Join(terms, " OR ")
}

// Version is SQLite's version.
func Version() (string, error) {
	db, err := sql.Open("sqlite", ":memory:")
	if err != nil {
		return "", err
	}
	defer db.Close()
	var v string
	err = db.QueryRow(`SELECT sqlite_version()`).Scan(&v)
	return v, err
}

// known is what the files table says about one note file.
type known struct {
	id, size, mtime int64
	seen            bool
}

// Refresh brings the table level with the folder: every note file is
// stat'ed, and one whose size or modification time differs from the table
// (or that is new) is read and indexed again; the rows of files that are
// gone are deleted. It returns how many files it (re)indexed or dropped.
func (d *DB) Refresh() (int, error) {
	table, err := d.files()
	if err != nil {
		return 0, err
	}
	var stale []string
	err = walkNotes(d.root, func(rel string, info fs.FileInfo) {
		k, ok := table[rel]
		if ok {
			k.seen = true
		}
		if !ok || k.size != info.Size() || k.mtime != info.ModTime().UnixNano() {
			stale = append(stale, rel)
		}
	})
	if err != nil {
		return 0, err
	}
	var gone []*known
	for _, k := range table {
		if !k.seen {
			gone = append(gone, k)
		}
	}
	if len(stale) == 0 && len(gone) == 0 {
		return 0, nil
	}
	// Rows in path order, as git lists files: bm25 ties keep one order.
	slices.Sort(stale)
	return len(stale) + len(gone), d.apply(table, stale, gone)
}

func (d *DB) files() (map[string]*known, error) {
	rows, err := d.db.Query(`SELECT id, path, size, mtime FROM files`)
	if err != nil {
		return nil, fmt.Errorf("reading the files table: %w", err)
	}
	defer rows.Close()
	table := map[string]*known{}
	for rows.Next() {
		var path string
		k := &known{}
		if err := rows.Scan(&k.id, &path, &k.size, &k.mtime); err != nil {
			return nil, err
		}
		table[path] = k
	}
	return table, rows.Err()
}

// apply writes the changes of one refresh in one transaction.
func (d *DB) apply(table map[string]*known, stale []string, gone []*known) error {
	tx, err := d.db.Begin()
	if err != nil {
		return err
	}
	defer tx.Rollback()
	drop := func(id int64) error {
		if _, err := tx.Exec(`DELETE FROM notes WHERE rowid = ?`, id); err != nil {
			return err
		}
		_, err := tx.Exec(`DELETE FROM files WHERE id = ?`, id)
		return err
	}
	for _, k := range gone {
		if err := drop(k.id); err != nil {
			return err
		}
	}
	for _, rel := range stale {
		if k, ok := table[rel]; ok {
			if err := drop(k.id); err != nil {
				return err
			}
		}
		if err := d.insert(tx, rel); err != nil {
			return fmt.Errorf("indexing %s: %w", rel, err)
		}
	}
	return tx.Commit()
}

func (d *DB) insert(tx *sql.Tx, rel string) error {
	path := filepath.Join(d.root, filepath.FromSlash(rel))
	info, err := os.Lstat(path)
	if err != nil {
		return err
	}
	n, isNote, err := readNote(path, rel)
	if err != nil {
		return err
	}
	// A binary file is no note, and is not read again until it changes.
	res, err := tx.Exec(`INSERT INTO files(path, size, mtime) VALUES (?, ?, ?)`, rel, info.Size(), info.ModTime().UnixNano())
	if err != nil || !isNote {
		return err
	}
	id, err := res.LastInsertId()
	if err != nil {
		return err
	}
	_, err = tx.Exec(`INSERT INTO notes(rowid, key, title, body) VALUES (?, ?, ?, ?)`, id, n.Key, n.Title, n.Body)
	return err
}
