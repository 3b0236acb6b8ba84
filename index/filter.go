package index

import (
	"database/sql"
	"fmt"
	"slices"

	"github.com/omh-notes/omh/vault"
)

// What filters on tags, folders and time read: each lists the present
// documents it admits, in document order, from the snapshot's own rows, so
// a filter costs what it admits, not the store's size.

// Tagged lists the documents carrying tag, or a tag nested under it (a/b
// under a, with nesting "/"): the notes of the tag's term and of every term
// in the range its nested tags sort in.
func (s *Snapshot) Tagged(tag, nesting string) ([]uint32, error) {
	term := tagTerm(tag)
	rows, err := s.tx.Query(`SELECT text, id FROM term WHERE text = ? OR (text >= ? AND text < ?)`,
		term, term+nesting, term+string(nesting[0]+1))
	if err != nil {
		return nil, fmt.Errorf("looking up the tag %q: %w", tag, err)
	}
	type found struct {
		text string
		id   int64
	}
	var terms []found
	for rows.Next() {
		var f found
		if err := rows.Scan(&f.text, &f.id); err != nil {
			rows.Close()
			return nil, fmt.Errorf("looking up the tag %q: %w", tag, err)
		}
		terms = append(terms, f)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("looking up the tag %q: %w", tag, err)
	}
	var out []uint32
	for _, f := range terms {
		list, err := s.postingsOf(f.id, f.text)
		if err != nil {
			return nil, err
		}
		for _, p := range list {
			out = append(out, p.Doc)
		}
	}
	return s.present(out), nil
}

// Under lists the documents whose key is folder or lies under it: folder/…,
// and with nesting "." (Dendron's hierarchies) also folder.….
func (s *Snapshot) Under(folder, nesting string) ([]uint32, error) {
	hi := folder + "0" // "/" + 1: every key folder/…
	lo := folder + "/"
	if nesting == "." {
		lo = folder + "." // "." sorts just before "/"
	}
	rows, err := s.tx.Query(`SELECT ord FROM doc WHERE snap = ? AND (key = ? OR (key >= ? AND key < ?))`, s.row.id, folder, lo, hi)
	if err != nil {
		return nil, fmt.Errorf("listing the notes under %s: %w", folder, err)
	}
	return s.presentRows(rows)
}

// ChangedSince lists the documents changed since a moment: the team notes
// at keys (what a diff of the team layer found added or changed), or every
// team note with all (a moment before the first commit); every uncommitted
// working copy; and the private notes whose file was modified at or after
// since (Unix nanoseconds), which git's history never holds.
func (s *Snapshot) ChangedSince(keys []string, all bool, since int64) ([]uint32, error) {
	var out []uint32
	if all {
		for d := range s.Span() {
			if s.Info(uint32(d)).Layer == vault.Team {
				out = append(out, uint32(d))
			}
		}
	} else {
		// Looked up keysBatch at a time: on vba-docs, 4,096 keys took 13
		// ms, where reading every team note's key once took 140-180 ms
		// (38,187 keys, 390 ms: a change of every note is rare, and a
		// moment before the first commit is all).
		held, err := s.ordsOfKeys(keys)
		if err != nil {
			return nil, err
		}
		for _, ords := range held {
			for _, o := range ords {
				if s.Info(o).Layer == vault.Team {
					out = append(out, o)
				}
			}
		}
	}
	// The layer is written out so that SQLite uses doc_local, the index
	// of local documents.
	rows, err := s.tx.Query(fmt.Sprintf(`SELECT ord FROM doc WHERE snap = ? AND layer = %d AND (part = ? OR mtime >= ?)`, vault.Local),
		s.row.id, partWorktree, since)
	if err != nil {
		return nil, fmt.Errorf("listing the local notes changed since: %w", err)
	}
	local, err := s.presentRows(rows)
	return s.present(append(out, local...)), err
}

// presentRows reads a query's document numbers and keeps the present ones.
func (s *Snapshot) presentRows(rows *sql.Rows) ([]uint32, error) {
	ords, err := scanOrds(rows)
	return s.present(ords), err
}

// present sorts docs, drops repeats and keeps the documents the snapshot
// holds (a working copy is absent from an answer without the worktree).
func (s *Snapshot) present(docs []uint32) []uint32 {
	slices.Sort(docs)
	docs = slices.Compact(docs)
	return slices.DeleteFunc(docs, func(d uint32) bool { return !s.Info(d).Present })
}
