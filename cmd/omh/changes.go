package main

import "github.com/omh-notes/omh/store"

// ChangesCmd is `omh changes`.
type ChangesCmd struct {
	Since  string `name:"since" placeholder:"DATE|COMMIT" help:"A date (YYYY-MM-DD: changes made on it or later) or a commit (an id, branch or tag): list what changed since (default: the ${changes_days} days up to the last commit)."`
	Limit  int    `name:"limit" default:"${changes_limit}" placeholder:"N" help:"How many changes a reply lists (default ${default}; 0 lists them all); the reply counts the rest."`
	Offset int    `name:"offset" default:"0" placeholder:"K" help:"Skip the first K changes: the next page starts where the reply says."`
}

// Help is the detail under `omh changes --help`.
func (c *ChangesCmd) Help() string {
	return `Lists the notes added, changed, renamed and removed since a moment, newest first: the working tree's uncommitted changes, then each commit's (git log's, renames found as git log -M finds them), each with its commit, author, date and first lines. An agent starting work asks it once to learn what the team recorded since it last looked, then passes the commit the reply ends with as --since next time.`
}

func (c *ChangesCmd) Run(e *env) error {
	page, err := store.NewChangesPage(c.Offset, c.Limit)
	if err != nil {
		return err
	}
	return e.withStore(func(s *store.Store) error {
		changes, err := s.Changes(c.Since, page)
		if err != nil {
			return err
		}
		return e.print(changes)
	})
}
