package store

import (
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/omh-notes/omh/index"
	"github.com/omh-notes/omh/retrieve"
	"github.com/omh-notes/omh/vault"
)

// LintReport is what omh lint found; one value for people and programs.
type LintReport struct {
	SchemaVersion int             `json:"schema_version"`
	Commit        *string         `json:"commit"`
	Checked       int             `json:"checked"` // notes reported on
	Errors        int             `json:"errors"`
	Warnings      int             `json:"warnings"`
	Strict        bool            `json:"strict"`
	Findings      []vault.Finding `json:"findings"`
}

// Failing counts the findings that fail lint: errors, and with strict
// warnings too.
func (r LintReport) Failing() int {
	if r.Strict {
		return r.Errors + r.Warnings
	}
	return r.Errors
}

// Lint checks the notes with keys (in both layers), or the whole store
// when keys is empty; strict counts warnings as failures. The whole store
// is read either way: links and duplicates are properties of the store.
func (s *Store) Lint(keys []string, strict bool) (LintReport, error) {
	for _, k := range keys {
		if err := vault.CheckKey(k); err != nil {
			return LintReport{}, refuse("bad_key", err)
		}
	}
	var rep LintReport
	err := s.read("", s.readOptions(false), func(v *view) error {
		stored, err := v.snap.Notes()
		if err != nil {
			return err
		}
		private, err := v.snap.PrivateDir()
		if err != nil {
			return err
		}
		only := map[string]bool{}
		for _, k := range keys {
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
				base := filepath.Join(s.Repo.Root, filepath.FromSlash(v.snap.NotesDir()))
				if n.Private {
					base = private
				}
				return fileOfLinkExists(base, n.Key, l.Target)
			},
		}
		findings, err := vault.Lint(lintNotes(v, stored), opt)
		if err != nil {
			return err
		}
		for _, k := range keys {
			if !found[k] {
				return v.unknownKey(k, 0)
			}
		}
		rep = LintReport{SchemaVersion: retrieve.SchemaVersion, Commit: commitOrNull(v.snap.Commit()), Checked: checked,
			Strict: strict, Findings: findings}
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
		return nil
	})
	return rep, err
}

// lintNotes turns the snapshot's notes into what lint reads. A committed
// note whose working copy differs is checked as that working copy, the
// version that will be committed.
func lintNotes(v *view, stored []index.StoredNote) []vault.LintNote {
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
			Content: func() ([]byte, error) { return v.snap.Content(n.Doc, n.Note) },
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
