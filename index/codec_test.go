package index

import (
	"encoding/binary"
	"errors"
	"math/rand"
	"reflect"
	"sort"
	"testing"

	"github.com/omh-notes/omh/token"
)

func TestPostingListsRoundTripAndMerge(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	for round := 0; round < 200; round++ {
		// A random sorted list, random drops and additions.
		present := map[uint32]token.Posting{}
		for i := 0; i < rng.Intn(300); i++ {
			d := uint32(rng.Intn(5000))
			present[d] = token.Posting{Doc: d, TF: uint32(rng.Intn(1000)), Fields: token.Field(rng.Intn(32))}
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
		var add []token.Posting
		for i := 0; i < rng.Intn(50); i++ {
			d := uint32(rng.Intn(5000))
			if _, taken := present[d]; taken && !drop[d] {
				continue
			}
			p := token.Posting{Doc: d, TF: uint32(rng.Intn(9)), Fields: token.InBody}
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

func dedupe(add []token.Posting) []token.Posting {
	last := map[uint32]token.Posting{}
	for _, p := range add {
		last[p.Doc] = p
	}
	return sortedPostings(last)
}

func sortedPostings(m map[uint32]token.Posting) []token.Posting {
	out := make([]token.Posting, 0, len(m))
	for _, p := range m {
		out = append(out, p)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Doc < out[j].Doc })
	return out
}

func TestDamagedListsAndVectorsAreReportedAsDamage(t *testing.T) {
	good := encodePostings([]token.Posting{{Doc: 3, TF: 2, Fields: token.InKey}, {Doc: 900, TF: 1, Fields: token.InBody}})
	if _, err := decodePostings(good[:len(good)-1]); !errors.Is(err, errDamaged) {
		t.Errorf("a cut posting list decoded: %v", err)
	}
	vec := encodeTerms([]termEntry{{ID: 7, TF: 1, Fields: token.InBody}, {ID: 3, TF: 4, Fields: token.InTitle}})
	got, err := decodeTerms(vec)
	if err != nil || !reflect.DeepEqual(got, []termEntry{{ID: 3, TF: 4, Fields: token.InTitle}, {ID: 7, TF: 1, Fields: token.InBody}}) {
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
	all := token.AllFields
	if all>>fieldBits != 0 {
		t.Fatalf("fields %b do not fit in %d bits", all, fieldBits)
	}
	for _, tf := range []uint32{0, 1, 2, 1 << 20} {
		if gotTF, gotFields := unpackTF(packTF(tf, all)); gotTF != tf || gotFields != all {
			t.Errorf("tf %d, fields %b came back as %d, %b", tf, all, gotTF, gotFields)
		}
	}
}

// BenchmarkDecodePostings decodes the list of a term held by 40,000 notes,
// most once in the body: what a common question word costs every question.
func BenchmarkDecodePostings(b *testing.B) {
	var list []token.Posting
	for i := range 40000 {
		list = append(list, token.Posting{Doc: uint32(i * 3), TF: uint32(i % 5), Fields: token.InBody})
	}
	enc := encodePostings(list)
	b.SetBytes(int64(len(enc)))
	for b.Loop() {
		if out, err := decodePostings(enc); err != nil || len(out) != len(list) {
			b.Fatalf("decoded %d of %d postings: %v", len(out), len(list), err)
		}
	}
}

// A term once in a note's body took two bytes (its count above seven field
// bits), in its term vector and its posting list: a seventh of the cache.
// Every count and field set still comes back, and the entries notes hold
// most, once in the body or only in other fields, are one byte each.
func TestATermOnceInTheBodyPacksIntoOneByte(t *testing.T) {
	for tf := uint32(0); tf < 300; tf++ {
		for f := token.Field(0); f <= token.AllFields; f++ {
			v := packTF(tf, f)
			if gotTF, gotF := unpackTF(v); gotTF != tf || gotF != f {
				t.Fatalf("tf %d, fields %b came back as %d, %b", tf, f, gotTF, gotF)
			}
			natural := (f&token.InBody != 0) == (tf > 0)
			if short := len(binary.AppendUvarint(nil, v)) == 1; short != (natural && tf <= 1) {
				t.Errorf("tf %d, fields %b: one byte %v", tf, f, short)
			}
		}
	}
}
