package index

import (
	"errors"
	"math/rand"
	"reflect"
	"sort"
	"testing"

	"github.com/omh-notes/omh/retrieve"
)

func TestPostingListsRoundTripAndMerge(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	for round := 0; round < 200; round++ {
		// A random sorted list, random drops and additions.
		present := map[uint32]retrieve.Posting{}
		for i := 0; i < rng.Intn(300); i++ {
			d := uint32(rng.Intn(5000))
			present[d] = retrieve.Posting{Doc: d, TF: uint32(rng.Intn(1000)), Fields: retrieve.Field(rng.Intn(32))}
		}
		old := sortedPostings(present)
		decoded, err := decodePostings(encodePostings(old))
		if err != nil || !(len(old) == 0 && len(decoded) == 0 || reflect.DeepEqual(decoded, old)) {
			t.Fatalf("round trip of %d postings: %v", len(old), err)
		}
		if n := countPostings(encodePostings(old)); n != len(old) || cap(decoded) != len(old) {
			t.Fatalf("%d postings counted as %d, decoded into room for %d", len(old), n, cap(decoded))
		}
		drop := map[uint32]bool{}
		for d := range present {
			if rng.Intn(3) == 0 {
				drop[d] = true
				delete(present, d)
			}
		}
		var add []retrieve.Posting
		for i := 0; i < rng.Intn(50); i++ {
			d := uint32(rng.Intn(5000))
			if _, taken := present[d]; taken && !drop[d] {
				continue
			}
			p := retrieve.Posting{Doc: d, TF: uint32(rng.Intn(9)), Fields: retrieve.InBody}
			drop[d] = true // an added document always replaces its old entry
			present[d] = p
			add = append(add, p)
		}
		add = dedupe(add)
		got := mergePostings(old, drop, add)
		if want := sortedPostings(present); !(len(want) == 0 && len(got) == 0) && !reflect.DeepEqual(got, want) {
			t.Fatalf("merge: got %d postings, want %d", len(got), len(want))
		}
	}
}

func dedupe(add []retrieve.Posting) []retrieve.Posting {
	last := map[uint32]retrieve.Posting{}
	for _, p := range add {
		last[p.Doc] = p
	}
	return sortedPostings(last)
}

func sortedPostings(m map[uint32]retrieve.Posting) []retrieve.Posting {
	out := make([]retrieve.Posting, 0, len(m))
	for _, p := range m {
		out = append(out, p)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Doc < out[j].Doc })
	return out
}

func TestDamagedListsAndVectorsAreReportedAsDamage(t *testing.T) {
	good := encodePostings([]retrieve.Posting{{Doc: 3, TF: 2, Fields: retrieve.InKey}, {Doc: 900, TF: 1, Fields: retrieve.InBody}})
	if _, err := decodePostings(good[:len(good)-1]); !errors.Is(err, errDamaged) {
		t.Errorf("a cut posting list decoded: %v", err)
	}
	vec := encodeTerms([]termEntry{{ID: 7, TF: 1, Fields: retrieve.InBody}, {ID: 3, TF: 4, Fields: retrieve.InTitle}})
	got, err := decodeTerms(vec)
	if err != nil || !reflect.DeepEqual(got, []termEntry{{ID: 3, TF: 4, Fields: retrieve.InTitle}, {ID: 7, TF: 1, Fields: retrieve.InBody}}) {
		t.Errorf("term vector round trip: %v %v", got, err)
	}
	if _, err := decodeTerms([]byte{0x80}); !errors.Is(err, errDamaged) {
		t.Errorf("a broken varint decoded: %v", err)
	}
}

func TestInfoRecordsRoundTrip(t *testing.T) {
	var b []byte
	want := docInfo{present: true, worktree: true, layer: 2, typ: 513, day: 20260102, inboundAll: 70000, inboundBase: 3, nameRank: 123456, words: 4321, retracted: 20260301}
	b = putInfo(b, 5, want)
	if len(b) != 6*infoSize {
		t.Fatalf("length %d", len(b))
	}
	if got := getInfo(b, 5); got != want {
		t.Errorf("got %+v", got)
	}
	if got := infoWords(b, 5); got != want.words {
		t.Errorf("words read alone: %d", got)
	}
	if got := infoWords(b, 99); got != 0 {
		t.Errorf("words past the end: %d", got)
	}
	if got := getInfo(b, 2); got != (docInfo{}) {
		t.Errorf("an unset record reads %+v", got)
	}
	if got := getInfo(b, 99); got != (docInfo{}) {
		t.Errorf("a record past the end reads %+v", got)
	}
}

// Postings pack a term's fields into fieldBits bits beside its count: a
// field added to retrieve beyond them would be read back as another.
// Catches: a new field (InFolder was the seventh), silently stored as part
// of the count.
func TestEveryFieldFitsAPackedPosting(t *testing.T) {
	all := retrieve.AllFields
	if all>>fieldBits != 0 {
		t.Fatalf("fields %b do not fit in %d bits", all, fieldBits)
	}
	for _, tf := range []uint32{0, 1, 2, 1 << 20} {
		if gotTF, gotFields := unpackTF(packTF(tf, all)); gotTF != tf || gotFields != all {
			t.Errorf("tf %d, fields %b came back as %d, %b", tf, all, gotTF, gotFields)
		}
	}
}
