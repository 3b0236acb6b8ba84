package lint

import (
	"slices"
	"strings"
	"testing"

	"github.com/omh-notes/omh/vault"
	"github.com/omh-notes/omh/vault/template"
)

// Every built-in template makes a note that has its type's required
// sections, its frontmatter fields, its title, answers and links, and
// that lint finds nothing wrong with on its own. Catches: a template
// missing a required section, a title with a colon breaking the YAML, the
// answers or links lost.
func TestEveryBuiltInTemplateMakesANoteLintAccepts(t *testing.T) {
	t.Parallel()
	for _, typ := range vault.TypeNames(false) {
		tmpl, from, err := template.LoadTemplate(t.TempDir(), typ)
		if err != nil || from != "built-in" {
			t.Fatalf("%s: %v %q", typ, err, from)
		}
		d := template.Draft{Type: typ, Title: "Exports stall: the quota resets at midnight", Key: typ + "/exports-stall",
			Recorded: "2026-03-04", Source: "Ada <ada@example.com>", Answers: []string{"why do nightly exports stall"},
			Links: []template.DraftLink{{Key: "topic/exports"}, {Verb: "cites", Key: "citation/quota-docs"}}}
		note, err := template.RenderNote(tmpl, d)
		if err != nil {
			t.Fatalf("%s: %v", typ, err)
		}
		p := vault.Parse(note)
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
			{Key: typ + "/exports-stall", Layer: vault.Local, Private: true, Path: "/p/x.md", Parsed: p,
				Content: func() ([]byte, error) { return note, nil }},
			{Key: "topic/exports", Layer: vault.Team, Path: "topic/exports.md", Parsed: vault.Parse([]byte("# Exports\n"))},
			{Key: "citation/quota-docs", Layer: vault.Team, Path: "citation/quota-docs.md", Parsed: vault.Parse([]byte("---\ntype: citation\n---\n# Quota docs\n\n## Source\n\n## Answers\n"))},
		}
		findings, err := Lint(notes, LintOptions{Report: func(n *LintNote) bool { return n.Key == typ+"/exports-stall" }})
		if err != nil || len(findings) > 0 {
			t.Errorf("%s: %v %+v\n%s", typ, err, findings, note)
		}
	}
}
