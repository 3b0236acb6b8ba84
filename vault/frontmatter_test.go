package vault

import (
	"slices"
	"strings"
	"testing"
)

// problemsWith returns the problems p reports under rule.
func problemsWith(p Parsed, rule string) []Problem {
	var out []Problem
	for _, pr := range p.Problems {
		if pr.Rule == rule {
			out = append(out, pr)
		}
	}
	return out
}

func TestFrontmatterBlockBoundaries(t *testing.T) {
	tests := []struct {
		name      string
		doc       string
		bodyStart int
		lines     int
		title     string
	}{
		{"no frontmatter", "# Body\n", 0, 0, "Body"},
		{"empty frontmatter", "---\n---\n# Body\n", 8, 2, "Body"},
		{"fields", "---\ntitle: T\n---\nbody\n", 17, 3, "T"},
		{"closed by dots", "---\ntitle: T\n...\nbody\n", 17, 3, "T"},
		{"trailing blanks on delimiters", "--- \t\ntitle: T\n---  \nbody\n", 21, 3, "T"},
		{"closing line at end of file", "---\ntitle: T\n---", 16, 3, "T"},
		{"CRLF line endings", "---\r\ntitle: T\r\n---\r\nbody\r\n", 20, 3, "T"},
		{"byte order mark", "\uFEFF---\ntitle: T\n---\nbody\n", 20, 3, "T"},
		{"first later delimiter closes", "---\ntitle: T\n---\n---\nx: y\n---\n", 17, 3, "T"},
		{"opening line without newline", "---", 0, 0, ""},
		{"opening line with text", "--- yaml\ntitle: T\n---\n", 0, 0, ""},
		{"indented opening line", " ---\ntitle: T\n---\n", 0, 0, ""},
		{"four dashes", "----\ntitle: T\n---\n", 0, 0, ""},
		{"not on the first line", "\n---\ntitle: T\n---\n", 0, 0, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := Parse([]byte(tt.doc))
			if p.BodyStart != tt.bodyStart || p.FrontmatterLines != tt.lines || p.Title != tt.title {
				t.Errorf("BodyStart, FrontmatterLines, Title = %d, %d, %q; want %d, %d, %q",
					p.BodyStart, p.FrontmatterLines, p.Title, tt.bodyStart, tt.lines, tt.title)
			}
			if len(p.Problems) != 0 {
				t.Errorf("unexpected problems %+v", p.Problems)
			}
		})
	}
}

func TestUnclosedFrontmatterIsBodyWithAProblem(t *testing.T) {
	for _, doc := range []string{
		"---\ntitle: T\n\n# Heading [[x]]\n",
		"\uFEFF---\ntitle: T\n\n# Heading [[x]]\n",
	} {
		p := Parse([]byte(doc))
		wantStart := strings.Index(doc, "---")
		if p.BodyStart != wantStart || p.FrontmatterLines != 0 || p.Title != "Heading [[x]]" {
			t.Errorf("%q: BodyStart, FrontmatterLines, Title = %d, %d, %q; want %d, 0, %q",
				doc, p.BodyStart, p.FrontmatterLines, p.Title, wantStart, "Heading [[x]]")
		}
		if got := problemsWith(p, "frontmatter-unclosed"); len(got) != 1 || got[0].Line != 1 {
			t.Errorf("%q: problems %+v, want one frontmatter-unclosed on line 1", doc, p.Problems)
		}
		if len(p.Links) != 1 || p.Links[0].Target != "x" {
			t.Errorf("%q: links %+v, want the body's [[x]]", doc, p.Links)
		}
	}
}

