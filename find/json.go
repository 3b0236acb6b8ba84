package find

import (
	"encoding/json"

	"github.com/omh-notes/omh/retrieve"
	"github.com/omh-notes/omh/vault"
)

// JSONRef is one end of a link in a JSON reply.
type JSONRef struct {
	Key   string `json:"key"`
	Layer string `json:"layer"`
	Date  string `json:"date"`
	Verb  string `json:"verb,omitempty"` // a typed link's verb, as written on the linking note
	// Retracted is the day a proof record at this end was retracted.
	Retracted string `json:"retracted,omitempty"`
}

// JSONHit is a hit of a JSON reply: the fields of schema version 1 and
// what its card shows.
type JSONHit struct {
	retrieve.JSONHit
	Passages []Passage `json:"passages"`
	Matched  []string  `json:"matched"`
	Missing  []string  `json:"missing"`
	Links    []JSONRef `json:"links"`
	In       []JSONRef `json:"in"`
	// LinksMore and InMore count the links each list leaves out (omh
	// links KEY pages through them all).
	LinksMore int `json:"links_more,omitempty"`
	InMore    int `json:"in_more,omitempty"`
	// Changed: the note's file changed since the snapshot, so passages is
	// empty.
	Changed bool `json:"changed,omitempty"`
	// Proof records only.
	State          string    `json:"state,omitempty"`
	By             []string  `json:"by,omitempty"`
	Retracted      string    `json:"retracted,omitempty"`
	Issue          string    `json:"issue,omitempty"` // "open" or "resolved"
	ResolvedBy     []string  `json:"resolved_by,omitempty"`
	BlobQuote      *JSONBlob `json:"blob_quote,omitempty"`
	CitesRetracted []JSONRef `json:"cites_retracted,omitempty"`
}

// JSONBlob is the blob a proof record rests on, with its quoted passage.
type JSONBlob struct {
	ID      string  `json:"id"` // git blob id: git cat-file -p ID prints the file
	Key     string  `json:"key"`
	Layer   string  `json:"layer"`
	Via     string  `json:"via,omitempty"` // the citation it was reached through
	Passage Passage `json:"passage"`
}

// JSONReply is the answer for programs.
type JSONReply struct {
	retrieve.JSONReply
	Hits            []JSONHit `json:"hits"`
	PassagesOmitted int       `json:"passages_omitted"`
	// HitsOmitted counts the ranked notes the cards show that
	// ContextJSON's room (JSONRoom) left out, from the lowest rank up.
	HitsOmitted int `json:"hits_omitted,omitempty"`
	MaxChars    int `json:"max_chars"`
}

// JSON converts the reply for programs: every hit of the answer, each
// ranked note's links out and in to refsShown each and counts of the
// rest. Every list is present, empty rather than null.
func (r Reply) JSON() JSONReply {
	base := retrieve.ToJSON(r.Result, r.Commit)
	out := JSONReply{JSONReply: base, Hits: []JSONHit{}, PassagesOmitted: r.PassagesOmitted, MaxChars: r.MaxChars}
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
func (r Reply) ContextJSON() JSONReply {
	base := retrieve.ToJSON(r.Result, r.Commit)
	out := JSONReply{JSONReply: base, Hits: []JSONHit{}, PassagesOmitted: r.PassagesOmitted, MaxChars: r.MaxChars}
	hits := make([]JSONHit, len(r.Cards))
	for i := range r.Cards {
		hits[i] = r.jsonHit(i, base.Hits[i], r.linksShown(i), r.inShown(i))
	}
	out.Hits, out.HitsOmitted = r.fitJSON(hits, jsonSize(out))
	return out
}

// jsonHit is card i's hit: its fields, its card's passages, and the
// links given, counting the rest.
func (r Reply) jsonHit(i int, base retrieve.JSONHit, links, in []vault.Ref) JSONHit {
	c := r.Cards[i]
	h := JSONHit{JSONHit: base, Passages: c.Passages, Matched: c.Matched, Missing: c.Missing,
		Links: JSONRefs(links), In: JSONRefs(in), LinksMore: len(c.Links) - len(links), InMore: c.InCount - len(in), Changed: c.Changed}
	if h.Passages == nil {
		h.Passages = []Passage{}
	}
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
			h.CitesRetracted = JSONRefs(c.Stale)
		}
	}
	if q := c.Blob; q != nil {
		h.BlobQuote = &JSONBlob{ID: q.ID, Key: q.Key, Layer: q.Layer.String(), Via: q.Via, Passage: q.Passage}
	}
	return h
}

