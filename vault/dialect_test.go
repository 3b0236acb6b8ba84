package vault

import (
	"fmt"
	"reflect"
	"slices"
	"testing"
)

// resolveCase is one link of a note, parsed from its text, and the key the
// dialect must resolve it to ("" for none; "?" for ambiguous).
type resolveCase struct {
	from, text, want string
}

func checkResolves(t *testing.T, d Dialect, store MemNames, cases []resolveCase) {
	t.Helper()
	for _, c := range cases {
		links := Parse([]byte(c.text)).Links
		if len(links) != 1 {
			t.Errorf("%s: %q parses to %d links", d, c.text, len(links))
			continue
		}
		got, err := d.Resolve(links[0], c.from, store)
		if err != nil {
			t.Fatal(err)
		}
		switch {
		case c.want == "?" && len(got.Candidates) < 2,
			c.want != "?" && got.Key != c.want:
			t.Errorf("%s: %q from %s → %+v, want %q", d, c.text, c.from, got, c.want)
		}
	}
}

// Obsidian: of notes sharing a name, the one in the linking note's folder
// is meant (obsidian-help's [[Security and privacy]] from Obsidian Sync/);
// from elsewhere the link stays ambiguous; aliases do not resolve; "./"
// is relative; a markdown link may name a note as a wiki link does.
func TestObsidianResolvesByItsRules(t *testing.T) {
	store := names(map[string][]string{
		"Obsidian Sync/Security and privacy":    nil,
		"Obsidian Publish/Security and privacy": nil,
		"Obsidian Sync/Set up":                  nil,
		"Linking/Internal links":                {"Wikilinks"},
		"Three laws of motion":                  nil,
	})
	checkResolves(t, Dialect{Name: DialectObsidian}, store, []resolveCase{
		{"Obsidian Sync/Set up", "[[Security and privacy]]", "Obsidian Sync/Security and privacy"},
		{"Obsidian Publish/Manage", "[[Security and privacy|privacy]]", "Obsidian Publish/Security and privacy"},
		{"Home", "[[Security and privacy]]", "?"},
		{"Home", "[[Obsidian Publish/Security and privacy#Passwords]]", "Obsidian Publish/Security and privacy"},
		{"Home", "[[Wikilinks]]", ""},
		{"Obsidian Sync/x", "[[./Set up]]", "Obsidian Sync/Set up"},
		{"Obsidian Sync/x", "[[../Three laws of motion]]", "Three laws of motion"},
		{"Linking/x", "[laws](Three%20laws%20of%20motion.md)", "Three laws of motion"},
		{"Linking/x", "| [[Internal links\\|links]] |", "Linking/Internal links"},
		{"Linking/x", "#tag", ""},
	})
	// Regression: obsidian-help-ko writes [[설정 폴더|설정 폴더]](`.obsidian`);
	// Obsidian reads the wiki link, and the parentheses as text.
	if l := Parse([]byte("[[Home|x]](`.obsidian`)")).Links; len(l) != 2 || (Dialect{Name: DialectObsidian}).IsLink(l[1], "x") {
		t.Errorf("%+v", l)
	}
	// omh's own rules keep the alias and report the shared name.
	checkResolves(t, Dialect{}, store, []resolveCase{
		{"Obsidian Sync/Set up", "[[Security and privacy]]", "?"},
		{"Home", "[[Wikilinks]]", "Linking/Internal links"},
		{"Linking/x", "[laws](Three%20laws%20of%20motion.md)", ""},
	})
}

