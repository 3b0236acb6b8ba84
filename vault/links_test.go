package vault

import (
	"strings"
	"testing"
)

// wantLink is a link expected in a document; syntax is the exact text its
// Start and End must cover, and must occur once in the document.
type wantLink struct {
	syntax            string
	kind              LinkKind
	target, fragment  string
	label, verb, lead string
}

func checkLinks(t *testing.T, doc string, want []wantLink) {
	t.Helper()
	p := Parse([]byte(doc))
	if len(p.Links) != len(want) {
		t.Fatalf("got %d links %+v, want %d", len(p.Links), p.Links, len(want))
	}
	for i, w := range want {
		l := p.Links[i]
		got := wantLink{doc[l.Start:l.End], l.Kind, l.Target, l.Fragment, l.Label, l.Verb, l.Lead}
		if got != w {
			t.Errorf("link %d\n got %+v\nwant %+v", i, got, w)
		}
		if start := strings.Index(doc, w.syntax); l.Start != start {
			t.Errorf("link %d starts at %d, want %d", i, l.Start, start)
		}
		if line := strings.Count(doc[:l.Start], "\n") + 1; l.Line != line {
			t.Errorf("link %d on line %d, want %d", i, l.Line, line)
		}
	}
}

func TestWikiLinkForms(t *testing.T) {
	tests := []struct {
		name string
		doc  string
		want wantLink
	}{
		{"plain", "see [[target]] here", wantLink{syntax: "[[target]]", kind: WikiLink, target: "target"}},
		{"path", "[[dir/sub note]]", wantLink{syntax: "[[dir/sub note]]", kind: WikiLink, target: "dir/sub note"}},
		{"label", "[[target|the label]]", wantLink{syntax: "[[target|the label]]", kind: WikiLink, target: "target", label: "the label"}},
		{"heading", "[[target#Some heading]]", wantLink{syntax: "[[target#Some heading]]", kind: WikiLink, target: "target", fragment: "Some heading"}},
		{"heading and label", "[[target#h|lbl]]", wantLink{syntax: "[[target#h|lbl]]", kind: WikiLink, target: "target", fragment: "h", label: "lbl"}},
		{"block", "[[target^abc123]]", wantLink{syntax: "[[target^abc123]]", kind: WikiLink, target: "target", fragment: "^abc123"}},
		{"heading-style block", "[[target#^abc123]]", wantLink{syntax: "[[target#^abc123]]", kind: WikiLink, target: "target", fragment: "^abc123"}},
		{"md extension dropped", "[[x.md]]", wantLink{syntax: "[[x.md]]", kind: WikiLink, target: "x"}},
		{"upper-case extension dropped", "[[x.MD#h]]", wantLink{syntax: "[[x.MD#h]]", kind: WikiLink, target: "x", fragment: "h"}},
		{"other extension kept", "[[report.pdf]]", wantLink{syntax: "[[report.pdf]]", kind: WikiLink, target: "report.pdf"}},
		{"spaces trimmed", "[[ x | y ]]", wantLink{syntax: "[[ x | y ]]", kind: WikiLink, target: "x", label: "y"}},
		{"table-escaped pipe", "| [[x\\|y]] |", wantLink{syntax: "[[x\\|y]]", kind: WikiLink, target: "x", label: "y"}},
		{"embed", "![[image.png]]", wantLink{syntax: "![[image.png]]", kind: EmbedLink, target: "image.png"}},
		{"embed with heading", "text ![[note#part]]", wantLink{syntax: "![[note#part]]", kind: EmbedLink, target: "note", fragment: "part"}},
		{"escaped bang is not an embed", "\\![[note]]", wantLink{syntax: "[[note]]", kind: WikiLink, target: "note"}},
		{"innermost opening brackets", "[[[x]]]", wantLink{syntax: "[[x]]", kind: WikiLink, target: "x"}},
		{"escaped backslash before link", "\\\\[[x]]", wantLink{syntax: "[[x]]", kind: WikiLink, target: "x"}},
		{"in a heading", "# About [[x]]", wantLink{syntax: "[[x]]", kind: WikiLink, target: "x"}},
		{"in emphasis", "*see [[x]]*", wantLink{syntax: "[[x]]", kind: WikiLink, target: "x"}},
		{"in a blockquote", "> quoted [[x]]", wantLink{syntax: "[[x]]", kind: WikiLink, target: "x"}},
		{"after code on the same line", "`code` [[x]]", wantLink{syntax: "[[x]]", kind: WikiLink, target: "x"}},
		{"after a code block", "```\ncode\n```\n[[x]]", wantLink{syntax: "[[x]]", kind: WikiLink, target: "x"}},
		// Regression: obsidian-help writes [[Funções#hasTag|`hasTag`]]; a
		// code span wholly inside the brackets is the label's.
		{"code inside the label", "the [[Funções#hasTag|`hasTag`]] function", wantLink{syntax: "[[Funções#hasTag|`hasTag`]]", kind: WikiLink, target: "Funções", fragment: "hasTag", label: "`hasTag`"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			checkLinks(t, tt.doc, []wantLink{tt.want})
		})
	}
}

