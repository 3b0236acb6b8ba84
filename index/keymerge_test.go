package index

import (
	"cmp"
	"maps"
	"reflect"
	"slices"
	"testing"

	"github.com/omh-notes/omh/token"
)

// A first build adds each document's key terms to its blob's without a map
// (withKeyTerms); the terms must be what the map a refresh builds holds:
// each once, a blob's counts kept, the fields of every mention joined.
func TestKeyTermsJoinABlobsTermsAsAMapWould(t *testing.T) {
	t.Parallel()
	blob := []termEntry{{ID: 1, TF: 2, Fields: token.InBody}, {ID: 3, TF: 1, Fields: token.InBody}, {ID: 5, Fields: token.InTitle}}
	key := []termEntry{{ID: 3, Fields: token.InKey}, {ID: 7, Fields: token.InFolder}, {ID: 7, Fields: token.InKey},
		{ID: 1, Fields: token.InTitle}, {ID: 2, Fields: token.InFolder}, {ID: 7, Fields: token.InTitle}}
	want := map[int64]termEntry{}
	for _, e := range blob {
		want[e.ID] = e
	}
	for _, k := range key {
		e := want[k.ID]
		e.ID = k.ID
		e.Fields |= k.Fields
		want[k.ID] = e
	}
	got := withKeyTerms(slices.Clone(blob), key)
	slices.SortFunc(got, func(a, b termEntry) int { return cmp.Compare(a.ID, b.ID) })
	var wantList []termEntry
	for _, id := range slices.Sorted(maps.Keys(want)) {
		wantList = append(wantList, want[id])
	}
	if !reflect.DeepEqual(got, wantList) {
		t.Errorf("withKeyTerms gave %v, want %v", got, wantList)
	}
}
