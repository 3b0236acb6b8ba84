package proof

import (
	"fmt"
	"math/rand"
	"reflect"
	"testing"

	"github.com/omh-notes/omh/retrieve"
	"github.com/omh-notes/omh/vault"
	"github.com/omh-notes/omh/vault/corpus"
)

// snapshot serves records the way the index does: types and retraction
// days by document, links in by target, without their keys until asked.
type snapshot struct {
	info  map[uint32]corpus.DocInfo
	notes map[uint32]corpus.Note
	in    map[uint32][]corpus.Ref
}

func (s snapshot) Info(doc uint32) corpus.DocInfo       { return s.info[doc] }
func (s snapshot) Note(doc uint32) (corpus.Note, error) { return s.notes[doc], nil }

func (s snapshot) LinksIn(doc uint32, plain, typed bool) ([]corpus.Ref, int, error) {
	var in []corpus.Ref
	for _, r := range s.in[doc] {
		if (r.Verb == "" && plain) || (r.Verb != "" && typed) {
			r.Key = ""
			in = append(in, r)
		}
	}
	return in, len(s.in[doc]), nil
}

func (s snapshot) KeyRefs(refs []corpus.Ref) error {
	for i := range refs {
		refs[i].Key = s.notes[refs[i].Doc].Key
	}
	return nil
}

// storeOf indexes records like the cache: each link out becomes a link in
// on every note holding the target key.
func storeOf(records []Record) snapshot {
	s := snapshot{info: map[uint32]corpus.DocInfo{}, notes: map[uint32]corpus.Note{}, in: map[uint32][]corpus.Ref{}}
	for _, r := range records {
		s.info[r.Doc] = corpus.DocInfo{Present: true, Layer: r.Layer, Type: r.Type, Retracted: r.Retracted.Number()}
		s.notes[r.Doc] = corpus.Note{Key: r.Key, Layer: r.Layer, Type: r.Type}
	}
	for _, src := range records {
		for _, l := range src.Links {
			for _, dst := range records {
				if dst.Key == l.Key && dst.Doc != src.Doc {
					s.in[dst.Doc] = append(s.in[dst.Doc], corpus.Ref{Doc: src.Doc, Key: src.Key, Layer: src.Layer, Verb: l.Verb})
				}
			}
		}
	}
	return s
}

// A record's standing computed from its links in alone is the standing the
// lifecycle gives it over the whole store, on random stores with shared
// keys across layers, self-links, retractions before and after the moment,
// and every verb.
func TestStandingFromLinksInEqualsTheWholeStoreLifecycle(t *testing.T) {
	verbs := []string{"supersedes", "invalidates", "rejects", "resolves", "cites", "derives_from", "attaches", "mitigates", ""}
	types := []string{"finding", "decision", "issue", "citation", "blob", "note"}
	rng := rand.New(rand.NewSource(1))
	for round := 0; round < 300; round++ {
		n := 2 + rng.Intn(12)
		var records, all []Record
		for i := 0; i < n; i++ {
			r := Record{Doc: uint32(i), Key: fmt.Sprintf("k%d", rng.Intn(n)), Layer: vault.Layer(1 + rng.Intn(2)), Type: types[rng.Intn(len(types))]}
			if rng.Intn(4) == 0 {
				r.Retracted = vault.Date(fmt.Sprintf("2026-0%d-01", 1+rng.Intn(6)))
			}
			for j := rng.Intn(4); j > 0; j-- {
				r.Links = append(r.Links, corpus.Ref{Key: fmt.Sprintf("k%d", rng.Intn(n)), Verb: verbs[rng.Intn(len(verbs))]})
			}
			all = append(all, r)
			if vault.IsProofType(r.Type) {
				var typed []corpus.Ref
				for _, l := range r.Links {
					if l.Verb != "" {
						typed = append(typed, l)
					}
				}
				rec := r
				rec.Links = typed
				records = append(records, rec)
			}
		}
		moment := vault.Date("2026-03-15")
		want := Lifecycle(records, moment)
		p := NewProof(storeOf(all), moment, IncludeRetracted)
		for _, r := range all {
			got, ok, err := p.Standing(r.Doc)
			if err != nil {
				t.Fatal(err)
			}
			w, isRecord := want[r.Doc]
			if ok != isRecord || !reflect.DeepEqual(got, w) {
				t.Fatalf("round %d, %s (#%d %s): from links in %+v (%v), whole store %+v (%v)\n%+v", round, r.Key, r.Doc, r.Type, got, ok, w, isRecord, all)
			}
		}
	}
}

func TestKeepRecordsFollowsTheRetractionMode(t *testing.T) {
	info := func(typ string, retracted int) corpus.DocInfo {
		return corpus.DocInfo{Present: true, Type: typ, Retracted: retracted}
	}
	cases := []struct {
		info                   corpus.DocInfo
		exclude, include, only bool
	}{
		{info("finding", 0), true, true, false},
		{info("finding", 20260301), false, true, true},
		{info("finding", 20260401), true, true, false}, // retracted after the moment: not yet
		{info("note", 0), false, false, false},         // proof find shows records only
		{info("note", 20260301), false, false, false},
	}
	for _, c := range cases {
		for mode, want := range map[Retraction]bool{ExcludeRetracted: c.exclude, IncludeRetracted: c.include, OnlyRetracted: c.only} {
			p := NewProof(nil, "2026-03-15", mode)
			if got := p.KeepRecords(0, c.info); got != want {
				t.Errorf("%+v in mode %d: kept %v, want %v", c.info, mode, got, want)
			}
		}
	}
}

// The records that overturned a record ranked above them take its place,
// along a chain of successors too (c rejects b, which supersedes a), and
// it follows them; other notes keep their order and each ranked note its
// linked notes, whose Parent follows it.
func TestDecidersComeBeforeTheRecordsTheyOverturn(t *testing.T) {
	t.Parallel()
	records := []Record{
		{Doc: 0, Key: "finding/a", Type: "finding", Layer: vault.Team},
		{Doc: 1, Key: "note/plain", Type: "note", Layer: vault.Team},
		{Doc: 2, Key: "finding/b", Type: "finding", Layer: vault.Team, Links: []corpus.Ref{{Key: "finding/a", Verb: "supersedes"}}},
		{Doc: 3, Key: "citation/x", Type: "citation", Layer: vault.Team},
		{Doc: 4, Key: "decision/c", Type: "decision", Layer: vault.Team, Links: []corpus.Ref{{Key: "finding/b", Verb: "rejects"}}},
		{Doc: 5, Key: "finding/d", Type: "finding", Layer: vault.Team, Links: []corpus.Ref{{Key: "finding/far", Verb: "supersedes"}}},
	}
	store := storeOf(records)
	hit := func(doc uint32, depth, parent int) retrieve.Hit {
		return retrieve.Hit{Doc: doc, Note: store.notes[doc], Depth: depth, Parent: parent}
	}
	res := retrieve.Result{Hits: []retrieve.Hit{hit(0, 0, -1), hit(3, 1, 0), hit(1, 0, -1), hit(2, 0, -1), hit(5, 0, -1), hit(4, 0, -1)}}
	if err := NewProof(store, "2026-06-01", IncludeRetracted).DecidersFirst(&res); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, h := range res.Hits {
		got = append(got, fmt.Sprintf("%s@%d^%d", h.Note.Key, h.Depth, h.Parent))
	}
	want := []string{"decision/c@0^-1", "finding/b@0^-1", "finding/a@0^-1", "citation/x@1^2", "note/plain@0^-1", "finding/d@0^-1"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got  %q\nwant %q", got, want)
	}
}
