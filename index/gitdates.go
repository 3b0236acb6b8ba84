package index

import (
	"database/sql"
	"errors"
	"fmt"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/omh-notes/omh/vault"
	"github.com/omh-notes/omh/vault/gitcli"
	"github.com/omh-notes/omh/vault/gitrepo"
)

// gitDates finds, for team files, the author date of the last first-parent
// commit that changed each. The walk from HEAD stops at the snapshot's old
// commit when it is an ancestor (paths it did not change keep their dates;
// complete is false), or once every file that needs a git date has one
// (complete is true).
func (rf *refresher) gitDates(head, old plumbing.Hash, changed map[string]plumbing.Hash) (dates map[string]vault.Date, complete bool, root plumbing.Hash, err error) {
	dates = map[string]vault.Date{}
	if head.IsZero() {
		return dates, true, plumbing.ZeroHash, nil
	}
	var need map[string]bool // files still needing a date; nil until known
	c := head
	for steps := 0; ; steps++ {
		if c == old {
			return dates, false, plumbing.NewHash(rf.snap.state.Root), nil
		}
		if need == nil && (steps >= 64 || old.IsZero()) {
			// The old commit is not close behind: find which files need a
			// date, so the walk can stop as soon as all have one.
			if need, err = rf.needGitDates(changed); err != nil {
				return nil, false, plumbing.ZeroHash, err
			}
			for p := range dates {
				delete(need, p)
			}
		}
		if need != nil && len(need) == 0 {
			root, err := rf.repo.RootOf(c, rf.shallow)
			return dates, true, root, err
		}
		step, err := rf.step(c)
		if errors.Is(err, plumbing.ErrObjectNotFound) {
			// As at a shallow clone's boundary, the history known ends
			// here: a partial clone leaves older trees out; any other
			// repository lacking them is damaged, and saying "partial
			// clone" there sent people after a remote they do not have.
			if rf.repo.PartialClone() {
				rf.warn("history before %s is not in this partial clone; older notes are dated by it", c)
			} else {
				rf.warn("history before %s cannot be read (%v; git fsck names what is missing); older notes are dated by it", c, err)
			}
			return dates, true, c, nil
		}
		if err != nil {
			return nil, false, plumbing.ZeroHash, err
		}
		for _, p := range step.Changed {
			if _, seen := dates[p]; !seen {
				dates[p] = step.Author
				delete(need, p)
			}
		}
		if step.Parent.IsZero() {
			return dates, true, c, nil
		}
		c = step.Parent
	}
}

// needGitDates lists the team files whose date comes from git: those whose
// frontmatter gives none. A stored document this refresh did not change is
// still in HEAD (a removal is a change).
func (rf *refresher) needGitDates(changed map[string]plumbing.Hash) (map[string]bool, error) {
	need := map[string]bool{}
	for _, ch := range rf.changes {
		if ch.new != nil && ch.new.layer == vault.Team {
			if m := rf.loaded[ch.new.blob].meta; m.Recorded == "" && m.Dated == "" {
				need[ch.new.path] = true
			}
		}
	}
	rows, err := rf.tx.Query(`SELECT path FROM doc WHERE snap = ? AND layer = ? AND date_source = ?`, rf.snap.id, vault.Team, vault.FromGit)
	if err != nil {
		return nil, fmt.Errorf("listing git-dated notes: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var p string
		if err := rows.Scan(&p); err != nil {
			return nil, err
		}
		if _, isChanged := changed[p]; !isChanged {
			need[p] = true
		}
	}
	return need, rows.Err()
}

// startHistory starts git's walk of the history from head when a refresh
// will walk it all: the snapshot has no team layer yet and the history has
// not been walked before. It runs beside the parsing of the notes; without
// git, steps are read through go-git.
func (rf *refresher) startHistory(head plumbing.Hash) error {
	if head.IsZero() || rf.snap.state.Commit != "" {
		return nil
	}
	var n int
	if err := rf.tx.QueryRow(`SELECT count(*) FROM step WHERE oid = ?`, head[:]).Scan(&n); err != nil {
		return fmt.Errorf("reading history cache: %w", err)
	}
	if n == 0 {
		rf.history, _ = gitcli.LogHistory(rf.repo, head, rf.shallow)
	}
	return nil
}

// step reads one history step, from the cache when it was read before.
func (rf *refresher) step(c plumbing.Hash) (gitrepo.Step, error) {
	var data []byte
	err := rf.tx.QueryRow(`SELECT data FROM step WHERE oid = ?`, c[:]).Scan(&data)
	if err == nil {
		if s, ok := decodeStep(c, data); ok && s.Boundary == rf.shallow[c] {
			return s, nil
		}
	} else if !errors.Is(err, sql.ErrNoRows) {
		return gitrepo.Step{}, fmt.Errorf("reading history cache: %w", err)
	}
	s, ok := gitrepo.Step{}, false
	if rf.history != nil {
		if s, ok = rf.history.Next(c); !ok {
			rf.history.Close() // out of step: read the rest through go-git
			rf.history = nil
		}
	}
	if !ok {
		if s, err = rf.repo.StepOf(c, rf.shallow); err != nil {
			return s, err
		}
	}
	_, err = rf.tx.Exec(`INSERT OR REPLACE INTO step (oid, data) VALUES (?, ?)`, c[:], encodeStep(s))
	return s, err
}

// applyGitDates gives changed team documents their git dates and records
// date-only changes for the rest.
func (rf *refresher) applyGitDates(dates map[string]vault.Date, complete bool, changed map[string]plumbing.Hash) error {
	for _, ch := range rf.changes {
		if ch.new != nil && ch.new.layer == vault.Team {
			if d, ok := dates[ch.new.path]; ok {
				ch.new.gitDate = d
			}
		}
	}
	var others []*doc
	if complete {
		all, err := rf.docs(`d.layer = ?`, vault.Team)
		if err != nil {
			return err
		}
		others = all
	} else {
		for p := range dates {
			if _, ok := changed[p]; ok {
				continue
			}
			d, err := rf.teamDocAt(p)
			if err != nil {
				return err
			}
			if d != nil {
				others = append(others, d)
			}
		}
	}
	for _, old := range others {
		if _, ok := changed[old.path]; ok {
			continue
		}
		if d, ok := dates[old.path]; ok && d != old.gitDate {
			nd := *old
			nd.gitDate = d
			rf.changes = append(rf.changes, docChange{old: old, new: &nd})
		}
	}
	return nil
}