// inShown are the links in that card i's in line shows, when the size aim
// admitted the line.
func (r Reply) inShown(i int) []vault.Ref {
	if !r.Cards[i].ShowIn {
		return nil
	}
	refs, _ := r.inRefs(i)
	return firstRefs(refs)
}

// linksShown are the links out that card i's links line shows, when the
// size aim admitted the line: the links no linked note's header under it
// names already.
func (r Reply) linksShown(i int) []vault.Ref {
	if !r.Cards[i].ShowLinks {
		return nil
	}
	named := map[string]bool{}
	for _, n := range r.neighbours(i)[:r.shownNeighbours(i)] {
		named[n.Hit.Note.Key] = true
	}
	return firstRefs(unshown(r.Cards[i].Links, named))
}

// firstRefs are the links a card's line names before "+N more".
func firstRefs(refs []vault.Ref) []vault.Ref {
	return refs[:min(len(refs), maxRefs)]
}

// JSONRoom is the size in bytes of compact JSON that ContextJSON aims at
// for cards aiming at maxChars characters: a third more than the cards, as
// JSON names every field and gives each passage its offsets. MCP's find sent 16.6 kB of structured
// content beside 3.5 kB of cards on vba-docs before it was bounded.
func JSONRoom(maxChars int) int { return maxChars + maxChars/3 }

// fitJSON admits the hits in the order they matter to an agent, while the
// reply stays within its room: the ranked notes by rank (the first always),
// then the linked notes the cards name under them. A ranked note that does
// not fit leaves out itself and every note below it (hits_omitted counts
// them); a linked note that does not fit is counted in its ranked note's
// more_linked. used is the size of the reply without hits. --explain's
// scores are not counted: who asks for them asks for them all.
func (r Reply) fitJSON(hits []JSONHit, used int) ([]JSONHit, int) {
	// The cards' headers are never cut, so their text may pass the aim
	// (twenty one-line cards at 1,000 characters): what it took beyond the
	// aim comes out of the JSON's room, and the two stay within the aim
	// and the room together.
	room := JSONRoom(r.MaxChars) - max(0, len(r.Text())-r.MaxChars)
	admit := func(h JSONHit, first bool) bool {
		h.Explain = nil
		cost := jsonSize(h) + 1 // and its comma
		if !first && used+cost > room {
			return false
		}
		used += cost
		return true
	}
	ranked, omitted := map[int]bool{}, 0
	for i, c := range r.Cards {
		if c.Hit.Depth != 0 {
			continue
		}
		if omitted > 0 || !admit(hits[i], len(ranked) == 0) {
			omitted++
			continue
		}
		ranked[i] = true
	}
	named := map[int]bool{}
	for i := range r.Cards {
		if !ranked[i] {
			continue
		}
		neighbours := r.neighbours(i)
		for k := range neighbours {
			if k < r.shownNeighbours(i) && admit(hits[i+1+k], false) {
				named[i+1+k] = true
			} else {
				hits[i].MoreLinked++
			}
		}
	}
	out := []JSONHit{}
	for i, h := range hits {
		if ranked[i] || named[i] {
			out = append(out, h)
		}
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

// JSONRefs converts link ends; the list is empty rather than null.
func JSONRefs(refs []vault.Ref) []JSONRef {
	out := []JSONRef{}
	for _, r := range refs {
		out = append(out, JSONRef{Key: r.Key, Layer: r.Layer.String(), Date: string(r.Date), Verb: r.Verb, Retracted: string(r.Retracted)})
	}
	return out
}
