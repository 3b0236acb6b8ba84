package main

import (
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/omh-notes/omh/index"
	"github.com/omh-notes/omh/retrieve"
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

// lintReport is omh lint's answer; one value for people and programs.
type lintReport struct {
	SchemaVersion int             `json:"schema_version"`
	Commit        *string         `json:"commit"`
	Checked       int             `json:"checked"` // notes reported on
	Errors        int             `json:"errors"`
	Warnings      int             `json:"warnings"`
	Strict        bool            `json:"strict"`
	Findings      []vault.Finding `json:"findings"`
}

func (c *LintCmd) Run(e *env) error {
	for _, k := range c.Keys {
		if err := vault.CheckKey(k); err != nil {
			return refuse("bad_key", err)
		}
	}
	return e.withStore(index.Options{LockWait: lockWait, Progress: e.progress()}, func(s *store) error {
		stored, err := s.snap.Notes()
		if err != nil {
			return err
		}
		private, err := s.snap.PrivateDir()
		if err != nil {
			return err
		}
		notes := lintNotes(s, stored)
		only := map[string]bool{}
		for _, k := range c.Keys {
			only[k] = true
		}
		found := map[string]bool{}
		checked := 0
		opt := vault.LintOptions{
			Report: func(n *vault.LintNote) bool {
				if len(only) > 0 && !only[n.Key] {
					return false
				}
				found[n.Key] = true
				checked++
				return true
			},
			NotANote: func(n *vault.LintNote, l vault.Link) bool {
				base := filepath.Join(s.repo.Root, filepath.FromSlash(s.snap.NotesDir()))
				if n.Private {
					base = private
				}
				return fileOfLinkExists(base, n.Key, l.Target)
			},
		}
		findings, err := vault.Lint(notes, opt)
		if err != nil {
			return err
		}
		for _, k := range c.Keys {
			if !found[k] {
				return refuseUnknownKey(s, k, 0)
			}
		}
		rep := lintReport{SchemaVersion: retrieve.SchemaVersion, Checked: checked, Strict: c.Strict, Findings: findings}
		if commit := s.snap.Commit(); commit != "" {
			rep.Commit = &commit
		}
		if rep.Findings == nil {
			rep.Findings = []vault.Finding{}
		}
		for _, f := range findings {
			if f.Severity == vault.SevError {
				rep.Errors++
			} else {
				rep.Warnings++
			}
		}
		if e.cli.JSON {
			if err := writeJSON(e.stdout, rep); err != nil {
				return err
			}
		} else {
			rep.print(e.stdout)
		}
		failing := rep.Errors
		if c.Strict {
			failing += rep.Warnings
		}
		if failing > 0 {
			what := "errors"
			if c.Strict {
				what = "errors and warnings"
			}
			return refuse("lint_failed", fmt.Errorf("lint failed: %d %s", failing, what))
		}
		return nil
	})
}

// lintNotes turns the snapshot's notes into what lint reads. A committed
// note whose working copy differs is checked as that working copy, the
// version that will be committed.
func lintNotes(s *store, stored []index.StoredNote) []vault.LintNote {
	edited := map[string]bool{}
	for _, n := range stored {
		if n.Worktree {
			edited[n.Note.Path] = true
		}
	}
	notes := make([]vault.LintNote, 0, len(stored))
	for _, n := range stored {
		n := n
		notes = append(notes, vault.LintNote{
			Key: n.Note.Key, Layer: n.Note.Layer, Worktree: n.Worktree, Private: n.Private, Path: n.Note.Path,
			Parsed: n.Parsed, Shadowed: n.Note.Layer == vault.Team && edited[n.Note.Path],
			Content: func() ([]byte, error) { return s.snap.Content(n.Doc, n.Note) },
		})
	}
	return notes
}

// fileOfLinkExists reports whether a markdown link from the note with key
// from names a file that exists under base (the notes root, or the private
// folder): a link to something that is not a note, such as an excluded
// README.
func fileOfLinkExists(base, from, target string) bool {
	p := path.Join(path.Dir(from), target)
	if strings.HasPrefix(target, "/") {
		p = path.Clean(strings.TrimPrefix(target, "/"))
	}
	if p == "." || p == ".." || strings.HasPrefix(p, "../") {
		return false
	}
	for _, name := range []string{p, p + vault.NoteExt} {
		if _, err := os.Lstat(filepath.Join(base, filepath.FromSlash(name))); err == nil {
			return true
		}
	}
	return false
}

// print writes the findings for people: "path:line: severity rule:
// message", the fix indented below, and a count.
func (r *lintReport) print(w io.Writer) {
	for _, f := range r.Findings {
		where := f.Path
		if f.Line > 0 {
			where = fmt.Sprintf("%s:%d", f.Path, f.Line)
		}
		fmt.Fprintf(w, "%s: %s %s: %s\n    fix: %s\n", where, f.Severity, f.Rule, f.Message, f.Fix)
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

func countNotes(n int) string { return countOf(n, "note", "notes") }

func countOf(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}
