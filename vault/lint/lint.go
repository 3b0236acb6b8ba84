// Package lint checks a store's notes against omh lint's rules (their
// table is Rules, rules.go; the config names them by vault.LintRuleIDs):
// what breaks links and search in any vault, omh's own conventions in
// omh's notes. The store assembles the notes it checks (store/lint.go).
package lint

import (
	"bytes"
	"fmt"
	"slices"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/text"
	"golang.org/x/text/unicode/norm"

	"github.com/omh-notes/omh/vault"
)

// Finding is one problem lint reports.
type Finding struct {
	Rule     string
	Severity Severity
	Key      string
	Layer    string
	Path     string
	Line     int // 1-based; 0 when the problem is not on one line
	Message  string
	Fix      string
}

// LintNote is a note as lint sees it.
type LintNote struct {
	Key      string
	Layer    vault.Layer
	Worktree bool // an uncommitted working copy under the notes root
	Private  bool // a note of the private folder
	Path     string
	Parsed   vault.Parsed
	// Shadowed marks a committed note whose working copy differs: the
	// working copy is what will be committed, so only it is reported on.
	Shadowed bool
	// Content reads the note's bytes. Lint calls it only for notes with a
	// list-only section.
	Content func() ([]byte, error)
}

// LintOptions tune a lint run.
type LintOptions struct {
	// Report says which notes findings are wanted for; nil means all. The
	// whole store is read regardless, since links and duplicates are
	// properties of the store.
	Report func(n *LintNote) bool
	// NotANote reports whether a markdown link that reaches no note names
	// a file that exists but is not a note (an excluded README, a
	// picture), which is not a dangling link.
	NotANote func(n *LintNote, l vault.Link) bool
	// Dialect resolves the links.
	Dialect vault.Dialect
	// Rules, when not empty, are the only rules checked, in every note
	// (--rule).
	Rules []string
	// Strict checks every rule in every note.
	Strict bool
	// Disabled rules are never checked (the config's lint.disable).
	Disabled []string
	// IgnoreLinks are globs of the names links are written with
	// ("/answers/**", "dendron://private/*"): a link matching one is not
	// checked. "*" stays within a "/"-separated part, "**" spans parts.
	IgnoreLinks []string
	// Stores are the names of the other stores the repository answers
	// with: a link qualified by one ([[handbook:topic/x]]) names a note
	// there, which lint does not read, so it does not dangle here.
	Stores []string
	// Renamed, when set, gives the keys git's history records as renamed,
	// each with the key the note has now: a dangling link to an old key
	// names the new one. Lint asks once, and only when a link dangles.
	Renamed func() map[string]Renamed
}

// Renamed is where a note renamed in git's history went: its key now and
// the commit that renamed it (the last, when it was renamed more than
// once).
type Renamed struct {
	To, Commit string
}

// checks reports whether rule is checked in note n.
func (o *LintOptions) checks(rule string, n *LintNote) bool {
	if slices.Contains(o.Disabled, rule) {
		return false
	}
	if len(o.Rules) > 0 {
		return slices.Contains(o.Rules, rule)
	}
	if o.Strict {
		return true
	}
	r, _ := LookupRule(rule)
	switch r.Scope {
	case OmhTyped:
		return n.Parsed.Type != "" && vault.KnownType(n.Parsed.Type)
	case StrictOnly:
		return false
	}
	return true
}

// defaults reports whether rules are chosen by their scope (no --rule) and
// rule is not disabled.
func (o *LintOptions) defaults(rule string) bool {
	return len(o.Rules) == 0 && !slices.Contains(o.Disabled, rule)
}

// keyInfo is what the store holds under one key.
type keyInfo struct {
	team, worktree, private bool
	types                   []string
}

