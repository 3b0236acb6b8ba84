package retrieve

import (
	"fmt"
	"slices"
	"testing"
)

// Every ranker keeps the baseline's pinned properties: whole terms only, one rare term
// beats two common ones, a universal term still retrieves, phrasings are
// scored best-of, layer is never a preference, the answer does not depend
// on the order notes were read, and expansion keeps its provenance.
func TestPinnedPropertiesHoldForEveryRanker(t *testing.T) {
	properties := []struct {
		name string
		test func(*testing.T)
	}{
		{"whole terms", TestAQuestionMatchesWholeTermsNotFragments},
		{"rare beats common", TestOneRareTermBeatsTwoCommonOnes},
		{"universal term retrieves", TestATermInEveryNoteStillRetrieves},
		{"unknown term", TestATermTheStoreNeverSawMatchesNothing},
		{"every phrasing first", TestAddingAPhrasingNeverDemotesTheNoteEveryPhrasingRanksFirst},
		{"second phrasing", TestASecondPhrasingFindsWhatTheFirstMissed},
		{"recency not layer", TestRecencyNotLayerOrdersEqualScores},
		{"order of reading", TestTheAnswerDoesNotDependOnTheOrderNotesWereRead},
		{"inflections", TestAnInflectedQuestionFindsTheNote},
		{"declared question", TestANoteIsFoundByTheQuestionItDeclares},
		{"real question", TestARealQuestionPutsTheNoteThatAnswersItFirst},
		{"tree is the answer", TestThePrintedTreeIsTheAnswerNoteForNote},
		{"both layers", TestAKeyInBothLayersIsTwoNotes},
		{"neighbour provenance", TestANeighbourCarriesItsOwnLayerAndDate},
	}
	for _, r := range []Ranker{BaselineRanker, TunedRanker} {
		t.Run(string(r), func(t *testing.T) {
			defer func(old Ranker) { rankerUnderTest = old }(rankerUnderTest)
			rankerUnderTest = r
			for _, p := range properties {
				t.Run(p.name, p.test)
			}
		})
	}
}

// Scores stay exact integers, at least one thousandth per matched term,
// whatever the ranker.
func TestTunedScoresAreWholeThousandths(t *testing.T) {
	scores := func() []string {
		r := search(t, provenanceStore(), Query{Phrasings: []string{"credentials"}, Ranker: TunedRanker})
		var out []string
		for _, h := range r.Hits {
			if h.Depth == 0 {
				if h.Score < 1 {
					t.Errorf("%s scored %d", h.Note.Key, h.Score)
				}
				out = append(out, fmt.Sprintf("%s/%s %d", h.Note.Key, h.Note.Layer, h.Score))
			}
		}
		return out
	}
	first := scores()
	// Four notes hold the word in their key: an empty answer proves nothing.
	if len(first) != 4 {
		t.Fatalf("ranked %q, want the four notes named for credentials", first)
	}
	if again := scores(); !slices.Equal(first, again) {
		t.Errorf("scores differ between two runs: %q, then %q", first, again)
	}
}
