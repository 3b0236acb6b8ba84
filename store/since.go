package store

import (
	"errors"
	"fmt"
	"time"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/omh-notes/omh/reply"
	"github.com/omh-notes/omh/vault"
	"github.com/omh-notes/omh/vault/gitrepo"
)

// since is the moment --since names, from which changes count.
type since struct {
	spec string
	// commit is the last commit before the moment: what changed since is
	// what it does not hold. Zero before the first commit, when every note
	// is new.
	commit plumbing.Hash
	// nanos is the moment as a time (a date's midnight in UTC, a commit's
	// committer time), for the private notes, which git's history never
	// holds: they count from their file's modification time.
	nanos int64
}

// sinceOf reads --since on HEAD's history from head: a date (changes made
// on it or later: counted from the last first-parent commit made before it,
// by its committer's own clock, as --as-of reads days) or a commit (an id,
// a branch or a tag).
func (s *Store) sinceOf(spec string, head plumbing.Hash) (since, error) {
	r := s.Repo
	if day := vault.Date(spec); day.Valid() {
		midnight, _ := time.Parse(time.DateOnly, spec)
		out := since{spec: spec, nanos: midnight.UnixNano()}
		if head.IsZero() {
			return out, nil
		}
		c, err := r.CommitOnDay(head, vault.DateOf(midnight.AddDate(0, 0, -1)))
		switch {
		case errors.Is(err, gitrepo.ErrBeforeHistory):
			return out, nil
		case errors.Is(err, gitrepo.ErrPastShallow):
			return since{}, refuse(reply.BadSince, fmt.Errorf("--since %s: the history before it is not in this clone: it is shallow (git fetch --unshallow brings it)", spec))
		case err != nil:
			return since{}, err
		}
		out.commit = c
		return out, nil
	}
	c, err := r.ResolveCommit(spec)
	if err != nil {
		hint := ""
		if len(spec) > len("YYYY-MM-DD") && vault.Date(spec[:10]).Valid() {
			hint = "; for that day, give --since " + spec[:10]
		}
		return since{}, refuse(reply.BadSince, fmt.Errorf("--since %s: %w; it takes a date (YYYY-MM-DD) or a commit (an id, branch or tag)%s", spec, err, hint))
	}
	commit, err := r.Commit(c)
	if err != nil {
		return since{}, err
	}
	return since{spec: spec, commit: c, nanos: commit.Committer.When.UnixNano()}, nil
}
