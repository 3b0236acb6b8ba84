package retrieve

import (
	"slices"
	"strings"
	"testing"

	"github.com/omh-notes/omh/token"
)

// reversed is a corpus whose posting lists come in falling note order, as
// a store's do when a note added late takes a low number.
type reversed struct{ *memCorpus }

func (r reversed) Postings(term string) ([]token.Posting, error) {
	list := slices.Clone(r.memCorpus.postings[term])
	slices.Reverse(list)
	return list, nil
}

// What a ranked note matched and how much of the question it covers do not
// depend on the order a store lists a term's notes in. Catches: a binary
// search over a list that is not in note order, which told a worktree copy
// of topic/credentials that it lacked the word "credential".
func TestMatchedWordsDoNotDependOnPostingOrder(t *testing.T) {
	q := Query{Phrasings: []string{"credentials mount ebusy sandbox"}, Roots: DefaultRoots, Ranker: DefaultRanker}
	sorted, err := Search(newCorpus(provenanceStore()...), q)
	if err != nil {
		t.Fatal(err)
	}
	shuffled, err := Search(reversed{newCorpus(provenanceStore()...)}, q)
	if err != nil {
		t.Fatal(err)
	}
	if len(sorted.Hits) == 0 || len(sorted.Hits) != len(shuffled.Hits) {
		t.Fatalf("%d hits sorted, %d shuffled", len(sorted.Hits), len(shuffled.Hits))
	}
	for i := range sorted.Hits {
		a, b := sorted.Hits[i], shuffled.Hits[i]
		if a.Note.Key != b.Note.Key || !slices.Equal(a.Matched, b.Matched) || a.Coverage != b.Coverage || a.Score != b.Score {
			t.Errorf("hit %d: %s %v %.3f, shuffled %s %v %.3f", i, a.Note.Key, a.Matched, a.Coverage, b.Note.Key, b.Matched, b.Coverage)
		}
	}
}

// With Explain, a ranked note's shares, summed over the phrasings, add up
// to its score exactly, name the phrasing that gave most of it, and say where the note holds each word; a
// linked note names the ranked note that brought it in; the tree prints a
// line under each ranked note that ParseTree reads back. Catches: shares
// of one phrasing only, shares not scaled as the fusion scaled them, a share computed apart from
// the ranking, an explanation on the wrong note.
func TestExplanationsAddUpToTheScore(t *testing.T) {
	q := Query{Phrasings: []string{"why is the image unprivileged", "credentials named volume"}, Roots: DefaultRoots,
		Ranker: DefaultRanker, Explain: true}
	res, err := Search(reversed{newCorpus(provenanceStore()...)}, q)
	if err != nil {
		t.Fatal(err)
	}
	ranked, linked, second := 0, 0, 0
	for _, h := range res.Hits {
		x := h.Explain
		if x == nil {
			t.Fatalf("%s has no explanation", h.Note.Key)
		}
		if h.Depth == 1 {
			linked++
			if x.LinkedFrom != res.Hits[h.Parent].Note.Key || len(x.Terms) != 0 {
				t.Errorf("%s: %+v, parent %s", h.Note.Key, x, res.Hits[h.Parent].Note.Key)
			}
			continue
		}
		ranked++
		var sum int64
		for _, share := range x.Terms {
			sum += share.Score
			if len(share.Fields) == 0 || share.DF == 0 || !strings.Contains(strings.Join(q.Phrasings, " "), share.Word) {
				t.Errorf("%s: share %+v", h.Note.Key, share)
			}
		}
		if sum != h.Score || len(x.Terms) == 0 {
			t.Errorf("%s: shares add up to %d, the score is %d: %+v", h.Note.Key, sum, h.Score, x.Terms)
		}
		if x.Phrasing == 1 {
			second++
		}
	}
	if ranked < 3 || linked == 0 || second == 0 {
		t.Errorf("%d ranked, %d linked, %d scored by the second phrasing: the fixture proves too little", ranked, linked, second)
	}
	tree, err := ParseTree(RenderTree(res, "abc"))
	if err != nil {
		t.Fatal(err)
	}
	for i, n := range tree.Notes {
		if n.Explained != (n.Depth == 0) {
			t.Errorf("note %d %s explained %v at depth %d", i, n.Key, n.Explained, n.Depth)
		}
	}
}
