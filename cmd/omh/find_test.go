package main

import (
	"fmt"
	"reflect"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/omh-notes/omh/reply"
	"github.com/omh-notes/omh/retrieve"
	"github.com/omh-notes/omh/vault/vaulttest"
)

type provenance struct {
	key, layer, date string
	depth            int
	parent           string
}

func fromJSON(reply reply.Answer) []provenance {
	var out []provenance
	for _, h := range reply.Hits {
		out = append(out, provenance{h.Key, h.Layer, h.Date, h.Depth, h.Parent})
	}
	return out
}

func fromTree(t *testing.T, out string) []provenance {
	t.Helper()
	tree, err := retrieve.ParseTree(out)
	if err != nil {
		t.Fatalf("the tree does not parse: %v\n%s", err, out)
	}
	var got []provenance
	for _, n := range tree.Notes {
		got = append(got, provenance{n.Key, n.Layer.String(), string(n.Date), n.Depth, n.Parent})
	}
	return got
}

// The printed tree and the JSON reply are two renderings of one answer:
// parsed back strictly, the tree equals the JSON hits in order, depth and
// parent included, and every note carries the layer and date it has on disk.
// Goes red for: a dropped layer, today's date printed, notes de-duplicated by
// key, a neighbour given its parent's layer, neighbours drawn under the last
// ranked note.
func TestTheTreeIsTheJSONAnswerLineForLine(t *testing.T) {
	t.Parallel()
	r := provenanceRepo(t)
	for _, ranker := range []string{"default", "baseline"} {
		tree := ok(t, r.Dir, "find", "--ranker", ranker, "credentials")
		reply := findJSON(t, r.Dir, "--ranker", ranker, "credentials")
		if got, want := fromTree(t, tree), fromJSON(reply); !reflect.DeepEqual(got, want) {
			t.Fatalf("%s ranker: tree and JSON disagree:\n tree %v\n json %v\n%s", ranker, got, want, tree)
		}
	}
	// Each note's own provenance, as written on disk, and the ranked note
	// that reached it under the baseline ranker's order, which the fixture
	// was built around.
	reply := findJSON(t, r.Dir, "--ranker", "baseline", "credentials")
	want := map[string]bool{
		"credentials-the-image-ends-unprivileged team 2026-07-20 0 ":                           true,
		"mount-returns-ebusy local 2026-08-07 1 credentials-the-image-ends-unprivileged":       true,
		"sandbox-user-is-uid-1000 local 2026-05-03 1 credentials-the-image-ends-unprivileged":  true,
		"credentials-are-a-named-volume local 2026-07-02 0 ":                                   true,
		"accounts-are-single-path-components team 2026-06-14 1 credentials-are-a-named-volume": true,
		"credentials-are-a-named-volume team 2026-06-12 0 ":                                    true,
	}
	got := map[string]bool{}
	for _, p := range fromJSON(reply) {
		got[strings.Join([]string{p.key, p.layer, p.date, string(rune('0' + p.depth)), p.parent}, " ")] = true
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("answer set differs:\n got %v\nwant %v", sortedKeys(got), sortedKeys(want))
	}
	if reply.Commit == nil || *reply.Commit != r.Git("rev-parse", "HEAD") {
		t.Errorf("commit %v, want HEAD", reply.Commit)
	}
}

func sortedKeys(m map[string]bool) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// The question reaches the private note only through a link from a team
// note: it must keep its own local layer and date.
func TestANeighbourKeepsItsOwnLayerInARealStore(t *testing.T) {
	t.Parallel()
	r := provenanceRepo(t)
	for _, h := range findJSON(t, r.Dir, "unprivileged").Hits {
		if h.Key == "mount-returns-ebusy" {
			if h.Depth != 1 || h.Layer != "local" || h.Date != "2026-08-07" || h.Parent != "credentials-the-image-ends-unprivileged" || h.ParentLayer != "team" {
				t.Errorf("neighbour %+v", h)
			}
			return
		}
	}
	t.Error("the private neighbour was not expanded")
}