// Dendron: the note after the pipe, dendron://vault/note through the
// vaults the config names (an unknown vault dangles), #tag for tags.tag,
// hierarchy wildcards are no link, and no fallback to the other side.
func TestDendronResolvesByItsRules(t *testing.T) {
	store := names(map[string][]string{
		"careers.mission":              nil,
		"dendron.topic.schema":         nil,
		"tags.role.bugcatcher":         nil,
		"community.discord.channels":   nil,
		"private/notes.secret-project": nil,
	})
	d := Dialect{Name: DialectDendron, Vaults: map[string]string{"dendron.dendron-site": ".", "private": "private"}}
	checkResolves(t, d, store, []resolveCase{
		{"x", "[[careers.mission]]", "careers.mission"},
		{"x", "![[dendron://dendron.dendron-site/careers.mission]]", "careers.mission"},
		{"x", "[[docs|dendron.topic.schema#shortened-template-syntax]]", "dendron.topic.schema"},
		{"x", "[[Schemas|dendron://dendron.dendron-site/dendron.topic.schema]]", "dendron.topic.schema"},
		{"x", "[[#feedback|dendron://dendron.dendron-site/community.discord.channels#feedback]]", "community.discord.channels"},
		{"x", "[[secret|dendron://private/notes.secret-project]]", "private/notes.secret-project"},
		{"x", "[[gone|dendron://dendron.docs/careers.mission]]", ""},
		{"x", "![[careers.mission#intro,1:#*]]", "careers.mission"},
		{"x", "a #role.bugcatcher here", "tags.role.bugcatcher"},
		{"x", "[[careers.mission|nowhere]]", ""},
	})
	for _, text := range []string{"![[careers.*]]", "[[x|dendron://vault]]"} {
		if l := Parse([]byte(text)).Links; len(l) != 1 || d.IsLink(l[0], "x") {
			t.Errorf("%q: %+v is a link to a note", text, l)
		}
	}
	// Without vaults in the config, the vault a link names is not checked.
	checkResolves(t, Dialect{Name: DialectDendron}, store, []resolveCase{
		{"x", "[[gone|dendron://dendron.docs/careers.mission]]", "careers.mission"},
	})
}

// Logseq: pages by name in any letter case, namespaces kept as a___b.md,
// journal pages by their title, #tag and #[[a tag]] for pages.
func TestLogseqResolvesByItsRules(t *testing.T) {
	store := names(map[string][]string{
		"pages/Project Alpha":      nil,
		"pages/project___roadmap":  nil,
		"journals/2024_01_05":      nil,
		"pages/reading list":       nil,
		"pages/older%2Fnamespaced": nil,
	})
	checkResolves(t, Dialect{Name: DialectLogseq}, store, []resolveCase{
		{"journals/2024_01_06", "[[project alpha]]", "pages/Project Alpha"},
		{"journals/2024_01_06", "[[Project/Roadmap]]", "pages/project___roadmap"},
		{"pages/x", "see [[Jan 5th, 2024]]", "journals/2024_01_05"},
		{"pages/x", "a #[[reading list]]", "pages/reading list"},
		{"pages/x", "a #Project", ""},
		{"pages/x", "[[older/namespaced]]", "pages/older%2Fnamespaced"},
	})
	store.Add("pages/Project", nil)
	checkResolves(t, Dialect{Name: DialectLogseq}, store, []resolveCase{{"pages/x", "a #Project", "pages/Project"}})
}

// A markdown site: paths from the linking note, "~/" from the notes root,
// site-absolute links under site: from the notes root and others off the
// vault, DocFX includes, extension-less names with dots; [[...]] is text.
func TestMarkdownSitesResolveByTheirRules(t *testing.T) {
	store := names(map[string][]string{
		"api/Excel.Range":               nil,
		"api/Project.Task.Active":       nil,
		"includes/feedback-boilerplate": nil,
		"excel/Concepts/overview":       nil,
	})
	d := Dialect{Name: DialectMarkdown, Site: "/office/vba/"}
	checkResolves(t, d, store, []resolveCase{
		{"excel/Concepts/x", "[!include[Support and feedback](~/includes/feedback-boilerplate.md)]", "includes/feedback-boilerplate"},
		{"excel/Concepts/x", "[Range](../../api/Excel.Range.md)", "api/Excel.Range"},
		{"api/x", "[Range](Excel.Range)", "api/Excel.Range"},
		{"excel/x", "[Active](/office/vba/api/project.task.active)", "api/Project.Task.Active"},
		{"excel/x", "[Ask](/answers/tags/322/office)", ""},
		{"excel/Concepts/x", "[o](overview%2Emd)", "excel/Concepts/overview"},
	})
	for _, text := range []string{"[Ask](/answers/tags/322/office)", "[[RFC4234]]", "#tag", "[x](../../../out.md)"} {
		if l := Parse([]byte(text)).Links; len(l) > 0 && d.IsLink(l[0], "excel/x") {
			t.Errorf("%q is a link to a note on a markdown site", text)
		}
	}
	// Without site:, "/" starts at the notes root.
	checkResolves(t, Dialect{Name: DialectMarkdown}, store, []resolveCase{{"x", "[a](/api/Excel.Range)", "api/Excel.Range"}})
}

