package find

import (
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
	// LinksMore and InMore count the links each list leaves out (see
	// refsShown): omh links KEY lists them all.
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
	MaxChars        int       `json:"max_chars"`
}

// JSON converts the reply; every list is present, empty rather than null.
func (r Reply) JSON() JSONReply {
	base := retrieve.ToJSON(r.Result, r.Commit)
	out := JSONReply{JSONReply: base, Hits: []JSONHit{}, PassagesOmitted: r.PassagesOmitted, MaxChars: r.MaxChars}
	for i, c := range r.Cards {
		shown := refsShown
		if c.Hit.Depth > 0 {
			shown = 0
		}
		h := JSONHit{JSONHit: base.Hits[i], Passages: c.Passages, Matched: c.Matched, Missing: c.Missing,
			Links: JSONRefs(c.Links[:min(shown, len(c.Links))]), In: JSONRefs(c.In[:min(shown, len(c.In))]),
			LinksMore: max(0, len(c.Links)-shown), InMore: max(0, c.InCount-shown), Changed: c.Changed}
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
		out.Hits = append(out.Hits, h)
	}
	return out
}

// refsShown is how many links out and in a ranked note's JSON hit lists
// (links in verdicts first); a linked note's hit lists none, as its card is
// a header. Every link of every hit made a find reply on the 173-note
// obsidian help vault 89 kB, most of it the lists of hub notes among the
// neighbours: more than an agent's context should take for one question.
const refsShown = 8

// JSONRefs converts link ends; the list is empty rather than null.
func JSONRefs(refs []vault.Ref) []JSONRef {
	out := []JSONRef{}
	for _, r := range refs {
		out = append(out, JSONRef{Key: r.Key, Layer: r.Layer.String(), Date: string(r.Date), Verb: r.Verb, Retracted: string(r.Retracted)})
	}
	return out
}
