package index

import (
	"fmt"
	"strings"

	"github.com/omh-notes/omh/vault"
	"github.com/omh-notes/omh/vault/gitrepo"
)

// Status is what the cache holds and whether it is current.
type Status struct {
	Indexed     string   // the commit the snapshot holds; "" with no snapshot or no commits
	Head        string   // HEAD's commit; "" before the first commit
	Fresh       bool     // the snapshot equals the store on disk
	Team, Local int      // the notes present in each layer
	Uncommitted []string // keys of working copies that differ from HEAD
	Deleted     []string // keys of committed notes the working tree lacks (deleted or moved, not committed)
	Skipped     []string // notes left out: their content could not be read
	Parsed      int      // blobs the last refresh parsed
	NotesRoot   string
	PrivateDir  string
	Shallow     bool
}

// Status reports on the working tree's snapshot without changing anything:
// a damaged cache is an error naming its file, left for a command that
// reads the notes to rebuild.
func (c *Cache) Status(r *gitrepo.Repo) (Status, error) {
	st, err := c.status(r)
	if IsDamaged(err) {
		err = fmt.Errorf("the cache %s is damaged: %w", c.Path, err)
	}
	return st, err
}

func (c *Cache) status(r *gitrepo.Repo) (Status, error) {
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
	st := Status{Fresh: v.fresh, NotesRoot: v.notesDir, PrivateDir: v.private}
	if !v.head.IsZero() {
		st.Head = v.head.String()
	}
	if v.snap == nil {
		return st, nil
	}
	st.Indexed = v.snap.state.Commit
	st.Parsed, st.Shallow = v.snap.state.Parsed, v.snap.state.Shallow
	st.Skipped = append(st.Skipped, v.snap.state.Skipped...)
	if err := v.snap.loadRest(tx); err != nil {
		return st, err
	}
	for _, p := range v.snap.state.Deleted {
		rel := p
		if v.notesDir != "" {
			rel = strings.TrimPrefix(p, v.notesDir+"/")
		}
		if key, ok := vault.KeyOf(rel); ok {
			st.Deleted = append(st.Deleted, key)
		}
	}
	for o := 0; o < v.snap.span(); o++ {
		switch info := getInfo(v.snap.info, uint32(o)); {
		case !info.shown(false):
		case vault.Layer(info.layer) == vault.Team:
			st.Team++
		default:
			st.Local++
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
