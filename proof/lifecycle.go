package proof

import (
	"sort"

	"github.com/omh-notes/omh/vault"
	"github.com/omh-notes/omh/vault/corpus"
)

// State is where a proof record stands at a moment.
type State string

const (
	Current     State = "current"
	Superseded  State = "superseded"
	Invalidated State = "invalidated"
	Rejected    State = "rejected"
	Retracted   State = "retracted"
)

// Record is a proof record as the lifecycle sees it.
type Record struct {
	Doc       uint32
	Key       string
	Layer     vault.Layer
	Type      string
	Date      vault.Date
	Retracted vault.Date   // the record's own `retracted` date; "" when none
	Links     []corpus.Ref // typed links out (Key, Verb); plain links are ignored
}

// Standing is a record's lifecycle at a moment.
type Standing struct {
	State State
	By    []string // the records that decided the state (overturned), sorted
	// Issues only: open until a visible, unretracted record resolves them.
	Open       bool
	ResolvedBy []string
}

// Lifecycle computes every record's standing at the moment (a day): its
// own retraction first, then the verdicts of visible, unretracted records.
// A retracted record overturns nothing, and overturning does not recurse: a
// superseded record's own verdicts still stand. A state is never read from
// what a record says about itself, only from what others link.
func Lifecycle(records []Record, moment vault.Date) map[uint32]Standing {
	retracted := func(r Record) bool { return r.Retracted != "" && r.Retracted <= moment }
	// deciders[target key][verb] = keys of the records that say so.
	deciders := map[string]map[string][]string{}
	for _, r := range records {
		if retracted(r) {
			continue
		}
		for _, l := range r.Links {
			if deciders[l.Key] == nil {
				deciders[l.Key] = map[string][]string{}
			}
			deciders[l.Key][l.Verb] = append(deciders[l.Key][l.Verb], r.Key)
		}
	}
	out := make(map[uint32]Standing, len(records))
	for _, r := range records {
		s := Standing{State: Current}
		switch d := deciders[r.Key]; {
		case retracted(r):
			s.State = Retracted
		default:
			// The verdicts in the order one wins over another.
			for _, v := range vault.Verbs {
				if v.Overturns == "" {
					continue
				}
				if by := others(d[v.Name], r.Key); len(by) > 0 {
					s.State, s.By = State(v.Overturns), by
					break
				}
			}
		}
		if r.Type == "issue" {
			s.ResolvedBy = others(deciders[r.Key]["resolves"], r.Key)
			s.Open = len(s.ResolvedBy) == 0
		}
		out[r.Doc] = s
	}
	return out
}

// others sorts and de-duplicates keys, leaving out a record's own key: a
// record cannot decide about itself.
func others(keys []string, self string) []string {
	var out []string
	seen := map[string]bool{}
	for _, k := range keys {
		if k != self && !seen[k] {
			seen[k] = true
			out = append(out, k)
		}
	}
	sort.Strings(out)
	return out
}
