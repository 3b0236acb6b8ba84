package index

import (
	"fmt"
	"strings"

	"github.com/omh-notes/omh/retrieve"
	"github.com/omh-notes/omh/vault"
)

// Status is what the cache holds and whether it is current, in one value
// with two renderings: JSON tags for programs, String for people.
type Status struct {
	SchemaVersion int `json:"schema_version"`

	Indexed     *string    `json:"indexed"` // commit the snapshot holds; null with no snapshot or no commits
	Head        *string    `json:"head"`    // HEAD's commit; null before the first commit
	Fresh       bool       `json:"fresh"`   // the snapshot equals the store on disk
	Notes       NoteCounts `json:"notes"`
	Uncommitted []string   `json:"uncommitted"` // keys of working copies that differ from HEAD
	Skipped     []string   `json:"skipped"`     // notes left out: their content could not be read
	Parsed      int        `json:"parsed"`      // blobs the last refresh parsed
	NotesRoot   string     `json:"notes_root"`
	PrivateDir  string     `json:"private_dir"`
	Shallow     bool       `json:"shallow"`
	Cache       CacheFile  `json:"cache"`
}

type NoteCounts struct {
	Team  int `json:"team"`
	Local int `json:"local"`
}

type CacheFile struct {
	Path string `json:"path"`
	Size int64  `json:"size"`
}

// Status reports on the working tree's snapshot without changing anything:
// a damaged cache is an error naming its file, left for a command that
// reads the notes to rebuild.
func (c *Cache) Status(r *vault.Repo) (Status, error) {
	st, err := c.status(r)
	if IsDamaged(err) {
		err = fmt.Errorf("the cache %s is damaged: %w", c.Path, err)
	}
	return st, err
}

func (c *Cache) status(r *vault.Repo) (Status, error) {
	tx, err := c.readTx()
	if err != nil {
		return Status{}, err
	}
	defer tx.Rollback()
	t, err := worktreeTarget(r, Options{})
	if err != nil {
		return Status{}, err
	}
	v, err := c.look(tx, r, t, Options{})
	if err != nil {
		return Status{}, err
	}
	st := Status{SchemaVersion: retrieve.SchemaVersion, Fresh: v.fresh, Uncommitted: []string{}, Skipped: []string{}, NotesRoot: v.notesDir, PrivateDir: v.private,
		Cache: CacheFile{Path: c.Path, Size: c.Size()}}
	if !v.head.IsZero() {
		h := v.head.String()
		st.Head = &h
	}
	if v.snap == nil {
		return st, nil
	}
	if v.snap.state.Commit != "" {
		st.Indexed = &v.snap.state.Commit
	}
	st.Parsed, st.Shallow = v.snap.state.Parsed, v.snap.state.Shallow
	st.Skipped = append(st.Skipped, v.snap.state.Skipped...)
	for o := 0; o < v.snap.span(); o++ {
		switch info := getInfo(v.snap.info, uint32(o)); {
		case !info.present:
		case vault.Layer(info.layer) == vault.Team:
			st.Notes.Team++
		default:
			st.Notes.Local++
		}
	}
	rows, err := tx.Query(`SELECT d.key FROM `+docLocal+` WHERE d.snap = ? AND `+localDocs+` AND d.part = ? ORDER BY d.key, d.path`, v.snap.id, partWorktree)
	if err != nil {
		return st, fmt.Errorf("listing uncommitted notes: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var k string
		if err := rows.Scan(&k); err != nil {
			return st, err
		}
		st.Uncommitted = append(st.Uncommitted, k)
	}
	return st, rows.Err()
}

// String renders the status for people.
func (s Status) String() string {
	var b strings.Builder
	orNone := func(p *string) string {
		if p == nil {
			return "none"
		}
		return *p
	}
	fresh := "no: the next command refreshes it"
	if s.Fresh {
		fresh = "yes"
	}
	fmt.Fprintf(&b, "indexed      %s\n", orNone(s.Indexed))
	fmt.Fprintf(&b, "head         %s\n", orNone(s.Head))
	fmt.Fprintf(&b, "fresh        %s\n", fresh)
	fmt.Fprintf(&b, "notes        %d team, %d local\n", s.Notes.Team, s.Notes.Local)
	root := s.NotesRoot
	if root == "" {
		root = "the repository root"
	}
	fmt.Fprintf(&b, "notes root   %s\n", root)
	fmt.Fprintf(&b, "private      %s\n", s.PrivateDir)
	if len(s.Uncommitted) > 0 {
		fmt.Fprintf(&b, "uncommitted  %s\n", strings.Join(s.Uncommitted, ", "))
	}
	if len(s.Skipped) > 0 {
		fmt.Fprintf(&b, "skipped      %d unreadable: %s\n", len(s.Skipped), strings.Join(s.Skipped, ", "))
	}
	blobs := "blobs"
	if s.Parsed == 1 {
		blobs = "blob"
	}
	fmt.Fprintf(&b, "parsed       %d %s in the last refresh\n", s.Parsed, blobs)
	fmt.Fprintf(&b, "cache        %s (%d bytes)\n", s.Cache.Path, s.Cache.Size)
	if s.Shallow {
		b.WriteString("history      shallow clone: dates of old notes are those of its oldest commit\n")
	}
	return b.String()
}
