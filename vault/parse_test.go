package vault

import (
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestTitleSources(t *testing.T) {
	tests := []struct {
		name    string
		doc     string
		title   string
		fromH1  bool
		heading int // how many headings the body has
	}{
		{"frontmatter title wins over H1", "---\ntitle: FM\n---\n# H1\n", "FM", false, 1},
		{"blank frontmatter title falls back to H1", "---\ntitle: \"  \"\n---\n# H1\n", "H1", true, 1},
		{"first H1", "# One\n# Two\n", "One", true, 2},
		{"H1 after a level-2 heading", "## Sub\n# Main\n", "Main", true, 2},
		{"setext H1", "Main title\n==========\n\ntext\n", "Main title", true, 1},
		{"setext H2 is not a title", "Sub\n---\n", "", false, 1},
		{"empty H1 is skipped", "#\n# Real\n", "Real", true, 2},
		{"only an empty H1", "#\ntext\n", "", false, 1},
		{"H1 markup removed", "# The *big* `plan` [doc](d.md) \\#1\n", "The big plan doc #1", true, 1},
		{"H1 keeps autolink text, drops HTML", "# See <https://x.y> <b>now</b>\n", "See https://x.y now", true, 1},
		{"no heading", "just text\n", "", false, 0},
		{"H1 inside a fence is not a title", "```\n# Not\n```\n", "", false, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := Parse([]byte(tt.doc))
			if p.Title != tt.title || p.TitleFromH1 != tt.fromH1 || len(p.Headings) != tt.heading {
				t.Errorf("Title, TitleFromH1, headings = %q, %v, %d; want %q, %v, %d",
					p.Title, p.TitleFromH1, len(p.Headings), tt.title, tt.fromH1, tt.heading)
			}
		})
	}
}

func TestHeadingsInDocumentOrderWithLineStarts(t *testing.T) {
	doc := "---\ntitle: T\n---\n" +
		"# One #\n" +
		"\n" +
		"Two\n" +
		"---\n" +
		"\n" +
		"> ### Three `code` and *emphasis*\n" +
		"\n" +
		"- #### Four\n" +
		"\n" +
		"Five\n" +
		"=====\n" +
		"###### Six\n"
	p := Parse([]byte(doc))
	want := []Heading{
		{Level: 1, Text: "One", Line: 4},
		{Level: 2, Text: "Two", Line: 6},
		{Level: 3, Text: "Three code and emphasis", Line: 9},
		{Level: 4, Text: "Four", Line: 11},
		{Level: 1, Text: "Five", Line: 13},
		{Level: 6, Text: "Six", Line: 15},
	}
	lines := strings.SplitAfter(doc, "\n")
	for i := range want {
		want[i].Start = len(strings.Join(lines[:want[i].Line-1], ""))
	}
	if !slices.Equal(p.Headings, want) {
		t.Errorf("headings\n got %+v\nwant %+v", p.Headings, want)
	}
}

func TestCodeIsNeverAHeading(t *testing.T) {
	doc := "```\n# fenced\n```\n\n~~~md\n## tilde\n~~~\n\n    # indented\n\n<div>\n# html\n</div>\n\n# Real\n"
	p := Parse([]byte(doc))
	if len(p.Headings) != 1 || p.Headings[0].Text != "Real" {
		t.Errorf("headings %+v, want only Real", p.Headings)
	}
}

