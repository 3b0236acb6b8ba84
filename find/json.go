package find

import "github.com/omh-notes/omh/retrieve"

// JSONRef is one end of a link in a JSON reply.
type JSONRef struct {
	Key   string `json:"key"`
	Layer string `json:"layer"`
	Date  string `json:"date"`
	Verb  string `json:"verb,omitempty"` // a typed link's verb, as written on the linking note
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
		h := JSONHit{JSONHit: base.Hits[i], Passages: c.Passages, Matched: c.Matched, Missing: c.Missing,
			Links: jsonRefs(c.Links), In: jsonRefs(c.In)}
		if h.Passages == nil {
			h.Passages = []Passage{}
		}
		if h.Matched == nil {
			h.Matched = []string{}
		}
		if h.Missing == nil {
			h.Missing = []string{}
		}
		out.Hits = append(out.Hits, h)
	}
	return out
}

func jsonRefs(refs []Ref) []JSONRef {
	out := []JSONRef{}
	for _, r := range refs {
		out = append(out, JSONRef{Key: r.Key, Layer: r.Layer.String(), Date: string(r.Date), Verb: r.Verb})
	}
	return out
}
