package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/omh-notes/omh/store"
	"github.com/omh-notes/omh/vault"
)

// LintCmd is `omh lint`.
type LintCmd struct {
	Keys   []string `arg:"" optional:"" name:"key" help:"Check only the notes with these keys (in both layers); the whole store when none is given."`
	Strict bool     `name:"strict" help:"Count warnings as errors."`
}

// Help is the detail under `omh lint --help`: the rules, from the table
// lint runs.
func (c *LintCmd) Help() string {
	var b strings.Builder
	b.WriteString("Lint reads the notes through the cache. Exit 0 when there are no errors (warnings are reported), 1 when there are; --strict counts warnings too. Rules:\n\n")
	for _, r := range vault.LintRules {
		sev := string(r.Severity)
		if r.ID == "team-links-local" {
			sev = "error or warning"
		}
		fmt.Fprintf(&b, "%s (%s): %s.\n\n", r.ID, sev, r.What)
	}
	return strings.TrimSuffix(b.String(), "\n\n")
}

func (c *LintCmd) Run(e *env) error {
	return e.withStore(func(s *store.Store) error {
		rep, err := s.Lint(c.Keys, c.Strict)
		if err != nil {
			return err
		}
		if e.cli.JSON {
			if err := writeJSON(e.stdout, rep); err != nil {
				return err
			}
		} else {
			printLint(e.stdout, rep)
		}
		if n := rep.Failing(); n > 0 {
			what := "errors"
			if c.Strict {
				what = "errors and warnings"
			}
			return refuse("lint_failed", fmt.Errorf("lint failed: %d %s", n, what))
		}
		return nil
	})
}

// printLint writes the findings for people: "path:line: severity rule:
// message", the fix indented below, and a count.
func printLint(w io.Writer, r store.LintReport) {
	for _, f := range r.Findings {
		where := f.Path
		if f.Line > 0 {
			where = fmt.Sprintf("%s:%d", f.Path, f.Line)
		}
		fmt.Fprintf(w, "%s: %s %s: %s\n    fix: %s\n", oneLine(where), f.Severity, f.Rule, oneLine(f.Message), oneLine(f.Fix))
	}
	notes := map[string]bool{}
	for _, f := range r.Findings {
		notes[f.Layer+"\x00"+f.Path] = true
	}
	switch {
	case len(r.Findings) == 0:
		fmt.Fprintf(w, "no problems in %s\n", countNotes(r.Checked))
	default:
		fmt.Fprintf(w, "%s and %s in %d of %s\n", countOf(r.Errors, "error", "errors"), countOf(r.Warnings, "warning", "warnings"),
			len(notes), countNotes(r.Checked))
	}
}