func TestCRLFFile(t *testing.T) {
	doc := "---\r\ntitle: T\r\ntags: [crlf]\r\n---\r\n" +
		"# Heading one\r\n" +
		"\r\n" +
		"Setext\r\n" +
		"------\r\n" +
		"\r\n" +
		"A [[wiki|label]] and [md](path/to.md).\r\n" +
		"\r\n" +
		"## Answers\r\n" +
		"\r\n" +
		"- first answer\r\n" +
		"  continued\r\n" +
		"- resolves [[issue/x]]\r\n"
	p := Parse([]byte(doc))
	if p.BodyStart != strings.Index(doc, "# Heading") || p.FrontmatterLines != 4 || p.Title != "T" || !slices.Equal(p.Tags, []string{"crlf"}) {
		t.Errorf("frontmatter: BodyStart %d, lines %d, Title %q, Tags %q", p.BodyStart, p.FrontmatterLines, p.Title, p.Tags)
	}
	var texts []string
	for _, h := range p.Headings {
		texts = append(texts, h.Text)
	}
	if !slices.Equal(texts, []string{"Heading one", "Setext", "Answers"}) {
		t.Errorf("heading texts %q, want no carriage returns", texts)
	}
	if got := p.Headings[1]; got.Start != strings.Index(doc, "Setext") || got.Line != 7 {
		t.Errorf("setext heading at %d line %d", got.Start, got.Line)
	}
	wantSyntax := []string{"crlf", "[[wiki|label]]", "[md](path/to.md)", "[[issue/x]]"}
	wantLines := []int{3, 10, 10, 16}
	if len(p.Links) != len(wantSyntax) {
		t.Fatalf("links %+v", p.Links)
	}
	for i, l := range p.Links {
		if got := doc[l.Start:l.End]; got != wantSyntax[i] || l.Start != strings.Index(doc, wantSyntax[i]) || l.Line != wantLines[i] {
			t.Errorf("link %d: %q at %d line %d, want %q on line %d", i, got, l.Start, l.Line, wantSyntax[i], wantLines[i])
		}
	}
	if !slices.Equal(p.Answers, []string{"first answer continued", "resolves [[issue/x]]"}) {
		t.Errorf("Answers = %q", p.Answers)
	}
}

func TestByteOrderMarkCountsInOffsets(t *testing.T) {
	tests := []struct {
		name      string
		doc       string
		bodyStart int
	}{
		{"without frontmatter", "\uFEFF# Title\n\nsee [[target]]\n", 3},
		{"with frontmatter", "\uFEFF---\nkey: k\n---\n# Title\n\nsee [[target]]\n", 18},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := Parse([]byte(tt.doc))
			if p.BodyStart != tt.bodyStart || p.Title != "Title" {
				t.Errorf("BodyStart, Title = %d, %q; want %d, Title", p.BodyStart, p.Title, tt.bodyStart)
			}
			if len(p.Headings) != 1 || p.Headings[0].Start != tt.bodyStart {
				t.Errorf("headings %+v, want one starting at %d", p.Headings, tt.bodyStart)
			}
			if len(p.Links) != 1 || tt.doc[p.Links[0].Start:p.Links[0].End] != "[[target]]" {
				t.Errorf("links %+v, want [[target]] with offsets into the file", p.Links)
			}
		})
	}
}

func TestInvalidUTF8(t *testing.T) {
	doc := "# Caf\xe9 title\n\n## Bad \xff\xfe heading\n\nBody \xc3 text [[n\xe9e|l\xe9]] and [x\xff](a\xff.md) [[ok]]\n"
	p := Parse([]byte(doc))
	if p.Title != "Caf\uFFFD title" {
		t.Errorf("Title = %q", p.Title)
	}
	if len(p.Headings) != 2 || p.Headings[1].Text != "Bad \uFFFD heading" || p.Headings[1].Start != strings.Index(doc, "## Bad") {
		t.Errorf("headings %+v", p.Headings)
	}
	want := []struct{ syntax, target, label string }{
		{"[[n\xe9e|l\xe9]]", "n\uFFFDe", "l\uFFFD"},
		{"[x\xff](a\xff.md)", "a\uFFFD", "x\uFFFD"},
		{"[[ok]]", "ok", ""},
	}
	if len(p.Links) != len(want) {
		t.Fatalf("links %+v", p.Links)
	}
	for i, w := range want {
		l := p.Links[i]
		if doc[l.Start:l.End] != w.syntax || l.Target != w.target || l.Label != w.label {
			t.Errorf("link %d = %+v (%q), want %q target %q label %q", i, l, doc[l.Start:l.End], w.syntax, w.target, w.label)
		}
	}
	assertValidUTF8(t, p)
}