// Lint checks notes against LintRules and returns the findings in note
// order, each note's in rule order then line order.
func Lint(notes []LintNote, opt LintOptions) ([]Finding, error) {
	// Sized for a store of many thousand notes (vba-docs: 38,187), where
	// growing these maps was a tenth of lint's time.
	names := make(vault.MemNames, 2*len(notes))
	keys := make(map[string]*keyInfo, len(notes))
	type layerKey struct {
		layer vault.Layer
		key   string
	}
	layerKeys := make(map[layerKey][]int, len(notes))
	for i := range notes {
		n := &notes[i]
		names.Add(n.Key, n.Parsed.Aliases)
		ki := keys[n.Key]
		if ki == nil {
			ki = &keyInfo{}
			keys[n.Key] = ki
		}
		switch {
		case n.Layer == vault.Team:
			ki.team = true
		case n.Private:
			ki.private = true
		default:
			ki.worktree = true
		}
		ki.types = append(ki.types, typeOf(n.Parsed))
		lk := layerKey{n.Layer, n.Key}
		layerKeys[lk] = append(layerKeys[lk], i)
	}
	var near nearNames
	var history renameHistory
	resolved := make([][]vault.Resolution, len(notes))
	inbound := make(map[string]int, len(notes))
	counted := map[string]bool{}
	for i := range notes {
		n := &notes[i]
		resolved[i] = make([]vault.Resolution, len(n.Parsed.Links))
		clear(counted)
		for j, l := range n.Parsed.Links {
			res, err := opt.Dialect.Resolve(l, n.Key, names)
			if err != nil {
				return nil, err
			}
			resolved[i][j] = res
			if res.Key != "" && res.Key != n.Key && !counted[res.Key] {
				counted[res.Key] = true
				inbound[res.Key]++
			}
		}
	}
	var out []Finding
	for i := range notes {
		n := &notes[i]
		if n.Shadowed || (opt.Report != nil && !opt.Report(n)) {
			continue
		}
		l := linter{n: n, keys: keys, resolved: resolved[i], opt: &opt, names: names, near: &near, history: &history}
		l.frontmatter()
		l.keyMismatch()
		if !utf8.ValidString(n.Path) {
			l.add("name-not-utf8", SevWarning, 0, fmt.Sprintf("the file's name is not valid UTF-8, so its key is %s", n.Key),
				"rename the file to a UTF-8 name with git mv")
		}
		if others := layerKeys[layerKey{n.Layer, n.Key}]; len(others) > 1 {
			var paths []string
			for _, o := range others {
				if o != i {
					paths = append(paths, notes[o].Path)
				}
			}
			l.add("duplicate-key", SevError, 0, fmt.Sprintf("the %s layer holds this key twice: also at %s", n.Layer, strings.Join(paths, ", ")),
				"rename one of them with omh mv, or delete the one you do not need")
		}
		if team := layerKeys[layerKey{vault.Team, n.Key}]; n.Private && len(team) > 0 {
			l.add("private-team-key", SevError, 0, fmt.Sprintf("the team note %s has this key too: links reach it, never this private note", notes[team[0]].Path),
				fmt.Sprintf("rename %s to a key of its own, or add its text to the team note and delete it", n.Path))
		}
		l.sections()
		if err := l.proseInLists(); err != nil {
			return nil, err
		}
		l.links()
		if inbound[n.Key] == 0 && !l.linksOut {
			l.add("orphan", SevWarning, 0, "no note links here and it links to no note",
				"link it from a topic or a related note, or link it to the notes it builds on")
		}
		sort.SliceStable(l.found, func(a, b int) bool {
			ra, rb := RuleOrder(l.found[a].Rule), RuleOrder(l.found[b].Rule)
			if ra != rb {
				return ra < rb
			}
			return l.found[a].Line < l.found[b].Line
		})
		out = append(out, l.found...)
	}
	return out, nil
}

func typeOf(p vault.Parsed) string {
	if p.Type == "" {
		return "note"
	}
	return p.Type
}

// linter gathers the findings about one note.
type linter struct {
	n        *LintNote
	keys     map[string]*keyInfo
	resolved []vault.Resolution
	opt      *LintOptions
	names    vault.Names
	near     *nearNames
	history  *renameHistory
	found    []Finding
	linksOut bool // some link reaches another note
}

