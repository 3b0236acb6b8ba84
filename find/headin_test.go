package find

import (
	"fmt"
	"math/rand"
	"reflect"
	"sort"
	"testing"

	"github.com/omh-notes/omh/retrieve"
	"github.com/omh-notes/omh/vault"
	"github.com/omh-notes/omh/vault/corpus"
)

// A card's links in picked from name order without sorting them all
// (headIn, shownIn) are what sorting them all gives: every typed link and
// the first plain ones in OrderIn's order, and the same in: line, on
// random hubs with many links in, shared dates, both layers, every verb,
// one omh does not know, and tables of contents among them. Catches: a
// plain link of the same day taken out of name order, a verb ranked after
// plain links lost, the in: line cut short by tables of contents.
func TestLinksInPickedForACardEqualTheFullSort(t *testing.T) {
	t.Parallel()
	verbs := []string{"", "supersedes", "cites", "derives_from", "attaches", "rejects", "frobs"}
	rng := rand.New(rand.NewSource(1))
	for round := range 400 {
		store := fakeSnapshot{detail: map[uint32]corpus.Detail{}, linksOut: map[uint32]int{}}
		var in []corpus.Ref
		for i := range 1 + rng.Intn(60) {
			doc := uint32(100 + i)
			ref := corpus.Ref{Doc: doc, Key: fmt.Sprintf("k%02d", rng.Intn(40)), Layer: vault.Layer(1 + rng.Intn(2)),
				Date: vault.Date(fmt.Sprintf("2026-01-%02d", 1+rng.Intn(4)))}
			if rng.Intn(4) < round%4 { // from no typed links to mostly typed
				ref.Verb = verbs[rng.Intn(len(verbs))]
			}
			in = append(in, ref)
			if rng.Intn(10) < round%10 { // from no tables of contents to nearly all
				store.linksOut[doc] = retrieve.HubLinks + 1
			}
		}
		sort.SliceStable(in, func(i, j int) bool { // name order, as the cache gives it
			a, b := in[i], in[j]
			if a.Key != b.Key {
				return a.Key < b.Key
			}
			if a.Layer != b.Layer {
				return a.Layer < b.Layer
			}
			return a.Doc < b.Doc
		})
		store.detail[0] = corpus.Detail{In: in}
		full := OrderIn(in)
		for _, n := range []int{0, 1, refsShown} {
			head, cut := headIn(in, n)
			var want []corpus.Ref
			plain := 0
			for _, ref := range full {
				if ref.Verb != "" || plain < n {
					want = append(want, ref)
				}
				if ref.Verb == "" {
					plain++
				}
			}
			if !reflect.DeepEqual(head, want) {
				t.Fatalf("round %d, %d plain: picked %+v, the full sort %+v", round, n, head, want)
			}
			if (cut < 0) != (plain <= n) {
				t.Fatalf("round %d, %d plain of %d: cut %d", round, n, plain, cut)
			}
		}
		head, cut := headIn(in, refsShown)
		got, err := shownIn(head, cut, in, store)
		if err != nil {
			t.Fatal(err)
		}
		wantShown, _, err := hubsLast(full, -1, store)
		if err != nil {
			t.Fatal(err)
		}
		if g, w := refList(got, len(in), vault.Team, true), refList(wantShown, len(in), vault.Team, true); g != w {
			t.Fatalf("round %d: in: line %q, from the full sort %q", round, g, w)
		}
	}
}
