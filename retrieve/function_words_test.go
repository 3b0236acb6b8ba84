package retrieve

import (
	"reflect"
	"strings"
	"testing"
)

// transcriptStore has a long note that holds every function word of the
// questions below many times and their subject once, beside short notes
// about the subjects: the shape of a store of meeting transcripts and
// topic pages.
func transcriptStore() []memNote {
	transcript := strings.Repeat("so what is it that I do when a thing is how it is and what do I do then. ", 40) +
		"someone once mentioned a schema and how to rename a page."
	return []memNote{
		{key: "meeting-transcript", layer: local, date: "2026-01-05", body: transcript},
		{key: "schema", layer: local, date: "2026-01-01", body: "# Schema\n\nA schema describes the shape of a hierarchy of notes.\n"},
		{key: "rename-note", layer: local, date: "2026-01-02", body: "# Rename note\n\nRenaming a note updates every link to it.\n"},
		{key: "lookup", layer: local, date: "2026-01-03", body: "# Lookup\n\nWhat you type is matched against the names of notes.\n"},
		{key: "publish", layer: local, date: "2026-01-04", body: "# Publish\n\nHow the site is built and where it is served from.\n"},
	}
}

// Regression: on dendron-site "what is a schema" put a meeting transcript
// first and the schema page sixth, while "schema" alone found it, because
// what, is and a still counted. A question written as a sentence ranks
// exactly as its keywords do.
func TestAWholeQuestionRanksLikeItsKeywords(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ sentence, keywords, want string }{
		{"what is a schema", "schema", "schema"},
		{"How do I rename a note?", "rename note", "rename-note"},
	} {
		whole, bare := ask(t, transcriptStore(), tc.sentence), ask(t, transcriptStore(), tc.keywords)
		if first(whole) != tc.want {
			t.Errorf("%q: got %v, want %s first", tc.sentence, keys(whole), tc.want)
		}
		if !reflect.DeepEqual(keys(whole), keys(bare)) {
			t.Errorf("%q ranks %v, its keywords %q rank %v", tc.sentence, keys(whole), tc.keywords, keys(bare))
		}
	}
}

// The baseline knows no function words: every word of the question
// scores, as the spec says.
func TestTheBaselineStillScoresEveryWord(t *testing.T) {
	t.Parallel()
	r := search(t, transcriptStore(), Query{Phrasings: []string{"what is a schema"}, Ranker: BaselineRanker})
	if first(r) != "meeting-transcript" {
		t.Errorf("got %v; the baseline must score what, is and a", keys(r))
	}
}

// The omitted count is a count of notes about the question: a note that
// shares only "the" with it is not a match left out.
func TestOmittedCountsOnlyNotesHoldingAMeaningfulWord(t *testing.T) {
	t.Parallel()
	r := search(t, transcriptStore(), Query{Phrasings: []string{"what is a schema"}, Roots: 1})
	if first(r) != "schema" || r.Omitted != 1 {
		t.Errorf("got %v, %d omitted; want schema and the transcript, which also mentions one, omitted", keys(r), r.Omitted)
	}
}

// Regression: "the of and" got a confident list, "matched 3/3". A question
// made only of function words still gets the notes that hold them, but the
// reply says they share nothing that carries meaning.
func TestAQuestionOfFunctionWordsOnlySaysSo(t *testing.T) {
	t.Parallel()
	r := ask(t, transcriptStore(), "the of and")
	if len(r.Hits) == 0 || r.Verdict != NoMatch {
		t.Fatalf("got %v, verdict %q", keys(r), r.Verdict)
	}
	out := RenderTree(r, "")
	if !strings.HasPrefix(out, "none: only common words of `the of and` match; the closest notes follow\n") {
		t.Errorf("the tree does not open with the verdict:\n%s", out)
	}
	tree, err := ParseTree(out)
	if err != nil || tree.Verdict != NoMatch || len(tree.Notes) != len(r.Hits) {
		t.Errorf("read back as %+v, %v", tree, err)
	}
}
