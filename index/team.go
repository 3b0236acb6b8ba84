package index

import (
	"database/sql"
	"errors"
	"fmt"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"

	"github.com/omh-notes/omh/internal/exclude"
	"github.com/omh-notes/omh/vault"
	"github.com/omh-notes/omh/vault/gitrepo"
)

// teamDiff is what changed in the team layer between the notes tree from
// and HEAD's, walking only the subtrees whose ids differ.
type teamDiff struct {
	tree    plumbing.Hash // HEAD's notes tree; zero when there is none
	changes []gitrepo.NoteChange
	skips   []gitrepo.Skip
}

func (rf *refresher) diffTeam(from, head plumbing.Hash, dir string, exclude exclude.Globs) (teamDiff, error) {
	var d teamDiff
	var err error
	if !head.IsZero() {
		if d.tree, err = rf.repo.NotesTree(head, dir); err != nil {
			return d, err
		}
	}
	d.changes, d.skips, err = rf.repo.DiffNotes(from, d.tree, dir, exclude)
	return d, err
}

// teamChanges records what changed in the team layer since the snapshot's
// commit, and HEAD's changed files in the working tree's state, or as
// pending when that was not read.
func (rf *refresher) teamChanges(head plumbing.Hash, team teamDiff, dir string) error {
	st := &rf.snap.state
	tree, changes, skips := team.tree, team.changes, team.skips
	for _, s := range skips {
		rf.warn("%s skipped: %s", s.Path, s.Reason)
		if s.Unreadable() {
			rf.skipped = append(rf.skipped, s.Path)
		}
	}
	changes = append(changes, rf.retrySkipped(st.Skipped, changes, tree, dir)...)
	var sources []blobSource
	for _, ch := range changes {
		if blob := ch.New.Blob; !blob.IsZero() {
			sources = append(sources, blobSource{blob, func() ([]byte, int64, error) { return rf.repo.ReadBlob(blob, maxNoteBytes) }})
		}
	}
	todo, err := rf.unstored(sources)
	if err != nil {
		return err
	}
	parsing := startParser(todo)
	defer parsing.close()
	// A first build whose blobs are all cached (a copied repository, a
	// second worktree) parses nothing: it is not reported as a first build.
	firstParse := rf.firstBuild && len(todo) > 0
	if firstParse {
		rf.releaseMemory = limitMemory(len(todo))
	}
	changed := map[string]plumbing.Hash{}
	for i, ch := range changes {
		if len(todo) > 0 && ch.New.Blob == todo[0].oid {
			rf.prepared[todo[0].oid] = parsing.next()
			todo = todo[1:]
		}
		if rf.opt.Progress != nil && i%256 == 0 {
			rf.opt.Progress(i, len(changes), firstParse)
		}
		switch wt := rf.snap.worktree; {
		case wt != nil && ch.New.Blob.IsZero():
			wt.Untrack(ch.New.Path)
		case wt != nil:
			wt.Track(ch.New.Path, ch.New.Blob)
		case !rf.target.past:
			st.pend(ch.New.Path, ch.New.Blob)
		}
		changed[ch.New.Path] = ch.New.Blob
		if err := rf.teamChange(ch); err != nil {
			return err
		}
	}
	if rf.opt.Progress != nil {
		rf.opt.Progress(len(changes), len(changes), firstParse)
	}
	dates, complete, root, err := rf.gitDates(head, plumbing.NewHash(st.Commit), changed)
	if err != nil {
		return err
	}
	if err := rf.applyGitDates(dates, complete, changed); err != nil {
		return err
	}
	st.Commit, st.Root = commitString(head), commitString(root)
	st.Tree = ""
	if !tree.IsZero() {
		st.Tree = tree.String()
	}
	st.Shallow = len(rf.shallow) > 0
	return nil
}

// retrySkipped lists, as changes, the team notes the last refresh could
// not read and that HEAD's notes tree still holds unchanged: read them
// again. A path the tree no longer holds, or that cannot be looked up, is
// dropped: the diff reports it if it comes back.
func (rf *refresher) retrySkipped(skipped []string, changes []gitrepo.NoteChange, tree plumbing.Hash, dir string) []gitrepo.NoteChange {
	if len(skipped) == 0 || tree.IsZero() {
		return nil
	}
	t, err := object.GetTree(rf.repo.Objects, tree)
	if err != nil {
		return nil
	}
	changed := map[string]bool{}
	for _, ch := range changes {
		changed[ch.New.Path] = true
	}
	var again []gitrepo.NoteChange
	for _, p := range skipped {
		rel := p
		if dir != "" {
			rel = strings.TrimPrefix(p, dir+"/")
		}
		e, err := t.FindEntry(rel)
		if err != nil || !e.Mode.IsFile() || changed[p] {
			continue
		}
		if key, ok := vault.KeyOf(rel); ok {
			again = append(again, gitrepo.NoteChange{Old: gitrepo.TeamFile{Path: p}, New: gitrepo.TeamFile{Path: p, Key: key, Blob: e.Hash}})
		}
	}
	return again
}

// teamChange records one changed team file. Its git date is filled in by
// applyGitDates.
func (rf *refresher) teamChange(ch gitrepo.NoteChange) error {
	old, err := rf.teamDocAt(ch.New.Path)
	if err != nil {
		return err
	}
	if ch.New.Blob.IsZero() {
		if old != nil {
			rf.changes = append(rf.changes, docChange{old: old})
		}
		return nil
	}
	blob := ch.New.Blob
	nd, err := rf.newDoc(old, partBase, vault.Team, ch.New.Path, ch.New.Key, blob, func() ([]byte, int64, error) {
		return rf.repo.ReadBlob(blob, maxNoteBytes)
	})
	if err != nil || (nd == nil && old == nil) {
		return err
	}
	rf.changes = append(rf.changes, docChange{old: old, new: nd})
	return nil
}

// teamDocAt loads the team document at path (relative to the repository
// root), or nil. It is found by its key, which the path gives.
func (rf *refresher) teamDocAt(path string) (*doc, error) {
	rel := path
	if dir := rf.snap.state.NotesDir; dir != "" {
		rel = strings.TrimPrefix(path, dir+"/")
	}
	key, ok := vault.KeyOf(rel)
	if !ok {
		return nil, nil
	}
	d, err := scanDoc(rf.tx.QueryRow(teamDocQuery, rf.snap.id, key, vault.Team, path))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("reading document %s: %w", path, err)
	}
	return d, nil
}

// teamDocQuery reads one document by its key, layer and path through the
// index made for that (doc_key), named outright: without table statistics
// SQLite read the snapshot's every document in the primary key's order
// instead, 2.7 ms of a post-commit hook's 17 at 10,000 notes.
var teamDocQuery = `SELECT ` + strings.Replace(docColumns, "doc d", "doc d INDEXED BY doc_key", 1) +
	` WHERE d.snap = ? AND d.key = ? AND d.layer = ? AND d.path = ?`
