package lint

import (
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/omh-notes/omh/vault"
)

// fx is one note of a lint fixture.
type fx struct {
	key     string
	where   string // "team" (default), "private" or "worktree"
	content string
}

// lintStore lints a store of fixtures plus two plain team notes, a and b,
// that link to each other, so that no fixture is an orphan by accident.
func lintStore(t *testing.T, notes ...fx) []Finding {
	t.Helper()
	return lintStoreWith(t, LintOptions{}, notes...)
}

// strict lints as --strict does: every rule in every note.
var strict = LintOptions{Strict: true}

func lintStoreWith(t *testing.T, opt LintOptions, notes ...fx) []Finding {
	t.Helper()
	notes = append([]fx{{key: "a", content: "# A\n\nSee [[b]].\n"}, {key: "b", content: "# B\n\nSee [[a]].\n"}}, notes...)
	var ln []LintNote
	for _, n := range notes {
		content := []byte(n.content)
		l := LintNote{Key: n.key, Layer: vault.Team, Path: fmt.Sprintf("notes/%s.md", n.key), Parsed: vault.Parse(content),
			Content: func() ([]byte, error) { return content, nil }}
		switch n.where {
		case "private":
			l.Layer, l.Private, l.Path = vault.Local, true, fmt.Sprintf("/private/%s.md", n.key)
		case "worktree":
			l.Layer, l.Worktree = vault.Local, true
		}
		ln = append(ln, l)
	}
	findings, err := Lint(ln, opt)
	if err != nil {
		t.Fatal(err)
	}
	return findings
}

// onlyRule fails unless there are findings and every one is of rule.
func onlyRule(t *testing.T, findings []Finding, rule string, sev Severity) {
	t.Helper()
	if len(findings) == 0 {
		t.Fatalf("no finding; want %s", rule)
	}
	for _, f := range findings {
		if f.Rule != rule || f.Severity != sev {
			t.Errorf("want only %s %s, got %+v", sev, rule, f)
		}
		if f.Message == "" || f.Fix == "" || f.Path == "" || strings.Contains(f.Fix, "\n") {
			t.Errorf("a finding needs a message, a path and a one-line fix: %+v", f)
		}
	}
}

// The base store is clean: the fixtures below owe every finding to what
// they add.
func TestLintBaseStoreIsClean(t *testing.T) {
	t.Parallel()
	if f := lintStore(t); len(f) > 0 {
		t.Fatalf("%+v", f)
	}
}

func TestLintRuleFrontmatter(t *testing.T) {
	t.Parallel()
	for name, content := range map[string]string{
		"bad YAML":     "---\ntitle: [\n---\n# C\n\n[[a]]\n",
		"unclosed":     "---\ntitle: C\n\n[[a]]\n",
		"not a map":    "---\n- a\n- b\n---\n# C\n\n[[a]]\n",
		"wrong type":   "---\naliases: {x: 1}\n---\n# C\n\n[[a]]\n",
		"title a list": "---\ntitle: [x, y]\n---\n# C\n\n[[a]]\n",
	} {
		t.Run(name, func(t *testing.T) {
			f := lintStore(t, fx{key: "c", content: content})
			onlyRule(t, f, "frontmatter", SevError)
			if f[0].Line == 0 {
				t.Errorf("no line: %+v", f[0])
			}
		})
	}
}

func TestLintRuleInvalidDate(t *testing.T) {
	t.Parallel()
	f := lintStore(t, fx{key: "c", content: "---\nrecorded: 2026-02-30\n---\n# C\n\n[[a]]\n"})
	onlyRule(t, f, "invalid-date", SevError)
	if f[0].Line != 2 {
		t.Errorf("line %d", f[0].Line)
	}
}

func TestLintRuleKeyMismatch(t *testing.T) {
	t.Parallel()
	onlyRule(t, lintStore(t, fx{key: "dir/c", content: "---\nkey: c\n---\n# C\n\n[[a]]\n"}), "key-mismatch", SevError)
	if f := lintStore(t, fx{key: "dir/c", content: "---\nkey: dir/c\n---\n# C\n\n[[a]]\n"}); len(f) > 0 {
		t.Errorf("an agreeing key was reported: %+v", f)
	}
}

