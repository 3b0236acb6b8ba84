package vault

import (
	"bytes"
	"testing"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// The fuzz targets below and FuzzParse are seeded with notes of many
// shapes here; scripts/fuzz.sh adds every note of the real vaults to their
// corpus before a long run.

// The frontmatter splitter never reads past the note, finds a block only
// between two delimiter lines, and agrees with what Parse reports.
// Catches: an offset past the end on a note that ends inside the
// frontmatter; a block reported both found and unclosed.
func FuzzSplitFrontmatter(f *testing.F) {
	for _, s := range parseSeeds {
		f.Add([]byte(s))
	}
	f.Add([]byte("---\n---\n"))
	f.Add([]byte("---\r\na: 1\r\n...\r\nbody"))
	f.Add([]byte("\uFEFF---\na: [\n"))
	f.Fuzz(func(t *testing.T, content []byte) {
		fm, found, unclosed := splitFrontmatter(content, 0)
		if found && unclosed {
			t.Fatal("found and unclosed at once")
		}
		if found {
			if fm.end > len(content) || fm.lines < 2 || !bytes.HasPrefix(content, []byte("---")) {
				t.Fatalf("block %+v of a note of %d bytes", fm, len(content))
			}
			if !bytes.Contains(content[:fm.end], fm.yaml) {
				t.Fatal("the YAML is not inside the block")
			}
		}
		p := Parse(content)
		if found != (p.FrontmatterLines > 0) && !bytes.HasPrefix(content, byteOrderMark) {
			t.Fatalf("splitFrontmatter found %v, Parse %d lines", found, p.FrontmatterLines)
		}
		if unclosed != hasRule(p, "frontmatter-unclosed") && !bytes.HasPrefix(content, byteOrderMark) {
			t.Fatalf("unclosed %v, Parse problems %+v", unclosed, p.Problems)
		}
	})
}

func hasRule(p Parsed, rule string) bool {
	for _, pr := range p.Problems {
		if pr.Rule == rule {
			return true
		}
	}
	return false
}

// A key is what CheckKey accepts, in NFC and valid UTF-8, with no control
// character; two names share a key only when they are one name in NFC, or
// one is a valid name spelt like the other's escape. Catches: names that
// are not UTF-8 collapsing into one key; a key printed raw that carries a
// terminal escape.
func FuzzKeyOf(f *testing.F) {
	for _, s := range [][2]string{{"topic/a.md", "topic/b.md"}, {"bad\xff.md", "bad\xfe.md"}, {"caf\u00e9.md", "cafe\u0301.md"},
		{"50%.md", "50%\xff.md"}, {"a/../b.md", "./b.md"}, {".md", "x.MD"}, {"a\x1b[2J.md", "dir/\u2028.md"}} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, a, b string) {
		ka, okA := KeyOf(a)
		kb, okB := KeyOf(b)
		for _, c := range []struct {
			name, key string
			ok        bool
		}{{a, ka, okA}, {b, kb, okB}} {
			if !c.ok {
				continue
			}
			if err := CheckKey(c.key); err != nil || !utf8.ValidString(c.key) || !norm.NFC.IsNormalString(c.key) {
				t.Fatalf("KeyOf(%q) = %q: %v", c.name, c.key, err)
			}
		}
		if okA && okB && ka == kb && norm.NFC.String(a) != norm.NFC.String(b) && utf8.ValidString(a) == utf8.ValidString(b) {
			t.Fatalf("%q and %q share the key %q", a, b, ka)
		}
	})
}