func TestTextThatIsNotAWikiLink(t *testing.T) {
	tests := []struct{ name, doc string }{
		{"heading only", "[[#heading]]"},
		{"block only", "[[^block]]"},
		{"empty", "[[]] and [[ ]] and ![[]]"},
		{"just an extension", "[[.md]]"},
		{"newline inside", "[[broken\nlink]]"},
		{"unclosed", "[[never closed"},
		{"single brackets", "[x] and [x]]"},
		{"escaped", "\\[[x]]"},
		{"fenced code", "```\n[[x]]\n```"},
		{"fence info string", "```[[x]]\ncode\n```"},
		{"tilde fence", "~~~\n![[x]]\n~~~"},
		{"unclosed fence", "```\n[[x]]"},
		{"indented code", "text\n\n    [[x]]\n"},
		{"code in a list item", "- item\n\n      [[x]]\n"},
		{"inline code", "a `[[x]]` b"},
		{"double-backtick code", "a ``x ` [[y]]`` b"},
		{"closing brackets in code", "[[a `b]]` c]]"},
		{"code spanning lines", "a `x\n[[y]]` b"},
		{"html block", "<div>\n[[x]]\n</div>"},
		{"html comment block", "<!--\n[[x]]\n-->"},
		{"html comment after text in its closing line", "<!--\nx\n--> [[y]]"},
		{"inline html", "a <span title=\"[[x]]\">b</span>"},
		{"inline comment", "a <!-- [[x]] --> b"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if p := Parse([]byte(tt.doc)); len(p.Links) != 0 {
				t.Errorf("links %+v, want none", p.Links)
			}
		})
	}
}

