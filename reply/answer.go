package reply

import (
	"bytes"
	"encoding/json"
)

// The shapes of an answer for programs: omh find --json, omh proof find
// --json and the MCP tools find and proof_find (docs/json.md documents
// them). Ranking (retrieve) and cards (find) return plain data; find fills
// these shapes, as it also renders the cards' text.

// Hit is one hit of an answer: a ranked note (depth 0) or a note one of
// them links to (depth 1).
type Hit struct {
	Key string `json:"key"`
	// Store is the store the note is of: "." for the one omh runs in,
	// else its name, which also qualifies Key (handbook:topic/x).
	Store       string `json:"store"`
	Layer       string `json:"layer"`
	Date        string `json:"date"`
	DateSource  string `json:"date_source"`
	Depth       int    `json:"depth"`
	Parent      string `json:"parent,omitempty"`
	ParentLayer string `json:"parent_layer,omitempty"`
	Score       int64  `json:"score"`
	// Coverage is a ranked note's share of the question's meaningful
	// weight; absent on linked notes.
	Coverage *float64 `json:"coverage,omitempty"`
	Title    string   `json:"title"`
	Type     string   `json:"type"`
	Path     string   `json:"path"`
	Blob     string   `json:"blob"`
	// MoreLinked counts, on a ranked note, the notes it links to that the
	// answer lists nowhere (past the linked notes listed under it).
	MoreLinked int `json:"more_linked,omitempty"`
	// Explain is why the note is here, when --explain asked.
	Explain *Explanation `json:"explain,omitempty"`
}

// Explanation says why a note is in an answer: a ranked note's score term
// by term, a linked note's origin.
type Explanation struct {
	// Phrasing is the phrasing that gave the largest part of the score: 1
	// the first --also, and so on; absent (0) for the question itself.
	Phrasing int `json:"phrasing,omitempty"`
	// Terms are a ranked note's shares, largest first; absent on a linked
	// note.
	Terms []TermShare `json:"terms,omitempty"`
	// LinkedFrom is, on a linked note, the key of the ranked note above it.
	LinkedFrom string `json:"linked_from,omitempty"`
}

// TermShare is one question term's part of a ranked note's score.
type TermShare struct {
	Term   string   `json:"term"`   // as indexed
	Word   string   `json:"word"`   // as written in the question
	Fields []string `json:"fields"` // where the note holds it: key, title, heading, description, answers, body
	Count  int      `json:"count"`  // occurrences in the body
	DF     int      `json:"df"`     // notes holding it
	Score  int64    `json:"score"`  // thousandths; the shares add up to the note's score
}

// Answer is an answer without cards: the ranked notes and their
// neighbours, and what the ranking says of them.
type Answer struct {
	SchemaVersion int      `json:"schema_version"`
	Commit        *string  `json:"commit"` // null in a repository without commits
	Question      []string `json:"question"`
	Hits          []Hit    `json:"hits"`
	Omitted       int      `json:"omitted"`
	StoreEmpty    bool     `json:"store_empty"`
	FilteredOut   int      `json:"filtered_out,omitempty"` // notes holding a word of the question that the filters left out
	// Verdict is "answered", "weak" (the first notes hold too little of the
	// question's meaningful words, or it names what no note holds) or
	// "none" (no note holds one).
	Verdict string `json:"verdict"`
	// Leads: answered, and the first note stands clearly ahead of the rest.
	Leads bool `json:"leads"`
	// Uncovered are, with a weak verdict, the question's meaningful words
	// none of the first notes holds.
	Uncovered []string `json:"uncovered,omitempty"`
	// Unheld are, with a weak verdict, the question's meaningful words no
	// note holds at all.
	Unheld     []string `json:"unheld,omitempty"`
	AsOf       string   `json:"as_of,omitempty"`      // the day asked for with --as-of
	Incomplete bool     `json:"incomplete,omitempty"` // the moment lies past a shallow clone's boundary
	Note       string   `json:"note,omitempty"`       // why there is no answer at all, in a sentence
	// Filter is the filters asked for; absent without one.
	Filter *Filter `json:"filter,omitempty"`
	// Stores are the other stores the answer read, or could not read;
	// absent when it read only the store omh runs in.
	Stores []Source `json:"stores,omitempty"`
}

