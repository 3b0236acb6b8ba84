package index

import (
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/omh-notes/omh/vault/localscan"
)

// snapState is what a snapshot records about how it was built.
type snapState struct {
	Commit     string   `json:"commit"`      // HEAD the team layer was read at; "" before the first commit
	Tree       string   `json:"tree"`        // the notes root's tree id at Commit; "" when absent
	NotesDir   string   `json:"notes_dir"`   // notes root relative to the repository root
	ConfigHash string   `json:"config_hash"` // of .omh/config.yaml as read
	Root       string   `json:"root"`        // first commit of Commit's first-parent history
	Shallow    bool     `json:"shallow"`     // that history ends at a shallow clone's boundary
	CountAll   int      `json:"count_all"`   // documents present
	CountBase  int      `json:"count_base"`  // documents present that are not uncommitted working copies
	WordsAll   int64    `json:"words_all"`   // words in the bodies of the documents present
	WordsBase  int64    `json:"words_base"`  // the same without uncommitted working copies
	Parsed     int      `json:"parsed"`      // blobs the last refresh parsed
	Types      []string `json:"types"`       // note types, indexed by docInfo.typ
	// Skipped are the notes left out because their content could not be
	// read (a blob a partial clone lacks, an unreadable file, one that kept
	// changing); the next refresh reads them again.
	Skipped []string `json:"skipped,omitempty"`
	// PendingTrack are the files of HEAD's that refreshes leaving the
	// working tree out (a hook's) found changed, path to blob id ("" for a
	// file HEAD no longer holds), not yet recorded in the working tree's
	// scan state, the largest value a snapshot keeps and which such a
	// refresh does not read; the next scan of the working tree records them
	// first (trackPending). A refresh that would leave more than
	// pendingMax records them all itself.
	PendingTrack map[string]string `json:"pending_track,omitempty"`
	// Deleted are the files of HEAD's notes the working tree lacks
	// (deleted or moved, not committed), sorted, as the last scan of the
	// working tree found them: their team documents are marked gone.
	Deleted []string `json:"deleted,omitempty"`
}

// Trees whose scans a snapshot remembers (the scan table's tree column).
const (
	treeWorktree = 0
	treePrivate  = 1
)

// infoChunk is how many documents' info one row of the info table holds:
// 110 KB, so a 100,000-note store's info is 25 rows, and a refresh that
// changes a few documents rewrites a row or two rather than 2.7 MB.
const infoChunk = 4096

// snapRow is a snapshot as stored. What only a scan of the working tree
// needs (HEAD's file list and the working tree's stat memory, the largest
// values a snapshot holds) is read only when the working tree is scanned.
type snapRow struct {
	id       int64
	seq      int64
	state    snapState
	raw      []byte // state as stored
	info     []byte
	private  *localscan.ScanState // the private folder's stat memory
	worktree *localscan.ScanState // HEAD's note files and the working tree's stat memory; nil until loadWorktree
	derived  *derived             // what answers computed from it
	// caughtUp: the pending files were recorded in the worktree's scan
	// state since the state was read, so the state is worth saving.
	caughtUp bool
}

// querier is what reading needs of *sql.DB and *sql.Tx alike.
type querier interface {
	QueryRow(query string, args ...any) *sql.Row
	Query(query string, args ...any) (*sql.Rows, error)
}

// loadSnap reads the snapshot called name, or nil when there is none.
func loadSnap(q querier, name string) (*snapRow, error) {
	s, err := loadSnapState(q, name)
	if s == nil || err != nil {
		return nil, err
	}
	return s, s.loadRest(q)
}

// loadRest reads what loadSnapState leaves out but the worktree's scan
// state: the documents' info and the private folder's stat memory.
func (s *snapRow) loadRest(q querier) error {
	if s.private != nil {
		return nil
	}
	var err error
	if s.info, err = loadInfo(q, s.id, s.state.CountAll); err != nil {
		return err
	}
	s.private, err = loadScan(q, s.id, treePrivate)
	return err
}

// loadSnapState reads how the snapshot called name was built, and nothing
// else of it, or nil when there is none.
func loadSnapState(q querier, name string) (*snapRow, error) {
	s := &snapRow{derived: &derived{}}
	err := q.QueryRow(`SELECT id, seq, state FROM snap WHERE name = ?`, name).Scan(&s.id, &s.seq, &s.raw)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("reading snapshot %s: %w", name, err)
	}
	if err := json.Unmarshal(s.raw, &s.state); err != nil {
		return nil, fmt.Errorf("snapshot %s: %w", name, errDamaged)
	}
	return s, nil
}

// loadInfo reads a snapshot's info chunks in order, into one array sized
// up front for the documents the snapshot counts (and some numbers left
// free by removed ones): at 100,000 notes it is 2.7 MB, and growing it by
// doubling cost more than reading it.
func loadInfo(q querier, snap int64, docs int) ([]byte, error) {
	rows, err := q.Query(`SELECT chunk, data FROM info WHERE snap = ? ORDER BY chunk`, snap)
	if err != nil {
		return nil, fmt.Errorf("reading the snapshot's documents: %w", err)
	}
	defer rows.Close()
	info := make([]byte, 0, (docs+docs/8+1)*infoSize)
	for rows.Next() {
		var chunk int
		var data sql.RawBytes
		if err := rows.Scan(&chunk, &data); err != nil {
			return nil, fmt.Errorf("reading the snapshot's documents: %w", err)
		}
		if chunk*infoChunk*infoSize != len(info) || len(data)%infoSize != 0 || len(data) > infoChunk*infoSize {
			return nil, fmt.Errorf("snapshot's documents: %w", errDamaged)
		}
		info = append(info, data...)
	}
	return info, rows.Err()
}

