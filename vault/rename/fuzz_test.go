package rename

import (
	"bytes"
	"strings"
	"testing"

	"github.com/omh-notes/omh/vault"
)

// noteSeeds are notes of many shapes, as vault's tests seed FuzzParse
// with; scripts/fuzz.sh adds every note of the real vaults to the corpus
// before a long run.
var noteSeeds = []string{
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

// Rewriting every link that reaches a renamed note edits only inside that
// link, keeps every other byte, and what it writes parses back to the same
// number of links, the rewritten ones reaching the new name or, where the
// rewrite cannot say it alone, refused. Catches: an edit offset off by the
// frontmatter or a byte order mark; a rewrite that swallows the next link
// or makes a link reach another note.
func FuzzRewriteLink(f *testing.F) {
	for _, s := range noteSeeds {
		f.Add([]byte(s))
	}
	for _, s := range []string{
		"see [[old-name|the label]] and [[folder/old-name#h]] ![[old-name^b]]\n",
		"[x](../folder/old-name.md#frag) [y](<../folder/old name.md> \"t\")\n[r]: ../folder/old-name.md\n",
		"| [[old-name\\|l]] | [[The Label|folder/old-name]] |\n",
		"---\ntitle: t\n---\n- supersedes [[old-name]]\n",
	} {
		f.Add([]byte(s))
	}
	const from, oldKey, newKey = "notes/here", "folder/old-name", "projects/new-name"
	before, after := vault.MemNames{}, vault.MemNames{}
	for _, k := range []string{"notes/here", "archive/other", "x", "y"} {
		before.Add(k, nil)
		after.Add(k, nil)
	}
	before.Add(oldKey, []string{"Old Alias"})
	after.Add(newKey, []string{"Old Alias"})
	var d vault.Dialect // the default one
	f.Fuzz(func(t *testing.T, src []byte) {
		p := vault.Parse(src)
		var edits []Edit
		var which []int
		for i, l := range p.Links {
			res, err := d.Resolve(l, from, before)
			if err != nil || res.Key != oldKey {
				continue
			}
			ed, err := RewriteLink(d, src, l, oldKey, LinkEnds{From: from, Names: after}, newKey)
			if err != nil {
				return // refused: mv refuses the rename
			}
			// A wiki link is edited inside itself; a markdown link may be
			// edited in its reference definition.
			if ed.Start > ed.End || ed.End > len(src) || (l.Kind != vault.MarkdownLink && (ed.Start < l.Start || ed.End > l.End)) {
				t.Fatalf("the edit %+v leaves the link %+v", ed, l)
			}
			edits = append(edits, ed)
			which = append(which, i)
		}
		out, err := ApplyEdits(src, edits)
		if err != nil {
			return // overlapping edits: mv refuses
		}
		// Outside the edits, every byte stays: the output is the input with
		// each edited span replaced, in order.
		var want []byte
		at := 0
		for _, ed := range edits {
			if ed.Start < at {
				continue // the same edit asked twice
			}
			want = append(append(want, src[at:ed.Start]...), ed.Text...)
			at = ed.End
		}
		want = append(want, src[at:]...)
		if !bytes.Equal(out, want) {
			t.Fatalf("ApplyEdits changed bytes outside the edits:\n%q\nwant\n%q", out, want)
		}
		q := vault.Parse(out)
		if len(q.Links) != len(p.Links) {
			return // mv checks this and refuses
		}
		for _, i := range which {
			res, err := d.Resolve(q.Links[i], from, after)
			if err != nil {
				t.Fatal(err)
			}
			if res.Key != "" && res.Key != newKey {
				t.Fatalf("the rewritten link %q reaches %s, not %s", out[q.Links[i].Start:q.Links[i].End], res.Key, newKey)
			}
		}
	})
}