// A private note and an uncommitted file with one key are two local notes
// with the same key; a team note and its working copy are not.
func TestLintRuleDuplicateKey(t *testing.T) {
	t.Parallel()
	f := lintStore(t, fx{key: "c", where: "private", content: "# C\n\n[[a]]\n"}, fx{key: "c", where: "worktree", content: "# C again\n\n[[a]]\n"})
	onlyRule(t, f, "duplicate-key", SevError)
	if len(f) != 2 || !strings.Contains(f[0].Message, f[1].Path) {
		t.Errorf("each copy names the other: %+v", f)
	}
	if f := lintStore(t, fx{key: "c", content: "# C\n\n[[a]]\n"}, fx{key: "c", where: "worktree", content: "# C edited\n\n[[a]]\n"}); len(f) > 0 {
		t.Errorf("a team note and its working copy were reported: %+v", f)
	}
}

func TestLintRuleUnknownType(t *testing.T) {
	t.Parallel()
	f := lintStore(t, fx{key: "c", content: "---\ntype: finidng\n---\n# C\n\n[[a]]\n"})
	onlyRule(t, f, "unknown-type", SevWarning)
	if !strings.Contains(f[0].Fix, `"finding"`) {
		t.Errorf("no suggestion: %+v", f[0])
	}
}

func TestLintRuleMissingSection(t *testing.T) {
	t.Parallel()
	f := lintStore(t, fx{key: "c", content: "---\ntype: finding\n---\n# C\n\n## Claim\n\nIt is so, see [[a]].\n\n## Answers\n\n- is it so\n"})
	onlyRule(t, f, "missing-section", SevError)
	if len(f) != 1 || !strings.Contains(f[0].Message, "Evidence") {
		t.Errorf("%+v", f)
	}
	// Answers may be declared in the frontmatter instead; headings match
	// whatever their case, level and trailing colon.
	ok := "---\ntype: finding\nanswers: [is it so]\n---\n# C\n\n### claim:\n\nSee [[a]].\n\n## EVIDENCE\n"
	if f := lintStore(t, fx{key: "c", content: ok}); len(f) > 0 {
		t.Errorf("%+v", f)
	}
}

func TestLintRuleProseInList(t *testing.T) {
	t.Parallel()
	f := lintStore(t, fx{key: "c", content: "---\ntype: stub\n---\n# C\n\nSee [[a]].\n\n## Answers\n\n- why does it fail\n\nAnd also why it hangs.\n\n## Later\n\nProse here is fine.\n"})
	onlyRule(t, f, "prose-in-list", SevError)
	if len(f) != 1 || f[0].Line != 12 {
		t.Errorf("%+v", f)
	}
}

func TestLintRuleMarkdownTooCostly(t *testing.T) {
	t.Parallel()
	f := lintStore(t, fx{key: "c", content: "# C\n\nSee [[a]].\n\n" + strings.Repeat("[a](", 20000) + "\n"})
	onlyRule(t, f, "markdown-too-costly", SevWarning)
	if len(f) != 1 || f[0].Line != 5 {
		t.Errorf("%+v", f)
	}
}

func TestLintRuleDanglingLink(t *testing.T) {
	t.Parallel()
	f := lintStore(t, fx{key: "c", content: "# C\n\n[[a]] and [[nowhere]] and ![[diagram.png]] and [out](../../README.md)\n"})
	onlyRule(t, f, "dangling-link", SevError)
	if len(f) != 1 || f[0].Line != 3 || !strings.Contains(f[0].Message, "nowhere") {
		t.Errorf("attachments and links out of the notes root are not dangling: %+v", f)
	}
}

func TestLintRuleAmbiguousLinkNamesEveryCandidate(t *testing.T) {
	t.Parallel()
	f := lintStore(t,
		fx{key: "x/c", content: "# C one\n\n[[a]]\n"}, fx{key: "y/c", content: "# C two\n\n[[a]]\n"},
		fx{key: "d", content: "# D\n\n[[a]] but which [[c]]?\n"})
	onlyRule(t, f, "ambiguous-link", SevError)
	if len(f) != 1 || !strings.Contains(f[0].Message, "x/c, y/c") {
		t.Errorf("%+v", f)
	}
}

