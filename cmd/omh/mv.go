package main

import (
	"errors"
	"github.com/omh-notes/omh/reply"
	"github.com/omh-notes/omh/store"
)

// MvCmd is `omh mv`.
type MvCmd struct {
	Old      string `arg:"" name:"old" complete:"key" help:"The note's key now (with --fix-links, the key it had)."`
	New      string `arg:"" optional:"" name:"new" help:"The key to give it."`
	FixLinks bool   `name:"fix-links" help:"OLD was renamed in another clone: rewrite the links that still name it to the key git's history says it has now."`
}

// Help is the detail under `omh mv --help`.
func (c *MvCmd) Help() string {
	return `The note is renamed in its layer: with git mv when git tracks it, else renamed on disk (a private note stays in the private folder). Every link to it, in both layers and in every form the vault's dialect reads (see dialect: in .omh/config.yaml), is rewritten: [[old]], [[old|label]], [[old#heading]], [[old^block]], ![[old]], Dendron's [[label|old]], [[dendron://vault/old]] and #tag, markdown links relative, URL-encoded, from ~/ or under the site's path. Only the part of the name that changed is replaced, in the link's own letter case and style, so renaming back gives back every byte; when that would not reach the note alone, the link is written anew (the shortest name that does, or a path from the linking file's folder). The moved note's own relative links are recomputed from its new folder. A link to another note that the new name would make ambiguous is rewritten to keep its target. Before it says it is done, omh reads every rewritten file again with the same resolver. Rewritten files git tracks are staged; one with unstaged changes of its own has the version git's index holds rewritten the same way and staged, so a commit holds no broken link and none of the unstaged edits (when that version cannot be rewritten, nothing changes).

When no note has OLD and NEW is a note (the note was renamed in another clone, and the rename pulled), only the links that still name OLD are rewritten to NEW; --fix-links OLD finds NEW in git's history.

Nothing changes when OLD is missing or ambiguous, NEW is taken or differs only in letter case from another note or folder of notes, or some link cannot be rewritten to reach its target alone (every such link is listed).`
}

func (c *MvCmd) Run(e *env) error {
	if (c.New == "") != c.FixLinks {
		return usage(errors.New("omh mv takes OLD NEW, or --fix-links OLD"))
	}
	return e.withStore(func(s *store.Store) error {
		move := func() (store.Moved, error) { return s.Move(c.Old, c.New) }
		if c.FixLinks {
			move = func() (store.Moved, error) { return s.FixLinks(c.Old) }
		}
		rep, err := move()
		if err != nil {
			return err
		}
		if e.cli.JSON {
			return reply.JSON(e.stdout, rep)
		}
		rep.Text(e.stdout)
		for _, n := range rep.Notices {
			e.warn("%s", n)
		}
		return nil
	})
}
