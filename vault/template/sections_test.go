package template

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/omh-notes/omh/vault"
)

// rendered is a note cut at its level-2 headings: the text before the
// first (title and lead), and each section's name and text, in order.
type rendered struct {
	lead     string
	names    []string
	sections []string
}

func cut(t *testing.T, note []byte) rendered {
	t.Helper()
	p := vault.Parse(note)
	if len(p.Problems) > 0 {
		t.Fatalf("the note does not parse cleanly: %+v\n%s", p.Problems, note)
	}
	var r rendered
	var starts []int
	for _, h := range p.Headings {
		if h.Level == 2 {
			r.names = append(r.names, h.Text)
			starts = append(starts, h.Start)
		}
	}
	r.lead = string(note[p.BodyStart:])
	if len(starts) > 0 {
		r.lead = string(note[p.BodyStart:starts[0]])
	}
	for i, s := range starts {
		end := len(note)
		if i+1 < len(starts) {
			end = starts[i+1]
		}
		r.sections = append(r.sections, string(note[s:end]))
	}
	return r
}

// section is the text of the section called name; "" when there is none.
func (r rendered) section(name string) string {
	if i := slices.Index(r.names, name); i >= 0 {
		return r.sections[i]
	}
	return ""
}

// linksSection is where omh's template for each type puts --link: never
// the statement a card quotes first.
var linksSection = map[string]string{"surprise": "Evidence", "finding": "Evidence", "decision": "Context", "issue": "Links", "citation": "Links"}

// statement is the section a type's card quotes first, which the lead
// text fills; "" where the lead text goes under the title.
var statement = map[string]string{"finding": "Claim", "decision": "Decision", "issue": "Problem", "citation": "Source"}

// A body that brings the type's own headings, as an agent writes a note,
// fills the template's sections: each section once, in the type's order,
// the body's text under it; text before the first heading in the
// statement (under the title for a surprise or stub); links in the links
// section with the body's own text there, never in the statement; the
// body's answers and --answers one list. Catches: a section twice, the
// first copy empty (10 of 12 notes an agent wrote needed fixing by hand),
// and links inside an issue's Problem or a citation's Source.
func TestABodysSectionsFillTheTypesSectionsOnce(t *testing.T) {
	t.Parallel()
	for _, typ := range []string{"surprise", "finding", "decision", "issue", "citation", "stub"} {
		t.Run(typ, func(t *testing.T) {
			t.Parallel()
			tmpl, _, err := LoadTemplate(t.TempDir(), typ)
			if err != nil {
				t.Fatal(err)
			}
			required := vault.RequiredSections(typ)
			var body strings.Builder
			body.WriteString("Lead sentence of the note.\n\n")
			// The body's sections in reverse: the note follows the type's order.
			for i := len(required) - 1; i >= 0; i-- {
				s := required[i]
				if s == "Answers" {
					fmt.Fprintf(&body, "## %s\n\n- what does the body answer\n\n", s)
					continue
				}
				fmt.Fprintf(&body, "## %s\n\nText the body brings for %s.\n\n", s, s)
			}
			d := draft(typ)
			d.Body = body.String()
			note, err := RenderNote(tmpl, d)
			if err != nil {
				t.Fatal(err)
			}
			r := cut(t, note)
			var typeOrder []string
			for _, n := range r.names {
				if slices.Contains(required, n) {
					typeOrder = append(typeOrder, n)
				}
			}
			if !slices.Equal(typeOrder, required) {
				t.Errorf("sections %v, want %v once each in that order:\n%s", r.names, required, note)
			}
			for _, s := range required {
				if s != "Answers" && strings.Count(r.section(s), "Text the body brings for "+s+".") != 1 {
					t.Errorf("section %s lacks the body's text:\n%s", s, note)
				}
			}
			if st := statement[typ]; st != "" {
				if !strings.Contains(r.section(st), "Lead sentence") || strings.Contains(r.section(st), "[[") {
					t.Errorf("the statement %s should hold the lead text and no link:\n%s", st, note)
				}
			} else if !strings.Contains(r.lead, "Lead sentence") {
				t.Errorf("the lead text is not under the title:\n%s", note)
			}
			links := r.lead
			if ls := linksSection[typ]; ls != "" {
				links = r.section(ls)
			}
			if !strings.Contains(links, "- [[topic/exports]]") || !strings.Contains(links, "- cites [[citation/quota-docs]]") {
				t.Errorf("the links are not in the links section:\n%s", note)
			}
			if n := strings.Count(string(note), "[[topic/exports]]"); n != 1 {
				t.Errorf("the link is written %d times:\n%s", n, note)
			}
			answers := vault.Parse(note).Answers
			if !slices.Equal(answers, []string{"what does the body answer", "why do nightly exports stall"}) {
				t.Errorf("answers %q:\n%s", answers, note)
			}
		})
	}
}

