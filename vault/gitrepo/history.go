package gitrepo

import (
	"fmt"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/omh-notes/omh/vault"
)

// Step is one commit on a first-parent walk: what it changed against its
// first parent and when.
type Step struct {
	Commit        plumbing.Hash
	Parent        plumbing.Hash // zero at a root commit or a shallow boundary
	Boundary      bool          // the commit has a parent this clone does not hold
	Author        vault.Date    // author date, in the author's own offset
	Committed     vault.Date    // committer date, in the committer's own offset
	CommittedUnix int64
	Changed       []string // note paths (repository-relative) added or modified against the parent
}

// StepOf reads one commit and diffs it against its first parent. shallow
// holds the commits whose parents this clone lacks.
func (r *Repo) StepOf(commit plumbing.Hash, shallow map[plumbing.Hash]bool) (Step, error) {
	c, err := r.Commit(commit)
	if err != nil {
		return Step{}, err
	}
	s := Step{
		Commit:        commit,
		Author:        vault.DateOf(c.Author.When),
		Committed:     vault.DateOf(c.Committer.When),
		CommittedUnix: c.Committer.When.Unix(),
	}
	var parentTree plumbing.Hash
	if len(c.ParentHashes) > 0 {
		if shallow[commit] {
			s.Boundary = true
		} else {
			s.Parent = c.ParentHashes[0]
			p, err := r.Commit(s.Parent)
			if err != nil {
				return Step{}, fmt.Errorf("first parent of %s: %w", commit, err)
			}
			parentTree = p.TreeHash
		}
	}
	r.stepMu.Lock()
	w := treeDiff{repo: r, keepOmh: true, known: r.stepTrees, read: map[plumbing.Hash][]byte{}}
	err = w.diff(parentTree, c.TreeHash, "", 0)
	r.stepTrees = w.read
	r.stepMu.Unlock()
	if err != nil {
		return Step{}, err
	}
	for _, ch := range w.changes {
		if !ch.New.Blob.IsZero() {
			s.Changed = append(s.Changed, ch.New.Path)
		}
	}
	return s, nil
}
