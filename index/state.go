package index

import (
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/go-git/go-git/v5/plumbing"

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
	Parsed     int      `json:"parsed"`      // blobs the last refresh parsed
	Types      []string `json:"types"`       // note types, indexed by docInfo.typ
}

// snapRow is a snapshot as stored. The tracked files and the scan state are
// decoded only when a command needs them.
type snapRow struct {
	id         int64
	state      snapState
	info       []byte
	rawTracked []byte
	rawScan    []byte
	scan       *vault.ScanState
}

// querier is what reading needs of *sql.DB and *sql.Tx alike.
type querier interface {
	QueryRow(query string, args ...any) *sql.Row
	Query(query string, args ...any) (*sql.Rows, error)
}

// loadSnap reads the snapshot called name, or nil when there is none.
func loadSnap(q querier, name string) (*snapRow, error) {
	var stateJSON []byte
	s := &snapRow{}
	err := q.QueryRow(`SELECT id, state, info, tracked, scan FROM snap WHERE name = ?`, name).Scan(&s.id, &stateJSON, &s.info, &s.rawTracked, &s.rawScan)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("reading snapshot %s: %w", name, err)
	}
	if err := json.Unmarshal(stateJSON, &s.state); err != nil || len(s.info)%infoSize != 0 {
		return nil, fmt.Errorf("snapshot %s: %w", name, errDamaged)
	}
	return s, nil
}

func (s *snapRow) span() int { return len(s.info) / infoSize }

// tracked decodes HEAD's note files as the snapshot recorded them.
func (s *snapRow) tracked() (map[string]plumbing.Hash, error) {
	t, err := vault.DecodeTracked(s.rawTracked)
	if err != nil {
		return nil, fmt.Errorf("snapshot's file list: %w", errDamaged)
	}
	return t, nil
}

// scanState decodes the local scan's memory. One that does not decode only
// costs a cold scan.
func (s *snapRow) scanState() *vault.ScanState {
	if s.scan == nil {
		s.scan = vault.NewScanState()
		_ = s.scan.UnmarshalBinary(s.rawScan)
	}
	return s.scan
}

func isNoRows(err error) bool { return errors.Is(err, sql.ErrNoRows) }

func unixNano(ns int64) time.Time { return time.Unix(0, ns).UTC() }