// Filters keep exactly the notes they name, ranked and linked: --layer
// team a team-only answer, --no-worktree no uncommitted copy, --type the
// ranked notes of that type. Catches: a filter that lets a note through,
// and (because each set is compared whole, never only checked when
// non-empty) a filter that empties the answer.
func TestFiltersByLayerAndType(t *testing.T) {
	t.Parallel()
	r := provenanceRepo(t)
	r.Write(".omh/notes/credentials-decision.md", note("type: decision\nrecorded: 2026-05-01", "# We keep credentials in a volume\n"))
	keys := func(reply reply.Answer) []string {
		var out []string
		for _, h := range reply.Hits {
			out = append(out, fmt.Sprintf("%s %s d%d", h.Key, h.Layer, h.Depth))
		}
		sort.Strings(out)
		return out
	}
	for _, c := range []struct {
		args []string
		want []string
	}{
		{[]string{"--layer", "team", "credentials"}, []string{
			"accounts-are-single-path-components team d1", "credentials-are-a-named-volume team d0",
			"credentials-the-image-ends-unprivileged team d0"}},
		{[]string{"--no-worktree", "credentials", "sandbox"}, []string{
			"accounts-are-single-path-components team d1", "credentials-are-a-named-volume team d0",
			"credentials-the-image-ends-unprivileged team d0", "mount-returns-ebusy local d1"}},
		{[]string{"--type", "decision", "credentials"}, []string{"credentials-decision local d0"}},
	} {
		if got := keys(findJSON(t, r.Dir, c.args...)); !slices.Equal(got, c.want) {
			t.Errorf("find %v:\n got %q\nwant %q", c.args, got, c.want)
		}
	}
}

func TestTheQuestionIsWordsOrStandardInput(t *testing.T) {
	t.Parallel()
	r := provenanceRepo(t)
	words := ok(t, r.Dir, "find", "the", "image", "ends")
	var out, errOut strings.Builder
	if status := run([]string{"-C", r.Dir, "find", "-"}, strings.NewReader("the image ends\n"), &out, &errOut, testBase(t)); status != 0 {
		t.Fatalf("exit %d: %s", status, errOut.String())
	}
	if out.String() != words {
		t.Errorf("stdin question answered differently:\n%s\n%s", out.String(), words)
	}
}

func TestPhrasingsAreEchoedAndScoredBestOf(t *testing.T) {
	t.Parallel()
	r := provenanceRepo(t)
	reply := findJSON(t, r.Dir, "kubernetes", "--also", "unprivileged image")
	if !reflect.DeepEqual(reply.Question, []string{"kubernetes", "unprivileged image"}) || len(reply.Hits) == 0 ||
		reply.Hits[0].Key != "credentials-the-image-ends-unprivileged" {
		t.Errorf("got %+v", reply)
	}
}

func TestBudgetAndOmittedCount(t *testing.T) {
	t.Parallel()
	r := provenanceRepo(t)
	reply := findJSON(t, r.Dir, "--roots", "1", "credentials")
	roots := 0
	for _, h := range reply.Hits {
		if h.Depth == 0 {
			roots++
		}
	}
	if roots != 1 || reply.Omitted != 2 {
		t.Errorf("roots %d omitted %d, want 1 and 2", roots, reply.Omitted)
	}
	// The tree counts the matches it leaves out where narrowing would help:
	// with no note listed, or under a weak verdict.
	tree, err := retrieve.ParseTree(ok(t, r.Dir, "find", "--roots", "0", "credentials"))
	if err != nil || tree.Omitted != 3 || len(tree.Notes) != 0 {
		t.Errorf("tree omitted %d, %d notes (%v)", tree.Omitted, len(tree.Notes), err)
	}
}

func TestNoMatchAndEmptyStoreAreSentences(t *testing.T) {
	t.Parallel()
	r := provenanceRepo(t)
	out := ok(t, r.Dir, "find", "kubernetes")
	if tree, err := retrieve.ParseTree(out); err != nil || len(tree.Notes) != 0 || !strings.Contains(out, "`kubernetes`") {
		t.Errorf("no-match answer %q (%v)", out, err)
	}
	out = ok(t, vaulttest.New(t).Dir, "find", "anything")
	if !strings.HasPrefix(out, "none: the store has no notes yet") || !strings.HasSuffix(out, "@ no commits\n") {
		t.Errorf("empty store answer %q", out)
	}
}

