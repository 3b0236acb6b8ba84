package vault

import (
	"bytes"
	"strings"
	"testing"

	"github.com/omh-notes/omh/vault/vaulttest"
)

// parseSeeds seed FuzzParse and the tests that compare parsers.
var parseSeeds = vaulttest.NoteSeeds()

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
			if !delimitsLink(l.Kind, string(content[l.Start:l.End]), l.Start < p.BodyStart) {
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
func delimitsLink(kind LinkKind, syntax string, inFrontmatter bool) bool {
	switch kind {
	case WikiLink:
		return strings.HasPrefix(syntax, "[[") && strings.HasSuffix(syntax, "]]")
	case EmbedLink:
		return strings.HasPrefix(syntax, "![[") && strings.HasSuffix(syntax, "]]")
	case MarkdownLink, WikiReference:
		return strings.HasPrefix(syntax, "[") && (strings.HasSuffix(syntax, ")") || strings.HasSuffix(syntax, "]"))
	case TagLink:
		if inFrontmatter { // a tags field writes them without "#"
			return syntax != "" && !strings.ContainsAny(syntax, "\n,[]")
		}
		return strings.HasPrefix(syntax, "#") && len(syntax) > 1
	}
	return false
}