// A list item's leading word that was meant as a verb but is none makes
// the link plain: lint says so for near misses, snake_case and capitals,
// and leaves ordinary words alone.
func TestLintRuleUnknownVerb(t *testing.T) {
	t.Parallel()
	for word, fix := range map[string]string{
		"supercedes": `"supersedes"`, "resolved": `"resolves"`, "cite": `"cites"`, "derived_from": "", "caused_by": "", "Resolves": "lower case",
	} {
		f := lintStoreWith(t, strict, fx{key: "c", content: "# C\n\n- " + word + " [[a]]\n"})
		onlyRule(t, f, "unknown-verb", SevError)
		if !strings.Contains(f[0].Fix, fix) || f[0].Line != 3 {
			t.Errorf("%s: %+v", word, f[0])
		}
	}
	for _, word := range []string{"see", "times", "and", "also"} {
		if f := lintStoreWith(t, strict, fx{key: "c", content: "# C\n\n- " + word + " [[a]]\n"}); len(f) > 0 {
			t.Errorf("%s: %+v", word, f)
		}
	}
}

// The verb table: resolves needs an issue, rejects joins decisions,
// supersedes stays within a type.
func TestLintRuleVerbType(t *testing.T) {
	t.Parallel()
	for name, c := range map[string][]fx{
		"resolves a non-issue":        {{key: "c", content: "# C\n\n- resolves [[a]]\n"}},
		"supersedes across types":     {{key: "c", content: "---\ntype: topic\n---\n# C\n\n- supersedes [[a]]\n"}},
		"rejects from a non-decision": {{key: "c", content: "---\ntype: topic\n---\n# C\n\n- rejects [[a]]\n"}},
		"attaches a non-blob":         {{key: "c", content: "# C\n\n- attaches [[a]]\n"}},
	} {
		t.Run(name, func(t *testing.T) { onlyRule(t, lintStoreWith(t, strict, c...), "verb-type", SevError) })
	}
	fine := []fx{
		{key: "i", content: "---\ntype: issue\n---\n# I\n\n## Problem\n\n[[a]]\n\n## Answers\n"},
		{key: "c", content: "# C\n\n- resolves [[i]]\n- supersedes [[a]]\n- cites [[b]]\n"},
	}
	if f := lintStoreWith(t, strict, fine...); len(f) > 0 {
		t.Errorf("%+v", f)
	}
}

// A team note linking to a private note: a warning for a plain link, an
// error for a verdict; a working copy under the notes root linking to
// another uncommitted file is fine (they are committed together), to a
// private note is not.
func TestLintRuleTeamLinksLocal(t *testing.T) {
	t.Parallel()
	private := fx{key: "p", where: "private", content: "# P\n\n[[a]]\n"}
	f := lintStore(t, private, fx{key: "c", content: "# C\n\n[[a]] and [[p]]\n"})
	onlyRule(t, f, "team-links-local", SevWarning)
	f = lintStore(t, private, fx{key: "c", content: "# C\n\n[[a]]\n\n- supersedes [[p]]\n"})
	onlyRule(t, f, "team-links-local", SevError)
	f = lintStore(t, private, fx{key: "c", where: "worktree", content: "# C\n\n[[a]] and [[p]]\n"})
	onlyRule(t, f, "team-links-local", SevWarning)
	uncommitted := fx{key: "u", where: "worktree", content: "# U\n\n[[a]]\n"}
	if f := lintStore(t, uncommitted, fx{key: "c", where: "worktree", content: "# C\n\n[[a]] and [[u]]\n"}); len(f) > 0 {
		t.Errorf("%+v", f)
	}
	if f := lintStore(t, private, fx{key: "q", where: "private", content: "# Q\n\n[[p]]\n"}); len(f) > 0 {
		t.Errorf("private notes may link to private notes: %+v", f)
	}
}

// Every link of a team note leads into the local layer: one warning for
// the note besides one per link, and no error.
func TestLintRuleLinksOnlyLocal(t *testing.T) {
	t.Parallel()
	f := lintStore(t, fx{key: "p", where: "private", content: "# P\n\n[[a]]\n"}, fx{key: "c", content: "# C\n\n[[p]]\n"})
	var rules []string
	for _, x := range f {
		if x.Severity != SevWarning {
			t.Errorf("%+v", x)
		}
		rules = append(rules, x.Rule)
	}
	if !slices.Equal(rules, []string{"team-links-local", "links-only-local"}) {
		t.Errorf("%q", rules)
	}
}

