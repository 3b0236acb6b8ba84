package store

import (
	"cmp"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/omh-notes/omh/index"
	"github.com/omh-notes/omh/internal/exclude"
	"github.com/omh-notes/omh/reply"
	"github.com/omh-notes/omh/vault"
	"github.com/omh-notes/omh/vault/gitcli"
	"github.com/omh-notes/omh/vault/gitrepo"
	"github.com/omh-notes/omh/vault/lint"
)

// LintReport is what omh lint found; one value for people and programs.
type LintReport struct {
	SchemaVersion int             `json:"schema_version"`
	ruled         bool            // rules were asked for: text lists every finding
	Commit        *string         `json:"commit"`
	Checked       int             `json:"checked"` // notes reported on
	Errors        int             `json:"errors"`
	Warnings      int             `json:"warnings"`
	Strict        bool            `json:"strict"`
	Staged        bool            `json:"staged"` // the notes as git's index holds them (--staged)
	Dialect       string          `json:"dialect"`
	Findings      []reply.Finding `json:"findings"`
	// Rules counts the findings of each rule that made some.
	Rules []reply.RuleCount `json:"rules"`
	// rows and cols are the terminal's the text is read on; 0 when unknown.
	rows, cols int
}

// FitTo sets the terminal the text report is read on, rows by cols (0
// when unknown): a long report fills that screen.
func (r *LintReport) FitTo(rows, cols int) { r.rows, r.cols = rows, cols }

// defaultRows is the screen a long report fills when the terminal's rows
// are unknown (a pipe, a file): the classic 24.
const defaultRows = 24

// screenful returns the findings the text shows: every one when rules were
// asked for or all fit; else as many as fill the screen above the lines
// under them (the shown count, a line per rule, the totals, the failure)
// and the prompt. They are taken a rule at a time, the first finding of each rule,
// then the second, so a rule with thousands does not hide the others, and
// shown in report order.
func (r LintReport) screenful() []reply.Finding {
	rows := r.rows
	if rows <= 0 {
		rows = defaultRows
	}
	under := len(r.Rules) + 1 + 1 // a line per rule, the totals, the prompt
	if r.Failing() > 0 {
		under++ // and the line on standard error saying lint failed
	}
	heights := make([]int, len(r.Findings))
	total := 0
	for i, f := range r.Findings {
		heights[i] = r.height(findingText(f))
		total += heights[i]
	}
	if r.ruled || total <= rows-under {
		return r.Findings
	}
	room := rows - under - 1 // and the line counting what is shown
	byRule := map[string][]int{}
	var order []string
	for i, f := range r.Findings {
		if byRule[f.Rule] == nil {
			order = append(order, f.Rule)
		}
		byRule[f.Rule] = append(byRule[f.Rule], i)
	}
	picked := make([]bool, len(r.Findings))
	n := 0
fill:
	for round := 0; ; round++ {
		more := false
		for _, rule := range order {
			if round >= len(byRule[rule]) {
				continue
			}
			i := byRule[rule][round]
			if heights[i] > room && n > 0 {
				break fill
			}
			picked[i], room, n, more = true, room-heights[i], n+1, true
		}
		if !more {
			break
		}
	}
	shown := make([]reply.Finding, 0, n)
	for i, f := range r.Findings {
		if picked[i] {
			shown = append(shown, f)
		}
	}
	return shown
}

// height counts the rows text takes on the screen, its long lines wrapped
// at the terminal's width (in runes: lint's text is mostly paths).
func (r LintReport) height(text string) int {
	rows := 0
	for _, line := range strings.Split(strings.TrimSuffix(text, "\n"), "\n") {
		rows++
		if w := utf8.RuneCountInString(line); r.cols > 0 && w > r.cols {
			rows += (w - 1) / r.cols
		}
	}
	return rows
}

// findingText is one finding as the text report prints it:
// "path:line: severity rule: message", the fix indented below.
func findingText(f reply.Finding) string {
	where := f.Path
	if f.Line > 0 {
		where = fmt.Sprintf("%s:%d", f.Path, f.Line)
	}
	return fmt.Sprintf("%s: %s %s: %s\n    fix: %s\n", reply.OneLine(where), f.Severity, f.Rule, reply.OneLine(f.Message), reply.OneLine(f.Fix))
}

