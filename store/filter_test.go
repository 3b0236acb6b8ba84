package store

import (
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/omh-notes/omh/vault"
	"github.com/omh-notes/omh/vault/vaulttest"
)

// ranked asks the question every note of these tests answers ("note") with
// the filter, and returns the ranked notes' keys, sorted, each once.
func ranked(t *testing.T, s *Store, q Question) []string {
	t.Helper()
	if len(q.Phrasings) == 0 {
		q.Phrasings = []string{"note"}
	}
	q.Roots, q.MaxChars = 1000, 6000
	ans, err := s.Ask(q)
	if err != nil {
		t.Fatal(err)
	}
	var keys []string
	for _, h := range ans.Result.Hits {
		if h.Depth == 0 {
			keys = append(keys, h.Note.Key)
		}
	}
	slices.Sort(keys)
	return slices.Compact(keys)
}

// --tag reads each dialect's tags (frontmatter lists and strings, #tags in
// the body, Dendron's tags.x links, Logseq's tags::), finds nested tags
// under their parent in the dialect's way and in any letter case, never a
// tag that only begins alike; repeated, a note must carry every one; an
// uncommitted edit's tags count. Catches: a dialect's form unread, a
// prefix match, repeated tags read as any of them, a working copy's tags
// missing from the index.
func TestTagFilterReadsEachDialectsTags(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		dialect string
		notes   map[string]string
		asked   map[string][]string // tags asked for, joined by "+": the notes ranked
	}{
		{vault.DialectObsidian, map[string]string{
			"a.md":         "---\ntags: [Proj, urgent]\n---\nA note.\n",
			"b.md":         "---\ntags: proj/alpha\n---\nA note.\n",
			"c.md":         "A note about #proj/beta and #URGENT things.\n",
			"d.md":         "A note on the #project and `#proj` in code.\n",
			"e/f.md":       "---\ntags: \"#Proj.Alpha\"\n---\nA note.\n",
			"caf\u00e9.md": "---\ntags: [cafe\u0301]\n---\nA note.\n",
		}, map[string][]string{
			"proj":        {"a", "b", "c"},
			"Proj/Alpha":  {"b"},
			"urgent":      {"a", "c"},
			"proj+urgent": {"a", "c"},
			"project":     {"d"},
			"proj.alpha":  {"e/f"},
			"#café":       {"café"},
		}},
		{vault.DialectDendron, map[string]string{
			"root.md":            "---\nid: root\ntitle: root\n---\nA note.\n",
			"a.md":               "---\nid: a\ntags: [area.misc, question]\n---\nA note.\n",
			"b.md":               "---\nid: b\ntags: area\n---\nA note by #role.bugcatcher.\n",
			"c.md":               "---\nid: c\n---\nA note at [[tags.stage.seed]] and [[label|tags.area.other]].\n",
			"tags.stage.seed.md": "---\nid: s\n---\nA note.\n",
			"tags.area.misc.md":  "---\nid: m\n---\nA note.\n",
			"areas.md":           "---\nid: x\ntags: areas/x\n---\nA note.\n",
		}, map[string][]string{
			"area":       {"a", "b", "c"},
			"area.misc":  {"a"},
			"role":       {"b"},
			"stage.seed": {"c"},
			"areas/x":    {"areas"},
			"areas":      nil,
		}},
		{vault.DialectLogseq, map[string]string{
			"pages/a.md": "tags:: cloud, [[Data Lake]]\n\n- a note\n",
			"pages/b.md": "- a note about #cloud/aws\n",
			"pages/c.md": "- a note\ntags:: not-a-page-property\n",
		}, map[string][]string{
			"cloud":               {"a", "b"},
			"data lake":           {"a"},
			"not-a-page-property": nil,
		}},
		{vault.DialectMarkdown, map[string]string{
			"a.md": "---\ntags: [vba]\n---\n# A note\n\nText.\n",
			"b.md": "# A note\n\nC# and #region are words here.\n",
		}, map[string][]string{
			"vba":    {"a"},
			"region": nil,
		}},
	} {
		t.Run(c.dialect, func(t *testing.T) {
			t.Parallel()
			r := vaulttest.New(t)
			r.Write(".omh/config.yaml", "dialect: "+c.dialect+"\n")
			for path, content := range c.notes {
				r.Write(path, content)
			}
			r.Commit("2026-01-02T10:00:00Z", "notes")
			s, _ := open(t, r.Dir)
			for _, asked := range slices.Sorted(maps.Keys(c.asked)) {
				want := c.asked[asked]
				for i, k := range want {
					if c.dialect == vault.DialectLogseq {
						want[i] = "pages/" + k
					}
				}
				got := ranked(t, s, Question{Filter: Filter{Tags: strings.Split(asked, "+")}})
				if !slices.Equal(got, want) {
					t.Errorf("--tag %s: %q, want %q", asked, got, want)
				}
			}
		})
	}
	// An uncommitted edit's tags count, and those its committed version
	// had no longer do for it.
	r := vaulttest.New(t)
	r.Write("a.md", "---\ntags: [old]\n---\nA note.\n")
	r.Write("b.md", "---\ntags: [old]\n---\nA note.\n")
	r.Commit("2026-01-02T10:00:00Z", "notes")
	r.Write("a.md", "---\ntags: [new]\n---\nA note.\n")
	s, _ := open(t, r.Dir)
	for tag, want := range map[string][]string{"new": {"a"}, "old": {"a", "b"}} {
		if got := ranked(t, s, Question{Filter: Filter{Tags: []string{tag}}}); !slices.Equal(got, want) {
			t.Errorf("with an edit: --tag %s: %q, want %q", tag, got, want)
		}
	}
	if got := ranked(t, s, Question{Layer: vault.Local, Filter: Filter{Tags: []string{"old"}}}); len(got) != 0 {
		t.Errorf("the working copy, no longer tagged old, ranked: %q", got)
	}
}