// assertValidUTF8 fails when any string Parse returned is not valid UTF-8.
func assertValidUTF8(t *testing.T, p Parsed) {
	t.Helper()
	strs := []string{p.Title, p.Type, p.Source, p.DeclaredKey, string(p.Recorded), string(p.Dated), p.DatedField, string(p.Retracted), p.RetractedReason}
	strs = append(strs, p.Aliases...)
	strs = append(strs, p.Tags...)
	strs = append(strs, p.Answers...)
	for _, h := range p.Headings {
		strs = append(strs, h.Text)
	}
	for _, l := range p.Links {
		strs = append(strs, l.Target, l.Fragment, l.Label, l.Verb, l.Lead)
	}
	for _, pr := range p.Problems {
		strs = append(strs, pr.Rule, pr.Message)
	}
	for _, s := range strs {
		if !utf8.ValidString(s) {
			t.Errorf("invalid UTF-8 in result: %q", s)
		}
	}
}

func TestAnswersSection(t *testing.T) {
	tests := []struct {
		name string
		doc  string
		want []string
	}{
		{"bullets under the heading", "## Answers\n\n- one\n- two *emph*\n", []string{"one", "two emph"}},
		{"frontmatter answers first", "---\nanswers: [fm]\n---\n# Answers\n- body\n", []string{"fm", "body"}},
		{"stops at the next same-level heading", "## Answers\n- in\n## Other\n- out\n", []string{"in"}},
		{"stops at a higher-level heading", "## Answers\n- in\n# Top\n- out\n", []string{"in"}},
		{"deeper headings do not stop it", "## Answers\n- a\n### Detail\n- b\n", []string{"a", "b"}},
		{"only list items are collected", "## Answers\nprose\n\n- item\n\n> - quoted\n", []string{"item"}},
		{"case and trailing colon ignored", "### answers:\n1. first\n2. second\n", []string{"first", "second"}},
		{"code spanning lines reads as one line", "# Answers\n- `multi\n  line` code\n", []string{"multi line code"}},
		{"item text is its first paragraph", "# Answers\n- lead\n\n  more\n  - nested\n", []string{"lead"}},
		{"items without a paragraph are skipped", "# Answers\n-\n- ```\n  code\n  ```\n- # heading\n- real\n", []string{"real"}},
		{"a deeper Answers heading does not narrow the section", "## Answers\n- a\n### Answers\n- b\n### Other\n- c\n", []string{"a", "b", "c"}},
		{"several sections", "# Answers\n- a\n# Other\n- x\n# Answers\n- b\n", []string{"a", "b"}},
		{"not a heading named Answers", "Answers\n\n- no\n", nil},
		{"heading text must match", "# Answers given\n- no\n", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Parse([]byte(tt.doc)).Answers; !slices.Equal(got, tt.want) {
				t.Errorf("Answers = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestLooksBinary(t *testing.T) {
	tests := []struct {
		name    string
		content []byte
		want    bool
	}{
		{"text", []byte("# note\n"), false},
		{"empty", nil, false},
		{"NUL early", []byte("ab\x00cd"), true},
		{"NUL at byte 7999", append([]byte(strings.Repeat("a", 7999)), 0), true},
		{"NUL after 8000 bytes", append([]byte(strings.Repeat("a", 8000)), 0), false},
		{"invalid UTF-8 is not binary", []byte("\xff\xfe"), false},
	}
	for _, tt := range tests {
		if got := LooksBinary(tt.content); got != tt.want {
			t.Errorf("%s: LooksBinary = %v, want %v", tt.name, got, tt.want)
		}
	}
}

func TestParseLeavesInputUnchanged(t *testing.T) {
	doc := "---\ntitle: T\n---\n# H \\*x\\*\n\n[a\\]b](c\\(d\\).md) [[w]]\n"
	content := []byte(doc)
	Parse(content)
	if string(content) != doc {
		t.Errorf("content changed to %q", content)
	}
}

// goldmark counts a tab before a block in columns when it sets the block's
// Pos, which put an indented code block after a tab-marked list item past
// the end of the file: Parse panicked slicing there.
func TestCodeBlockAfterTabbedListMarkerAtEndOfFile(t *testing.T) {
	for _, doc := range []string{"*\t  0", "-\t  0\n", "1.\t\t[[x]]", "> -\t  [[x]]\n[[y]]"} {
		p := Parse([]byte(doc))
		var targets []string
		for _, l := range p.Links {
			targets = append(targets, l.Target)
		}
		// The code block holds any [[x]]; only a later line's link counts.
		want := []string(nil)
		if strings.Contains(doc, "[[y]]") {
			want = []string{"y"}
		}
		if !slices.Equal(targets, want) {
			t.Errorf("%q: links %q, want %q", doc, targets, want)
		}
	}
}

// A name written past the parsed part of a huge note was looked for by
// lowering the whole rest of the note in memory; it is now read in pieces,
// and a name that straddles two pieces is still found.
func TestUnparsedMentionFindsANameAcrossReadPieces(t *testing.T) {
	t.Parallel()
	head := strings.Repeat("plain words here\n", (MaxMarkdownBytes/17)+10)
	for _, at := range []int{0, 1<<20 - 3, 1<<20 - 1, 1 << 20, 2<<20 + 5} {
		tail := strings.Repeat("x", at) + "see Target-Note now\n"
		doc := head + tail
		p := ParseNote([]byte(doc))
		line, err := UnparsedMention(strings.NewReader(doc), p, "target-note")
		if err != nil || line == 0 {
			t.Errorf("name at %d past the cut: line %d, %v", at, line, err)
		}
		line, err = UnparsedMention(strings.NewReader(doc), p, "absent-note")
		if err != nil || line != 0 {
			t.Errorf("absent name: line %d, %v", line, err)
		}
	}
}

// A note git could not merge is read with its conflict markers as blank
// lines: "=======" does not make the line above it a heading, ">>>>>>>" is
// no quote, both sides' text is read, and each block's first line is a
// conflict-markers problem. Markers in fenced code, or a block never
// closed, are text. Catches: a Claim turned into a heading by "=======",
// and lint silent on a note still in conflict.
func TestConflictMarkersAreReadAsBlankLines(t *testing.T) {
	t.Parallel()
	note := "---\ntype: finding\n---\n# Throughput\n\n## Claim\n\n<<<<<<< HEAD\nThroughput is 5000 jobs per second.\n=======\nThroughput is 6000 jobs per second.\n>>>>>>> other-clone\n\n## Evidence\n\nA run.\n"
	p := Parse([]byte(note))
	var headings []string
	for _, h := range p.Headings {
		headings = append(headings, h.Text)
	}
	if !slices.Equal(headings, []string{"Throughput", "Claim", "Evidence"}) {
		t.Errorf("headings %q", headings)
	}
	if len(p.Problems) != 1 || p.Problems[0].Rule != "conflict-markers" || p.Problems[0].Line != 8 {
		t.Errorf("problems %+v", p.Problems)
	}
	var units []string
	for _, u := range p.Units {
		units = append(units, note[u.Start:u.End])
	}
	if !slices.ContainsFunc(units, func(u string) bool { return strings.Contains(u, "5000") }) ||
		!slices.ContainsFunc(units, func(u string) bool { return strings.Contains(u, "6000") }) ||
		slices.ContainsFunc(units, func(u string) bool { return strings.Contains(u, "<<<") || strings.Contains(u, "===") }) {
		t.Errorf("units %q", units)
	}
	diff3 := strings.Replace(note, "=======\n", "||||||| base\nThroughput is 4000.\n=======\n", 1)
	if p := Parse([]byte(diff3)); len(p.Problems) != 1 || len(p.Headings) != 3 {
		t.Errorf("diff3: %+v %+v", p.Problems, p.Headings)
	}
	for name, text := range map[string]string{
		"fenced":   "# How to merge\n\n```\n<<<<<<< HEAD\nours\n=======\ntheirs\n>>>>>>> branch\n```\n",
		"unclosed": "# Half\n\n<<<<<<< HEAD\nours\n=======\ntheirs\n",
	} {
		if p := Parse([]byte(text)); len(p.Problems) != 0 {
			t.Errorf("%s: %+v", name, p.Problems)
		}
	}
}
