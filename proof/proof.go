// Package proof is the proof records' lifecycle: where a record stands at
// a moment (current, superseded, invalidated, rejected, retracted; an
// issue open or resolved), decided only by the typed links other records
// make to it, and what an answer does with retracted records.
package proof

import (
	"fmt"

	"github.com/omh-notes/omh/retrieve"
	"github.com/omh-notes/omh/vault"
	"github.com/omh-notes/omh/vault/corpus"
)

// Retraction says what a reply does with records retracted at its moment.
type Retraction int

const (
	// ExcludeRetracted leaves them out of hits, in: lines and blob lines.
	ExcludeRetracted Retraction = iota
	// IncludeRetracted shows them, marked with their retraction date.
	IncludeRetracted
	// OnlyRetracted answers with retracted records alone; the lines under
	// them show everything, marked, since the verdicts around a withdrawn
	// record are what a reviewer looks for.
	OnlyRetracted
)

// ParseRetraction reads --retracted.
func ParseRetraction(s string) (Retraction, error) {
	switch s {
	case "exclude", "":
		return ExcludeRetracted, nil
	case "include":
		return IncludeRetracted, nil
	case "only":
		return OnlyRetracted, nil
	}
	return 0, fmt.Errorf("--retracted takes exclude, include or only, not %q", s)
}

// Snapshot is what the lifecycle reads of a snapshot of the notes: each
// note's type and own retraction date, and the typed links into a record.
type Snapshot interface {
	Info(doc uint32) corpus.DocInfo
	Note(doc uint32) (corpus.Note, error)
	// LinksIn lists the links into a note, without their keys: the plain
	// ones if plain, the typed ones if typed; n counts them all.
	LinksIn(doc uint32, plain, typed bool) (in []corpus.Ref, n int, err error)
	// KeyRefs gives each link end its note's key.
	KeyRefs(refs []corpus.Ref) error
}

// Proof answers where proof records stand at a moment. A record's state
// depends only on its own retraction and on the records linking to it, so
// each is computed from its links in when first asked for: an answer pays
// for the records it shows, not for every record of the store.
type Proof struct {
	Moment vault.Date
	Mode   Retraction
	store  Snapshot
	memo   map[uint32]Standing
}

// NewProof reads records from store as they stand at the moment.
func NewProof(store Snapshot, moment vault.Date, mode Retraction) *Proof {
	return &Proof{Moment: moment, Mode: mode, store: store, memo: map[uint32]Standing{}}
}

// IsRecord reports whether a note is a proof record.
func (p *Proof) IsRecord(doc uint32) bool {
	return p != nil && vault.IsProofType(p.store.Info(doc).Type)
}

// Standing returns a proof record's standing; ok is false for other notes.
func (p *Proof) Standing(doc uint32) (s Standing, ok bool, err error) {
	if !p.IsRecord(doc) {
		return Standing{}, false, nil
	}
	if s, ok := p.memo[doc]; ok {
		return s, true, nil
	}
	n, err := p.store.Note(doc)
	if err != nil {
		return s, false, err
	}
	in, _, err := p.store.LinksIn(doc, false, true)
	if err != nil {
		return s, false, err
	}
	if len(in) > 0 { // typed links in, few, are keyed all
		if err := p.store.KeyRefs(in); err != nil {
			return s, false, err
		}
	}
	return p.StandingFrom(doc, n.Key, in), true, nil
}

// StandingFrom runs the lifecycle over a record and the records linking to
// it (in, keyed where typed), which is all its standing depends on.
func (p *Proof) StandingFrom(doc uint32, key string, in []corpus.Ref) Standing {
	if s, ok := p.memo[doc]; ok {
		return s
	}
	info := p.store.Info(doc)
	records := []Record{{Doc: doc, Key: key, Layer: info.Layer, Type: info.Type, Retracted: vault.DateFromNumber(info.Retracted)}}
	for _, r := range in {
		src := p.store.Info(r.Doc)
		if r.Verb != "" && vault.IsProofType(src.Type) {
			records = append(records, Record{Doc: r.Doc, Key: r.Key, Layer: src.Layer, Type: src.Type,
				Retracted: vault.DateFromNumber(src.Retracted), Links: []corpus.Ref{{Key: key, Verb: r.Verb}}})
		}
	}
	s := Lifecycle(records, p.Moment)[doc]
	p.memo[doc] = s
	return s
}

