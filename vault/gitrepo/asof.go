package gitrepo

import (
	"errors"
	"fmt"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/go-git/go-git/v5/plumbing/storer"

	"github.com/omh-notes/omh/vault"
)

// ErrBeforeHistory means the moment asked for precedes the first commit:
// the store did not exist yet.
var ErrBeforeHistory = errors.New("the store did not exist yet")

// ErrPastShallow means the moment lies beyond a shallow clone's boundary:
// the history is not in this clone.
var ErrPastShallow = errors.New("that part of the history is not in this clone (a shallow clone)")

// CommitOnDay walks first parents from commit and returns the first whose
// committer date, read in its own offset, is on or before day: the store as
// it stood that day.
func (r *Repo) CommitOnDay(commit plumbing.Hash, day vault.Date) (plumbing.Hash, error) {
	shallow, err := r.shallowSet()
	if err != nil {
		return plumbing.ZeroHash, err
	}
	for !commit.IsZero() {
		c, err := r.Commit(commit)
		if err != nil {
			return plumbing.ZeroHash, err
		}
		if vault.DateOf(c.Committer.When) <= day {
			return commit, nil
		}
		if len(c.ParentHashes) == 0 {
			return plumbing.ZeroHash, ErrBeforeHistory
		}
		if shallow[commit] {
			return plumbing.ZeroHash, ErrPastShallow
		}
		commit = c.ParentHashes[0]
	}
	return plumbing.ZeroHash, ErrBeforeHistory
}

// CommittedOn is the day a commit was made, in its committer's offset.
func (r *Repo) CommittedOn(commit plumbing.Hash) (vault.Date, error) {
	c, err := r.Commit(commit)
	if err != nil {
		return "", err
	}
	return vault.DateOf(c.Committer.When), nil
}

func (r *Repo) shallowSet() (map[plumbing.Hash]bool, error) {
	list, err := r.Shallow()
	if err != nil {
		return nil, fmt.Errorf("reading the shallow clone's boundary: %w", err)
	}
	set := make(map[plumbing.Hash]bool, len(list))
	for _, h := range list {
		set[h] = true
	}
	return set, nil
}

// maxPrefixWalk bounds the history searched for an abbreviated commit id.
const maxPrefixWalk = 100000

// ResolveCommit names a commit: a full id, a branch or tag, or an
// abbreviated id (four characters at least) of a commit on HEAD's
// first-parent history.
func (r *Repo) ResolveCommit(name string) (plumbing.Hash, error) {
	if plumbing.IsHash(name) {
		h := plumbing.NewHash(name)
		if _, err := r.Commit(h); err != nil {
			return plumbing.ZeroHash, err
		}
		return h, nil
	}
	for _, ref := range []string{name, "refs/heads/" + name, "refs/tags/" + name} {
		if h, err := r.refCommit(plumbing.ReferenceName(ref)); err == nil {
			return h, nil
		}
	}
	prefix := strings.ToLower(name)
	if len(prefix) < 4 || strings.Trim(prefix, "0123456789abcdef") != "" {
		return plumbing.ZeroHash, fmt.Errorf("no commit, branch or tag is named %q", name)
	}
	head, err := r.Head()
	if err != nil {
		return plumbing.ZeroHash, err
	}
	for h, n := head, 0; !h.IsZero() && n < maxPrefixWalk; n++ {
		if strings.HasPrefix(h.String(), prefix) {
			return h, nil
		}
		c, err := r.Commit(h)
		if err != nil || len(c.ParentHashes) == 0 {
			break
		}
		h = c.ParentHashes[0]
	}
	return plumbing.ZeroHash, fmt.Errorf("no commit on HEAD's history starts with %q", name)
}

// refCommit resolves a reference to the commit it names, through an
// annotated tag if need be.
func (r *Repo) refCommit(name plumbing.ReferenceName) (plumbing.Hash, error) {
	ref, err := storer.ResolveReference(r.Objects, name)
	if err != nil {
		return plumbing.ZeroHash, err
	}
	h := ref.Hash()
	if tag, err := object.GetTag(r.Objects, h); err == nil {
		c, err := tag.Commit()
		if err != nil {
			return plumbing.ZeroHash, err
		}
		return c.Hash, nil
	}
	return h, nil
}
