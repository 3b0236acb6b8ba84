package rename

import (
	"testing"

	"github.com/omh-notes/omh/vault"
)

// The target's span inside each link syntax: only the name changes; the
// label, heading, block reference, embed mark, ".md", spaces, a table's
// escaped pipe, a markdown link's fragment, title and angle brackets stay
// as written. Catches: an offset off by the frontmatter or the "!", the
// label or heading replaced with the target, a fragment dropped.
func TestRewriteChangesOnlyTheTargetInsideEveryLinkForm(t *testing.T) {
	t.Parallel()
	before, after := vault.MemNames{}, vault.MemNames{}
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
	} {
		src := []byte(fm + c.src + "\n")
		p := vault.Parse(src)
		if len(p.Links) == 0 {
			t.Errorf("%q: no link", c.src)
			continue
		}
		var edits []Edit
		for _, l := range p.Links {
			ed, err := RewriteLink(vault.Dialect{}, src, l, "folder/old-name", LinkEnds{From: c.from, Names: after}, "projects/new-name")
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
	t.Parallel()
	after := vault.MemNames{}
	after.Add("projects/new-name", nil)
	after.Add("archive/new-name", nil)
	src := []byte("[[old-name]]\n")
	ed, err := RewriteLink(vault.Dialect{}, src, vault.Parse(src).Links[0], "projects/old-name", LinkEnds{From: "x", Names: after}, "projects/new-name")
	if err != nil || ed.Text != "projects/new-name" {
		t.Errorf("%+v %v", ed, err)
	}
}

// rewriteAll renames was to want in src, read by d, with after holding the
// names once the rename is done, and returns the new text.
func rewriteAll(t *testing.T, d vault.Dialect, src, from, was, want string, after vault.MemNames) string {
	t.Helper()
	b := []byte(src)
	var edits []Edit
	for _, l := range vault.Parse(b).Links {
		res, _ := d.Resolve(l, from, after)
		if res.Key == want {
			continue
		}
		ed, err := RewriteLink(d, b, l, was, LinkEnds{From: from, Names: after}, want)
		if err != nil {
			t.Errorf("%s: %q: %v", d, src, err)
			return src
		}
		edits = append(edits, ed)
	}
	out, err := ApplyEdits(b, edits)
	if err != nil {
		t.Fatal(err)
	}
	return string(out)
}

// Every form a dialect reads is rewritten in place: Dendron's label-first
// links keep their label, dendron://vault/ prefix and anchor, its hashtags
// stay hashtags; a markdown site's "~/" and site paths keep their base;
// Obsidian's escaped pipes and "./" stay.
func TestRewriteKeepsEachDialectsForms(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		d               vault.Dialect
		from, was, want string
		keys            []string
		src, out        string
	}{
		{vault.Dialect{Name: vault.DialectDendron, Vaults: map[string]string{"site": "."}}, "x", "dendron.topic.schema", "dendron.topic.schemas", nil,
			"- [[Schemas|dendron://site/dendron.topic.schema]] and [[docs|dendron.topic.schema#short]] ![[dendron.topic.schema]]",
			"- [[Schemas|dendron://site/dendron.topic.schemas]] and [[docs|dendron.topic.schemas#short]] ![[dendron.topic.schemas]]"},
		{vault.Dialect{Name: vault.DialectDendron}, "x", "tags.role.bugcatcher", "tags.role.bug-catcher", nil,
			"a #role.bugcatcher here", "a #role.bug-catcher here"},
		{vault.Dialect{Name: vault.DialectMarkdown, Site: "/office/vba/"}, "excel/x", "includes/feedback", "includes/support", nil,
			"[!include[Support](~/includes/feedback.md)] and [f](/office/vba/includes/feedback) and [g](../includes/feedback.md#top)",
			"[!include[Support](~/includes/support.md)] and [f](/office/vba/includes/support) and [g](../includes/support.md#top)"},
		{vault.Dialect{Name: vault.DialectObsidian}, "Sync/x", "Sync/Security and privacy", "Sync/Security", []string{"Publish/Security"},
			"| [[Security and privacy\\|s]] | [[./Security and privacy#Hosting]] | [s](Security%20and%20privacy.md)",
			"| [[Security\\|s]] | [[./Security#Hosting]] | [s](Security.md)"},
	} {
		after := vault.MemNames{}
		after.Add(c.want, nil)
		for _, k := range c.keys {
			after.Add(k, nil)
		}
		if got := rewriteAll(t, c.d, c.src, c.from, c.was, c.want, after); got != c.out {
			t.Errorf("%s:\n got %q\nwant %q", c.d, got, c.out)
		}
	}
}

// The smallest change comes first: a link keeps its letter case, its
// folders and its percent-encoding, so that renaming a note and renaming it
// back gives back every byte.
func TestRewriteThereAndBackGivesBackTheBytes(t *testing.T) {
	t.Parallel()
	src := "[[security and privacy]] [[Sync/Security and privacy|s]] [a](../Sync/Security%20and%20privacy.md) [b](<../Sync/Security and privacy.md>)"
	from, old, renamed := "Home/x", "Sync/Security and privacy", "Sync/Security and privacy (old)"
	there, back := vault.MemNames{}, vault.MemNames{}
	there.Add(renamed, nil)
	back.Add(old, nil)
	d := vault.Dialect{Name: vault.DialectObsidian}
	moved := rewriteAll(t, d, src, from, old, renamed, there)
	if moved == src {
		t.Fatal("nothing was rewritten")
	}
	if got := rewriteAll(t, d, moved, from, renamed, old, back); got != src {
		t.Errorf("there and back:\n got %q\nwant %q\n(there: %q)", got, src, moved)
	}
}

// A hashtag cannot name a note outside tags.: the rewrite refuses, rather
// than leave the link pointing at the old name.
func TestRewriteRefusesWhatAFormCannotSay(t *testing.T) {
	t.Parallel()
	after := vault.MemNames{}
	after.Add("people.ada", nil)
	src := []byte("a #ada here")
	l := vault.Parse(src).Links[0]
	if ed, err := RewriteLink(vault.Dialect{Name: vault.DialectDendron}, src, l, "tags.ada", LinkEnds{From: "x", Names: after}, "people.ada"); err == nil {
		t.Errorf("rewrote #ada as %+v", ed)
	}
}

func TestRelativeKey(t *testing.T) {
	t.Parallel()
	for _, c := range [][3]string{
		{".", "a/b", "a/b"}, {"a", "a/b", "b"}, {"a/x", "a/b", "../b"}, {"x/y", "a/b", "../../a/b"}, {"a/b", "a/b", "../b"}, {"a", "b", "../b"},
	} {
		if got := relativeKey(c[0], c[1]); got != c[2] {
			t.Errorf("relativeKey(%q, %q) = %q, want %q", c[0], c[1], got, c[2])
		}
	}
}
