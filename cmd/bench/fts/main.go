// Command fts is the SQLite FTS5 peer of the omh benchmark (cmd/bench). Each
// query runs as its own process, as an agent would run it, and pays what a
// plain full-text peer must pay for a fresh answer: it walks the notes folder
// and compares every markdown file's size and modification time with the
// table kept beside the index, re-indexes what changed, and only then asks
// FTS5 for the best bm25 matches.
//
//	fts version                           print SQLite's version
//	fts ddl                               print the schema it creates
//	fts build -db FILE -root DIR          index every .md file under DIR afresh
//	fts query -db FILE -root DIR MATCH    refresh, then print "path<TAB>bm25" lines
//	fts query -bare -db FILE -root DIR MATCH
//	                                      the same without the refresh: the floor of
//	                                      a process that asks SQLite one question
package main

import (
	"bytes"
	"database/sql"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	_ "modernc.org/sqlite"
)

// DDL is printed by the benchmark so a reader sees exactly what was measured.
// notes.rowid equals files.id, so a changed file's row is found by id rather
// than by scanning the unindexed path column.
const DDL = `CREATE VIRTUAL TABLE notes USING fts5(path UNINDEXED, title, body, tokenize='porter unicode61');
CREATE TABLE files(id INTEGER PRIMARY KEY, path TEXT NOT NULL UNIQUE, size INTEGER NOT NULL, mtime INTEGER NOT NULL);`

// Query is the ranking statement; the MATCH string is an argument.
const Query = `SELECT path, bm25(notes) FROM notes WHERE notes MATCH ? ORDER BY bm25(notes) LIMIT 8`

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "fts:", err)
		os.Exit(1)
	}
}

func run(args []string) error {
	if len(args) == 0 {
		return errors.New("usage: fts version|ddl|build|query …")
	}
	fl := flag.NewFlagSet(args[0], flag.ContinueOnError)
	dbPath := fl.String("db", "", "the SQLite database file")
	root := fl.String("root", "", "the folder of markdown notes")
	bare := fl.Bool("bare", false, "query: skip the refresh")
	if err := fl.Parse(args[1:]); err != nil {
		return err
	}
	switch args[0] {
	case "ddl":
		fmt.Println(DDL)
		fmt.Println(Query)
		return nil
	case "version":
		return printVersion()
	case "build":
		if *dbPath == "" || *root == "" {
			return errors.New("build needs -db and -root")
		}
		return build(*dbPath, *root)
	case "query":
		if *dbPath == "" || *root == "" || fl.NArg() != 1 {
			return errors.New("query needs -db, -root and one MATCH string")
		}
		return query(*dbPath, *root, fl.Arg(0), !*bare)
	}
	return fmt.Errorf("unknown mode %q", args[0])
}

func open(path string) (*sql.DB, error) {
	db, err := sql.Open("sqlite", "file:"+path+"?_pragma=busy_timeout(5000)&_pragma=journal_mode(WAL)&_pragma=synchronous(NORMAL)")
	if err != nil {
		return nil, err
	}
	db.SetMaxOpenConns(1) // one connection: the transaction and the queries share it
	return db, nil
}

func printVersion() error {
	db, err := open(":memory:")
	if err != nil {
		return err
	}
	defer db.Close()
	var v string
	if err := db.QueryRow(`SELECT sqlite_version()`).Scan(&v); err != nil {
		return err
	}
	fmt.Println(v)
	return nil
}

// build creates the database from nothing; the benchmark does not time it.
func build(dbPath, root string) error {
	for _, suffix := range []string{"", "-wal", "-shm"} {
		if err := os.Remove(dbPath + suffix); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
	}
	db, err := open(dbPath)
	if err != nil {
		return err
	}
	defer db.Close()
	if _, err := db.Exec(DDL); err != nil {
		return fmt.Errorf("creating the schema: %w", err)
	}
	changed, err := refresh(db, root)
	if err != nil {
		return err
	}
	fmt.Printf("indexed %d files\n", changed)
	_, err = db.Exec(`PRAGMA wal_checkpoint(TRUNCATE)`)
	return err
}

