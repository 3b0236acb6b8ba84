package index

import (
	"fmt"
	"path/filepath"
	"sync"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/omh-notes/omh/internal/procs"
	"github.com/omh-notes/omh/vault"
	"github.com/omh-notes/omh/vault/corpus"
)

// StoredNote is one document of a snapshot with what its blob's parse
// recorded, for commands that check or rewrite notes rather than rank them.
type StoredNote struct {
	Doc  uint32
	Note corpus.Note
	// Worktree marks an uncommitted working copy under the notes root;
	// Private a note of the private folder. A team note is neither.
	Worktree, Private bool
	Parsed            vault.Parsed
	Binary, Cut       bool // not text at all; indexed from its first part only
}

// NotesDir is the notes root the snapshot was built with, relative to the
// repository root ("" for the root itself).
func (s *Snapshot) NotesDir() string { return s.state.NotesDir }

// PrivateDir is the private notes folder the snapshot reads, as the refresh
// that built it found it.
func (s *Snapshot) PrivateDir() (string, error) {
	return s.repo.PrivateDir(plumbing.NewHash(s.state.Root))
}

// Notes lists every document of the snapshot with its parsed meta, in
// (key, layer, path) order. One query reads them all, so a linter can look
// at a store of many thousand notes without a query per note.
func (s *Snapshot) Notes() ([]StoredNote, error) {
	rows, err := s.tx.Query(`SELECT d.ord, d.part, d.key, d.layer, d.path, d.date, d.date_source, d.title, d.type, b.oid, b.meta
		FROM doc d JOIN blob b ON b.id = d.blob WHERE d.snap = ? ORDER BY d.key, d.layer, d.path`, s.row.id)
	if err != nil {
		return nil, fmt.Errorf("listing notes: %w", err)
	}
	defer rows.Close()
	var out []StoredNote
	var metas [][]byte
	for rows.Next() {
		var n StoredNote
		var part int
		var oid, meta []byte
		if err := rows.Scan(&n.Doc, &part, &n.Note.Key, &n.Note.Layer, &n.Note.Path, &n.Note.Date, &n.Note.DateSource,
			&n.Note.Title, &n.Note.Type, &oid, &meta); err != nil {
			return nil, fmt.Errorf("listing notes: %w", err)
		}
		if !s.Info(n.Doc).Present {
			continue
		}
		copy(n.Note.Blob[:], oid)
		n.Worktree = part == partWorktree
		n.Private = n.Note.Layer == vault.Local && !n.Worktree && filepath.IsAbs(n.Note.Path)
		out = append(out, n)
		metas = append(metas, meta)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	// Decoding the metas is most of the work: spread it over the cores.
	workers := procs.Workers(len(out) / 256)
	errs := make([]error, workers)
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			for i := w; i < len(out); i += workers {
				m, err := decodeMeta(metas[i])
				if err != nil {
					errs[w] = err
					return
				}
				out[i].Parsed, out[i].Binary, out[i].Cut = m.Parsed, m.Binary, m.Cut
			}
		}(w)
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}

// Meta returns what parsing one document's content recorded.
func (s *Snapshot) Meta(doc uint32) (vault.Parsed, error) {
	var meta []byte
	err := s.tx.QueryRow(`SELECT b.meta FROM doc d JOIN blob b ON b.id = d.blob WHERE d.snap = ? AND d.ord = ?`, s.row.id, doc).Scan(&meta)
	if err != nil {
		return vault.Parsed{}, fmt.Errorf("reading note #%d: %w", doc, err)
	}
	m, err := decodeMeta(meta)
	return m.Parsed, err
}

// Names looks link names up in the snapshot, as its links were resolved:
// every key (and trailing part of one) and alias of its notes.
func (s *Snapshot) Names() vault.Names {
	return nameTable{tx: s.tx, snap: s.row.id, keep: func(ord uint32) bool { return s.Info(ord).Present }}
}

// nameTable looks names up in a snapshot's name table: a Snapshot's, or
// the one a refresh is writing. keep, when set, says which of the notes
// holding a name count.
type nameTable struct {
	tx   *txn
	snap int64
	keep func(ord uint32) bool
}

func (n nameTable) Lookup(lower string) ([]vault.Name, error) {
	rows, err := n.tx.Query(`SELECT d.key, m.kind, d.ord FROM name m JOIN doc d ON d.snap = m.snap AND d.ord = m.ord
		WHERE m.snap = ? AND m.name = ?`, n.snap, lower)
	if err != nil {
		return nil, fmt.Errorf("looking up %q: %w", lower, err)
	}
	defer rows.Close()
	var out []vault.Name
	for rows.Next() {
		var nm vault.Name
		var ord uint32
		if err := rows.Scan(&nm.Key, &nm.Kind, &ord); err != nil {
			return nil, err
		}
		if n.keep == nil || n.keep(ord) {
			out = append(out, nm)
		}
	}
	return out, rows.Err()
}