func TestFrontmatterFields(t *testing.T) {
	doc := `---
title: "  The Title  "
type: " Decision "
source: https://example.com/a
key: team/decisions/db
retracted: 2026-04-01
retracted_reason: superseded by the new plan
aliases:
  - db choice
  - ""
  - database
alias: the db
tags: [one, "#two", ~]
tag: "#three"
answers:
  - which database?
unknown:
  nested:
    deep: [1, 2]
owner: {name: ann}
---
# Heading title
`
	p := Parse([]byte(doc))
	if len(p.Problems) != 0 {
		t.Fatalf("unexpected problems %+v", p.Problems)
	}
	checks := []struct {
		field, got, want string
	}{
		{"Title", p.Title, "The Title"},
		{"Type", p.Type, "decision"},
		{"Source", p.Source, "https://example.com/a"},
		{"DeclaredKey", p.DeclaredKey, "team/decisions/db"},
		{"Retracted", string(p.Retracted), "2026-04-01"},
		{"RetractedReason", p.RetractedReason, "superseded by the new plan"},
	}
	for _, c := range checks {
		if c.got != c.want {
			t.Errorf("%s = %q, want %q", c.field, c.got, c.want)
		}
	}
	if p.TitleFromH1 {
		t.Error("TitleFromH1 is true although the frontmatter has a title")
	}
	lists := []struct {
		field     string
		got, want []string
	}{
		{"Aliases", p.Aliases, []string{"db choice", "database", "the db"}},
		{"Tags", p.Tags, []string{"one", "two", "three"}},
		{"Answers", p.Answers, []string{"which database?"}},
	}
	for _, l := range lists {
		if !slices.Equal(l.got, l.want) {
			t.Errorf("%s = %q, want %q", l.field, l.got, l.want)
		}
	}
}

func TestFrontmatterListFieldsAcceptOneString(t *testing.T) {
	p := Parse([]byte("---\naliases: db choice\ntags: \"#a, b  c,,#d\"\nanswers: which db?\n---\n"))
	if !slices.Equal(p.Aliases, []string{"db choice"}) {
		t.Errorf("Aliases = %q", p.Aliases)
	}
	if !slices.Equal(p.Tags, []string{"a", "b", "c", "d"}) {
		t.Errorf("Tags = %q, want a string split on commas and spaces without '#'", p.Tags)
	}
	if !slices.Equal(p.Answers, []string{"which db?"}) {
		t.Errorf("Answers = %q", p.Answers)
	}
}

func TestFrontmatterFieldNamesAreCaseSensitive(t *testing.T) {
	p := Parse([]byte("---\nTitle: Upper\nTAGS: [a]\n[title]: complex key\n---\n"))
	if p.Title != "" || p.Tags != nil {
		t.Errorf("Title, Tags = %q, %q; want fields with other cases ignored", p.Title, p.Tags)
	}
}

func TestFrontmatterFollowsYAMLAliases(t *testing.T) {
	p := Parse([]byte("---\nbase: &t [x, y]\ntags: *t\ntitle: &n Named\nalias: *n\n---\n"))
	if !slices.Equal(p.Tags, []string{"x", "y"}) || !slices.Equal(p.Aliases, []string{"Named"}) {
		t.Errorf("Tags, Aliases = %q, %q; want the anchored values", p.Tags, p.Aliases)
	}
}

func TestFrontmatterNullFieldsAreAbsent(t *testing.T) {
	p := Parse([]byte("---\ntitle:\ntype: ~\ndate:\ncreated: null\naliases:\ntags: []\n---\n# From body\n"))
	if len(p.Problems) != 0 {
		t.Errorf("unexpected problems %+v", p.Problems)
	}
	if p.Title != "From body" || !p.TitleFromH1 || p.Type != "" || p.Dated != "" || p.Aliases != nil || p.Tags != nil {
		t.Errorf("got %+v, want empty fields and the H1 title", p)
	}
}

func TestFrontmatterScalarsOfAnyTypeAreText(t *testing.T) {
	p := Parse([]byte("---\ntitle: 1984\ntags: [2024, true]\n---\n"))
	if p.Title != "1984" || !slices.Equal(p.Tags, []string{"2024", "true"}) {
		t.Errorf("Title, Tags = %q, %q", p.Title, p.Tags)
	}
}

