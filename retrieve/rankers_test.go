package retrieve

import (
	"fmt"
	"slices"
	"testing"
)

// Scores stay exact integers, at least one thousandth per matched term,
// whatever the ranker.
func TestTunedScoresAreWholeThousandths(t *testing.T) {
	t.Parallel()
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
