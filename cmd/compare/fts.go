package main

import (
	"bytes"
	"database/sql"
	"fmt"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"strings"
	"time"
	"unicode"

	"go.yaml.in/yaml/v3"
	"golang.org/x/text/unicode/norm"
	_ "modernc.org/sqlite" // the "sqlite" driver, with FTS5
)

const (
	ftsDDL   = `CREATE VIRTUAL TABLE notes USING fts5(key UNINDEXED, title, body, tokenize='porter unicode61')`
	ftsQuery = `SELECT key FROM notes WHERE notes MATCH ? ORDER BY bm25(notes) LIMIT 100`
	// ftsQueryCommand is the hidden first argument that makes this program
	// answer one question from a database and exit: FTS5's process cost.
	ftsQueryCommand = "fts5-query"
	// maxNoteBytes is where omh stops reading a note.
	maxNoteBytes = 4 << 20
)

// ftsNote is one row of the FTS5 table.
type ftsNote struct {
	key, title, body string
}

// ftsBuild writes a fresh database at dbPath over the notes of vault: every
// *.md file git tracks there (symbolic links and binary files left out, as
// omh leaves them out).
func ftsBuild(vault, dbPath string) (int, error) {
	notes, err := readNotes(vault)
	if err != nil {
		return 0, err
	}
	tmp := dbPath + ".tmp"
	os.Remove(tmp)
	db, err := sql.Open("sqlite", tmp)
	if err != nil {
		return 0, err
	}
	defer db.Close()
	for _, stmt := range []string{"PRAGMA journal_mode=OFF", "PRAGMA synchronous=OFF", ftsDDL} {
		if _, err := db.Exec(stmt); err != nil {
			return 0, fmt.Errorf("%s: %w", stmt, err)
		}
	}
	tx, err := db.Begin()
	if err != nil {
		return 0, err
	}
	ins, err := tx.Prepare(`INSERT INTO notes(key, title, body) VALUES (?, ?, ?)`)
	if err != nil {
		tx.Rollback()
		return 0, err
	}
	for _, n := range notes {
		if _, err := ins.Exec(n.key, n.title, n.body); err != nil {
			tx.Rollback()
			return 0, fmt.Errorf("inserting %s: %w", n.key, err)
		}
	}
	ins.Close()
	if err := tx.Commit(); err != nil {
		return 0, err
	}
	if _, err := db.Exec(`INSERT INTO notes(notes) VALUES ('optimize')`); err != nil {
		return 0, err
	}
	if err := db.Close(); err != nil {
		return 0, err
	}
	return len(notes), os.Rename(tmp, dbPath)
}

// readNotes lists the notes git tracks in vault, with their keys: the path
// without .md, in Unicode NFC, as omh keys them when the notes root is the
// repository root.
func readNotes(vault string) ([]ftsNote, error) {
	out, err := exec.Command("git", "-C", vault, "ls-files", "-s", "-z").Output()
	if err != nil {
		return nil, fmt.Errorf("git ls-files in %s: %w", vault, err)
	}
	var notes []ftsNote
	for _, entry := range bytes.Split(out, []byte{0}) {
		meta, file, ok := bytes.Cut(entry, []byte{'\t'})
		if !ok {
			continue
		}
		mode := string(bytes.Fields(meta)[0])
		name := string(file)
		if (mode != "100644" && mode != "100755") || !strings.HasSuffix(name, ".md") {
			continue
		}
		content, err := os.ReadFile(filepath.Join(vault, filepath.FromSlash(name)))
		if err != nil {
			return nil, err
		}
		if bytes.IndexByte(content[:min(len(content), 8000)], 0) >= 0 {
			continue // binary, as git tells
		}
		content = content[:min(len(content), maxNoteBytes)]
		key := norm.NFC.String(strings.TrimSuffix(name, ".md"))
		title, body := splitNote(content, path.Base(key))
		notes = append(notes, ftsNote{key: key, title: title, body: body})
	}
	return notes, nil
}

// splitNote returns a note's title and body. The title is the frontmatter
// title, else the first level-1 ATX heading (whose line then leaves the
// body), else the file name; frontmatter aliases join the title column,
// since omh scores them as titles. The body is the rest, without the
// frontmatter block.
func splitNote(content []byte, fileName string) (string, string) {
	text := strings.TrimPrefix(string(content), "\uFEFF")
	title, aliases, text := frontmatter(text)
	if title == "" {
		var h1 string
		h1, text = takeH1(text)
		title = h1
	}
	if title == "" {
		title = fileName
	}
	if len(aliases) > 0 {
		title += "\n" + strings.Join(aliases, "\n")
	}
	return title, text
}