// --path keeps the notes whose key is the folder or lies under it, on the
// key's boundaries ("/", and "." in Dendron), whatever the slashes around
// it. Catches: a prefix match (topic finding topics/x), a Dendron
// hierarchy read as one name.
func TestPathFilterKeepsToKeyBoundaries(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		dialect string
		notes   []string
		asked   map[string][]string
	}{
		{vault.DialectOmh, []string{"topic.md", "topic/a.md", "topic/b/c.md", "topics/x.md", "topic.x.md"}, map[string][]string{
			"topic":    {"topic", "topic/a", "topic/b/c"},
			"./topic/": {"topic", "topic/a", "topic/b/c"},
			"topic/b":  {"topic/b/c"},
			".":        {"topic", "topic.x", "topic/a", "topic/b/c", "topics/x"},
		}},
		{vault.DialectDendron, []string{"dendron.md", "dendron.topic.md", "dendron.topic.tags.md", "dendron.topics.md", "v2/dendron.topic.x.md"}, map[string][]string{
			"dendron.topic":  {"dendron.topic", "dendron.topic.tags"},
			"dendron.topic.": {"dendron.topic", "dendron.topic.tags"},
			"v2":             {"v2/dendron.topic.x"},
		}},
	} {
		r := vaulttest.New(t)
		r.Write(".omh/config.yaml", "dialect: "+c.dialect+"\n")
		for _, p := range c.notes {
			r.Write(p, "---\nid: x\n---\nA note.\n")
		}
		r.Commit("2026-01-02T10:00:00Z", "notes")
		s, _ := open(t, r.Dir)
		for asked, want := range c.asked {
			if got := ranked(t, s, Question{Filter: Filter{Path: asked}}); !slices.Equal(got, want) {
				t.Errorf("%s: --path %s: %q, want %q", c.dialect, asked, got, want)
			}
		}
	}
}

// --path written from the repository's root, as a card's file line shows
// a note (en/Plugins where the notes root is en), reads under the notes
// root when no key lies under it as written; a key folder that happens to
// bear the root's name still wins. Catches: an agent copying the folder of
// a card's file line and told no note is there.
func TestPathFilterReadsAFolderWrittenFromTheRepositoryRoot(t *testing.T) {
	t.Parallel()
	r := vaulttest.New(t)
	r.Write(".omh/config.yaml", "notes: en\n")
	for _, p := range []string{"en/Plugins/a.md", "en/Plugins/b/c.md", "en/Other.md", "en/en/x.md"} {
		r.Write(p, "# A note\n\nA note.\n")
	}
	r.Commit("2026-01-02T10:00:00Z", "notes")
	s, _ := open(t, r.Dir)
	for asked, want := range map[string][]string{
		"Plugins":         {"Plugins/a", "Plugins/b/c"},
		"en/Plugins":      {"Plugins/a", "Plugins/b/c"},
		"./en/Plugins/b/": {"Plugins/b/c"},
		"en":              {"en/x"},
		"en/en":           {"en/x"},
	} {
		if got := ranked(t, s, Question{Filter: Filter{Path: asked}}); !slices.Equal(got, want) {
			t.Errorf("--path %s: %q, want %q", asked, got, want)
		}
	}
}

