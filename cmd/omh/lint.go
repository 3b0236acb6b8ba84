package main

import (
	"cmp"
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/omh-notes/omh/reply"
	"github.com/omh-notes/omh/store"
)

// LintCmd is `omh lint`.
type LintCmd struct {
	Keys   []string `arg:"" optional:"" name:"key" complete:"key" help:"Check only the notes with these keys (in both layers); the whole store when none is given."`
	Strict bool     `name:"strict" help:"Check every rule in every note, and count warnings as errors."`
	Rules  []string `name:"rule" placeholder:"ID" help:"Check only this rule, in every note, and list all its findings (repeatable)."`
	Staged bool     `name:"staged" help:"Check the notes as git's index holds them, what a commit would hold (for a pre-commit hook): edits not staged are left out."`
}

// Help is the detail under `omh lint --help`: the rules, from the table
// lint runs.
func (c *LintCmd) Help() string {
	var b strings.Builder
	b.WriteString("Lint reads the notes through the cache and resolves links by the dialect in " + store.ConfigPath + ". Exit 0 when there are no errors (warnings are reported), 1 when there are; --strict counts warnings too. ")
	b.WriteString("Without --rule it lists as many findings as fill the terminal ($LINES rows, else its own, else 24), a rule at a time, then a count per rule. In " + store.ConfigPath + ", lint: disable: [IDs] turns rules off and lint: ignore: [globs] skips links whose target matches (\"/answers/**\"). Rules:\n\n")
	b.WriteString(store.LintRulesText())
	return b.String()
}

func (c *LintCmd) Run(e *env) error {
	return e.withStore(func(s *store.Store) error {
		lint := s.Lint
		if c.Staged {
			lint = s.LintStaged
		}
		rep, err := lint(c.Keys, c.Strict, c.Rules...)
		if err != nil {
			return err
		}
		rep.FitTo(e.screen())
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

// screen is the rows and columns of the terminal standard output is read
// on: $LINES and $COLUMNS where set, else the terminal's own size; 0 where
// unknown (a pipe, a file).
func (e *env) screen() (rows, cols int) {
	rows, cols = sizeFrom("LINES"), sizeFrom("COLUMNS")
	out := e.stdout
	if sw, ok := out.(safeWriter); ok {
		out = sw.w
	}
	if f, ok := out.(*os.File); ok && (rows == 0 || cols == 0) {
		r, c := terminalSize(f)
		rows, cols = cmp.Or(rows, r), cmp.Or(cols, c)
	}
	return rows, cols
}

// sizeFrom reads a terminal size from the environment; 0 when it is unset
// or not a positive number.
func sizeFrom(name string) int {
	n, err := strconv.Atoi(os.Getenv(name))
	if err != nil || n < 0 {
		return 0
	}
	return n
}
