package index

import (
	"reflect"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/omh-notes/omh/vault/gitrepo"
)

// fill sets every field reachable from v to a value of its own, so that a
// field the codec forgets, or writes in another field's place, is seen.
func fill(v reflect.Value, n *int) {
	*n++
	switch v.Kind() {
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			fill(v.Field(i), n)
		}
	case reflect.Slice:
		s := reflect.MakeSlice(v.Type(), 2, 2)
		for i := 0; i < 2; i++ {
			fill(s.Index(i), n)
		}
		v.Set(s)
	case reflect.String:
		v.SetString("s" + string(rune('a'+*n%26)) + string(rune('0'+*n%10)))
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Int, reflect.Int64:
		v.SetInt(int64(*n * 37))
	case reflect.Uint8:
		v.SetUint(uint64(*n % 200))
	default:
		panic("fill: no value for " + v.Type().String())
	}
}

// Every field of a blob's meta, vault.Parsed's included, survives being
// stored. Catches: a field added to vault.Parsed (or blobMeta) that the
// binary codec does not write, silently empty once cached.
func TestEveryMetaFieldRoundTrips(t *testing.T) {
	t.Parallel()
	var m blobMeta
	n := 0
	fill(reflect.ValueOf(&m).Elem(), &n)
	got, err := decodeMeta(encodeMeta(m))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, m) {
		t.Errorf("meta changed in a round trip:\n got %+v\nwant %+v", got, m)
	}
	if _, err := decodeMeta(encodeMeta(blobMeta{})); err != nil {
		t.Errorf("an empty meta: %v", err)
	}
	b := encodeMeta(m)
	for cut := 0; cut < len(b); cut++ {
		if _, err := decodeMeta(b[:cut]); err == nil {
			t.Fatalf("a meta cut at %d of %d decoded", cut, len(b))
		}
	}
}

// A cached history step reads back as it was computed (paths in sorted
// order), and a damaged one is not taken for a step.
func TestHistoryStepsRoundTrip(t *testing.T) {
	t.Parallel()
	s := gitrepo.Step{Commit: plumbing.Hash{1}, Parent: plumbing.Hash{2}, Boundary: true, Author: "2026-01-02",
		Committed: "2026-01-03", CommittedUnix: -5, Changed: []string{"notes/b.md", "notes/a.md", "notes/ab.md", "x.md"}}
	got, ok := decodeStep(s.Commit, encodeStep(s))
	want := s
	want.Changed = []string{"notes/a.md", "notes/ab.md", "notes/b.md", "x.md"}
	if !ok || !reflect.DeepEqual(got, want) {
		t.Errorf("got %+v, want %+v", got, want)
	}
	b := encodeStep(s)
	for cut := 0; cut < len(b); cut++ {
		if _, ok := decodeStep(s.Commit, b[:cut]); ok {
			t.Fatalf("a step cut at %d of %d decoded", cut, len(b))
		}
	}
}
