package vault

import "testing"

// The target's span inside each link syntax: only the name changes; the
// label, heading, block reference, embed mark, ".md", spaces, a table's
// escaped pipe, a markdown link's fragment, title and angle brackets stay
// as written. Catches: an offset off by the frontmatter or the "!", the
// label or heading replaced with the target, a fragment dropped.
func TestRewriteChangesOnlyTheTargetInsideEveryLinkForm(t *testing.T) {
	before, after := MemNames{}, MemNames{}
	for _, k := range []string{"archive/other", "notes/here", "deep/a/b/here"} {
		before.Add(k, nil)
		after.Add(k, nil)
	}
	before.Add("folder/old-name", nil)
	after.Add("projects/new-name", nil)
	fm := "---\ntitle: offsets start after this\n---\n"
	for _, c := range []struct{ from, src, want string }{
		{"notes/here", "see [[old-name|the label]] now", "see [[new-name|the label]] now"},
		{"notes/here", "see [[folder/old-name#Some heading|l]]", "see [[projects/new-name#Some heading|l]]"},
		{"notes/here", "![[old-name^block1]] embedded", "![[new-name^block1]] embedded"},
		{"notes/here", "x [[ old-name.md ]] y", "x [[ new-name.md ]] y"},
		{"notes/here", "| a | [[old-name\\|label]] |", "| a | [[new-name\\|label]] |"},
		{"notes/here", "- supersedes [[old-name#^b]]", "- supersedes [[new-name#^b]]"},
		{"notes/here", "[x](../folder/old-name.md#frag)", "[x](../projects/new-name.md#frag)"},
		{"deep/a/b/here", "[x](../../../folder/old-name.md)", "[x](../../../projects/new-name.md)"},
		{"notes/here", "[x](<../folder/old name.md> \"a title\")", "[x](<../projects/new-name.md> \"a title\")"},
		{"notes/here", "[x](/folder/old-name.md?plain=1)", "[x](/projects/new-name.md?plain=1)"},
		{"notes/here", "[x](./old-name)", "[x](../projects/new-name)"},
		{"notes/here", "[a `]` b](../folder/old%20name.md)", "[a `]` b](../projects/new-name.md)"},
		{"notes/here", "[x][ref] and [y][ref]\n\n[ref]: ../folder/old-name.md", "[x][ref] and [y][ref]\n\n[ref]: ../projects/new-name.md"},
		{"notes/here", "dendron [[The Label|folder/old-name]]", "dendron [[The Label|projects/new-name]]"},
	} {
		src := []byte(fm + c.src + "\n")
		p := Parse(src)
		if len(p.Links) == 0 {
			t.Errorf("%q: no link", c.src)
			continue
		}
		var edits []Edit
		for _, l := range p.Links {
			ed, err := RewriteLink(src, l, LinkEnds{c.from, before}, LinkEnds{c.from, after}, "projects/new-name")
			if err != nil {
				t.Errorf("%q: %v", c.src, err)
				continue
			}
			edits = append(edits, ed)
		}
		out, err := ApplyEdits(src, edits)
		if err != nil || string(out) != fm+c.want+"\n" {
			t.Errorf("%q\n got %q\nwant %q (%v)", c.src, out, fm+c.want+"\n", err)
		}
	}
}

// A short name stays short only while it reaches the note alone.
func TestRewrittenShortNamesStayUnique(t *testing.T) {
	before, after := MemNames{}, MemNames{}
	before.Add("projects/old-name", nil)
	after.Add("projects/new-name", nil)
	after.Add("archive/new-name", nil)
	src := []byte("[[old-name]]\n")
	ed, err := RewriteLink(src, Parse(src).Links[0], LinkEnds{"x", before}, LinkEnds{"x", after}, "projects/new-name")
	if err != nil || ed.Text != "projects/new-name" {
		t.Errorf("%+v %v", ed, err)
	}
}

func TestRelativeKey(t *testing.T) {
	for _, c := range [][3]string{
		{".", "a/b", "a/b"}, {"a", "a/b", "b"}, {"a/x", "a/b", "../b"}, {"x/y", "a/b", "../../a/b"}, {"a/b", "a/b", "../b"}, {"a", "b", "../b"},
	} {
		if got := relativeKey(c[0], c[1]); got != c[2] {
			t.Errorf("relativeKey(%q, %q) = %q, want %q", c[0], c[1], got, c[2])
		}
	}
}
