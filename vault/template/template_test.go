package template

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/omh-notes/omh/vault"
)

func draft(typ string) Draft {
	return Draft{Type: typ, Title: "Exports stall: the quota resets at midnight", Key: typ + "/exports-stall",
		Recorded: "2026-03-04", Source: "Ada <ada@example.com>", Answers: []string{"why do nightly exports stall"},
		Links: []DraftLink{{Key: "topic/exports"}, {Verb: "cites", Key: "citation/quota-docs"}}}
}

// Without answers, links, body or source, the placeholders' lines go and
// no blank lines pile up; the source field is left out rather than empty.
func TestEmptyValuesLeaveNoTrace(t *testing.T) {
	t.Parallel()
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
	t.Parallel()
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
	t.Parallel()
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
	p := vault.Parse(note)
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
		if p := vault.Parse(note); p.Title != v || p.Source != v {
			t.Errorf("%q read back as %q / %q\n%s", v, p.Title, p.Source, note)
		}
	}
}
