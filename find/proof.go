package find

import (
	"errors"
	"fmt"
	"strings"

	"github.com/omh-notes/omh/retrieve"
	"github.com/omh-notes/omh/vault"
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

// RecordStore is what the lifecycle reads of a store beyond what cards
// read: each note's type and own retraction date.
type RecordStore interface {
	Store
	Info(doc uint32) vault.DocInfo
}

// Proof answers where proof records stand at a moment. A record's state
// depends only on its own retraction and on the records linking to it, so
// each is computed from its links in when first asked for: an answer pays
// for the records it shows, not for every record of the store.
type Proof struct {
	Moment vault.Date
	Mode   Retraction
	store  RecordStore
	memo   map[uint32]Standing
}

// NewProof reads records from store as they stand at the moment.
func NewProof(store RecordStore, moment vault.Date, mode Retraction) *Proof {
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
	if err := keyRefs(in, isTyped, p.store); err != nil {
		return s, false, err
	}
	return p.standingFrom(doc, n.Key, in), true, nil
}

// standingFrom runs the lifecycle over a record and the records linking to
// it, which is all its standing depends on.
func (p *Proof) standingFrom(doc uint32, key string, in []vault.Ref) Standing {
	if s, ok := p.memo[doc]; ok {
		return s
	}
	info := p.store.Info(doc)
	records := []Record{{Doc: doc, Key: key, Layer: info.Layer, Type: info.Type, Retracted: vault.DateFromNumber(info.Retracted)}}
	for _, r := range in {
		src := p.store.Info(r.Doc)
		if r.Verb != "" && vault.IsProofType(src.Type) {
			records = append(records, Record{Doc: r.Doc, Key: r.Key, Layer: src.Layer, Type: src.Type,
				Retracted: vault.DateFromNumber(src.Retracted), Links: []vault.Ref{{Key: key, Verb: r.Verb}}})
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
func (p *Proof) KeepRecords(_ uint32, info vault.DocInfo) bool {
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

// hides reports whether the proof leaves some link ends out (Mark).
func (p *Proof) hides() bool { return p != nil && p.Mode == ExcludeRetracted }

// showsRef reports whether a link end may be shown on a card's lines.
func (p *Proof) showsRef(doc uint32) bool {
	return p == nil || p.Mode != ExcludeRetracted || p.Retracted(doc) == ""
}

// Mark gives each link end its retraction date and drops those the mode
// hides.
func (p *Proof) Mark(refs []vault.Ref) []vault.Ref {
	if p == nil {
		return refs
	}
	var out []vault.Ref
	for _, r := range refs {
		if p.showsRef(r.Doc) {
			r.Retracted = p.Retracted(r.Doc)
			out = append(out, r)
		}
	}
	return out
}

// staleSupport lists the retracted records a record cites or derives from.
func (p *Proof) staleSupport(links []vault.Ref) []vault.Ref {
	if p == nil {
		return nil
	}
	var out []vault.Ref
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

// BlobQuote is the passage of a blob a record rests on, quoted on its card.
type BlobQuote struct {
	ID      string // the git blob id of the blob record's file
	Key     string
	Layer   vault.Layer
	Via     string // the citation it was reached through; "" when attached directly
	Passage Passage
}

// blobFor finds the blob a record attaches directly, else through a
// current, unretracted citation it cites, skipping blobs the reply quotes
// already, and quotes the blob's best passage for the question.
func (p *Proof) blobFor(links []vault.Ref, quoted map[uint32]bool, q question) (*BlobQuote, error) {
	type candidate struct {
		doc uint32
		via string
	}
	var candidates []candidate
	for _, l := range links {
		if l.Verb == "attaches" {
			candidates = append(candidates, candidate{l.Doc, ""})
		}
	}
	for _, l := range links {
		if l.Verb != "cites" || p.store.Info(l.Doc).Type != "citation" {
			continue
		}
		if s, _, err := p.Standing(l.Doc); err != nil || s.State != Current {
			if err != nil {
				return nil, err
			}
			continue
		}
		d, err := p.store.CardDetail(l.Doc)
		if err != nil {
			return nil, err
		}
		for _, cl := range d.Links {
			if cl.Verb == "attaches" {
				candidates = append(candidates, candidate{cl.Doc, l.Key})
			}
		}
	}
	for _, c := range candidates {
		if p.store.Info(c.doc).Type != "blob" || quoted[c.doc] || !p.showsRef(c.doc) {
			continue
		}
		n, err := p.store.Note(c.doc)
		if err != nil {
			return nil, err
		}
		content, err := p.store.Content(c.doc, n)
		if errors.Is(err, vault.ErrChangedSince) {
			continue // no passage of a blob changed since the snapshot
		}
		if err != nil {
			return nil, err
		}
		d, err := p.store.CardDetail(c.doc)
		if err != nil {
			return nil, err
		}
		passages := newNote(string(content), d, n.Title, q).choose(blobRoom, true)
		if len(passages) == 0 {
			continue // an empty blob has nothing to quote
		}
		quoted[c.doc] = true
		return &BlobQuote{ID: n.Blob.String(), Key: n.Key, Layer: n.Layer, Via: c.via, Passage: passages[0]}, nil
	}
	return nil, nil
}

// stateLabel is what a proof card's header adds after the date: the
// retraction, or the state with the records that decided it, and an
// issue's resolution.
func stateLabel(s Standing, retracted vault.Date) string {
	var parts []string
	switch {
	case s.State == Retracted:
		parts = append(parts, "retracted "+string(retracted))
	case len(s.By) > 0:
		parts = append(parts, string(s.State)+" by "+strings.Join(s.By, ", "))
	default:
		parts = append(parts, string(s.State))
	}
	switch {
	case len(s.ResolvedBy) > 0:
		parts = append(parts, "resolved by "+strings.Join(s.ResolvedBy, ", "))
	case s.Open:
		parts = append(parts, "open")
	}
	return strings.Join(parts, " · ")
}

// blobRoom is the room of a blob's quote on a record's card, in characters
// of the line.
const blobRoom = 300

// blobLine quotes a blob on a card.
func blobLine(q *BlobQuote) string {
	return "  blob " + q.ID + ": " + q.Passage.Text + "\n"
}

// staleLine names the retracted records a card's record rests on.
func staleLine(refs []vault.Ref) string {
	var parts []string
	for _, r := range refs {
		parts = append(parts, fmt.Sprintf("%s retracted %s (%s)", r.Verb, r.Key, r.Retracted))
	}
	return "  " + strings.Join(parts, " · ") + "\n"
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