func TestLintRuleOrphan(t *testing.T) {
	t.Parallel()
	f := lintStoreWith(t, strict, fx{key: "c", content: "# C\n\nAlone, but [[c]] links to itself.\n"})
	onlyRule(t, f, "orphan", SevWarning)
}

// A committed note with an uncommitted edit is checked as the edit: the
// committed version's problems are not reported again.
func TestLintChecksAnEditedNoteAsItsWorkingCopy(t *testing.T) {
	t.Parallel()
	notes := []LintNote{
		{Key: "a", Layer: vault.Team, Path: "a.md", Parsed: vault.Parse([]byte("---\nrecorded: 2026-02-30\n---\n[[b]]")), Shadowed: true},
		{Key: "a", Layer: vault.Local, Worktree: true, Path: "a.md", Parsed: vault.Parse([]byte("---\nrecorded: 2026-02-03\n---\n[[b]]"))},
		{Key: "b", Layer: vault.Team, Path: "b.md", Parsed: vault.Parse([]byte("[[a]]"))},
	}
	if f, err := Lint(notes, LintOptions{}); err != nil || len(f) > 0 {
		t.Errorf("%v %+v", err, f)
	}
}

// Every rule has a stable, distinct id and a description; every id lint's
// code reports is in the table (read from the source, so a new check
// cannot go undocumented); and a store built to break every rule at once
// gets findings of exactly the table's rules. Catches: a rule reported
// under an id omh lint --help does not list; a documented rule nothing
// can trigger.
func TestLintRulesAreTheTableAndTheTableIsReachable(t *testing.T) {
	t.Parallel()
	table := map[string]bool{}
	for _, r := range Rules {
		if table[r.ID] || r.What == "" {
			t.Errorf("%+v", r)
		}
		table[r.ID] = true
	}
	var written [][]string
	sources, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range sources {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		src, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		written = append(written, regexp.MustCompile(`\.add(?:Checked)?\("([a-z-]+)"`).FindAllStringSubmatch(string(src), -1)...)
	}
	if len(written) < len(Rules)-1 {
		t.Fatalf("found %d rule ids in the package's files; the scan is broken", len(written))
	}
	for _, m := range written {
		if !table[m[1]] {
			t.Errorf("lint reports %q, which Rules does not list", m[1])
		}
	}
	private := fx{key: "p", where: "private", content: "# P\n\n[[a]]\n"}
	findings := lintStoreWith(t, strict,
		fx{key: "conflicted", content: "# C\n\n[[a]]\n\n<<<<<<< HEAD\nours\n=======\ntheirs\n>>>>>>> b\n"},
		fx{key: "bad-yaml", content: "---\ntitle: [unclosed\n---\n# C\n\n[[a]]\n"},
		fx{key: "bad-date", content: "---\nrecorded: 2026-02-30\n---\n# C\n\n[[a]]\n"},
		fx{key: "dir/mismatch", content: "---\nkey: other\n---\n# C\n\n[[a]]\n"},
		fx{key: "dup", where: "private", content: "# D\n\n[[a]]\n"}, fx{key: "dup", where: "worktree", content: "# D\n\n[[a]]\n"},
		fx{key: "typo", content: "---\ntype: finidng\n---\n# C\n\n[[a]]\n"},
		fx{key: "claim", content: "---\ntype: finding\n---\n# C\n\n## Claim\n\nSo, see [[a]].\n\n## Answers\n\n- is it so\n"},
		fx{key: "claim-twice", content: "---\ntype: issue\n---\n# C\n\n## Problem\n\n## Problem\n\nSo, see [[a]].\n\n## Answers\n\n- is it so\n"},
		fx{key: "prose", content: "---\ntype: stub\n---\n# C\n\n[[a]]\n\n## Answers\n\n- why\n\nAnd prose.\n"},
		fx{key: "costly", content: "# C\n\nSee [[a]].\n\n" + strings.Repeat("[a](", 20000) + "\n"},
		fx{key: "dangling", content: "# C\n\n[[a]] and [[nowhere]]\n"},
		fx{key: "x/twin", content: "# T\n\n[[a]]\n"}, fx{key: "y/twin", content: "# T\n\n[[a]]\n"},
		fx{key: "ambiguous", content: "# C\n\n[[a]] but which [[twin]]?\n"},
		fx{key: "verb", content: "# C\n\n[[a]]\n\n- Supersedes [[b]]\n"},
		fx{key: "wrong-type", content: "---\ntype: finding\n---\n# C\n\n[[a]]\n\n- resolves [[b]]\n"},
		private,
		fx{key: "claim", where: "private", content: "# Mine\n\n[[a]]\n"},
		fx{key: "to-private", content: "# C\n\n[[a]] and [[p]]\n"},
		fx{key: "only-private", content: "# C\n\n[[p]]\n"},
		fx{key: "alone", content: "# Alone\n"},
		fx{key: "bad\xff", content: "# Bad name\n\n[[a]]\n"}, // a key no real file has: Path is what the rule reads
	)
	reported := map[string]bool{}
	for _, f := range findings {
		reported[f.Rule] = true
	}
	if !maps.Equal(reported, table) {
		var got, want []string
		for id := range reported {
			got = append(got, id)
		}
		for id := range table {
			want = append(want, id)
		}
		slices.Sort(got)
		slices.Sort(want)
		t.Errorf("rules reported:\n%q\nrules in the table:\n%q", got, want)
	}
}