// gitChanged is what git says changed since a commit under the working
// tree (git diff's added, modified and renamed files against it, and the
// untracked ones), as keys.
func gitChanged(r *vaulttest.Repo, since string) []string {
	var keys []string
	out := r.Git("diff", "--name-only", "--diff-filter=AMR", "-z", since, "--", "*.md", ":!.omh")
	out += "\x00" + r.Git("ls-files", "-z", "--others", "--exclude-standard", "--", "*.md", ":!.omh")
	for _, p := range strings.Split(out, "\x00") {
		if p != "" {
			keys = append(keys, strings.TrimSuffix(p, ".md"))
		}
	}
	slices.Sort(keys)
	return slices.Compact(keys)
}

// --since DATE|COMMIT ranks exactly the notes git says changed since (git
// diff against the commit, untracked notes included) and the private notes
// modified since; a date counts from the last commit made before it; with
// --as-of, changes count up to the moment's commit. Catches: a note changed
// and renamed since missing, one changed only before counted, uncommitted
// edits or new private notes left out, --as-of's moment ignored.
func TestSinceRanksTheNotesGitSaysChanged(t *testing.T) {
	t.Parallel()
	r := vaulttest.New(t)
	r.Write("a.md", "A note.\n")
	r.Write("b.md", "A note.\n")
	r.Write("c.md", "A note.\n")
	r.Write("d.md", "A note, long enough that git sees its rename as one.\n")
	first := r.Commit("2026-01-02T10:00:00Z", "first")
	r.Write("b.md", "A note, changed.\n")
	r.Write("e.md", "A note added.\n")
	second := r.Commit("2026-01-05T10:00:00Z", "second")
	r.Git("mv", "d.md", "d2.md")
	r.Remove("c.md")
	r.Write("a.md", "A note, changed and changed back.\n")
	third := r.Commit("2026-01-08T10:00:00Z", "third")
	r.Write("a.md", "A note.\n")
	r.Commit("2026-01-09T10:00:00Z", "fourth")
	r.Write("b.md", "A note, edited now.\n")
	r.Write("f.md", "A note not yet committed.\n")
	r.Write(".omh/ignored.md", "not a note")
	// Private notes: one just written, one last modified long ago.
	vaulttest.WriteFile(t, filepath.Join(r.Private, "mine.md"), "A note of mine.\n")
	old := filepath.Join(r.Private, "older.md")
	vaulttest.WriteFile(t, old, "A note of mine, older.\n")
	long := time.Date(2025, 6, 1, 0, 0, 0, 0, time.UTC)
	if err := os.Chtimes(old, long, long); err != nil {
		t.Fatal(err)
	}
	s, _ := open(t, r.Dir)
	for _, c := range []struct{ since, gitSince string }{
		{first, first}, {second, second}, {third, third},
		{"2026-01-05", first}, {"2026-01-06", second}, {"2026-01-03", first}, {"2026-01-09", third},
	} {
		want := append(gitChanged(r, c.gitSince), "mine")
		slices.Sort(want)
		if got := ranked(t, s, Question{Filter: Filter{Since: c.since}}); !slices.Equal(got, want) {
			t.Errorf("--since %s: %q, want %q", c.since, got, want)
		}
	}
	if got := ranked(t, s, Question{Filter: Filter{Since: "2025-01-01"}}); !slices.Contains(got, "older") || !slices.Contains(got, "a") {
		t.Errorf("--since before the first commit: %q lacks the older private note or a committed one", got)
	}
	// As of the second commit, since the first: what the second changed,
	// and the private notes modified since (recorded by then: mine is not,
	// being undated and newer).
	if got := ranked(t, s, Question{AsOf: second, Filter: Filter{Since: first}}); !slices.Equal(got, []string{"b", "e"}) {
		t.Errorf("--as-of second --since first: %q", got)
	}
	_, err := s.Ask(Question{Phrasings: []string{"note"}, Roots: 8, MaxChars: 6000, Filter: Filter{Since: "last tuesday"}})
	if code(err) != "bad_since" || !strings.Contains(err.Error(), "--since last tuesday") {
		t.Errorf("a bad --since: %v", err)
	}
}