func TestMarkdownLinks(t *testing.T) {
	tests := []struct {
		name string
		doc  string
		want []wantLink
	}{
		{"relative note", "[the text](notes/a.md)", []wantLink{{syntax: "[the text](notes/a.md)", kind: MarkdownLink, target: "notes/a", label: "the text"}}},
		{"no extension", "[t](notes/a)", []wantLink{{syntax: "[t](notes/a)", kind: MarkdownLink, target: "notes/a", label: "t"}}},
		{"upper-case extension", "[t](A.MD)", []wantLink{{syntax: "[t](A.MD)", kind: MarkdownLink, target: "A", label: "t"}}},
		{"parent folder", "[up](../up.md)", []wantLink{{syntax: "[up](../up.md)", kind: MarkdownLink, target: "../up", label: "up"}}},
		{"current folder", "[here](./here.md)", []wantLink{{syntax: "[here](./here.md)", kind: MarkdownLink, target: "./here", label: "here"}}},
		{"rooted", "[r](/rooted.md)", []wantLink{{syntax: "[r](/rooted.md)", kind: MarkdownLink, target: "/rooted", label: "r"}}},
		{"query and fragment", "[q](a.md?q=1#Some%20part)", []wantLink{{syntax: "[q](a.md?q=1#Some%20part)", kind: MarkdownLink, target: "a", fragment: "Some part", label: "q"}}},
		{"percent escapes", "[s](my%20note.md)", []wantLink{{syntax: "[s](my%20note.md)", kind: MarkdownLink, target: "my note", label: "s"}}},
		{"bad percent escape kept", "[s](100%.md)", []wantLink{{syntax: "[s](100%.md)", kind: MarkdownLink, target: "100%", label: "s"}}},
		{"angle destination", "[s](<my note.md>)", []wantLink{{syntax: "[s](<my note.md>)", kind: MarkdownLink, target: "my note", label: "s"}}},
		{"backslash escape in destination", "[s](a\\(1\\).md)", []wantLink{{syntax: "[s](a\\(1\\).md)", kind: MarkdownLink, target: "a(1)", label: "s"}}},
		{"balanced parentheses", "[s](a(1).md)", []wantLink{{syntax: "[s](a(1).md)", kind: MarkdownLink, target: "a(1)", label: "s"}}},
		{"title", "[s](a.md \"A title\")", []wantLink{{syntax: "[s](a.md \"A title\")", kind: MarkdownLink, target: "a", label: "s"}}},
		{"escaped quote in title", "[s](a.md \"x \\\" y\") z", []wantLink{{syntax: "[s](a.md \"x \\\" y\")", kind: MarkdownLink, target: "a", label: "s"}}},
		{"parenthesis inside the title", "[s](a.md \"x) y\") z", []wantLink{{syntax: "[s](a.md \"x) y\")", kind: MarkdownLink, target: "a", label: "s"}}},
		{"parenthesised title", "[s]( a.md (t) ) x", []wantLink{{syntax: "[s]( a.md (t) )", kind: MarkdownLink, target: "a", label: "s"}}},
		{"markup in text", "[*big* `code`](a.md)", []wantLink{{syntax: "[*big* `code`](a.md)", kind: MarkdownLink, target: "a", label: "big code"}}},
		{"brackets in text", "[a [b] c](a.md)", []wantLink{{syntax: "[a [b] c](a.md)", kind: MarkdownLink, target: "a", label: "a [b] c"}}},
		{"escaped bracket in text", "[a \\] b](a.md)", []wantLink{{syntax: "[a \\] b](a.md)", kind: MarkdownLink, target: "a", label: "a ] b"}}},
		{"bracket in code in text", "[`]` x](a.md) tail", []wantLink{{syntax: "[`]` x](a.md)", kind: MarkdownLink, target: "a", label: "] x"}}},
		{"bracket in html in text", "[<b title=\"]\">x</b>](a.md) tail", []wantLink{{syntax: "[<b title=\"]\">x</b>](a.md)", kind: MarkdownLink, target: "a", label: "x"}}},
		{"bracket in autolink in text", "[<http://a]>](a.md) tail", []wantLink{{syntax: "[<http://a]>](a.md)", kind: MarkdownLink, target: "a", label: "http://a]"}}},
		{"spanning CRLF lines in a list", "- x\r\n  [c](\r\n  d.md) e\r\n", []wantLink{{syntax: "[c](\r\n  d.md)", kind: MarkdownLink, target: "d", label: "c"}}},
		{"image in text", "[![alt](i.png)](a.md)", []wantLink{{syntax: "[![alt](i.png)](a.md)", kind: MarkdownLink, target: "a", label: "alt"}}},
		{"inside emphasis", "**[s](a.md)**", []wantLink{{syntax: "[s](a.md)", kind: MarkdownLink, target: "a", label: "s"}}},
		{"in a heading", "## See [s](a.md) #", []wantLink{{syntax: "[s](a.md)", kind: MarkdownLink, target: "a", label: "s"}}},
		{"after an unmatched bracket", "[x [s](a.md)", []wantLink{{syntax: "[s](a.md)", kind: MarkdownLink, target: "a", label: "s"}}},
		{"spanning lines in a blockquote", "> a [two\n> lines](\n> b.md\n> \"t\" ) end", []wantLink{{syntax: "[two\n> lines](\n> b.md\n> \"t\" )", kind: MarkdownLink, target: "b", label: "two lines"}}},
		{"spanning lines in a list", "- a [x\n  y](b.md)", []wantLink{{syntax: "[x\n  y](b.md)", kind: MarkdownLink, target: "b", label: "x y"}}},
		{"full reference", "[t][r]\n\n[r]: a.md", []wantLink{{syntax: "[t][r]", kind: MarkdownLink, target: "a", label: "t"}}},
		{"collapsed reference", "[R][] x\n\n[r]: <a.md> \"title\"", []wantLink{{syntax: "[R][]", kind: MarkdownLink, target: "a", label: "R"}}},
		{"shortcut reference", "see [r].\n\n[r]: a.md", []wantLink{{syntax: "[r]", kind: MarkdownLink, target: "a", label: "r"}}},
		{"reference label with an escaped bracket", "[t][r\\]x] y\n\n[r\\]x]: a.md", []wantLink{{syntax: "[t][r\\]x]", kind: MarkdownLink, target: "a", label: "t"}}},
		{"reference with brackets in text", "[a [b]][r]\n\n[r]: a.md", []wantLink{{syntax: "[a [b]][r]", kind: MarkdownLink, target: "a", label: "a [b]"}}},
		{"wiki link as link text", "[[x]](y.md)", []wantLink{
			{syntax: "[[x]]", kind: WikiLink, target: "x"},
			{syntax: "[[x]](y.md)", kind: MarkdownLink, target: "y", label: "[x]"},
		}},
		// Names with dots and other files keep their extension, for
		// resolution and lint to tell a note from an attachment.
		{"dotted name", "[r](Excel.Range)", []wantLink{{syntax: "[r](Excel.Range)", kind: MarkdownLink, target: "Excel.Range", label: "r"}}},
		{"image file", "[i](pic.png)", []wantLink{{syntax: "[i](pic.png)", kind: MarkdownLink, target: "pic.png", label: "i"}}},
		{"pdf", "[p](docs/spec.pdf#page=2)", []wantLink{{syntax: "[p](docs/spec.pdf#page=2)", kind: MarkdownLink, target: "docs/spec.pdf", fragment: "page=2", label: "p"}}},
		{"docfx include", "[!include[Support](~/includes/fb.md)]", []wantLink{{syntax: "[Support](~/includes/fb.md)", kind: MarkdownLink, target: "~/includes/fb", label: "Support"}}},
		{"mixed kinds in order", "[m](m.md) [[w]] ![[e]] [n](n)", []wantLink{
			{syntax: "[m](m.md)", kind: MarkdownLink, target: "m", label: "m"},
			{syntax: "[[w]]", kind: WikiLink, target: "w"},
			{syntax: "![[e]]", kind: EmbedLink, target: "e"},
			{syntax: "[n](n)", kind: MarkdownLink, target: "n", label: "n"},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			checkLinks(t, tt.doc, tt.want)
		})
	}
}