// By default lint checks what breaks links and search in every note, and
// omh's own conventions (sections, verbs) only in notes of omh's types: a
// vault written for another tool is not told to follow them. Orphans and
// unknown types are advice for --strict or --rule, except a type one edit
// from omh's, which was meant as one.
func TestLintChecksOmhsConventionsOnlyInOmhsNotes(t *testing.T) {
	t.Parallel()
	plain := []fx{
		{key: "c", content: "# C\n\n- supercedes [[a]]\n"},
		{key: "lonely", content: "# Lonely\n"},
		{key: "typed", content: "---\ntype: recipe\n---\n# T\n\n[[a]]\n"},
	}
	if f := lintStore(t, plain...); len(f) > 0 {
		t.Errorf("a plain vault got %+v", f)
	}
	var rules []string
	for _, f := range lintStoreWith(t, strict, plain...) {
		rules = append(rules, f.Rule+"@"+f.Key)
	}
	if want := []string{"unknown-verb@c", "orphan@lonely", "unknown-type@typed"}; !slices.Equal(rules, want) {
		t.Errorf("--strict: %q, want %q", rules, want)
	}
	onlyRule(t, lintStore(t, fx{key: "s", content: "---\ntype: surprise\n---\n# S\n\n[[a]]\n"}), "missing-section", SevError)
	onlyRule(t, lintStore(t, fx{key: "s", content: "---\ntype: surpise\n---\n# S\n\n[[a]]\n"}), "unknown-type", SevWarning)
}

// --rule checks only the rules named, in every note; the config's
// lint.disable never checks a rule; lint.ignore skips links by the name
// they are written with.
func TestLintRulesCanBeChosenAndLinksIgnored(t *testing.T) {
	t.Parallel()
	notes := []fx{
		{key: "c", content: "---\nrecorded: 2026-02-30\n---\n# C\n\n[[nowhere]] and [[archive/old]] and [[a]]\n"},
		{key: "lonely", content: "# Lonely\n"},
	}
	rulesOf := func(f []Finding) []string {
		var out []string
		for _, x := range f {
			out = append(out, x.Rule)
		}
		return out
	}
	if got := rulesOf(lintStoreWith(t, LintOptions{Rules: []string{"orphan"}}, notes...)); !slices.Equal(got, []string{"orphan"}) {
		t.Errorf("--rule orphan: %q", got)
	}
	if got := rulesOf(lintStoreWith(t, LintOptions{Disabled: []string{"invalid-date"}}, notes...)); !slices.Equal(got, []string{"dangling-link", "dangling-link"}) {
		t.Errorf("invalid-date disabled: %q", got)
	}
	if got := rulesOf(lintStoreWith(t, LintOptions{IgnoreLinks: []string{"archive/**", "nowhere"}}, notes...)); !slices.Equal(got, []string{"invalid-date"}) {
		t.Errorf("links ignored: %q", got)
	}
	summary := Summarize(lintStoreWith(t, strict, notes...))
	want := []RuleCount{{Rule: "invalid-date", Errors: 1, Notes: 1}, {Rule: "dangling-link", Errors: 2, Notes: 1}, {Rule: "orphan", Warnings: 1, Notes: 1}}
	if !slices.Equal(summary, want) {
		t.Errorf("summary %+v, want %+v", summary, want)
	}
}