// A filter that matches no note says which ("no note is tagged `x`"), in
// the tree, the cards and the JSON's note, naming the layer and type asked
// for when they leave nothing; filters whose notes hold none of the
// question's words say that instead, and how many notes outside them do.
// Catches: "nothing here" for a misspelt tag, the two cases told alike.
func TestAFilterThatMatchesNothingSaysWhich(t *testing.T) {
	t.Parallel()
	r := vaulttest.New(t)
	r.Write("topic/a.md", "---\ntags: [cache]\n---\nA note on the cache.\n")
	r.Write("topic/b.md", "---\ntags: [cache]\ntype: decision\n---\nA note on the build.\n")
	r.Write("other/c.md", "---\ntags: [build]\n---\nA note on the cache.\n")
	r.Commit("2026-01-02T10:00:00Z", "notes")
	s, _ := open(t, r.Dir)
	for _, c := range []struct {
		q    Question
		want string
	}{
		{Question{Filter: Filter{Tags: []string{"cahce"}}}, "No note is tagged `cahce`."},
		{Question{Filter: Filter{Tags: []string{"cahce"}, Path: "nowhere"}}, "No note is tagged `cahce` or under `nowhere`."},
		{Question{Filter: Filter{Tags: []string{"build"}, Path: "topic"}}, "No note is tagged `build` and under `topic`."},
		{Question{Type: "decision", Filter: Filter{Tags: []string{"build"}}}, "No note of type `decision` is tagged `build`."},
		{Question{Layer: vault.Local, Filter: Filter{Tags: []string{"cache"}}}, "No local note is tagged `cache`."},
		{Question{Filter: Filter{Since: "2026-02-01"}}, "No note is new or changed since 2026-02-01."},
	} {
		c.q.Phrasings, c.q.Roots, c.q.MaxChars, c.q.Cards = []string{"cache"}, 8, 6000, true
		ans, err := s.Ask(c.q)
		if err != nil {
			t.Fatal(err)
		}
		tail := "@ " + r.Git("rev-parse", "HEAD") + "\n"
		if tree, cards := ans.Tree(), ans.Cards(); tree != c.want+"\n"+tail || cards != tree {
			t.Errorf("%+v: tree %q, cards %q, want %q", c.q.Filter, tree, cards, c.want)
		}
		if j := ans.JSON(); j.Note != strings.TrimSuffix(strings.ToLower(c.want[:1])+c.want[1:], ".") || j.Filter == nil || j.Filter.Notes != 0 {
			t.Errorf("%+v: JSON note %q, filter %+v", c.q.Filter, j.Note, j.Filter)
		}
	}
	// Notes tagged cache exist; none holds "flaky", which one other does.
	r.Write("other/d.md", "A flaky note.\n")
	ans, err := s.Ask(Question{Phrasings: []string{"flaky"}, Roots: 8, MaxChars: 6000, Filter: Filter{Tags: []string{"cache"}}})
	if err != nil {
		t.Fatal(err)
	}
	if tree := ans.Tree(); !strings.HasPrefix(tree, "none: no note the filters let through contains any meaningful word of `flaky`; 1 note does outside the filters.") {
		t.Errorf("filters matching notes that do not answer: %q", tree)
	}
	if j := ans.JSON(); j.Filter == nil || j.Filter.Notes != 2 || !slices.Equal(j.Filter.Tags, []string{"cache"}) || j.Note != "" {
		t.Errorf("their JSON: filter %+v, note %q", j.Filter, j.Note)
	}
}

// A filter changes which notes are shown, never their scores: rarity is
// the whole store's, so a note ranked under a filter scores what it scores
// without one. Catches: idf computed over the filtered notes.
func TestAFilterChangesNoScore(t *testing.T) {
	t.Parallel()
	r := vaulttest.New(t)
	for i, body := range []string{"cache cache build", "cache flaky", "build flaky test", "cache of the build", "the test"} {
		tag := "odd"
		if i%2 == 0 {
			tag = "even"
		}
		r.Write(string(rune('a'+i))+".md", "---\ntags: ["+tag+"]\n---\n"+body+"\n")
	}
	r.Commit("2026-01-02T10:00:00Z", "notes")
	s, _ := open(t, r.Dir)
	ask := func(f Filter) map[string]int64 {
		ans, err := s.Ask(Question{Phrasings: []string{"flaky cache build"}, Roots: 100, MaxChars: 6000, Filter: f})
		if err != nil {
			t.Fatal(err)
		}
		out := map[string]int64{}
		for _, h := range ans.Result.Hits {
			if h.Depth == 0 {
				out[h.Note.Key] = h.Score
			}
		}
		return out
	}
	all := ask(Filter{})
	for _, tag := range []string{"odd", "even"} {
		got := ask(Filter{Tags: []string{tag}})
		if len(got) == 0 {
			t.Errorf("--tag %s ranked nothing", tag)
		}
		for key, score := range got {
			if all[key] != score {
				t.Errorf("--tag %s: %s scores %d, %d unfiltered", tag, key, score, all[key])
			}
		}
	}
}
