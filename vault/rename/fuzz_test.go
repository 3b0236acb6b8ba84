package rename

import (
	"bytes"
	"testing"

	"github.com/omh-notes/omh/vault"
	"github.com/omh-notes/omh/vault/vaulttest"
)

// Rewriting every link that reaches a renamed note edits only inside that
// link, keeps every other byte, and what it writes parses back to the same
// number of links, the rewritten ones reaching the new name or, where the
// rewrite cannot say it alone, refused. Catches: an edit offset off by the
// frontmatter or a byte order mark; a rewrite that swallows the next link
// or makes a link reach another note.
func FuzzRewriteLink(f *testing.F) {
	for _, s := range vaulttest.NoteSeeds() {
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
