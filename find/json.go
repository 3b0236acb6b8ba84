package find

import (
	"encoding/json"

	"github.com/omh-notes/omh/reply"
	"github.com/omh-notes/omh/retrieve"
	"github.com/omh-notes/omh/vault"
	"github.com/omh-notes/omh/vault/corpus"
)

// AnswerJSON converts a ranked answer for programs, without cards;
// commit is "" before the first commit.
func AnswerJSON(r retrieve.Result, commit string) reply.Answer {
	out := reply.Answer{Question: r.Question.Phrasings, Hits: []reply.Hit{}, Omitted: r.Omitted, StoreEmpty: r.StoreEmpty, FilteredOut: r.FilteredOut,
		Verdict: string(r.Verdict), Leads: r.Leads, Uncovered: r.Uncovered, Unheld: r.Unheld, AsOf: string(r.AsOf)}
	if commit != "" {
		out.Commit = &commit
	}
	if out.Question == nil {
		out.Question = []string{}
	}
	out.Stores = SourcesJSON(r.Stores)
	for _, h := range r.Hits {
		j := NoteJSON(h.Note)
		j.Depth, j.Score, j.MoreLinked, j.Explain = h.Depth, h.Score, h.MoreLinked, explanationJSON(h.Explain)
		if h.Depth == 0 {
			coverage := h.Coverage
			j.Coverage = &coverage
		}
		if h.Parent >= 0 {
			p := r.Hits[h.Parent].Note
			j.Parent, j.ParentLayer = p.Key, p.Layer.String()
		}
		out.Hits = append(out.Hits, j)
	}
	return out
}

// NoteJSON is what a hit says of a note itself, outside any ranking: depth
// 0, no parent, score 0.
func NoteJSON(n corpus.Note) reply.Hit {
	return reply.Hit{Key: n.Key, Store: StoreName(n.Store), Layer: n.Layer.String(), Date: string(n.Date), DateSource: n.DateSource.String(),
		Title: n.Title, Type: n.Type, Path: n.Path, Blob: n.Blob.String()}
}

// explanationJSON converts --explain's reasons; nil stays nil.
func explanationJSON(x *retrieve.Explanation) *reply.Explanation {
	if x == nil {
		return nil
	}
	out := &reply.Explanation{Phrasing: x.Phrasing, LinkedFrom: x.LinkedFrom}
	for _, t := range x.Terms {
		out.Terms = append(out.Terms, reply.TermShare(t))
	}
	return out
}

// JSON converts the reply for programs: every hit of the answer, each
// ranked note's links out and in to refsShown each and counts of the
// rest. Every list is present, empty rather than null.
func (r Reply) JSON() reply.Cards {
	base := AnswerJSON(r.Result, r.Commit)
	out := reply.Cards{Answer: base, Hits: []reply.CardHit{}, Aim: &reply.Aim{PassagesOmitted: r.PassagesOmitted, MaxChars: r.MaxChars}}
	for i, c := range r.Cards {
		shown := refsShown
		if c.Hit.Depth > 0 {
			shown = 0
		}
		out.Hits = append(out.Hits, r.jsonHit(i, base.Hits[i], c.Links[:min(shown, len(c.Links))], c.In[:min(shown, len(c.In))]))
	}
	return out
}

// refsShown is how many links out and in a ranked note's JSON hit lists
// (links in verdicts first); a linked note's hit lists none, as its card is
// a header. Every link of every hit made a find reply on the 173-note
// obsidian help vault 89 kB, most of it the lists of hub notes among the
// neighbours: more than an agent's context should take for one question.
const refsShown = 8

// ContextJSON converts the reply as its cards show it, for an agent's
// context window (MCP's structured content): each hit lists the passages
// and link ends its card shows and counts the rest, a ranked note is
// followed by the linked notes its card names (the others counted in
// more_linked), and the reply stays within JSONRoom(MaxChars) bytes (less
// what the cards took beyond MaxChars), the ranked notes that do not fit
// counted in hits_omitted.
func (r Reply) ContextJSON() reply.Cards {
	base := AnswerJSON(r.Result, r.Commit)
	out := reply.Cards{Answer: base, Hits: []reply.CardHit{}, Aim: &reply.Aim{PassagesOmitted: r.PassagesOmitted, MaxChars: r.MaxChars}}
	hits := make([]reply.CardHit, len(r.Cards))
	for i := range r.Cards {
		hits[i] = r.jsonHit(i, base.Hits[i], r.linksShown(i), r.inShown(i))
	}
	// The count of hits left out is reserved before any is admitted, as
	// the cards reserve their omission lines.
	out.HitsOmitted = len(r.Cards)
	used := jsonSize(out)
	out.Hits, out.HitsOmitted = r.fitJSON(hits, used)
	return out
}

