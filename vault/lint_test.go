package vault

import (
	"fmt"
	"maps"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
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
	notes = append([]fx{{key: "a", content: "# A\n\nSee [[b]].\n"}, {key: "b", content: "# B\n\nSee [[a]].\n"}}, notes...)
	var ln []LintNote
	for _, n := range notes {
		content := []byte(n.content)
		l := LintNote{Key: n.key, Layer: Team, Path: fmt.Sprintf("notes/%s.md", n.key), Parsed: Parse(content),
			Content: func() ([]byte, error) { return content, nil }}
		switch n.where {
		case "private":
			l.Layer, l.Private, l.Path = Local, true, fmt.Sprintf("/private/%s.md", n.key)
		case "worktree":
			l.Layer, l.Worktree = Local, true
		}
		ln = append(ln, l)
	}
	findings, err := Lint(ln, LintOptions{})
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
	if f := lintStore(t); len(f) > 0 {
		t.Fatalf("%+v", f)
	}
}

func TestLintRuleFrontmatter(t *testing.T) {
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
	f := lintStore(t, fx{key: "c", content: "---\nrecorded: 2026-02-30\n---\n# C\n\n[[a]]\n"})
	onlyRule(t, f, "invalid-date", SevError)
	if f[0].Line != 2 {
		t.Errorf("line %d", f[0].Line)
	}
}

func TestLintRuleKeyMismatch(t *testing.T) {
	onlyRule(t, lintStore(t, fx{key: "dir/c", content: "---\nkey: c\n---\n# C\n\n[[a]]\n"}), "key-mismatch", SevError)
	if f := lintStore(t, fx{key: "dir/c", content: "---\nkey: dir/c\n---\n# C\n\n[[a]]\n"}); len(f) > 0 {
		t.Errorf("an agreeing key was reported: %+v", f)
	}
}

// A private note and an uncommitted file with one key are two local notes
// with the same key; a team note and its working copy are not.
func TestLintRuleDuplicateKey(t *testing.T) {
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
	f := lintStore(t, fx{key: "c", content: "---\ntype: finidng\n---\n# C\n\n[[a]]\n"})
	onlyRule(t, f, "unknown-type", SevWarning)
	if !strings.Contains(f[0].Fix, `"finding"`) {
		t.Errorf("no suggestion: %+v", f[0])
	}
}

func TestLintRuleMissingSection(t *testing.T) {
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
	f := lintStore(t, fx{key: "c", content: "---\ntype: stub\n---\n# C\n\nSee [[a]].\n\n## Answers\n\n- why does it fail\n\nAnd also why it hangs.\n\n## Later\n\nProse here is fine.\n"})
	onlyRule(t, f, "prose-in-list", SevError)
	if len(f) != 1 || f[0].Line != 12 {
		t.Errorf("%+v", f)
	}
}

func TestLintRuleMarkdownTooCostly(t *testing.T) {
	f := lintStore(t, fx{key: "c", content: "# C\n\nSee [[a]].\n\n" + strings.Repeat("[a](", 20000) + "\n"})
	onlyRule(t, f, "markdown-too-costly", SevWarning)
	if len(f) != 1 || f[0].Line != 5 {
		t.Errorf("%+v", f)
	}
}

func TestLintRuleDanglingLink(t *testing.T) {
	f := lintStore(t, fx{key: "c", content: "# C\n\n[[a]] and [[nowhere]] and ![[diagram.png]] and [out](../../README.md)\n"})
	onlyRule(t, f, "dangling-link", SevError)
	if len(f) != 1 || f[0].Line != 3 || !strings.Contains(f[0].Message, "nowhere") {
		t.Errorf("attachments and links out of the notes root are not dangling: %+v", f)
	}
}

func TestLintRuleAmbiguousLinkNamesEveryCandidate(t *testing.T) {
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
	for word, fix := range map[string]string{
		"supercedes": `"supersedes"`, "resolved": `"resolves"`, "cite": `"cites"`, "derived_from": "", "caused_by": "", "Resolves": "lower case",
	} {
		f := lintStore(t, fx{key: "c", content: "# C\n\n- " + word + " [[a]]\n"})
		onlyRule(t, f, "unknown-verb", SevError)
		if !strings.Contains(f[0].Fix, fix) || f[0].Line != 3 {
			t.Errorf("%s: %+v", word, f[0])
		}
	}
	for _, word := range []string{"see", "times", "and", "also"} {
		if f := lintStore(t, fx{key: "c", content: "# C\n\n- " + word + " [[a]]\n"}); len(f) > 0 {
			t.Errorf("%s: %+v", word, f)
		}
	}
}