// Filter is what narrowed the ranked notes of an answer (--tag, --path,
// --since), and how many notes it let through.
type Filter struct {
	Tags  []string `json:"tags,omitempty"`
	Path  string   `json:"path,omitempty"`
	Since string   `json:"since,omitempty"`
	// Notes counts the notes of the layer and type asked for that every
	// filter lets through: 0 when the answer's note names the one that
	// matched nothing.
	Notes int `json:"notes"`
}

// Source is a store an answer read beside the one omh runs in, or one it
// could not read (then Problem says why, and Code is an error code).
type Source struct {
	Name     string  `json:"name"`
	Path     string  `json:"path"`
	Commit   *string `json:"commit"` // null before its first commit, or when it did not answer
	Personal bool    `json:"personal,omitempty"`
	Problem  string  `json:"problem,omitempty"`
	Code     string  `json:"code,omitempty"`
}

// Ref is one end of a link.
type Ref struct {
	Key   string `json:"key"`
	Store string `json:"store,omitempty"` // another store's name; absent for the one omh runs in
	Layer string `json:"layer"`
	Date  string `json:"date"`
	Verb  string `json:"verb,omitempty"` // a typed link's verb, as written on the linking note
	// Retracted is the day a proof record at this end was retracted.
	Retracted string `json:"retracted,omitempty"`
}

// Passage is a quoted part of a note: the text shown, the byte span of the
// source it was cut from and its lines, relative to the note file.
type Passage struct {
	Text      string `json:"text"`
	Start     int    `json:"start"`
	End       int    `json:"end"`
	LineStart int    `json:"line_start"`
	LineEnd   int    `json:"line_end"`
}

// Blob is the blob a proof record rests on, with its quoted passage.
type Blob struct {
	ID      string  `json:"id"` // git blob id: git cat-file -p ID prints the file
	Key     string  `json:"key"`
	Layer   string  `json:"layer"`
	Via     string  `json:"via,omitempty"` // the citation it was reached through
	Passage Passage `json:"passage"`
}

// CardHit is a hit with what its card shows.
type CardHit struct {
	Hit
	Passages []Passage `json:"passages"`
	Matched  []string  `json:"matched"`
	Missing  []string  `json:"missing"`
	Links    []Ref     `json:"links"`
	In       []Ref     `json:"in"`
	// LinksMore and InMore count the links each list leaves out (omh
	// links KEY pages through them all).
	LinksMore int `json:"links_more,omitempty"`
	InMore    int `json:"in_more,omitempty"`
	// Changed: the note's file changed since the snapshot, so passages is
	// empty.
	Changed bool `json:"changed,omitempty"`
	// Proof records only.
	State          string   `json:"state,omitempty"`
	By             []string `json:"by,omitempty"`
	Retracted      string   `json:"retracted,omitempty"`
	Issue          string   `json:"issue,omitempty"` // "open" or "resolved"
	ResolvedBy     []string `json:"resolved_by,omitempty"`
	BlobQuote      *Blob    `json:"blob_quote,omitempty"`
	CitesRetracted []Ref    `json:"cites_retracted,omitempty"`
}

// Cards is an answer for programs. With cards (Aim set) each hit carries
// what its card shows; without (an answer from no store, or a question
// that did not ask for cards) it is the Answer alone, hits and all.
type Cards struct {
	Answer
	Hits []CardHit `json:"hits"`
	*Aim
}

// Aim is what the size aim of an answer with cards left out, and the aim.
type Aim struct {
	PassagesOmitted int `json:"passages_omitted"`
	// HitsOmitted counts the ranked notes the cards show that the
	// structured content's room left out, from the lowest rank up.
	HitsOmitted int `json:"hits_omitted,omitempty"`
	MaxChars    int `json:"max_chars"`
}

// MarshalJSON writes an answer without cards as its Answer, fields in the
// Answer's order.
func (c Cards) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false) // as the writers do: the encoder calling this escapes nothing again
	var err error
	if c.Aim == nil {
		err = enc.Encode(c.Answer)
	} else {
		type plain Cards // without this method
		err = enc.Encode(plain(c))
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), err
}
