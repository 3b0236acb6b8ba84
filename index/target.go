package index

import (
	"fmt"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/omh-notes/omh/vault"
	"github.com/omh-notes/omh/vault/gitrepo"
)

// target is what a snapshot reflects: the working tree now, or the store as
// it stood at a past commit.
type target struct {
	name     string        // the snapshot's name in the cache
	head     plumbing.Hash // the commit whose tree is the team layer; zero before the first
	cfg      vault.Config
	worktree bool       // also uncommitted working copies
	day      vault.Date // as of this day: only private notes recorded by then; "" for now
	past     bool       // a past commit: its tree decides the notes root, not the working tree
}

// worktreeTarget is the working tree as it is now.
func worktreeTarget(r *gitrepo.Repo, opt Options) (target, error) {
	cfg, err := r.LoadConfig()
	if err != nil {
		return target{}, err
	}
	head, err := r.Head()
	if err != nil {
		return target{}, err
	}
	return target{name: SnapshotName(r), head: head, cfg: cfg, worktree: !opt.NoWorktree && cfg.Worktree}, nil
}

// Moment is a point in the store's past: the commit the team layer is read
// at, and the day that decides which private notes existed.
type Moment struct {
	Commit plumbing.Hash
	Day    vault.Date
}

// pastPrefix starts the names of past moments' snapshots.
const pastPrefix = "asof:"

// pastTarget is the store at a moment: the commit's tree read with the
// config committed there, and the private notes recorded on or before the
// day. Working-copy edits are now, not then, and are left out.
func pastTarget(r *gitrepo.Repo, m Moment) (target, error) {
	cfg, err := r.ConfigAt(m.Commit)
	if err != nil {
		return target{}, err
	}
	return target{name: fmt.Sprintf("%s%s:%s", pastPrefix, m.Commit, m.Day), head: m.Commit, cfg: cfg, day: m.Day, past: true}, nil
}