// query refreshes the index, unless told not to, and prints the best
// matches.
func query(dbPath, root, match string, fresh bool) error {
	db, err := open(dbPath)
	if err != nil {
		return err
	}
	defer db.Close()
	if fresh {
		changed, err := refresh(db, root)
		if err != nil {
			return err
		}
		if changed > 0 {
			fmt.Fprintf(os.Stderr, "fts: re-indexed %d changed files\n", changed)
		}
	}
	rows, err := db.Query(Query, match)
	if err != nil {
		return fmt.Errorf("querying %q: %w", match, err)
	}
	defer rows.Close()
	var out bytes.Buffer
	for rows.Next() {
		var path string
		var score float64
		if err := rows.Scan(&path, &score); err != nil {
			return err
		}
		fmt.Fprintf(&out, "%s\t%.4f\n", path, score)
	}
	if err := rows.Err(); err != nil {
		return err
	}
	_, err = os.Stdout.Write(out.Bytes())
	return err
}

// known is what the files table says about one path.
type known struct {
	id, size, mtime int64
	seen            bool
}

// refresh brings the index level with the folder: every .md file is
// stat'ed, and a file whose size or modification time differs from the
// table (or that is new) is read and indexed again; rows of files that are
// gone are deleted. It returns how many files it (re)indexed or dropped.
func refresh(db *sql.DB, root string) (int, error) {
	table, err := loadFiles(db)
	if err != nil {
		return 0, err
	}
	var stale []string
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && d.Name() == ".git" {
			return filepath.SkipDir // a vault at the top of its repository
		}
		if d.IsDir() || !d.Type().IsRegular() || !strings.HasSuffix(path, ".md") {
			return nil
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		k, ok := table[path]
		if ok {
			k.seen = true
		}
		if !ok || k.size != info.Size() || k.mtime != info.ModTime().UnixNano() {
			stale = append(stale, path)
		}
		return nil
	})
	if err != nil {
		return 0, fmt.Errorf("walking %s: %w", root, err)
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
	return len(stale) + len(gone), apply(db, table, stale, gone)
}

func loadFiles(db *sql.DB) (map[string]*known, error) {
	rows, err := db.Query(`SELECT id, path, size, mtime FROM files`)
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
func apply(db *sql.DB, table map[string]*known, stale []string, gone []*known) error {
	tx, err := db.Begin()
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
	for _, path := range stale {
		if k, ok := table[path]; ok {
			if err := drop(k.id); err != nil {
				return err
			}
		}
		if err := insert(tx, path); err != nil {
			return err
		}
	}
	return tx.Commit()
}

func insert(tx *sql.Tx, path string) error {
	info, err := os.Lstat(path)
	if err != nil {
		return err
	}
	content, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	res, err := tx.Exec(`INSERT INTO files(path, size, mtime) VALUES (?, ?, ?)`, path, info.Size(), info.ModTime().UnixNano())
	if err != nil {
		return fmt.Errorf("indexing %s: %w", path, err)
	}
	id, err := res.LastInsertId()
	if err != nil {
		return err
	}
	_, err = tx.Exec(`INSERT INTO notes(rowid, path, title, body) VALUES (?, ?, ?, ?)`, id, path, title(content, path), string(content))
	if err != nil {
		return fmt.Errorf("indexing %s: %w", path, err)
	}
	return nil
}

// title is the first "# " heading after the frontmatter, else the file name.
func title(content []byte, path string) string {
	text := string(content)
	if strings.HasPrefix(text, "---\n") {
		if end := strings.Index(text[4:], "\n---\n"); end >= 0 {
			text = text[4+end+5:]
		}
	}
	for line := range strings.SplitSeq(text, "\n") {
		if t, ok := strings.CutPrefix(line, "# "); ok {
			return strings.TrimSpace(t)
		}
	}
	return strings.TrimSuffix(filepath.Base(path), ".md")
}