func TestMarkdownLinksThatAreNotNoteLinks(t *testing.T) {
	tests := []struct{ name, doc string }{
		{"web URL", "[w](https://example.com/a.md)"},
		{"mail", "[m](mailto:a@b.c)"},
		{"other scheme", "[o](obsidian://open?vault=x)"},
		{"same-note anchor", "[a](#heading)"},
		{"empty destination", "[e]()"},
		{"query only", "[q](?x=1)"},
		{"image syntax", "![alt](a.md)"},
		{"autolink", "<https://example.com>"},
		{"undefined reference", "[t][nope]"},
		{"footnote", "A claim.[^1]\n\n[^1]: meaningful!"},
		{"in inline code", "`[t](a.md)`"},
		{"in fenced code", "```\n[t](a.md)\n```"},
		{"in an html block", "<div>\n[t](a.md)\n</div>"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if p := Parse([]byte(tt.doc)); len(p.Links) != 0 {
				t.Errorf("links %+v, want none", p.Links)
			}
		})
	}
}

// Hashtags: a "#" after white space or at a line's start, then a letter;
// never inside code, a wiki link or a URL, never a heading's marks, an
// issue number or a colour. Which dialect makes them links is
// resolution's business (Logseq, Dendron).
func TestHashtags(t *testing.T) {
	tests := []struct {
		name, doc string
		want      []wantLink
	}{
		{"plain", "a #tag here", []wantLink{{syntax: "#tag", kind: TagLink, target: "tag"}}},
		{"dotted, at a line's start, sentence end", "#role.bugcatcher.", []wantLink{{syntax: "#role.bugcatcher", kind: TagLink, target: "role.bugcatcher"}}},
		{"nested with slashes", "x #area/sub-topic_2", []wantLink{{syntax: "#area/sub-topic_2", kind: TagLink, target: "area/sub-topic_2"}}},
		{"letters of any script", "x #café", []wantLink{{syntax: "#café", kind: TagLink, target: "café"}}},
		{"page name in brackets is a wiki link", "x #[[a page]]", []wantLink{{syntax: "[[a page]]", kind: WikiLink, target: "a page"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { checkLinks(t, tt.doc, tt.want) })
	}
	for _, doc := range []string{"# Heading", "## Two", "issue #1213", "colour #43B02A", "C# and F#", "see `#code`", "```\n#fenced\n```",
		"[[note#heading]]", "[[x|a #label]]", "https://x.org/#/page", "[a](#anchor)", "<span style=\"color: #ccc\">x</span>", "&#39;"} {
		for _, l := range Parse([]byte(doc)).Links {
			if l.Kind == TagLink {
				t.Errorf("%q: %+v, want no hashtag", doc, l)
			}
		}
	}
}

func TestTypedLinks(t *testing.T) {
	tests := []struct {
		name string
		doc  string
		want []wantLink
	}{
		{"verb before a wiki link", "- resolves [[issue/x]]", []wantLink{{syntax: "[[issue/x]]", kind: WikiLink, target: "issue/x", verb: "resolves"}}},
		{"every verb", "- cites [[a]]\n- derives_from [[b]]\n- supersedes [[c]]\n- invalidates [[d]]\n- resolves [[e]]\n- rejects [[f]]\n- mitigates [[g]]\n- attaches ![[h.pdf]]", []wantLink{
			{syntax: "[[a]]", kind: WikiLink, target: "a", verb: "cites"},
			{syntax: "[[b]]", kind: WikiLink, target: "b", verb: "derives_from"},
			{syntax: "[[c]]", kind: WikiLink, target: "c", verb: "supersedes"},
			{syntax: "[[d]]", kind: WikiLink, target: "d", verb: "invalidates"},
			{syntax: "[[e]]", kind: WikiLink, target: "e", verb: "resolves"},
			{syntax: "[[f]]", kind: WikiLink, target: "f", verb: "rejects"},
			{syntax: "[[g]]", kind: WikiLink, target: "g", verb: "mitigates"},
			{syntax: "![[h.pdf]]", kind: EmbedLink, target: "h.pdf", verb: "attaches"},
		}},
		{"only the first link is typed", "* supersedes [[old]] and [[other]]", []wantLink{
			{syntax: "[[old]]", kind: WikiLink, target: "old", verb: "supersedes"},
			{syntax: "[[other]]", kind: WikiLink, target: "other"},
		}},
		{"ordered list", "1. cites [[paper|P]]", []wantLink{{syntax: "[[paper|P]]", kind: WikiLink, target: "paper", label: "P", verb: "cites"}}},
		{"link on the continuation line", "- rejects\n  [[x]]", []wantLink{{syntax: "[[x]]", kind: WikiLink, target: "x", verb: "rejects"}}},
		{"nested item", "- parent\n  - resolves [[x]]", []wantLink{{syntax: "[[x]]", kind: WikiLink, target: "x", verb: "resolves"}}},
		{"unknown word is a lead", "- see [[x]]", []wantLink{{syntax: "[[x]]", kind: WikiLink, target: "x", lead: "see"}}},
		{"misspelled verb is a lead", "- supercedes [[x]]", []wantLink{{syntax: "[[x]]", kind: WikiLink, target: "x", lead: "supercedes"}}},
		{"verbs are case-sensitive", "- Resolves [[x]]", []wantLink{{syntax: "[[x]]", kind: WikiLink, target: "x", lead: "Resolves"}}},
		{"lead with digits, dash and letters", "- v2-fixé [[x]]", []wantLink{{syntax: "[[x]]", kind: WikiLink, target: "x", lead: "v2-fixé"}}},
		{"verb after the link", "- [[x]] resolves", []wantLink{{syntax: "[[x]]", kind: WikiLink, target: "x"}}},
		{"two words before the link", "- it resolves [[x]]", []wantLink{{syntax: "[[x]]", kind: WikiLink, target: "x"}}},
		{"punctuation after the verb", "- resolves: [[x]]", []wantLink{{syntax: "[[x]]", kind: WikiLink, target: "x"}}},
		{"no space after the verb", "- resolves[[x]]", []wantLink{{syntax: "[[x]]", kind: WikiLink, target: "x"}}},
		{"paragraph, not a list item", "resolves [[x]]", []wantLink{{syntax: "[[x]]", kind: WikiLink, target: "x"}}},
		{"link in a later paragraph of the item", "- resolves\n\n  [[x]]", []wantLink{{syntax: "[[x]]", kind: WikiLink, target: "x"}}},
		{"verb before a markdown link", "- resolves [x](x.md)", []wantLink{{syntax: "[x](x.md)", kind: MarkdownLink, target: "x", label: "x"}}},
		{"verb before code", "- resolves `[[x]]` [[y]]", []wantLink{{syntax: "[[y]]", kind: WikiLink, target: "y"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			checkLinks(t, tt.doc, tt.want)
		})
	}
}

func TestLinkOffsetsAfterFrontmatter(t *testing.T) {
	doc := "---\ntitle: T\n---\nline four\n\n[[a]] then [b](b.md)\n\n- resolves ![[c]]\n"
	checkLinks(t, doc, []wantLink{
		{syntax: "[[a]]", kind: WikiLink, target: "a"},
		{syntax: "[b](b.md)", kind: MarkdownLink, target: "b", label: "b"},
		{syntax: "![[c]]", kind: EmbedLink, target: "c", verb: "resolves"},
	})
}