// Resolution reads nothing but the names LinkNames lists: the index
// resolves a link again only when one of those names changes, so a name
// Resolve looks up and LinkNames leaves out is a link never updated.
func TestResolutionDependsOnlyOnLinkNames(t *testing.T) {
	keys := []string{"a/b", "b", "Obsidian Sync/Security and privacy", "careers.mission", "tags.role", "pages/project___roadmap",
		"journals/2024_01_05", "api/Excel.Range", "includes/x", "x/y/z", "i4w0 planet"}
	all := MemNames{}
	for _, k := range keys {
		all.Add(k, []string{"Alias of " + k})
	}
	texts := []string{"[[b]]", "[[B]]", "[[Security and privacy]]", "[[label|careers.mission]]", "[[dendron://v/careers.mission]]",
		"#role", "[[Project/Roadmap]]", "[[Jan 5th, 2024]]", "[x](../api/Excel.Range.md)", "[x](~/includes/x.md)",
		"[x](/office/vba/api/Excel.Range)", "[[Alias of b]]", "[[./z]]", "[x](y/z)", "[[nowhere]]", "[[i4w0]]"}
	for _, name := range DialectNames() {
		d := Dialect{Name: name, Site: "/office/vba/"}
		for _, text := range texts {
			for _, l := range Parse([]byte(text)).Links {
				want, _ := d.Resolve(l, "x/y/from", all)
				seen := d.LinkNames(l, "x/y/from")
				only := MemNames{}
				for n, found := range all {
					if slices.Contains(seen, n) {
						only[n] = found
					}
				}
				if got, _ := d.Resolve(l, "x/y/from", only); !reflect.DeepEqual(got, want) {
					t.Errorf("%s: %q resolves to %+v with every name, %+v with its LinkNames %q", name, text, want, got, seen)
				}
			}
		}
	}
}

// Every dialect a config may name is described, and an unknown one is
// none.
func TestDialectsAreDescribed(t *testing.T) {
	for _, name := range DialectNames() {
		if d := (Dialect{Name: name}); d.Describe() == "" || d.String() != name {
			t.Errorf("%s: %q", name, d.Describe())
		}
	}
	if KnownDialect("roam") || !KnownDialect("zk") {
		t.Error("KnownDialect")
	}
	if got := fmt.Sprint(Dialect{}); got != DialectOmh {
		t.Errorf("the zero dialect is %q", got)
	}
}

// Foam's link reference definitions make [[x]] a reference link in plain
// markdown: every dialect that reads wiki links reads one link there, the
// wiki link; a markdown site reads the reference link, to the definition's
// path. Catches: the [x] inside counted as a second link, or a markdown
// site losing the link Foam wrote for it.
func TestAWikiLinkBackedByADefinitionIsOneLink(t *testing.T) {
	t.Parallel()
	note := "# A\n\nSee [[note-b]].\n\n[//begin]: # \"Autogenerated link references for markdown compatibility\"\n" +
		"[note-b]: sub/note-b.md \"Note B\"\n[//end]: # \"Autogenerated link references\"\n"
	store := names(map[string][]string{"sub/note-b": nil})
	links := Parse([]byte(note)).Links
	for _, d := range []Dialect{{}, {Name: DialectFoam}, {Name: DialectObsidian}, {Name: DialectMarkdown}} {
		var reached []string
		for _, l := range links {
			if res, err := d.Resolve(l, "a", store); err == nil && res.Key != "" {
				reached = append(reached, fmt.Sprintf("%d:%s", l.Kind, res.Key))
			}
		}
		want := []string{fmt.Sprintf("%d:sub/note-b", WikiLink)}
		if d.Name == DialectMarkdown {
			want = []string{fmt.Sprintf("%d:sub/note-b", WikiReference)}
		}
		if !slices.Equal(reached, want) {
			t.Errorf("%s reads %v, want %v", d, reached, want)
		}
	}
}

