package vault

import (
	"bytes"
	"strings"
	"testing"
)

// parseSeeds are notes of many shapes, seeding FuzzParse and the tests
// that compare parsers.
var parseSeeds = []string{
	"",
	"---\ntitle: T\ntags: [a, b]\ndate: 2026-03-01\n---\n# H\n\n- resolves [[x]]\n",
	"\uFEFF---\r\ntitle: T\r\n---\r\n# H\r\n[a](b.md)\r\n",
	"---\ntitle: [\n---\nbody [[x|y]] ![[z#^b]]\n",
	"> a [x\n> y](\n> b.md \"t\" ) `c` <b>[[no]]</b>\n",
	"## Answers\n- one\n### deeper\n- two\n## next\n",
	"```\n[[x]]\n```\n\n    [[y]]\n\n<div>\n[[z]]\n</div>\n",
	"[t][r] [r][] [r]\n\n[r]: a.md\n",
	"[[[x]]] \\[[y]] [[a `b]]` c]] caf\xe9 [[\xff]]\n",
	"---\naliases: &a [x, y]\ntags: *a\ntitle: !!str 1984\nrecorded: 1700000000\n...\n# H\n",
	"- a\n  - b [[x]]\n    1. c\n\t- d `e` [f](g.md)\n> - h\n>   > i [[j]]\n",
	"*\t  0\n-\t# H\n>\t#\n1.\t\t[[x]]\n",
	"| a | [[b]] | `c|d` |\n|---|---|---|\n| [e](f.md) | **g** | [ ] |\n",
	"~~~md\n# not a heading [[x]]\n~~~\n``` [[y]]\n",
	strings.Repeat("long [[line]] with [a](b.md) `code` *em* ", 200) + "\n",
}

func FuzzParse(f *testing.F) {
	for _, s := range parseSeeds {
		f.Add([]byte(s))
	}
	// Past newMarkdownParser's bounds.
	f.Add([]byte(strings.Repeat("- ", 40) + "[[deep]]\n" + strings.Repeat("> ", 40) + "x\n"))
	f.Add([]byte(strings.Repeat("[a](", 100) + "\n" + strings.Repeat("_* _\n", 100) + strings.Repeat("``\\", 100)))
	f.Fuzz(func(t *testing.T, content []byte) {
		original := bytes.Clone(content)
		p := Parse(content)
		if !bytes.Equal(content, original) {
			t.Fatal("Parse modified its input")
		}
		for i, l := range p.Links {
			if l.Start < 0 || l.Start >= l.End || l.End > len(content) {
				t.Fatalf("link %d %+v: offsets outside the content of length %d", i, l, len(content))
			}
			// [[|target]]: the name may be after the pipe (Dendron's
			// order), which the dialect decides; but a link names something.
			if l.Target == "" && l.Label == "" {
				t.Fatalf("link %d %+v: names nothing", i, l)
			}
			if i > 0 && l.Start < p.Links[i-1].Start {
				t.Fatalf("link %d %+v starts before link %d", i, l, i-1)
			}
			if !delimitsLink(l.Kind, string(content[l.Start:l.End])) {
				t.Fatalf("link %d %+v covers %q", i, l, content[l.Start:l.End])
			}
		}
		for i, h := range p.Headings {
			if h.Start < p.BodyStart || h.Start > len(content) || h.Line < 1 {
				t.Fatalf("heading %+v outside the body", h)
			}
			if i > 0 && h.Start < p.Headings[i-1].Start {
				t.Fatalf("heading %d %+v starts before heading %d", i, h, i-1)
			}
		}
		for _, pr := range p.Problems {
			if strings.Contains(pr.Message, "\n") {
				t.Fatalf("problem %+v has a multi-line message", pr)
			}
		}
		if p.BodyStart < 0 || p.BodyStart > len(content) {
			t.Fatalf("BodyStart %d outside the content of length %d", p.BodyStart, len(content))
		}
		assertValidUTF8(t, p)
		checkUnits(t, content, p)
	})
}

// delimitsLink reports whether syntax opens and closes the way links of the
// kind are written.
func delimitsLink(kind LinkKind, syntax string) bool {
	switch kind {
	case WikiLink:
		return strings.HasPrefix(syntax, "[[") && strings.HasSuffix(syntax, "]]")
	case EmbedLink:
		return strings.HasPrefix(syntax, "![[") && strings.HasSuffix(syntax, "]]")
	case MarkdownLink:
		return strings.HasPrefix(syntax, "[") && (strings.HasSuffix(syntax, ")") || strings.HasSuffix(syntax, "]"))
	case TagLink:
		return strings.HasPrefix(syntax, "#") && len(syntax) > 1
	}
	return false
}