// add records a finding of a rule checked in this note.
func (l *linter) add(rule string, sev Severity, line int, msg, fix string) {
	if !l.opt.checks(rule, l.n) {
		return
	}
	l.addChecked(rule, sev, line, msg, fix)
}

func (l *linter) addChecked(rule string, sev Severity, line int, msg, fix string) {
	l.found = append(l.found, Finding{Rule: rule, Severity: sev, Key: l.n.Key, Layer: l.n.Layer.String(),
		Path: l.n.Path, Line: line, Message: msg, Fix: fix})
}

func (l *linter) frontmatter() {
	for _, p := range l.n.Parsed.Problems {
		switch {
		case p.Rule == "invalid-date":
			l.add("invalid-date", SevError, p.Line, p.Message, "write a real date as YYYY-MM-DD, or remove the field")
		case p.Rule == "frontmatter-unclosed":
			l.add("frontmatter", SevError, p.Line, p.Message, `end the frontmatter with a line holding only "---"`)
		case p.Rule == "frontmatter-too-large":
			l.add("frontmatter", SevError, p.Line, p.Message, "keep data out of the frontmatter: a few fields, the rest in the body or another file")
		case p.Rule == "field-type":
			l.add("frontmatter", SevError, p.Line, p.Message, "write the field as a string, or a list of strings where a list is allowed")
		case p.Rule == "markdown-too-costly":
			l.add(p.Rule, SevWarning, p.Line, p.Message, "break the paragraph or table with blank lines, or split the note")
		case p.Rule == "conflict-markers":
			l.add(p.Rule, SevError, p.Line, p.Message, "resolve it: keep the text that is right, delete the <<<<<<<, ======= and >>>>>>> lines, then git add the file")
		default:
			l.add("frontmatter", SevError, p.Line, p.Message, "fix the YAML between the --- lines: one \"name: value\" per line, lists as [a, b]")
		}
	}
	if t := l.n.Parsed.Type; t != "" && !vault.KnownType(t) {
		fix := "use one of " + strings.Join(vault.TypeNames(false), ", ") + ", or drop type: for a plain note"
		msg := fmt.Sprintf("type %q is not a type omh knows", t)
		near := nearest(t, vault.TypeNames(false))
		switch {
		case near != "" && l.opt.defaults("unknown-type"):
			// A near miss was meant as one of omh's types.
			l.addChecked("unknown-type", SevWarning, 0, msg, fmt.Sprintf("did you mean %q? ", near)+fix)
		case near != "":
			l.add("unknown-type", SevWarning, 0, msg, fmt.Sprintf("did you mean %q? ", near)+fix)
		default:
			l.add("unknown-type", SevWarning, 0, msg, fix)
		}
	}
}

func (l *linter) keyMismatch() {
	declared := l.n.Parsed.DeclaredKey
	if declared == "" || norm.NFC.String(declared) == l.n.Key {
		return
	}
	l.add("key-mismatch", SevError, 0, fmt.Sprintf("the frontmatter says key %q but the note's path gives %q", declared, l.n.Key),
		fmt.Sprintf("set key: %s, drop the key field, or move the note with omh mv %s %s", l.n.Key, l.n.Key, declared))
}

func (l *linter) sections() {
	p := l.n.Parsed
	for _, want := range vault.RequiredSections(typeOf(p)) {
		var lines []string
		for _, h := range p.Headings {
			if vault.SameHeading(h.Text, want) {
				lines = append(lines, fmt.Sprint(h.Line))
			}
		}
		if len(lines) > 1 {
			l.add("duplicate-section", SevError, 0, fmt.Sprintf("the section %q appears %d times (lines %s); a card quotes the first", "## "+want, len(lines), strings.Join(lines, ", ")),
				"merge them into one section")
		}
		has := len(lines) > 0
		if !has && want == "Answers" && len(p.Answers) > 0 {
			has = true // declared in the frontmatter's answers field
		}
		if has {
			continue
		}
		fix := fmt.Sprintf("add a %q heading", "## "+want)
		if want == "Answers" {
			fix = `add "## Answers" with one "- question" item per question the note answers`
		}
		l.add("missing-section", SevError, 0, fmt.Sprintf("%s needs the section %q", withArticle(typeOf(p)), "## "+want), fix)
	}
}