// findingsJSON converts findings for the report; the list is empty rather
// than null.
func findingsJSON(findings []lint.Finding) []reply.Finding {
	out := make([]reply.Finding, len(findings))
	for i, f := range findings {
		out[i] = reply.Finding{Rule: f.Rule, Severity: string(f.Severity), Key: f.Key, Layer: f.Layer, Path: f.Path, Line: f.Line, Message: f.Message, Fix: f.Fix}
	}
	return out
}

// ruleCountsJSON converts lint's summary; the list is empty rather than
// null.
func ruleCountsJSON(counts []lint.RuleCount) []reply.RuleCount {
	out := make([]reply.RuleCount, len(counts))
	for i, c := range counts {
		out[i] = reply.RuleCount(c)
	}
	return out
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
// when keys is empty. Without rules it checks what breaks links and search
// in every note, and omh's own conventions in notes of omh's types; strict
// checks every rule everywhere and counts warnings as failures; rules names
// the only rules to check. The config's lint: disables rules and ignores
// links. The whole store is read either way: links and duplicates are
// properties of the store.
func (s *Store) Lint(keys []string, strict bool, rules ...string) (LintReport, error) {
	return s.lint(keys, strict, false, rules)
}

// LintStaged checks the notes as a commit would hold them, as Lint checks
// the store: the team layer as git's index has it (a path in a merge
// conflict as its working copy), beside the private notes; uncommitted
// edits git has not staged are left out. What a pre-commit hook runs.
func (s *Store) LintStaged(keys []string, strict bool, rules ...string) (LintReport, error) {
	return s.lint(keys, strict, true, rules)
}

func (s *Store) lint(keys []string, strict, staged bool, rules []string) (LintReport, error) {
	for _, k := range keys {
		if err := vault.CheckKey(k); err != nil {
			return LintReport{}, refuse(reply.BadKey, err)
		}
	}
	for _, r := range rules {
		if _, ok := lint.LookupRule(r); !ok {
			return LintReport{}, invalid(fmt.Errorf("--rule %s: there is no such rule; the rules are %s", r, strings.Join(vault.LintRuleIDs, ", ")))
		}
	}
	cfg, err := s.config()
	if err != nil {
		return LintReport{}, classify(err)
	}
	var rep LintReport
	err = s.read("", s.readOptions(false), func(v *view) error {
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
		opt := lint.LintOptions{
			Report: func(n *lint.LintNote) bool {
				if len(only) > 0 && !only[n.Key] {
					return false
				}
				found[n.Key] = true
				checked++
				return true
			},
			NotANote: func(n *lint.LintNote, l vault.Link) bool {
				base := filepath.Join(s.Repo.Root, filepath.FromSlash(v.snap.NotesDir()))
				if n.Private {
					base = private
				}
				p, ok := cfg.Dialect.MarkdownPath(l, n.Key)
				return ok && fileExists(base, p)
			},
			Dialect: cfg.Dialect, Rules: rules, Strict: strict, Disabled: cfg.Lint.Disable, IgnoreLinks: cfg.Lint.Ignore,
			Stores:  s.storeNames(cfg),
			Renamed: func() map[string]lint.Renamed { return s.renamedKeys(v.snap.NotesDir()) },
		}
		notes := lintNotes(v, stored)
		if staged {
			if notes, err = s.stagedNotes(v, stored, cfg.Exclude); err != nil {
				return err
			}
		}
		findings, err := lint.Lint(notes, opt)
		if err != nil {
			return err
		}
		for _, k := range keys {
			if !found[k] {
				return v.unknownKey(k, 0, "")
			}
		}
		rep = LintReport{SchemaVersion: reply.SchemaVersion, Commit: orNull(v.snap.Commit()), Checked: checked, Staged: staged,
			ruled: len(rules) > 0, Strict: strict, Dialect: cfg.Dialect.String(), Findings: findingsJSON(findings), Rules: ruleCountsJSON(lint.Summarize(findings))}
		for _, f := range findings {
			if f.Severity == lint.SevError {
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
func lintNotes(v *view, stored []index.StoredNote) []lint.LintNote {
	edited := map[string]bool{}
	for _, n := range stored {
		if n.Worktree {
			edited[n.Note.Path] = true
		}
	}
	notes := make([]lint.LintNote, 0, len(stored))
	for _, n := range stored {
		n := n
		notes = append(notes, lint.LintNote{
			Key: n.Note.Key, Layer: n.Note.Layer, Worktree: n.Worktree, Private: n.Private, Path: n.Note.Path,
			Parsed: n.Parsed, Shadowed: n.Note.Layer == vault.Team && edited[n.Note.Path],
			Content: func() ([]byte, error) { return v.snap.Content(n.Doc, n.Note) },
		})
	}
	return notes
}

// stagedNotes are the notes a commit would hold, as lint reads them: each
// note file git's index holds under the notes root (a file in a merge
// conflict, which has no single entry, as its working copy: what git add
// would stage), and the private notes. A blob the snapshot parsed already
// is not parsed again.
func (s *Store) stagedNotes(v *view, stored []index.StoredNote, exclude exclude.Globs) ([]lint.LintNote, error) {
	known := make(map[plumbing.Hash]index.StoredNote, len(stored))
	var notes []lint.LintNote
	for _, n := range stored {
		known[n.Note.Blob] = n
		if n.Private {
			notes = append(notes, lintNotes(v, []index.StoredNote{n})...)
		}
	}
	dir := v.snap.NotesDir()
	entries, err := gitcli.Staged(s.Repo.Root, cmp.Or(dir, "."))
	if err != nil {
		return nil, refuse(reply.GitFailed, err)
	}
	merged := map[string]bool{}
	for _, e := range entries {
		merged[e.Path] = merged[e.Path] || e.Stage == 0
	}
	for i, e := range entries {
		rel := e.Path
		if dir != "" {
			rel = strings.TrimPrefix(e.Path, dir+"/")
		}
		key, ok := vault.KeyOf(rel)
		switch {
		case !ok, !strings.HasSuffix(e.Path, vault.NoteExt), e.Mode != 0o100644 && e.Mode != 0o100755, exclude.Match(rel):
			continue
		case e.Stage != 0 && (merged[e.Path] || i > 0 && entries[i-1].Path == e.Path):
			continue // a conflicted path once, as its working copy
		}
		read := func() ([]byte, error) {
			b, _, err := s.Repo.ReadBlob(e.Blob, vault.MaxMarkdownBytes+1)
			return b, err
		}
		if e.Stage != 0 {
			read = func() ([]byte, error) {
				_, b, _, err := gitrepo.ReadFile(filepath.Join(s.Repo.Root, filepath.FromSlash(e.Path)), vault.MaxMarkdownBytes+1)
				return b, err
			}
		}
		n, ok := known[e.Blob]
		if !ok || e.Stage != 0 {
			content, err := read()
			if errors.Is(err, fs.ErrNotExist) {
				continue
			}
			if err != nil {
				return nil, fmt.Errorf("reading %s as git's index holds it: %w", e.Path, err)
			}
			n = index.StoredNote{Parsed: vault.ParseNote(content), Binary: vault.LooksBinary(content)}
		}
		if n.Binary {
			continue
		}
		notes = append(notes, lint.LintNote{Key: key, Layer: vault.Team, Path: e.Path, Parsed: n.Parsed, Content: read})
	}
	slices.SortStableFunc(notes, func(a, b lint.LintNote) int {
		return cmp.Or(strings.Compare(a.Key, b.Key), cmp.Compare(a.Layer, b.Layer))
	})
	return notes, nil
}

// fileExists reports whether the file p (from the notes root, or the
// private folder), or p with ".md", exists under base: a link to something
// that is not a note, such as an excluded README or a picture.
func fileExists(base, p string) bool {
	for _, name := range []string{p, p + vault.NoteExt} {
		if _, err := os.Lstat(filepath.Join(base, filepath.FromSlash(name))); err == nil {
			return true
		}
	}
	return false
}
