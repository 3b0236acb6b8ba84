package main

import (
	"errors"

	"github.com/omh-notes/omh/reply"
	"github.com/omh-notes/omh/store"
)

// InitCmd is `omh init`.
type InitCmd struct {
	Notes   string `name:"notes" placeholder:"DIR" help:"The notes root, relative to the repository root: written to the config as notes: and created. Without it omh looks for the folder that holds the markdown files."`
	Dialect string `name:"dialect" placeholder:"NAME" help:"How the notes write links: omh, obsidian, dendron, foam, logseq, zk or markdown (a markdown site such as DocFX). Without it omh tells from the vault's marker files and links."`
	NoHooks bool   `name:"no-hooks" help:"Leave the git hooks alone."`
}

func (c *InitCmd) Run(e *env) error {
	return e.withStore(func(s *store.Store) error {
		rep, err := s.Init(c.Notes, c.Dialect, c.NoHooks)
		if err != nil {
			return err
		}
		if err := e.print(rep); err != nil {
			return err
		}
		if rep.Hooks != nil && rep.Hooks.Refused() {
			return refuse(reply.HookRefused, errors.New("a hook could not be installed; see above"))
		}
		return nil
	})
}