// Dendron's frontmatter tags, one or a list in any YAML form, link to the
// notes tags.<tag> as #tag does, from where the file writes each tag (for
// omh mv to rewrite it there); omh's own rules read no tag as a link.
// Catches: frontmatter tags left out of a note's links, or found at the
// wrong bytes.
func TestDendronFrontmatterTagsAreLinks(t *testing.T) {
	t.Parallel()
	store := names(map[string][]string{"tags.a.b": nil, "tags.c": nil, "tags.d": nil})
	for note, want := range map[string][]string{
		"---\nid: x\ntags: [a.b, c]\n---\n#d\n":         {"a.b@3:tags.a.b", "c@3:tags.c", "#d@5:tags.d"},
		"---\ntags: a.b c\n---\nx #d\n":                 {"a.b@2:tags.a.b", "c@2:tags.c", "#d@4:tags.d"},
		"---\ntags:\n  - 'a.b'\n  - \"c\"\n---\n\n#d\n": {"a.b@3:tags.a.b", "c@4:tags.c", "#d@7:tags.d"},
	} {
		var got []string
		for _, l := range Parse([]byte(note)).Links {
			res, err := Dialect{Name: DialectDendron}.Resolve(l, "n", store)
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, fmt.Sprintf("%s@%d:%s", note[l.Start:l.End], l.Line, res.Key))
			if omh, _ := Resolve(l, "n", store); omh.Key != "" {
				t.Errorf("omh's rules read the tag %q as a link to %s", l.Target, omh.Key)
			}
		}
		if !slices.Equal(got, want) {
			t.Errorf("%q: links %v, want %v", note, got, want)
		}
	}
}

// A Logseq page's title:: and alias:: properties name it whatever its file
// is called; title:: is its title, and a [[name]] by any of them reaches it
// in any letter case. Catches: properties read as body text only, a link by
// a page's title dangling.
func TestLogseqPagesAreNamedByTitleAndAlias(t *testing.T) {
	t.Parallel()
	store := MemNames{}
	pages := map[string]string{
		"pages/aws.s3": "title:: aws/s3\ntags:: cloud\n\n- Buckets\n",
		"pages/IAM":    "alias:: identity and access, [[IAM policies]]\n\n- Who may read\n",
		"pages/plain":  "- no properties\nalias:: not one\n",
	}
	for key, content := range pages {
		store.Add(key, Parse([]byte(content)).Aliases)
	}
	if got := Parse([]byte(pages["pages/aws.s3"])).Title; got != "aws/s3" {
		t.Errorf("title %q", got)
	}
	checkResolves(t, Dialect{Name: DialectLogseq}, store, []resolveCase{
		{"journals/2024_01_05", "[[AWS/S3]]", "pages/aws.s3"},
		{"journals/2024_01_05", "[[Identity and Access]]", "pages/IAM"},
		{"journals/2024_01_05", "[[iam policies]]", "pages/IAM"},
		{"journals/2024_01_05", "[[not one]]", ""},
	})
}

// zk: a wiki link reaches the one note whose file name starts or ends with
// its whole words (zk's "{{id}} {{title}}" and "{{id}}-{{slug}}" names); a
// part two notes share is ambiguous; the key, a trailing part and an alias
// come first. No other dialect reads parts of file names. Catches: an ID
// link dangling in a zk notebook, a shared part guessed.
func TestZkReachesANoteByAPartOfItsFileName(t *testing.T) {
	t.Parallel()
	store := names(map[string][]string{
		"i4w0 planet":          nil,
		"2b7x-moons-of-saturn": nil,
		"inbox/9q1z moons":     nil,
		"5t6u_moons":           nil,
		"moons-of-jupiter":     nil,
	})
	zk := Dialect{Name: DialectZk}
	checkResolves(t, zk, store, []resolveCase{
		{"x", "[[i4w0]]", "i4w0 planet"},
		{"x", "[[Planet]]", "i4w0 planet"},
		{"x", "[[2b7x]]", "2b7x-moons-of-saturn"},
		{"x", "[[2b7x-moons]]", "2b7x-moons-of-saturn"},
		{"x", "[[of-saturn]]", "2b7x-moons-of-saturn"},
		{"x", "[[9q1z]]", "inbox/9q1z moons"},
		{"x", "[[moons]]", "?"},
		{"x", "[[moons-of-jupiter]]", "moons-of-jupiter"},
		{"x", "[[of]]", ""},
		{"x", "[[i4w]]", ""},
	})
	checkResolves(t, Dialect{}, store, []resolveCase{{"x", "[[i4w0]]", ""}})
	checkResolves(t, Dialect{Name: DialectObsidian}, store, []resolveCase{{"x", "[[i4w0]]", ""}})
}