func TestFrontmatterWrongShapeIsAFieldTypeProblem(t *testing.T) {
	tests := []struct {
		name  string
		yaml  string
		field string
		line  int
		check func(Parsed) bool
	}{
		{"title as a map", "title:\n  en: T\n", "title", 2, func(p Parsed) bool { return p.Title == "H" && p.TitleFromH1 }},
		{"title as a list", "title: [a, b]\n", "title", 2, func(p Parsed) bool { return p.Title == "H" }},
		{"type as a list", "x: 1\ntype: [a]\n", "type", 3, func(p Parsed) bool { return p.Type == "" }},
		{"source as a map", "source: {a: b}\n", "source", 2, func(p Parsed) bool { return p.Source == "" }},
		{"key as a list", "key: [a]\n", "key", 2, func(p Parsed) bool { return p.DeclaredKey == "" }},
		{"aliases as a map", "aliases:\n  a: b\n", "aliases", 2, func(p Parsed) bool { return p.Aliases == nil }},
		{"empty map for aliases", "aliases: {}\n", "aliases", 2, func(p Parsed) bool { return p.Aliases == nil }},
		{"tags containing a map", "tags:\n  - ok\n  - {a: b}\n", "tags", 2, func(p Parsed) bool { return p.Tags == nil }},
		{"answers containing a list", "answers: [[a]]\n", "answers", 2, func(p Parsed) bool { return p.Answers == nil }},
		{"retracted_reason as a list", "retracted_reason: [a]\n", "retracted_reason", 2, func(p Parsed) bool { return p.RetractedReason == "" }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := Parse([]byte("---\n" + tt.yaml + "---\n# H\n"))
			got := problemsWith(p, "field-type")
			if len(got) != 1 || len(p.Problems) != 1 {
				t.Fatalf("problems %+v, want one field-type problem", p.Problems)
			}
			if got[0].Line != tt.line || !strings.Contains(got[0].Message, `"`+tt.field+`"`) {
				t.Errorf("problem %+v, want line %d naming %q", got[0], tt.line, tt.field)
			}
			if !tt.check(p) {
				t.Errorf("field %q was not ignored: %+v", tt.field, p)
			}
		})
	}
}

func TestFrontmatterDates(t *testing.T) {
	tests := []struct {
		name       string
		yaml       string
		dated      Date
		datedField string
		recorded   Date
		invalid    []string // fields reported as invalid-date
	}{
		{"quoted string", `date: "2026-03-01"`, "2026-03-01", "date", "", nil},
		{"YAML timestamp", "date: 2026-03-01", "2026-03-01", "date", "", nil},
		{"timestamp with time", "date: 2026-03-01 10:00:00", "2026-03-01", "date", "", nil},
		{"timestamp with offset", "date: 2026-03-01T23:30:00-05:00", "2026-03-01", "date", "", nil},
		{"epoch seconds", "date: 1650000000", "2022-04-15", "date", "", nil},
		{"epoch milliseconds", "date: 1650000000000", "2022-04-15", "date", "", nil},
		{"epoch float", "date: 1.65e9", "2022-04-15", "date", "", nil},
		{"created when no date", "created: 2026-01-02", "2026-01-02", "created", "", nil},
		{"date wins over created", "created: 2026-01-02\ndate: 2026-01-03", "2026-01-03", "date", "", nil},
		{"impossible date falls through", "date: 2026-02-30\ncreated: 2026-01-02", "2026-01-02", "created", "", []string{"date"}},
		{"word falls through", "date: yesterday\ncreated: 2026-01-02", "2026-01-02", "created", "", []string{"date"}},
		{"list falls through", "date: [2026-01-01]\ncreated: 2026-01-02", "2026-01-02", "created", "", []string{"date"}},
		{"map falls through", "date: {y: 2026}\ncreated: 2026-01-02", "2026-01-02", "created", "", []string{"date"}},
		{"boolean falls through", "date: true\ncreated: 2026-01-02", "2026-01-02", "created", "", []string{"date"}},
		{"both invalid", "date: soon\ncreated: 2026-13-01", "", "", "", []string{"date", "created"}},
		{"epoch out of range", "date: 1e20", "", "", "", []string{"date"}},
		{"explicit int tag on text", "date: !!int soon", "", "", "", []string{"date"}},
		{"recorded", "recorded: 2026-02-01T08:00:00Z", "", "", "2026-02-01", nil},
		{"invalid recorded", "recorded: 2025-02-29", "", "", "", []string{"recorded"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := Parse([]byte("---\n" + tt.yaml + "\n---\n"))
			if p.Dated != tt.dated || p.DatedField != tt.datedField || p.Recorded != tt.recorded {
				t.Errorf("Dated, DatedField, Recorded = %q, %q, %q; want %q, %q, %q",
					p.Dated, p.DatedField, p.Recorded, tt.dated, tt.datedField, tt.recorded)
			}
			var fields []string
			for _, pr := range problemsWith(p, "invalid-date") {
				fields = append(fields, strings.Split(pr.Message, `"`)[1])
			}
			if !slices.Equal(fields, tt.invalid) || len(p.Problems) != len(tt.invalid) {
				t.Errorf("problems %+v, want invalid-date for %q", p.Problems, tt.invalid)
			}
		})
	}
}