// A fix names how to write the link so the dialect reaches the note:
// each candidate of an ambiguous link by its shortest unique name, the
// note a dangling link likely meant when its name differs only in case,
// spaces or punctuation. Regression: on obsidian-help the fix for an
// ambiguous [[Security and privacy]] named only the first folder's note.
func TestLintFixesNameWhatTheDialectWouldResolve(t *testing.T) {
	t.Parallel()
	notes := []fx{
		{key: "Sync/Security and privacy", content: "# S\n\n[[a]]\n"},
		{key: "Publish/Security and privacy", content: "# P\n\n[[a]]\n"},
		{key: "Home", content: "# Home\n\n[[Security and privacy]] and [[security-and privacy]] and [[Sync/Security and privacy]] and [[Publish/Security and privacy]]\n"},
		{key: "Sync/Set up", content: "# Set up\n\n[[Security and privacy]] [[a]]\n"},
	}
	f := lintStoreWith(t, LintOptions{Dialect: vault.Dialect{Name: vault.DialectObsidian}}, notes...)
	if len(f) != 2 || f[0].Rule != "dangling-link" || f[1].Rule != "ambiguous-link" {
		t.Fatalf("%+v", f)
	}
	if !strings.HasPrefix(f[0].Fix, "did you mean [[Publish/Security and privacy]] or [[Sync/Security and privacy]]?") {
		t.Errorf("dangling: %q", f[0].Fix)
	}
	if f[1].Fix != "write [[Publish/Security and privacy]] or [[Sync/Security and privacy]]" {
		t.Errorf("ambiguous: %q", f[1].Fix)
	}
}

// BenchmarkLint lints a markdown site shaped like vba-docs: 20,000 notes in
// a few folders, each with five relative links, an include and a link
// under the site's path.
func BenchmarkLint(b *testing.B) {
	notes := benchNotes()
	opt := LintOptions{Dialect: vault.Dialect{Name: vault.DialectMarkdown, Site: "/office/vba/"}}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := Lint(notes, opt); err != nil {
			b.Fatal(err)
		}
	}
}

func benchNotes() []LintNote {
	const n = 20000
	notes := make([]LintNote, n)
	for i := range notes {
		key := fmt.Sprintf("api/Object%d.Member%d", i%500, i)
		var body strings.Builder
		body.WriteString("---\ntitle: x\nms.date: 2026-01-01\n---\n# Member\n\n")
		for j := 1; j <= 5; j++ {
			fmt.Fprintf(&body, "See [o](Object%d.Member%d.md). ", (i+j)%500, (i+j)%n)
		}
		body.WriteString("[a](/office/vba/api/Object1.Member1) [b](/answers/tags/1)\n\n[!include[f](~/includes/feedback.md)]\n")
		notes[i] = LintNote{Key: key, Layer: vault.Team, Path: key + ".md", Parsed: vault.Parse([]byte(body.String()))}
	}
	return append(notes, LintNote{Key: "includes/feedback", Layer: vault.Team, Path: "includes/feedback.md"})
}

// A dangling link one typo away from a note's name (vba-docs links to
// Office.FileDialog.Applicationx) is answered with that note, as the
// dialect would write the link; a link two edits away, or a short name a
// typo turns into many others, keeps the generic fix.
func TestLintDanglingLinkFixNamesTheNoteOneTypoAway(t *testing.T) {
	t.Parallel()
	opt := LintOptions{Dialect: vault.Dialect{Name: vault.DialectMarkdown, Site: "/office/vba/"}}
	f := lintStoreWith(t, opt,
		fx{key: "api/Office.FileDialog.Application", content: "# Application\n\n[a](../a.md)\n"},
		fx{key: "api/Office.FileDialog.Creator", content: "# Creator\n\n[a](../a.md)\n"},
		fx{key: "api/Tab", content: "# Tab\n\n[a](../a.md)\n"},
		fx{key: "F1/chm1001", content: "# Chm\n\n[typo](/office/vba/api/Office.FileDialog.Applicationx) " +
			"[swap](../api/Office.FileDialog.Cretaor.md) [two](../api/Office.FileDialog.Applicatoinxx.md) [short](../api/Tax.md)\n"})
	got := map[string]string{}
	for _, x := range f {
		if x.Rule != "dangling-link" {
			t.Fatalf("%+v", x)
		}
		got[x.Message] = x.Fix
	}
	generic := "correct the link, or write the note it names"
	want := map[string]string{
		`the link to "/office/vba/api/Office.FileDialog.Applicationx" reaches no note`: "did you mean (../api/Office.FileDialog.Application.md)? Otherwise " + generic,
		`the link to "../api/Office.FileDialog.Cretaor" reaches no note`:               "did you mean (../api/Office.FileDialog.Creator.md)? Otherwise " + generic,
		`the link to "../api/Office.FileDialog.Applicatoinxx" reaches no note`:         generic,
		`the link to "../api/Tax" reaches no note`:                                     generic,
	}
	if !maps.Equal(got, want) {
		t.Errorf("fixes:\n got %q\nwant %q", got, want)
	}
}

