package vault

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func draft(typ string) Draft {
	return Draft{Type: typ, Title: "Exports stall: the quota resets at midnight", Key: typ + "/exports-stall",
		Recorded: "2026-03-04", Source: "Ada <ada@example.com>", Answers: []string{"why do nightly exports stall"},
		Links: []DraftLink{{Key: "topic/exports"}, {Verb: "cites", Key: "citation/quota-docs"}}}
}

// Every built-in template makes a note that has its type's required
// sections, its frontmatter fields, its title, answers and links, and
// that lint finds nothing wrong with on its own. Catches: a template
// missing a required section, a title with a colon breaking the YAML, the
// answers or links lost.
func TestEveryBuiltInTemplateMakesANoteLintAccepts(t *testing.T) {
	for _, typ := range TypeNames(false) {
		tmpl, from, err := LoadTemplate(t.TempDir(), typ)
		if err != nil || from != "built-in" {
			t.Fatalf("%s: %v %q", typ, err, from)
		}
		note, err := RenderNote(tmpl, draft(typ))
		if err != nil {
			t.Fatalf("%s: %v", typ, err)
		}
		p := Parse(note)
		if p.Type != typ || p.Recorded != "2026-03-04" || p.Source != "Ada <ada@example.com>" ||
			p.Title != "Exports stall: the quota resets at midnight" || len(p.Problems) > 0 {
			t.Errorf("%s: %+v\n%s", typ, p, note)
		}
		if typ != "blob" && !slices.Equal(p.Answers, []string{"why do nightly exports stall"}) {
			t.Errorf("%s: answers %q\n%s", typ, p.Answers, note)
		}
		if len(p.Links) != 2 || p.Links[0].Target != "topic/exports" || p.Links[1].Verb != "cites" {
			t.Errorf("%s: links %+v\n%s", typ, p.Links, note)
		}
		if strings.Contains(string(note), "{{") || strings.Contains(string(note), "\n\n\n") {
			t.Errorf("%s: placeholders or runs of blank lines left:\n%s", typ, note)
		}
		notes := []LintNote{
			{Key: typ + "/exports-stall", Layer: Local, Private: true, Path: "/p/x.md", Parsed: p,
				Content: func() ([]byte, error) { return note, nil }},
			{Key: "topic/exports", Layer: Team, Path: "topic/exports.md", Parsed: Parse([]byte("# Exports\n"))},
			{Key: "citation/quota-docs", Layer: Team, Path: "citation/quota-docs.md", Parsed: Parse([]byte("---\ntype: citation\n---\n# Quota docs\n\n## Source\n\n## Answers\n"))},
		}
		findings, err := Lint(notes, LintOptions{Report: func(n *LintNote) bool { return n.Key == typ+"/exports-stall" }})
		if err != nil || len(findings) > 0 {
			t.Errorf("%s: %v %+v\n%s", typ, err, findings, note)
		}
	}
}

// Without answers, links, body or source, the placeholders' lines go and
// no blank lines pile up; the source field is left out rather than empty.
func TestEmptyValuesLeaveNoTrace(t *testing.T) {
	tmpl, _, _ := LoadTemplate(t.TempDir(), "surprise")
	note, err := RenderNote(tmpl, Draft{Type: "surprise", Title: "A", Key: "surprise/a", Recorded: "2026-01-02"})
	if err != nil {
		t.Fatal(err)
	}
	want := "---\ntype: surprise\nrecorded: 2026-01-02\n---\n# A\n\n## Expected\n\n## Observed\n\n## Evidence\n\n## Answers\n"
	if string(note) != want {
		t.Errorf("got\n%s\nwant\n%s", note, want)
	}
}

// A body that brings its own sections replaces the template's empty ones
// of the same name instead of sitting beside empty copies.
func TestABodyWithItsOwnSectionsReplacesTheEmptyOnes(t *testing.T) {
	tmpl, _, _ := LoadTemplate(t.TempDir(), "surprise")
	d := draft("surprise")
	d.Body = "## Expected\n\nThe export to finish by 02:00.\n\n## Observed\n\nIt stalls at 00:00.\n"
	note, err := RenderNote(tmpl, d)
	if err != nil {
		t.Fatal(err)
	}
	for _, section := range []string{"## Expected", "## Observed", "## Evidence", "## Answers"} {
		if n := strings.Count(string(note), section+"\n"); n != 1 {
			t.Errorf("%s appears %d times:\n%s", section, n, note)
		}
	}
}

// A repository's own template replaces the built-in one; fields it forgot
// are added, and a template that contradicts the draft is refused.
func TestARepositoryTemplateOverridesAndIsCompleted(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, filepath.FromSlash(TemplatesDir))
	os.MkdirAll(dir, 0o755)
	os.WriteFile(filepath.Join(dir, "finding.md"), []byte("## Claim\n\n{{body}}\n\n## Evidence\n\n## Answers\n\n{{answers}}\n\nTeam: {{ source }}\n"), 0o644)
	tmpl, from, err := LoadTemplate(root, "finding")
	if err != nil || from != ".omh/templates/finding.md" {
		t.Fatalf("%v %q", err, from)
	}
	note, err := RenderNote(tmpl, draft("finding"))
	if err != nil {
		t.Fatal(err)
	}
	p := Parse(note)
	if p.Type != "finding" || p.Recorded != "2026-03-04" || p.Source != "Ada <ada@example.com>" || p.Title == "" ||
		!strings.Contains(string(note), "Team: Ada <ada@example.com>") {
		t.Errorf("%+v\n%s", p, note)
	}
	if _, err := RenderNote("---\ntype: note\n---\n# {{title}}\n", draft("finding")); err == nil {
		t.Error("a template setting another type was accepted")
	}
	if _, err := RenderNote("---\ntitle: [\n---\n", draft("finding")); err == nil {
		t.Error("a template with broken YAML was accepted")
	}
}

// Values are written as YAML scalars in the frontmatter, so a title or
// source with a colon, a quote or a leading dash reads back as written.
func TestFrontmatterValuesAreQuotedWhereYAMLNeedsIt(t *testing.T) {
	for _, v := range []string{"a: b", `say "hi"`, "- dash", "yes", "2026-01-02", "# hash", "'single'"} {
		note, err := RenderNote("---\ntype: {{type}}\nrecorded: {{recorded}}\ntitle: {{title}}\nsource: {{source}}\n---\nbody\n",
			Draft{Type: "note", Title: v, Source: v, Recorded: "2026-01-02"})
		if err != nil {
			t.Fatalf("%q: %v", v, err)
		}
		if p := Parse(note); p.Title != v || p.Source != v {
			t.Errorf("%q read back as %q / %q\n%s", v, p.Title, p.Source, note)
		}
	}
}