// loadScan reads what scans of one tree remember.
func loadScan(q querier, snap int64, tree int) (*localscan.ScanState, error) {
	rows, err := q.Query(`SELECT id, head, data FROM scan WHERE snap = ? AND tree = ?`, snap, tree)
	if err != nil {
		return nil, fmt.Errorf("reading the scan state: %w", err)
	}
	defer rows.Close()
	var pieces []localscan.ScanPiece
	for rows.Next() {
		var p localscan.ScanPiece
		if err := rows.Scan(&p.ID, &p.Head, &p.Data); err != nil {
			return nil, fmt.Errorf("reading the scan state: %w", err)
		}
		pieces = append(pieces, p)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("reading the scan state: %w", err)
	}
	st, err := localscan.LoadScanState(pieces)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", errDamaged, err)
	}
	return st, nil
}

// loadWorktree reads what scanning the working tree needs.
func (s *snapRow) loadWorktree(q querier) error {
	if s.worktree != nil {
		return nil
	}
	var err error
	s.worktree, err = loadScan(q, s.id, treeWorktree)
	return err
}

// saveScans writes what changed of the snapshot's scan states.
func (s *snapRow) saveScans(tx *txn) error {
	for tree, st := range []*localscan.ScanState{treeWorktree: s.worktree, treePrivate: s.private} {
		if st == nil || !st.Changed() {
			continue
		}
		put, drop := st.Pieces()
		for _, id := range drop {
			if _, err := tx.Exec(`DELETE FROM scan WHERE id = ?`, id); err != nil {
				return fmt.Errorf("saving the scan state: %w", err)
			}
		}
		for _, p := range put {
			var err error
			if p.ID == 0 {
				_, err = tx.Exec(`INSERT INTO scan (snap, tree, head, data) VALUES (?, ?, ?, ?)`, s.id, tree, p.Head, p.Data)
			} else {
				_, err = tx.Exec(`UPDATE scan SET data = ? WHERE id = ?`, p.Data, p.ID)
			}
			if err != nil {
				return fmt.Errorf("saving the scan state: %w", err)
			}
		}
	}
	return nil
}

// saveInfo writes the info chunks that differ from old, what was stored.
func (s *snapRow) saveInfo(tx *txn, old []byte) error {
	chunkOf := func(b []byte, c int) []byte {
		lo, hi := min(c*infoChunk*infoSize, len(b)), min((c+1)*infoChunk*infoSize, len(b))
		return b[lo:hi]
	}
	chunks := func(b []byte) int { return (len(b) + infoChunk*infoSize - 1) / (infoChunk * infoSize) }
	for c := 0; c < max(chunks(old), chunks(s.info)); c++ {
		was, now := chunkOf(old, c), chunkOf(s.info, c)
		var err error
		switch {
		case string(was) == string(now):
			continue
		case len(now) == 0:
			_, err = tx.Exec(`DELETE FROM info WHERE snap = ? AND chunk = ?`, s.id, c)
		default:
			_, err = tx.Exec(`INSERT OR REPLACE INTO info (snap, chunk, data) VALUES (?, ?, ?)`, s.id, c, now)
		}
		if err != nil {
			return fmt.Errorf("saving the snapshot's documents: %w", err)
		}
	}
	return nil
}

func (s *snapRow) span() int { return len(s.info) / infoSize }

// scanChanged reports whether a scan moved the stat memory, or the pending
// files of HEAD's were recorded.
func (s *snapRow) scanChanged() bool {
	return s.caughtUp || s.private.Changed() || (s.worktree != nil && s.worktree.Changed())
}

// pendingMax is the most changed files of HEAD's a snapshot keeps pending
// (PendingTrack): each command reads them with the snapshot's state, and a
// one-note commit adds one.
const pendingMax = 128

// pend records that a refresh leaving the working tree out found HEAD's
// file at path changed to blob (zero: gone).
func (st *snapState) pend(path string, blob plumbing.Hash) {
	if st.PendingTrack == nil {
		st.PendingTrack = map[string]string{}
	}
	st.PendingTrack[path] = ""
	if !blob.IsZero() {
		st.PendingTrack[path] = blob.String()
	}
}

// trackPending records the pending files in the working tree's scan
// state, loaded.
func (s *snapRow) trackPending() {
	if len(s.state.PendingTrack) == 0 {
		return
	}
	for path, blob := range s.state.PendingTrack {
		if blob == "" {
			s.worktree.Untrack(path)
		} else {
			s.worktree.Track(path, plumbing.NewHash(blob))
		}
	}
	s.state.PendingTrack, s.caughtUp = nil, true
}

func isNoRows(err error) bool { return errors.Is(err, sql.ErrNoRows) }

func unixNano(ns int64) time.Time { return time.Unix(0, ns).UTC() }
