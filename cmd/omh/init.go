package main

import (
	"errors"
	"fmt"
	"strings"

	"github.com/omh-notes/omh/store"
	"github.com/omh-notes/omh/store/reply"
	"github.com/omh-notes/omh/vault"
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
		if e.cli.JSON {
			if err := writeJSON(e.stdout, rep); err != nil {
				return err
			}
		} else {
			e.printInit(&rep)
		}
		if rep.Hooks != nil && rep.Hooks.Refused() {
			return refuse(reply.HookRefused, errors.New("a hook could not be installed; see above"))
		}
		return nil
	})
}

func (e *env) printInit(rep *store.Initialized) {
	w := e.stdout
	if rep.Config.Change == "written" {
		fmt.Fprintf(w, "wrote %s (notes root: %s; dialect: %s); commit it to share it with everyone who clones the repository\n", vault.ConfigPath, store.DescribeNotes(rep.NotesRoot.Path), rep.Dialect.Name)
		for _, why := range rep.Detected {
			fmt.Fprintf(w, "  %s\n", why)
		}
		fmt.Fprintf(w, "  to change them, edit notes: and dialect: in %s (dialects: %s)\n", vault.ConfigPath, strings.Join(vault.DialectNames(), ", "))
	} else {
		fmt.Fprintf(w, "kept %s as it is (notes root: %s; dialect: %s)\n", vault.ConfigPath, store.DescribeNotes(rep.NotesRoot.Path), rep.Dialect.Name)
	}
	switch rep.NotesRoot.Change {
	case "created":
		fmt.Fprintf(w, "created the notes folder %s/\n", rep.NotesRoot.Path)
	case "exists":
		fmt.Fprintf(w, "the notes folder %s/ exists\n", rep.NotesRoot.Path)
	}
	if rep.Hooks != nil {
		fmt.Fprintf(w, "git hooks in %s:\n", rep.Hooks.Shown(rep.Hooks.HooksDir))
		printHooks(w, rep.Hooks)
	} else {
		fmt.Fprintln(w, "git hooks left alone (--no-hooks); omh hooks install adds them later")
	}
	if !rep.Changed {
		fmt.Fprintln(w, "nothing changed: omh was already set up here")
	}
}