// The verb table: resolves needs an issue, rejects joins decisions,
// supersedes stays within a type.
func TestLintRuleVerbType(t *testing.T) {
	for name, c := range map[string][]fx{
		"resolves a non-issue":        {{key: "c", content: "# C\n\n- resolves [[a]]\n"}},
		"supersedes across types":     {{key: "c", content: "---\ntype: topic\n---\n# C\n\n- supersedes [[a]]\n"}},
		"rejects from a non-decision": {{key: "c", content: "---\ntype: topic\n---\n# C\n\n- rejects [[a]]\n"}},
		"attaches a non-blob":         {{key: "c", content: "# C\n\n- attaches [[a]]\n"}},
	} {
		t.Run(name, func(t *testing.T) { onlyRule(t, lintStore(t, c...), "verb-type", SevError) })
	}
	fine := []fx{
		{key: "i", content: "---\ntype: issue\n---\n# I\n\n## Problem\n\n[[a]]\n\n## Answers\n"},
		{key: "c", content: "# C\n\n- resolves [[i]]\n- supersedes [[a]]\n- cites [[b]]\n"},
	}
	if f := lintStore(t, fine...); len(f) > 0 {
		t.Errorf("%+v", f)
	}
}

// A team note linking to a private note: a warning for a plain link, an
// error for a verdict; a working copy under the notes root linking to
// another uncommitted file is fine (they are committed together), to a
// private note is not.
func TestLintRuleTeamLinksLocal(t *testing.T) {
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
	f := lintStore(t, fx{key: "c", content: "# C\n\nAlone, but [[c]] links to itself.\n"})
	onlyRule(t, f, "orphan", SevWarning)
}

// A committed note with an uncommitted edit is checked as the edit: the
// committed version's problems are not reported again.
func TestLintChecksAnEditedNoteAsItsWorkingCopy(t *testing.T) {
	notes := []LintNote{
		{Key: "a", Layer: Team, Path: "a.md", Parsed: Parse([]byte("---\nrecorded: 2026-02-30\n---\n[[b]]")), Shadowed: true},
		{Key: "a", Layer: Local, Worktree: true, Path: "a.md", Parsed: Parse([]byte("---\nrecorded: 2026-02-03\n---\n[[b]]"))},
		{Key: "b", Layer: Team, Path: "b.md", Parsed: Parse([]byte("[[a]]"))},
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
	table := map[string]bool{}
	for _, r := range LintRules {
		if table[r.ID] || r.What == "" {
			t.Errorf("%+v", r)
		}
		table[r.ID] = true
	}
	src, err := os.ReadFile("lint.go")
	if err != nil {
		t.Fatal(err)
	}
	written := regexp.MustCompile(`\.add\("([a-z-]+)"`).FindAllStringSubmatch(string(src), -1)
	if len(written) < len(LintRules)-1 {
		t.Fatalf("found %d rule ids in lint.go; the scan is broken", len(written))
	}
	for _, m := range written {
		if !table[m[1]] {
			t.Errorf("lint.go reports %q, which LintRules does not list", m[1])
		}
	}
	private := fx{key: "p", where: "private", content: "# P\n\n[[a]]\n"}
	findings := lintStore(t,
		fx{key: "bad-yaml", content: "---\ntitle: [unclosed\n---\n# C\n\n[[a]]\n"},
		fx{key: "bad-date", content: "---\nrecorded: 2026-02-30\n---\n# C\n\n[[a]]\n"},
		fx{key: "dir/mismatch", content: "---\nkey: other\n---\n# C\n\n[[a]]\n"},
		fx{key: "dup", where: "private", content: "# D\n\n[[a]]\n"}, fx{key: "dup", where: "worktree", content: "# D\n\n[[a]]\n"},
		fx{key: "typo", content: "---\ntype: finidng\n---\n# C\n\n[[a]]\n"},
		fx{key: "claim", content: "---\ntype: finding\n---\n# C\n\n## Claim\n\nSo, see [[a]].\n\n## Answers\n\n- is it so\n"},
		fx{key: "prose", content: "---\ntype: stub\n---\n# C\n\n[[a]]\n\n## Answers\n\n- why\n\nAnd prose.\n"},
		fx{key: "costly", content: "# C\n\nSee [[a]].\n\n" + strings.Repeat("[a](", 20000) + "\n"},
		fx{key: "dangling", content: "# C\n\n[[a]] and [[nowhere]]\n"},
		fx{key: "x/twin", content: "# T\n\n[[a]]\n"}, fx{key: "y/twin", content: "# T\n\n[[a]]\n"},
		fx{key: "ambiguous", content: "# C\n\n[[a]] but which [[twin]]?\n"},
		fx{key: "verb", content: "# C\n\n[[a]]\n\n- Supersedes [[b]]\n"},
		fx{key: "wrong-type", content: "---\ntype: finding\n---\n# C\n\n[[a]]\n\n- resolves [[b]]\n"},
		private,
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