func TestInvalidDateProblemNamesFieldValueAndLine(t *testing.T) {
	p := Parse([]byte("---\ntitle: T\nretracted: 2026-02-30\n---\n"))
	want := Problem{Line: 3, Rule: "invalid-date", Message: `field "retracted" is not a valid date: "2026-02-30"`}
	if len(p.Problems) != 1 || p.Problems[0] != want || p.Retracted != "" {
		t.Errorf("problems %+v, Retracted %q; want [%+v] and no date", p.Problems, p.Retracted, want)
	}
}

func TestInvalidYAMLKeepsTheBody(t *testing.T) {
	tests := []struct {
		name string
		yaml string
		line int
	}{
		{"bad indentation", "title: T\n  tags: [a\nb: c\n", 3},
		{"unclosed flow list", "title: T\ntags: [a, b\n", 3},
		{"tab indentation", "title: T\ntags:\n\t- a\n", 4},
		{"error at the end of the text", "[\n", 3},
		{"error without a line", "a: *undefined\n", 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc := "---\n" + tt.yaml + "---\n# Body title\n\nSee [[other]].\n"
			p := Parse([]byte(doc))
			got := problemsWith(p, "frontmatter-yaml")
			if len(got) != 1 {
				t.Fatalf("problems %+v, want one frontmatter-yaml", p.Problems)
			}
			if got[0].Line != tt.line || strings.Contains(got[0].Message, "\n") || strings.Contains(got[0].Message, "yaml: ") {
				t.Errorf("problem %+v, want line %d and a one-line message without yaml's prefixes", got[0], tt.line)
			}
			if p.Title != "Body title" || p.Tags != nil || len(p.Links) != 1 {
				t.Errorf("Title %q, Tags %q, Links %+v; want the body parsed and no fields", p.Title, p.Tags, p.Links)
			}
			if want := strings.Index(doc, "# Body"); p.BodyStart != want {
				t.Errorf("BodyStart = %d, want %d", p.BodyStart, want)
			}
		})
	}
}

func TestFrontmatterThatIsNotAMap(t *testing.T) {
	for _, yaml := range []string{"- a\n- b\n", "just text\n", "[a]\n"} {
		p := Parse([]byte("---\n" + yaml + "---\n# H\n"))
		if got := problemsWith(p, "frontmatter-not-map"); len(got) != 1 || got[0].Line != 2 {
			t.Errorf("%q: problems %+v, want one frontmatter-not-map on line 2", yaml, p.Problems)
		}
		if p.Title != "H" {
			t.Errorf("%q: Title = %q, want the body still parsed", yaml, p.Title)
		}
	}
}

func TestFrontmatterWithOnlyCommentsOrNullIsEmpty(t *testing.T) {
	for _, yaml := range []string{"# just a comment\n", "~\n", "\n\n"} {
		p := Parse([]byte("---\n" + yaml + "---\n"))
		if len(p.Problems) != 0 {
			t.Errorf("%q: problems %+v, want none", yaml, p.Problems)
		}
	}
}

func TestFrontmatterInvalidUTF8IsReplaced(t *testing.T) {
	p := Parse([]byte("---\ntitle: caf\xe9 notes\ntags: [\xff]\n---\n"))
	if p.Title != "caf\uFFFD notes" || !slices.Equal(p.Tags, []string{"\uFFFD"}) || len(p.Problems) != 0 {
		t.Errorf("Title %q, Tags %q, Problems %+v; want invalid bytes replaced", p.Title, p.Tags, p.Problems)
	}
}
