package proof

import (
	"reflect"
	"testing"

	"github.com/omh-notes/omh/vault"
	"github.com/omh-notes/omh/vault/corpus"
)

func rec(doc uint32, key, typ string, retracted vault.Date, links ...string) Record {
	r := Record{Doc: doc, Key: key, Layer: vault.Team, Type: typ, Date: "2026-01-01", Retracted: retracted}
	for i := 0; i+1 < len(links); i += 2 {
		r.Links = append(r.Links, corpus.Ref{Verb: links[i], Key: links[i+1]})
	}
	return r
}

func TestLifecycleFollowsTheLinksOthersMake(t *testing.T) {
	records := []Record{
		rec(1, "finding/old", "finding", ""),
		rec(2, "finding/new", "finding", "", "supersedes", "finding/old"),
		rec(3, "finding/wrong", "finding", ""),
		rec(4, "finding/refutation", "finding", "", "invalidates", "finding/wrong", "supersedes", "finding/wrong"),
		rec(5, "decision/a", "decision", ""),
		rec(6, "decision/b", "decision", "", "rejects", "decision/a"),
		rec(7, "citation/pulled", "citation", "2026-03-01", "supersedes", "finding/new"),
		rec(8, "issue/login", "issue", ""),
		rec(9, "decision/fix", "decision", "", "resolves", "issue/login"),
		rec(10, "issue/still-open", "issue", ""),
		rec(11, "finding/self", "finding", "", "supersedes", "finding/self"),
		// Overturning does not recurse: finding/new is superseded below,
		// yet what it superseded stays superseded.
		rec(12, "finding/newest", "finding", "", "supersedes", "finding/new"),
	}
	got := Lifecycle(records, "2026-06-01")
	want := map[uint32]Standing{
		1:  {State: Superseded, By: []string{"finding/new"}},
		2:  {State: Superseded, By: []string{"finding/newest"}},
		3:  {State: Superseded, By: []string{"finding/refutation"}}, // supersedes wins over invalidates
		4:  {State: Current},
		5:  {State: Rejected, By: []string{"decision/b"}},
		6:  {State: Current},
		7:  {State: Retracted},
		8:  {State: Current, ResolvedBy: []string{"decision/fix"}},
		9:  {State: Current},
		10: {State: Current, Open: true},
		11: {State: Current}, // a record cannot decide about itself
		12: {State: Current},
	}
	if !reflect.DeepEqual(got, want) {
		for doc, w := range want {
			if !reflect.DeepEqual(got[doc], w) {
				t.Errorf("doc %d: got %+v, want %+v", doc, got[doc], w)
			}
		}
	}
}

// A retraction counts from its date on: before it, the record stands and
// its verdicts hold; after it, the record is retracted and overturns
// nothing.
func TestARetractionTakesEffectOnItsDay(t *testing.T) {
	records := []Record{
		rec(1, "finding/a", "finding", ""),
		rec(2, "citation/c", "citation", "2026-03-01", "invalidates", "finding/a"),
	}
	before := Lifecycle(records, "2026-02-28")
	if before[1].State != Invalidated || before[2].State != Current {
		t.Errorf("before the retraction: %+v", before)
	}
	on := Lifecycle(records, "2026-03-01")
	if on[1].State != Current || on[2].State != Retracted {
		t.Errorf("on the day of the retraction: %+v", on)
	}
}

// A key held in both layers is one key: a verdict reaches both notes.
func TestAVerdictReachesTheKeyInBothLayers(t *testing.T) {
	local := rec(2, "finding/x", "finding", "")
	local.Layer = vault.Local
	got := Lifecycle([]Record{rec(1, "finding/x", "finding", ""), local, rec(3, "finding/y", "finding", "", "supersedes", "finding/x")}, "2026-06-01")
	if got[1].State != Superseded || got[2].State != Superseded {
		t.Errorf("got %+v", got)
	}
}