// Retracted returns the day a record was retracted, when that is on or
// before the moment; "" otherwise and for notes that are not records.
func (p *Proof) Retracted(doc uint32) vault.Date {
	if !p.IsRecord(doc) {
		return ""
	}
	day := vault.DateFromNumber(p.store.Info(doc).Retracted)
	if day == "" || day > p.Moment {
		return ""
	}
	return day
}

// KeepRecords admits the proof records the mode lets into the hits of
// `omh proof find`, ranked or linked; it fits retrieve.Query.Keep.
func (p *Proof) KeepRecords(_ uint32, info corpus.DocInfo) bool {
	if !vault.IsProofType(info.Type) {
		return false
	}
	day := vault.DateFromNumber(info.Retracted)
	retracted := day != "" && day <= p.Moment
	switch p.Mode {
	case ExcludeRetracted:
		return !retracted
	case OnlyRetracted:
		return retracted
	}
	return true
}

// Hides reports whether the proof leaves some link ends out (Mark).
func (p *Proof) Hides() bool { return p != nil && p.Mode == ExcludeRetracted }

// ShowsRef reports whether a link end may be shown on a card's lines.
func (p *Proof) ShowsRef(doc uint32) bool {
	return p == nil || p.Mode != ExcludeRetracted || p.Retracted(doc) == ""
}

// Mark gives each link end its retraction date and drops those the mode
// hides.
func (p *Proof) Mark(refs []corpus.Ref) []corpus.Ref {
	if p == nil {
		return refs
	}
	var out []corpus.Ref
	for _, r := range refs {
		if p.ShowsRef(r.Doc) {
			r.Retracted = p.Retracted(r.Doc)
			out = append(out, r)
		}
	}
	return out
}

// StaleSupport lists the retracted records a record cites or derives from.
func (p *Proof) StaleSupport(links []corpus.Ref) []corpus.Ref {
	if p == nil {
		return nil
	}
	var out []corpus.Ref
	for _, l := range links {
		// A record rests on what it cites or derives from: when that is
		// withdrawn, the record's reasoning is stale and its card says so.
		if v, _ := vault.LookupVerb(l.Verb); v.RestsOn {
			if day := p.Retracted(l.Doc); day != "" {
				l.Retracted = day
				out = append(out, l)
			}
		}
	}
	return out
}

// DecidersFirst orders the ranked notes of res so that a record another
// ranked record overturns (supersedes, invalidates, rejects) comes just
// after the records that overturned it, which take its place: the first
// card then says where the question stands now, and the overturned record
// follows, its header naming its successor. The older record often ranks
// higher, having been written about the question first and cited since.
// Other notes keep their order, and each ranked note keeps the linked
// notes under it.
func (p *Proof) DecidersFirst(res *retrieve.Result) error {
	type group struct {
		hits   []retrieve.Hit
		by     []string // the records that overturned the ranked note
		placed bool     // or being placed: records that overturn each other stop there
	}
	var groups []*group
	byKey := map[string][]*group{}
	for _, h := range res.Hits {
		if h.Depth == 0 || len(groups) == 0 {
			s, _, err := p.Standing(h.Doc)
			if err != nil {
				return err
			}
			groups = append(groups, &group{by: s.By})
			byKey[h.Note.Key] = append(byKey[h.Note.Key], groups[len(groups)-1])
		}
		g := groups[len(groups)-1]
		g.hits = append(g.hits, h)
	}
	out := make([]retrieve.Hit, 0, len(res.Hits))
	var place func(g *group)
	place = func(g *group) {
		if g.placed {
			return
		}
		g.placed = true
		for _, k := range g.by {
			for _, d := range byKey[k] {
				place(d)
			}
		}
		root := len(out)
		for _, h := range g.hits {
			if h.Depth > 0 {
				h.Parent = root
			}
			out = append(out, h)
		}
	}
	for _, g := range groups {
		place(g)
	}
	res.Hits = out
	return nil
}