// A phrasing is a sentence: commas inside it do not split it in two.
func TestAPhrasingMayContainCommas(t *testing.T) {
	t.Parallel()
	r := provenanceRepo(t)
	reply := findJSON(t, r.Dir, "kubernetes", "--also", "image, unprivileged")
	if !reflect.DeepEqual(reply.Question, []string{"kubernetes", "image, unprivileged"}) {
		t.Errorf("question %q", reply.Question)
	}
}

// The baseline reads these terms: key, title, body, headings, answers.
// Indexing frontmatter descriptions for the tuned ranker once changed the
// baseline's results too (obsidian nDCG@10 0.514 -> 0.504); the baseline
// must neither match a description nor count it in a term's rarity.
func TestBaselineRankerDoesNotReadDescriptions(t *testing.T) {
	t.Parallel()
	r := vaulttest.New(t)
	r.Write("described.md", note("description: the quokka guide", "# Described\n\nNothing here.\n"))
	r.Write("body.md", "# Body\n\nA quokka lives here.\n")
	r.Write("other.md", "# Other\n\nNothing.\n")
	r.Commit("2026-01-01T10:00:00Z", "notes")
	keys := func(reply reply.Answer) []string {
		var out []string
		for _, h := range reply.Hits {
			out = append(out, h.Key)
		}
		sort.Strings(out)
		return out
	}
	base := findJSON(t, r.Dir, "--ranker", "baseline", "quokka")
	if got := keys(base); !reflect.DeepEqual(got, []string{"body"}) {
		t.Errorf("baseline hits %v, want only the note whose body holds the word", got)
	}
	// One note of three holds it for the baseline: rarity ln(4/1).
	if want := retrieve.Contribution(3, 1, false); base.Hits[0].Score != want {
		t.Errorf("baseline score %d, want %d (the description must not count in df)", base.Hits[0].Score, want)
	}
	if got := keys(findJSON(t, r.Dir, "--ranker", "tuned", "quokka")); !reflect.DeepEqual(got, []string{"body", "described"}) {
		t.Errorf("tuned hits %v, want both notes", got)
	}
}

// omh find --explain prints, under each ranked note, its score as the sum
// of its words' shares, and JSON carries the same shares; without the flag
// neither appears. Catches: a tree that no longer parses with explanations
// in it; text and JSON that explain different numbers.
func TestExplainAgreesInTheTreeAndJSON(t *testing.T) {
	t.Parallel()
	r := provenanceRepo(t)
	tree, err := retrieve.ParseTree(ok(t, r.Dir, "find", "--explain", "credentials", "volume"))
	if err != nil {
		t.Fatal(err)
	}
	reply := findJSON(t, r.Dir, "--explain", "credentials", "volume")
	if len(tree.Notes) != len(reply.Hits) || len(reply.Hits) == 0 {
		t.Fatalf("%d tree notes, %d JSON hits", len(tree.Notes), len(reply.Hits))
	}
	text := ok(t, r.Dir, "find", "--explain", "credentials", "volume")
	for i, h := range reply.Hits {
		if h.Explain == nil || tree.Notes[i].Explained != (h.Depth == 0) {
			t.Fatalf("hit %d %s: explain %+v, tree explained %v", i, h.Key, h.Explain, tree.Notes[i].Explained)
		}
		if h.Depth == 1 {
			if h.Explain.LinkedFrom != h.Parent {
				t.Errorf("%s linked from %q, parent %s", h.Key, h.Explain.LinkedFrom, h.Parent)
			}
			continue
		}
		var sum int64
		for _, share := range h.Explain.Terms {
			sum += share.Score
		}
		if sum != h.Score || !strings.Contains(text, fmt.Sprintf("score %d.%03d = ", h.Score/1000, h.Score%1000)) {
			t.Errorf("%s: shares %d, score %d, not in\n%s", h.Key, sum, h.Score, text)
		}
	}
	if plain := findJSON(t, r.Dir, "credentials", "volume"); plain.Hits[0].Explain != nil {
		t.Error("explain without --explain")
	}
}
