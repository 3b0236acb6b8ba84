package vault

import (
	"slices"
	"testing"
)

// Each dialect reads a note's tags where its tool writes them: the
// frontmatter's tags (a list, one string, "#"-marked), the body's hashtags
// (not in code, nor a markdown site's "#word"), Dendron's links to the
// notes tags.x, Logseq's tags:: page property; each once, whatever its
// letter case. Catches: a dialect's form of tag not read, a hashtag read
// where the tool has none, a tag listed twice.
func TestEachDialectReadsItsTags(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		dialect, note string
		want          []string
	}{
		{DialectObsidian, "---\ntags: [Alpha, \"#beta\"]\n---\nText #proj/alpha and #alpha, not `#code` or #1213.\n", []string{"Alpha", "beta", "proj/alpha"}},
		{DialectObsidian, "---\ntags: gamma delta\n---\n```\n#fenced\n```\n", []string{"gamma", "delta"}},
		{DialectDendron, "---\ntags: [area.misc, question]\n---\nA #role.bugcatcher, [[tags.stage.seed]] and [[the label|tags.scope]]; [[dendron.topic]] is no tag.\n",
			[]string{"area.misc", "question", "role.bugcatcher", "stage.seed", "scope"}},
		{DialectLogseq, "tags:: cloud, [[data lake]], #infra\nalias:: other\n\n- about #ops and [[not a tag]]\n", []string{"cloud", "data lake", "infra", "ops"}},
		{DialectMarkdown, "---\ntags: vba\n---\n# Title\n\nC# and #region are text on a site.\n", []string{"vba"}},
		{DialectOmh, "---\ntags: [a]\n---\ntags:: not-logseq\n\nBody #b.\n", []string{"a", "b"}},
	} {
		got := Dialect{Name: c.dialect}.Tags(Parse([]byte(c.note)))
		if !slices.Equal(got, c.want) {
			t.Errorf("%s: %q has tags %q, want %q", c.dialect, c.note, got, c.want)
		}
	}
}
