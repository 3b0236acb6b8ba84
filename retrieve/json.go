package retrieve

import "github.com/omh-notes/omh/vault"

// JSONHit is one hit of a JSON reply.
type JSONHit struct {
	Key         string `json:"key"`
	Layer       string `json:"layer"`
	Date        string `json:"date"`
	DateSource  string `json:"date_source"`
	Depth       int    `json:"depth"`
	Parent      string `json:"parent,omitempty"`
	ParentLayer string `json:"parent_layer,omitempty"`
	Score       int64  `json:"score"`
	// Coverage is a ranked note's share of the question's meaningful
	// weight (see Hit.Coverage); absent on linked notes.
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

// JSONReply is the answer for programs.
type JSONReply struct {
	SchemaVersion int       `json:"schema_version"` // the output contract's, which the application layer stamps
	Commit        *string   `json:"commit"`         // null in a repository without commits
	Question      []string  `json:"question"`
	Hits          []JSONHit `json:"hits"`
	Omitted       int       `json:"omitted"`
	StoreEmpty    bool      `json:"store_empty"`
	FilteredOut   int       `json:"filtered_out,omitempty"` // notes holding a word of the question that the filters left out
	// Verdict is "answered", "weak" (the first notes hold too little of the
	// question's meaningful words) or "none" (no note holds one).
	Verdict string `json:"verdict"`
	// Uncovered are the meaningful words a weak verdict found in no note.
	Uncovered  []string `json:"uncovered,omitempty"`
	AsOf       string   `json:"as_of,omitempty"`      // the day asked for with --as-of
	Incomplete bool     `json:"incomplete,omitempty"` // the moment lies past a shallow clone's boundary
	Note       string   `json:"note,omitempty"`       // why there is no answer at all, in a sentence
}

// ToJSON converts r; commit is "" before the first commit.
func ToJSON(r Result, commit string) JSONReply {
	out := JSONReply{Question: r.Question, Hits: []JSONHit{}, Omitted: r.Omitted, StoreEmpty: r.StoreEmpty, FilteredOut: r.FilteredOut,
		Verdict: string(r.Verdict), Uncovered: r.Uncovered, AsOf: string(r.AsOf)}
	if commit != "" {
		out.Commit = &commit
	}
	if out.Question == nil {
		out.Question = []string{}
	}
	for _, h := range r.Hits {
		j := NoteJSON(h.Note)
		j.Depth, j.Score, j.MoreLinked, j.Explain = h.Depth, h.Score, h.MoreLinked, h.Explain
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

// NoteJSON is what a JSON hit says of a note itself, outside any ranking:
// depth 0, no parent, score 0.
func NoteJSON(n vault.Note) JSONHit {
	return JSONHit{Key: n.Key, Layer: n.Layer.String(), Date: string(n.Date), DateSource: n.DateSource.String(),
		Title: n.Title, Type: n.Type, Path: n.Path, Blob: n.Blob.String()}
}
