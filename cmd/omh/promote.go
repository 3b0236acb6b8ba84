package main

import (
	"github.com/omh-notes/omh/store"
)

// PromoteCmd is `omh promote`.
type PromoteCmd struct {
	Keys []string `arg:"" name:"key" complete:"key" help:"Keys of private notes to move into the notes root, all or none."`
}

// Help is the detail under `omh promote --help`.
func (c *PromoteCmd) Help() string {
	return `Each note moves to the same key under the notes root and is staged with git add; the command that commits exactly these files is printed, so the commit stays the review. Nothing changes (files and git's index stay as they were) when any note is missing from the private folder, is ambiguous, already exists in the team layer, the working tree or git's index, or links to a note that would stay on this machine: a private note or an uncommitted file not promoted in the same batch.

The private folder may be on another file system: every note is copied and synced and staged before any private file is removed; a failing step takes the copies back out.`
}

func (c *PromoteCmd) Run(e *env) error {
	return e.withStore(func(s *store.Store) error {
		rep, err := s.Promote(c.Keys)
		if err != nil {
			return err
		}
		return e.print(rep)
	})
}