// jsonHit is card i's hit: its fields, its card's passages, and the
// links given, counting the rest.
func (r Reply) jsonHit(i int, base reply.Hit, links, in []corpus.Ref) reply.CardHit {
	c := r.Cards[i]
	h := reply.CardHit{Hit: base, Passages: passagesJSON(c.Passages), Matched: c.Matched, Missing: c.Missing,
		Links: RefsJSON(links), In: RefsJSON(in), LinksMore: len(c.Links) - len(links), InMore: c.InCount - len(in), Changed: c.Changed}
	if h.Matched == nil {
		h.Matched = []string{}
	}
	if h.Missing == nil {
		h.Missing = []string{}
	}
	if s := c.Standing; s != nil {
		h.State, h.By, h.Retracted = string(s.State), s.By, string(c.Retracted)
		switch {
		case len(s.ResolvedBy) > 0:
			h.Issue, h.ResolvedBy = "resolved", s.ResolvedBy
		case s.Open:
			h.Issue = "open"
		}
		if len(c.Stale) > 0 {
			h.CitesRetracted = RefsJSON(c.Stale)
		}
	}
	if q := c.Blob; q != nil {
		h.BlobQuote = &reply.Blob{ID: q.ID, Key: q.Key, Layer: q.Layer.String(), Via: q.Via, Passage: reply.Passage(q.Passage)}
	}
	return h
}

// inShown are the links in that card i's in line shows, when the size aim
// admitted the line.
func (r Reply) inShown(i int) []corpus.Ref {
	if !r.Cards[i].ShowIn {
		return nil
	}
	refs, _ := r.inRefs(i)
	return firstRefs(refs)
}

// linksShown are the links out that card i's links line shows, when the
// size aim admitted the line.
func (r Reply) linksShown(i int) []corpus.Ref {
	if !r.Cards[i].ShowLinks {
		return nil
	}
	return firstRefs(r.Cards[i].Links)
}

// firstRefs are the links a card's line names before "+N more".
func firstRefs(refs []corpus.Ref) []corpus.Ref {
	return refs[:min(len(refs), maxRefs)]
}

// JSONRoom is the size in bytes of compact JSON that ContextJSON aims at
// for cards aiming at maxChars characters: a third more than the cards, as
// JSON names every field and gives each passage its offsets. MCP's find sent 16.6 kB of structured
// content beside 3.5 kB of cards on vba-docs before it was bounded.
func JSONRoom(maxChars int) int { return maxChars + maxChars/3 }

// fitJSON admits the ranked notes by rank (the first always) while the
// reply stays within its room, as the cards show them: the notes each
// links to are counted in its more_linked, as its links line counts them.
// A ranked note that does not fit leaves out itself and every note below
// it (hits_omitted counts them). used is the size of the reply without
// hits. --explain's scores are not counted: who asks for them asks for
// them all.
func (r Reply) fitJSON(hits []reply.CardHit, used int) ([]reply.CardHit, int) {
	// The cards' headers are never cut, so their text may pass the aim
	// (twenty one-line cards at 1,000 characters): what it took beyond the
	// aim comes out of the JSON's room, and the two stay within the aim
	// and the room together.
	room := JSONRoom(r.MaxChars) - max(0, len(r.Text())-r.MaxChars)
	admit := func(h reply.CardHit, first bool) bool {
		h.Explain = nil
		cost := jsonSize(h) + 1 // and its comma
		if !first && used+cost > room {
			return false
		}
		used += cost
		return true
	}
	out, omitted := []reply.CardHit{}, 0
	for i, c := range r.Cards {
		if c.Hit.Depth != 0 {
			continue
		}
		h := hits[i]
		h.MoreLinked += len(r.neighbours(i))
		if omitted > 0 || !admit(h, len(out) == 0) {
			omitted++
			continue
		}
		out = append(out, h)
	}
	return out, omitted
}

// jsonSize is the size of v as compact JSON.
func jsonSize(v any) int {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err) // replies are plain values
	}
	return len(b)
}

// passagesJSON converts passages; the list is empty rather than null.
func passagesJSON(ps []Passage) []reply.Passage {
	out := make([]reply.Passage, len(ps))
	for i, p := range ps {
		out[i] = reply.Passage(p)
	}
	return out
}

// RefsJSON converts link ends; the list is empty rather than null.
func RefsJSON(refs []corpus.Ref) []reply.Ref {
	out := []reply.Ref{}
	for _, r := range refs {
		out = append(out, reply.Ref{Key: r.Key, Store: r.Store, Layer: r.Layer.String(), Date: string(r.Date), Verb: r.Verb, Retracted: string(r.Retracted)})
	}
	return out
}

// StoreName is a note's store as a hit names it: "." for the store omh
// runs in.
func StoreName(store string) string {
	if store == "" {
		return vault.HomeStore
	}
	return store
}

// SourcesJSON converts the other stores an answer read; nil stays nil.
func SourcesJSON(sources []retrieve.Source) []reply.Source {
	var out []reply.Source
	for _, s := range sources {
		j := reply.Source{Name: s.Name, Path: s.Path, Personal: s.Personal, Problem: s.Problem, Code: s.Code}
		if s.Problem == "" && s.Commit != "" {
			commit := s.Commit
			j.Commit = &commit
		}
		out = append(out, j)
	}
	return out
}
