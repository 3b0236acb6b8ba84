package find

import (
	"errors"

	"github.com/omh-notes/omh/internal/safefile"
	"github.com/omh-notes/omh/proof"
	"github.com/omh-notes/omh/retrieve"
	"github.com/omh-notes/omh/vault"
	"github.com/omh-notes/omh/vault/corpus"
)

// DefaultMaxChars is the size a reply aims at. Passages count against it;
// a card's header, its matched terms and its links never do.
const DefaultMaxChars = 6000

// Snapshot is what cards read of the snapshot an answer is from, beyond
// the ranked answer: the proof lifecycle's reads and a note's content,
// detail and links.
type Snapshot interface {
	proof.Snapshot
	// Content returns the note's bytes as indexed.
	Content(doc uint32, n corpus.Note) ([]byte, error)
	// CardDetail is the note's detail but its links in.
	CardDetail(doc uint32) (corpus.Detail, error)
	// LinksOut counts the notes a note links to, up to limit.
	LinksOut(doc uint32, limit int) (int, error)
}

// Card is one hit of a reply, with what an agent needs to judge it.
type Card struct {
	Hit      retrieve.Hit
	Passages []Passage // kept within the size aim
	Matched  []string  // question words the note holds
	Missing  []string  // question words it lacks
	Links    []corpus.Ref
	// In are the links in that the card and its JSON hit may show, in the
	// order they show them (OrderIn): every typed link and the newest
	// plain ones (headIn); InCount counts every link in.
	In      []corpus.Ref
	InCount int
	// ShowLinks and ShowIn say whether the links lines made it into the
	// printed card within the size aim; JSON carries the lists regardless.
	ShowLinks, ShowIn bool
	shownIn           []corpus.Ref // In as a full card prints it: tables of contents last
	// Proof records only: where the record stands, the day it was
	// retracted, the blob it rests on, and the retracted records it cites.
	Standing  *proof.Standing
	Retracted vault.Date
	Blob      *BlobQuote
	Stale     []corpus.Ref
	// Changed: the note's file changed since the snapshot the answer is
	// from, so the card quotes no passage.
	Changed bool
}

// Reply is an answer as cards.
type Reply struct {
	Result          retrieve.Result
	Commit          string
	Cards           []Card
	PassagesOmitted int // passages the size aim left out
	LinesOmitted    int // links lines the size aim left out
	MaxChars        int
}

// Build makes a card for every hit of res: passages and matched terms for
// ranked notes, links both ways for all, and keeps passages within maxChars.
// With proofs, records carry their standing and the blob they rest on, and
// link ends are marked or left out as its retraction mode says.
func Build(res retrieve.Result, commit string, snap Snapshot, maxChars int, proofs *proof.Proof) (Reply, error) {
	reply := Reply{Result: res, Commit: commit, MaxChars: maxChars}
	q := newQuestion(res)
	notes := make([]*note, len(res.Hits))
	// Blobs quoted already, never twice in a reply: a ranked blob shows its
	// own passage.
	quoted := map[uint32]bool{}
	for _, h := range res.Hits {
		if h.Depth == 0 {
			quoted[h.Doc] = true
		}
	}
	ranked := 0
	for i, h := range res.Hits {
		d, err := snap.CardDetail(h.Doc)
		if err != nil {
			return reply, err
		}
		// A linked note's card is a header: its links in are counted, and
		// the typed ones read where a proof record's standing needs them;
		// all are read when the proof hides some, which only reading tells.
		shown := 0
		if h.Depth == 0 {
			ranked++
			shown = refsShown
		}
		in, total, err := snap.LinksIn(h.Doc, shown > 0 || proofs.Hides(), shown > 0 || proofs.Hides() || proofs.IsRecord(h.Doc))
		if err != nil {
			return reply, err
		}
		// Typed links in, few, are keyed all; of the plain ones, only those
		// the card shows.
		if err := keyRefs(in, isTyped, snap); err != nil {
			return reply, err
		}
		marked := proofs.Mark(in)
		if proofs.Hides() {
			total = len(marked)
		}
		card := Card{Hit: h, Links: proofs.Mark(d.Links), InCount: total}
		head, cut := headIn(marked, shown)
		if err := keyRefs(head, isPlain, snap); err != nil {
			return reply, err
		}
		card.In = head
		if h.Depth == 0 && ranked <= fullCards {
			if card.shownIn, err = shownIn(head, cut, marked, snap); err != nil {
				return reply, err
			}
		}
		if proofs.IsRecord(h.Doc) {
			s := proofs.StandingFrom(h.Doc, h.Note.Key, in)
			card.Standing, card.Retracted, card.Stale = &s, proofs.Retracted(h.Doc), proofs.StaleSupport(d.Links)
			if h.Depth == 0 {
				if card.Blob, err = blobFor(snap, proofs, d.Links, quoted, q); err != nil {
					return reply, err
				}
			}
		}
		if h.Depth == 0 {
			card.Matched, card.Missing = matchedWords(res.Question, h.Matched)
			content, err := snap.Content(h.Doc, h.Note)
			switch {
			case errors.Is(err, safefile.ErrChangedSince):
				card.Changed = true // its offsets point into text that is gone: nothing to quote
			case err != nil:
				return reply, err
			default:
				notes[i] = newNote(string(content), d, h.Note.Title, q)
				if section, ok := statementSections[h.Note.Type]; ok && proofs.IsRecord(h.Doc) {
					notes[i].leadWith(section)
				}
			}
		}
		reply.Cards = append(reply.Cards, card)
	}
	reply.fit(notes)
	return reply, nil
}

// matchedWords splits the question's own words that carry meaning into
// those the note holds and those it lacks, in question order: that a note
// lacks "me" or "why" says nothing about it, and the words of the
// phrasings an agent passed are its own guesses, not what it asked.
func matchedWords(q retrieve.Question, matched []string) (held, lacked []string) {
	has := map[string]bool{}
	for _, m := range matched {
		has[m] = true
	}
	counts := q.Counting()
	for _, i := range q.Own() {
		if !counts[i] {
			continue
		}
		if t := q.Terms[i]; has[t.Term] {
			held = append(held, t.Word)
		} else {
			lacked = append(lacked, t.Word)
		}
	}
	return held, lacked
}
