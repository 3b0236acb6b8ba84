package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/omh-notes/omh/store"
	"github.com/omh-notes/omh/store/reply"
	"github.com/omh-notes/omh/vault"
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
	b.WriteString("Lint reads the notes through the cache and resolves links by the dialect in " + vault.ConfigPath + ". Exit 0 when there are no errors (warnings are reported), 1 when there are; --strict counts warnings too. ")
	b.WriteString("Without --rule it lists a screenful of findings and a count per rule. In " + vault.ConfigPath + ", lint: disable: [IDs] turns rules off and lint: ignore: [globs] skips links whose target matches (\"/answers/**\"). Rules:\n\n")
	for _, r := range vault.LintRules {
		sev := string(r.Severity)
		if r.ID == "team-links-local" {
			sev = "error or warning"
		}
		scope := ""
		switch r.Scope {
		case vault.OmhTyped:
			scope = ", in notes of omh's types or with --strict"
		case vault.StrictOnly:
			scope = ", with --strict or --rule"
		}
		fmt.Fprintf(&b, "%s (%s%s): %s.\n\n", r.ID, sev, scope, r.What)
	}
	return strings.TrimSuffix(b.String(), "\n\n")
}

func (c *LintCmd) Run(e *env) error {
	return e.withStore(func(s *store.Store) error {
		rep, err := s.Lint(c.Keys, c.Strict, c.Rules...)
		if err != nil {
			return err
		}
		if e.cli.JSON {
			if err := writeJSON(e.stdout, rep); err != nil {
				return err
			}
		} else {
			printLint(e.stdout, rep, len(c.Rules) == 0)
		}
		if n := rep.Failing(); n > 0 {
			what := countOf(n, "error", "errors")
			if c.Strict {
				what = countOf(n, "error or warning", "errors and warnings")
			}
			return refuse(reply.LintFailed, fmt.Errorf("lint failed: %s", what))
		}
		return nil
	})
}

// A screen: without --rule, lint lists at most screenFindings findings,
// perRuleShown of each rule, so that a vault with thousands of findings
// still gets a first page that fits a terminal above the per-rule summary.
const (
	screenFindings = 12
	perRuleShown   = 3
)

// printLint writes the findings for people: "path:line: severity rule:
// message", the fix indented below; then, per rule, its counts; then the
// totals. With capped, a long list is cut to a screen.
func printLint(w io.Writer, r store.LintReport, capped bool) {
	shown := r.Findings
	if capped && len(shown) > screenFindings {
		shown = nil
		perRule := map[string]int{}
		for _, f := range r.Findings {
			if perRule[f.Rule] < perRuleShown && len(shown) < screenFindings {
				perRule[f.Rule]++
				shown = append(shown, f)
			}
		}
	}
	for _, f := range shown {
		where := f.Path
		if f.Line > 0 {
			where = fmt.Sprintf("%s:%d", f.Path, f.Line)
		}
		fmt.Fprintf(w, "%s: %s %s: %s\n    fix: %s\n", oneLine(where), f.Severity, f.Rule, oneLine(f.Message), oneLine(f.Fix))
	}
	if len(shown) < len(r.Findings) {
		fmt.Fprintf(w, "(%d of %d findings shown; omh lint --rule ID lists every finding of a rule, --json all of them)\n", len(shown), len(r.Findings))
	}
	for _, c := range r.Rules {
		var parts []string
		if c.Errors > 0 {
			parts = append(parts, countOf(c.Errors, "error", "errors"))
		}
		if c.Warnings > 0 {
			parts = append(parts, countOf(c.Warnings, "warning", "warnings"))
		}
		fmt.Fprintf(w, "%-20s %s in %s\n", c.Rule, strings.Join(parts, " and "), countNotes(c.Notes))
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