// frontmatter splits a leading YAML block off text and reads its title and
// aliases; a block that does not parse still leaves the body.
func frontmatter(text string) (title string, aliases []string, body string) {
	first, rest, ok := strings.Cut(text, "\n")
	if !ok || strings.TrimRight(first, " \t\r") != "---" {
		return "", nil, text
	}
	offset := 0
	for offset < len(rest) {
		line, _, _ := strings.Cut(rest[offset:], "\n")
		end := offset + len(line) + 1
		if t := strings.TrimRight(line, " \t\r"); t == "---" || t == "..." {
			block, body := rest[:offset], rest[min(end, len(rest)):]
			var fields map[string]any
			if yaml.Unmarshal([]byte(block), &fields) == nil {
				title = scalar(fields["title"])
				for _, name := range []string{"aliases", "alias"} {
					switch v := fields[name].(type) {
					case []any:
						for _, a := range v {
							if s := scalar(a); s != "" {
								aliases = append(aliases, s)
							}
						}
					default:
						if s := scalar(v); s != "" {
							aliases = append(aliases, s)
						}
					}
				}
			}
			return title, aliases, body
		}
		offset = end
	}
	return "", nil, text // never closed: not frontmatter
}

func scalar(v any) string {
	switch v.(type) {
	case nil, []any, map[string]any:
		return ""
	}
	return strings.TrimSpace(fmt.Sprint(v))
}

// takeH1 finds the first non-empty level-1 ATX heading outside fenced code
// and returns its text and the body without its line.
func takeH1(text string) (string, string) {
	fence := ""
	offset := 0
	for offset < len(text) {
		line, _, _ := strings.Cut(text[offset:], "\n")
		end := min(offset+len(line)+1, len(text))
		t := strings.TrimLeft(line, " ")
		switch {
		case fence != "":
			if strings.HasPrefix(t, fence) {
				fence = ""
			}
		case strings.HasPrefix(t, "```"), strings.HasPrefix(t, "~~~"):
			fence = t[:3]
		case len(line)-len(t) <= 3 && (strings.HasPrefix(t, "# ") || strings.HasPrefix(t, "#\t")):
			h := strings.TrimSpace(strings.TrimRight(strings.TrimSpace(t[2:]), "#"))
			if h != "" {
				return h, text[:offset] + text[end:]
			}
		}
		offset = end
	}
	return "", text
}

// matchString makes a question an FTS5 query: each distinct word (a run of
// letters and digits, compared lower-cased) double-quoted, OR-ed. Words never
// hold a quote, so no escaping is needed.
func matchString(phrasings ...string) string {
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

// ftsSearcher answers questions from one database.
type ftsSearcher struct {
	db   *sql.DB
	stmt *sql.Stmt
}

func openFTS(dbPath string) (*ftsSearcher, error) {
	db, err := sql.Open("sqlite", "file:"+dbPath+"?mode=ro")
	if err != nil {
		return nil, err
	}
	db.SetMaxOpenConns(1)
	stmt, err := db.Prepare(ftsQuery)
	if err != nil {
		db.Close()
		return nil, err
	}
	return &ftsSearcher{db: db, stmt: stmt}, nil
}

func (f *ftsSearcher) Close() {
	f.stmt.Close()
	f.db.Close()
}

// ranked returns the keys of the best 100 notes for a MATCH string, and how
// long the query took, rows read included.
func (f *ftsSearcher) ranked(match string) ([]string, time.Duration, error) {
	keys := []string{}
	if match == "" {
		return keys, 0, nil
	}
	start := time.Now()
	rows, err := f.stmt.Query(match)
	if err != nil {
		return nil, 0, err
	}
	defer rows.Close()
	for rows.Next() {
		var k string
		if err := rows.Scan(&k); err != nil {
			return nil, 0, err
		}
		keys = append(keys, k)
	}
	took := time.Since(start)
	return keys, took, rows.Err()
}

// ftsQueryMain is `compare fts5-query DB` with the question on standard
// input: it prints the ranked keys, one a line.
func ftsQueryMain(args []string) int {
	if len(args) != 1 {
		fmt.Fprintln(os.Stderr, "usage: compare fts5-query DB < question")
		return exitUsage
	}
	question, err := readAllStdin()
	if err != nil {
		return fail(err)
	}
	f, err := openFTS(args[0])
	if err != nil {
		return fail(err)
	}
	defer f.Close()
	keys, _, err := f.ranked(matchString(question))
	if err != nil {
		return fail(err)
	}
	fmt.Print(strings.Join(keys, "\n") + "\n")
	return exitOK
}

func readAllStdin() (string, error) {
	var b bytes.Buffer
	_, err := b.ReadFrom(os.Stdin)
	return b.String(), err
}

// ftsProcess times one fts5-query process.
func ftsProcess(self, dbPath string, q question) (time.Duration, error) {
	cmd := exec.Command(self, ftsQueryCommand, dbPath)
	cmd.Stdin = strings.NewReader(strings.Join(append([]string{q.Question}, q.Also...), "\n"))
	start := time.Now()
	out, err := cmd.CombinedOutput()
	took := time.Since(start)
	if err != nil {
		return took, fmt.Errorf("fts5-query on %s: %v\n%s", q.ID, err, out)
	}
	return took, nil
}
