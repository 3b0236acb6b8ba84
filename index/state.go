package index

import (
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/omh-notes/omh/vault"
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
}

// snapRow is a snapshot as stored. What only a scan of the working tree
// needs (HEAD's file list and the working tree's stat memory, the largest
// values a snapshot holds) is read only when the working tree is scanned.
type snapRow struct {
	id       int64
	state    snapState
	info     []byte
	private  *vault.ScanState    // the private folder's stat memory
	tracked  []vault.TrackedFile // HEAD's note files, sorted; nil until loadWorktree
	worktree *vault.ScanState    // the working tree's stat memory; nil until loadWorktree
}

// querier is what reading needs of *sql.DB and *sql.Tx alike.
type querier interface {
	QueryRow(query string, args ...any) *sql.Row
	Query(query string, args ...any) (*sql.Rows, error)
}

// loadSnap reads the snapshot called name, or nil when there is none.
func loadSnap(q querier, name string) (*snapRow, error) {
	var stateJSON, private []byte
	s := &snapRow{}
	err := q.QueryRow(`SELECT id, state, info, scan_private FROM snap WHERE name = ?`, name).Scan(&s.id, &stateJSON, &s.info, &private)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("reading snapshot %s: %w", name, err)
	}
	if err := json.Unmarshal(stateJSON, &s.state); err != nil || len(s.info)%infoSize != 0 {
		return nil, fmt.Errorf("snapshot %s: %w", name, errDamaged)
	}
	s.private = decodeScan(private)
	return s, nil
}

// loadWorktree reads what scanning the working tree needs.
func (s *snapRow) loadWorktree(q querier) error {
	if s.tracked != nil {
		return nil
	}
	// The values are decoded from the driver's copy (sql.RawBytes) without
	// database/sql making another: at 10,000 notes they are megabytes, read
	// on every command.
	rows, err := q.Query(`SELECT tracked, scan_worktree FROM snap WHERE id = ?`, s.id)
	if err != nil {
		return fmt.Errorf("reading the snapshot's file list: %w", err)
	}
	defer rows.Close()
	if !rows.Next() {
		if err := rows.Err(); err != nil {
			return fmt.Errorf("reading the snapshot's file list: %w", err)
		}
		return fmt.Errorf("snapshot's file list: %w", errDamaged)
	}
	var tracked, worktree sql.RawBytes
	if err := rows.Scan(&tracked, &worktree); err != nil {
		return fmt.Errorf("reading the snapshot's file list: %w", err)
	}
	t, err := vault.DecodeTracked(tracked)
	if err != nil {
		return fmt.Errorf("snapshot's file list: %w", errDamaged)
	}
	if t == nil {
		t = []vault.TrackedFile{}
	}
	s.tracked, s.worktree = t, decodeScan(worktree)
	return rows.Close()
}

// decodeScan reads a scan's stat memory. One that does not decode only
// costs a cold scan.
func decodeScan(b []byte) *vault.ScanState {
	st := vault.NewScanState()
	_ = st.UnmarshalBinary(b)
	return st
}

func (s *snapRow) span() int { return len(s.info) / infoSize }

// scanChanged reports whether a scan moved the stat memory.
func (s *snapRow) scanChanged() bool {
	return s.private.Changed() || (s.worktree != nil && s.worktree.Changed())
}

func isNoRows(err error) bool { return errors.Is(err, sql.ErrNoRows) }

func unixNano(ns int64) time.Time { return time.Unix(0, ns).UTC() }
