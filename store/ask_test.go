package store

import (
	"reflect"
	"strings"
	"testing"

	"github.com/omh-notes/omh/proof"
	"github.com/omh-notes/omh/vault/vaulttest"
)

// topicStore is a store of one committed note, a topic on why the cache
// is slow.
func topicStore(t *testing.T) (*vaulttest.Repo, *Store) {
	t.Helper()
	r := vaulttest.New(t)
	r.Write("topic/cache.md", "---\ntype: topic\nrecorded: 2026-01-02\n---\n# Cache\n\nWhy the cache is slow.\n")
	r.Commit("2026-01-03T10:00:00Z", "a topic")
	s, _ := open(t, r.Dir)
	return r, s
}

// Asking among proof records in a store that holds none says so, in the
// cards and the JSON, instead of saying no note holds the question's
// words; once a record exists, an unmatched question gets the usual
// sentence. Catches: "no note contains any word" for a store whose notes
// do contain the words but are not records.
func TestProofFindWithoutRecordsSaysThereAreNone(t *testing.T) {
	t.Parallel()
	r, s := topicStore(t)
	ask := func(words string) Answer {
		t.Helper()
		ans, err := s.Ask(Question{Phrasings: []string{words}, Roots: 8, MaxChars: 6000, Cards: true, Records: true, Retracted: proof.ExcludeRetracted})
		if err != nil {
			t.Fatal(err)
		}
		return ans
	}
	ans := ask("why is the cache slow")
	if text := ans.Cards(); !strings.HasPrefix(text, "The store holds no proof records yet") || !strings.Contains(text, "omh new finding TITLE") ||
		!strings.HasSuffix(text, "@ "+r.Git("rev-parse", "HEAD")+"\n") {
		t.Errorf("cards %q", text)
	}
	if reply := ans.JSON(); !strings.HasPrefix(reply.Note, "the store holds no proof records") || reply.StoreEmpty || reply.Commit == nil || reply.Aim != nil {
		t.Errorf("JSON %+v", reply)
	}
	r.Write("finding/slow.md", "---\ntype: finding\nrecorded: 2026-01-04\n---\n# Slow\n\n## Claim\n\n## Evidence\n\n## Answers\n")
	if text := ask("zebra").Cards(); !strings.HasPrefix(text, "none: no note contains any meaningful word of `zebra`") {
		t.Errorf("with a record: %q", text)
	}
}

// An answer renders whatever its question asked for: without cards, the
// cards are the tree and the JSON lists the ranked notes without card
// fields; with cards, the JSON's hits are the cards'. Catches: Cards and
// JSON dereferencing the cards of a question that did not ask for them.
func TestAnAnswerWithoutCardsRendersAsTheTree(t *testing.T) {
	t.Parallel()
	_, s := topicStore(t)
	q := Question{Phrasings: []string{"cache slow"}, Roots: 8, MaxChars: 6000}
	bare, err := s.Ask(q)
	if err != nil {
		t.Fatal(err)
	}
	q.Cards = true
	carded, err := s.Ask(q)
	if err != nil {
		t.Fatal(err)
	}
	if bare.Cards() != bare.Tree() || bare.Cards() == carded.Cards() {
		t.Errorf("without cards the cards are\n%s\nthe tree\n%s", bare.Cards(), bare.Tree())
	}
	plain, full := bare.JSON(), carded.JSON()
	if plain.Aim != nil || plain.Hits != nil || full.Aim == nil || len(plain.Answer.Hits) != len(full.Hits) || len(full.Hits) == 0 {
		t.Errorf("JSON without cards %+v, with %+v", plain, full)
	}
	for i, h := range plain.Answer.Hits {
		if !reflect.DeepEqual(h, full.Hits[i].Hit) {
			t.Errorf("hit %d: %+v without cards, %+v with", i, h, full.Hits[i].Hit)
		}
	}
	if c := bare.ContextJSON(); c.Aim != nil || len(c.Answer.Hits) != len(plain.Answer.Hits) {
		t.Errorf("context JSON without cards %+v", c)
	}
}