func (l *linter) proseInLists() error {
	p := l.n.Parsed
	if l.n.Content == nil || !slices.ContainsFunc(p.Headings, func(h vault.Heading) bool {
		return slices.ContainsFunc(listOnlySections, func(s string) bool { return vault.SameHeading(h.Text, s) })
	}) {
		return nil
	}
	content, err := l.n.Content()
	if err != nil {
		return err
	}
	for _, pr := range ProseInLists(content, p.BodyStart) {
		l.add("prose-in-list", SevError, pr.Line, fmt.Sprintf("the %s section holds text that is not a list item, so it is not read as an answer", pr.Section),
			`write each question as a "- " list item, or move the text out of the section`)
	}
	return nil
}

// listOnlySections are the sections whose content is read only from list
// items.
var listOnlySections = []string{"Answers"}

// ListProse is text found in a list-only section.
type ListProse struct {
	Section string
	Line    int
}

// ProseInLists finds the blocks inside list-only sections (Answers) that
// are neither lists nor headings nor HTML comments: paragraphs, quotes,
// code. bodyStart is where the markdown starts, after the frontmatter.
func ProseInLists(content []byte, bodyStart int) []ListProse {
	bodyStart = min(max(bodyStart, 0), len(content))
	src := content[bodyStart:min(len(content), bodyStart+vault.MaxMarkdownBytes)]
	doc := goldmark.DefaultParser().Parse(text.NewReader(src))
	var out []ListProse
	section, level := "", 0
	for n := doc.FirstChild(); n != nil; n = n.NextSibling() {
		switch n := n.(type) {
		case *ast.Heading:
			if level > 0 && n.Level <= level {
				section, level = "", 0
			}
			if level == 0 {
				t := vault.PlainText(n, src)
				for _, s := range listOnlySections {
					if vault.SameHeading(t, s) {
						section, level = s, n.Level
					}
				}
			}
		case *ast.List, *ast.HTMLBlock, *ast.ThematicBreak:
		default:
			if level > 0 {
				at := n.Pos()
				if ls := n.Lines(); ls.Len() > 0 {
					at = ls.At(0).Start
				}
				out = append(out, ListProse{Section: section, Line: lineOf(content, bodyStart+max(at, 0))})
			}
		}
	}
	return out
}

// lineOf is the 1-based line of content holding offset off.
func lineOf(content []byte, off int) int { return bytes.Count(content[:off], []byte("\n")) + 1 }

// RuleCount is how many findings one rule made, for lint's summary.
type RuleCount struct {
	Rule     string
	Errors   int
	Warnings int
	Notes    int // notes with at least one finding of the rule
}

// Summarize counts findings per rule, in table order, leaving out rules
// without findings.
func Summarize(findings []Finding) []RuleCount {
	counts := make([]RuleCount, len(Rules))
	notes := make([]map[string]bool, len(Rules))
	for _, f := range findings {
		i := RuleOrder(f.Rule)
		if i < 0 {
			continue
		}
		if notes[i] == nil {
			notes[i] = map[string]bool{}
		}
		notes[i][f.Layer+"\x00"+f.Path] = true
		if f.Severity == SevError {
			counts[i].Errors++
		} else {
			counts[i].Warnings++
		}
	}
	var out []RuleCount
	for i, c := range counts {
		if notes[i] != nil {
			c.Rule, c.Notes = Rules[i].ID, len(notes[i])
			out = append(out, c)
		}
	}
	return out
}