// A link qualified by the name of a store the repository answers with
// names a note there, which lint does not read: it does not dangle; one
// qualified by a name no setting gives still does. Catches: every link
// to a team handbook reported as an error, or every typo of one let by.
func TestALinkToAnotherStoreDoesNotDangle(t *testing.T) {
	t.Parallel()
	f := lintStoreWith(t, LintOptions{Stores: []string{"handbook"}},
		fx{key: "c", content: "# C\n\n[[a]], [[handbook:topic/x]] and [[handbok:topic/x]]\n"})
	onlyRule(t, f, "dangling-link", SevError)
	if len(f) != 1 || !strings.Contains(f[0].Message, "handbok:topic/x") {
		t.Errorf("want the misspelt store's link alone dangling: %+v", f)
	}
}

// A note with one of its type's sections twice (what omh new wrote when a
// body brought the type's headings: an empty "## Claim", then the body's)
// is an error naming both lines, in omh's types only. Catches: lint silent
// on a note whose card quotes the empty copy.
func TestLintRuleDuplicateSection(t *testing.T) {
	t.Parallel()
	twice := "---\ntype: finding\n---\n# C\n\n## Claim\n\n## Claim\n\nIt is so, see [[a]].\n\n## Evidence\n\nE.\n\n## Answers\n\n- is it so\n"
	f := lintStore(t, fx{key: "c", content: twice})
	onlyRule(t, f, "duplicate-section", SevError)
	if len(f) != 1 || !strings.Contains(f[0].Message, "lines 6, 8") {
		t.Errorf("%+v", f)
	}
	if f := lintStore(t, fx{key: "c", content: strings.Replace(twice, "type: finding", "tags: [x]", 1)}); len(f) > 0 {
		t.Errorf("a note of no omh type was held to omh's sections: %+v", f)
	}
}

// A private note under a team note's key (written before omh new refused
// that, or met when a pull brought the team note) is an error naming the
// team note: links reach the team note, never it. An uncommitted working
// copy of the team note is the same note, no finding. Catches: lint silent
// while the private note took the team note's proof state.
func TestLintRulePrivateTeamKey(t *testing.T) {
	t.Parallel()
	f := lintStore(t, fx{key: "c", content: "# C\n\n[[a]]\n"}, fx{key: "c", where: "private", content: "# Mine\n\n[[a]]\n"})
	onlyRule(t, f, "private-team-key", SevError)
	if len(f) != 1 || f[0].Layer != "local" || !strings.Contains(f[0].Message, "notes/c.md") {
		t.Errorf("%+v", f)
	}
	if f := lintStore(t, fx{key: "c", content: "# C\n\n[[a]]\n"}, fx{key: "c", where: "worktree", content: "# C edited\n\n[[a]]\n"}); len(f) > 0 {
		t.Errorf("a working copy was reported: %+v", f)
	}
}

// A note git could not merge is an error at the conflict's first line,
// in any note, with the fix saying how to resolve it. Catches: lint
// reporting no problem in a note still holding conflict markers.
func TestLintRuleConflictMarkers(t *testing.T) {
	t.Parallel()
	f := lintStore(t, fx{key: "c", content: "# C\n\nSee [[a]].\n\n<<<<<<< HEAD\nours\n=======\ntheirs\n>>>>>>> other\n"})
	onlyRule(t, f, "conflict-markers", SevError)
	if len(f) != 1 || f[0].Line != 5 || !strings.Contains(f[0].Fix, "git add") {
		t.Errorf("%+v", f)
	}
}
