package main

import (
	"fmt"
	"strings"

	"github.com/omh-notes/omh/store"
	"github.com/omh-notes/omh/store/reply"
)

// LintCmd is `omh lint`.
type LintCmd struct {
	Keys   []string `arg:"" optional:"" name:"key" complete:"key" help:"Check only the notes with these keys (in both layers); the whole store when none is given."`
	Strict bool     `name:"strict" help:"Check every rule in every note, and count warnings as errors."`
	Rules  []string `name:"rule" placeholder:"ID" help:"Check only this rule, in every note, and list all its findings (repeatable)."`
}

// Help is the detail under `omh lint --help`: the rules, from the table
// lint runs.
func (c *LintCmd) Help() string {
	var b strings.Builder
	b.WriteString("Lint reads the notes through the cache and resolves links by the dialect in " + store.ConfigPath + ". Exit 0 when there are no errors (warnings are reported), 1 when there are; --strict counts warnings too. ")
	b.WriteString("Without --rule it lists a screenful of findings and a count per rule. In " + store.ConfigPath + ", lint: disable: [IDs] turns rules off and lint: ignore: [globs] skips links whose target matches (\"/answers/**\"). Rules:\n\n")
	b.WriteString(store.LintRulesText())
	return b.String()
}

func (c *LintCmd) Run(e *env) error {
	return e.withStore(func(s *store.Store) error {
		rep, err := s.Lint(c.Keys, c.Strict, c.Rules...)
		if err != nil {
			return err
		}
		if err := e.print(rep); err != nil {
			return err
		}
		if n := rep.Failing(); n > 0 {
			what := reply.CountOf(n, "error", "errors")
			if c.Strict {
				what = reply.CountOf(n, "error or warning", "errors and warnings")
			}
			return refuse(reply.LintFailed, fmt.Errorf("lint failed: %s", what))
		}
		return nil
	})
}