// A body heading the type does not have is kept, as a section of its own,
// after the type section it followed in the body (or after the statement
// when it came first); "# Claim" is read as the template's "## Claim",
// subheadings moving with it; a level-1 heading repeating the title is
// dropped. Catches: an agent's extra section lost or merged into the
// wrong one, a top-level body heading breaking the note's structure.
func TestABodyHeadingTheTypeLacksStaysWhereItStood(t *testing.T) {
	t.Parallel()
	tmpl, _, _ := LoadTemplate(t.TempDir(), "finding")
	d := draft("finding")
	d.Title = "Exports stall"
	d.Body = "# Exports stall\n\n# Background\n\nWhy we looked.\n\n# Claim\n\nThe quota resets.\n\n## Detail\n\nAt 00:00.\n\n# Reproduction\n\nRun it twice.\n"
	note, err := RenderNote(tmpl, d)
	if err != nil {
		t.Fatal(err)
	}
	r := cut(t, note)
	want := []string{"Claim", "Background", "Reproduction", "Evidence", "Answers"}
	if !slices.Equal(r.names, want) {
		t.Errorf("sections %v, want %v:\n%s", r.names, want, note)
	}
	var h3 []string
	for _, h := range vault.Parse(note).Headings {
		switch h.Level {
		case 1:
			if h.Text != "Exports stall" {
				t.Errorf("level-1 heading %q", h.Text)
			}
		case 3:
			h3 = append(h3, h.Text)
		}
	}
	if !slices.Equal(h3, []string{"Detail"}) || !strings.Contains(r.section("Claim"), "### Detail\n\nAt 00:00.") {
		t.Errorf("the subheading did not move with its section: %v\n%s", h3, note)
	}
	if n := strings.Count(string(note), "# Exports stall"); n != 1 {
		t.Errorf("the title is written %d times:\n%s", n, note)
	}
}

// A repository's template is filled the same way: its sections, in its
// order, each once; a template without {{body}} takes the lead text in its
// first section; a "Links" section holding only {{links}} is left out when
// there are no links. Catches: the merge assuming omh's own templates.
func TestARepositoryTemplateTakesTheBodysSections(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	dir := filepath.Join(root, filepath.FromSlash(TemplatesDir))
	os.MkdirAll(dir, 0o755)
	os.WriteFile(filepath.Join(dir, "issue.md"), []byte("# {{title}}\n\n## Impact\n\n<!-- who is affected -->\n\n## Problem\n\n## Links\n\n{{links}}\n\n## Answers\n\n{{answers}}\n"), 0o644)
	tmpl, _, err := LoadTemplate(root, "issue")
	if err != nil {
		t.Fatal(err)
	}
	d := draft("issue")
	d.Links = nil
	d.Body = "Everyone on the night shift.\n\n## Problem\n\nExports stall.\n\n## Impact\n\nReports are late.\n"
	note, err := RenderNote(tmpl, d)
	if err != nil {
		t.Fatal(err)
	}
	r := cut(t, note)
	if want := []string{"Impact", "Problem", "Answers"}; !slices.Equal(r.names, want) {
		t.Errorf("sections %v, want %v:\n%s", r.names, want, note)
	}
	impact := r.section("Impact")
	if !strings.Contains(impact, "<!-- who is affected -->") || !strings.Contains(impact, "Everyone on the night shift.") ||
		!strings.Contains(impact, "Reports are late.") || !strings.Contains(r.section("Problem"), "Exports stall.") {
		t.Errorf("%s", note)
	}
}
