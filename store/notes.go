package store

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"

	"github.com/omh-notes/omh/find"
	"github.com/omh-notes/omh/proof"
	"github.com/omh-notes/omh/reply"
	"github.com/omh-notes/omh/vault"
	"github.com/omh-notes/omh/vault/corpus"
)

// ShownNote is a note as omh show gives it: the fields of a find hit,
// where the note lives, its links both ways and its content.
type ShownNote struct {
	reply.Hit
	Where  string      `json:"where"`  // head, worktree (an uncommitted copy) or private
	Source string      `json:"source"` // frontmatter source: who or what wrote it
	Links  []reply.Ref `json:"links"`
	In     []reply.Ref `json:"in"`
	// LinksMore and InMore count the links each list leaves out (omh show
	// lists showRefs each way; omh links pages through them all).
	LinksMore int    `json:"links_more,omitempty"`
	InMore    int    `json:"in_more,omitempty"`
	Content   string `json:"content"`
	// LineCount is how many lines the note has; LineStart and LineEnd the
	// lines Content holds when a range was asked for or the size aim cut
	// it.
	LineCount int `json:"line_count"`
	LineStart int `json:"line_start,omitempty"`
	LineEnd   int `json:"line_end,omitempty"`
	// Cut: Content holds less than the lines asked for, to keep within the
	// size aim; NextLines are the lines left out, as --lines takes them
	// ("" when the cut fell inside the last line asked for).
	Cut       bool   `json:"cut,omitempty"`
	NextLines string `json:"next_lines,omitempty"`
	ranged    bool   // a range was asked for
}

// Shown is omh show's reply: every note holding the key (a key may be in
// both layers). Its JSON fields are in the order replies have always had.
type Shown struct {
	Commit        *string     `json:"commit"` // null before the first commit
	Notes         []ShownNote `json:"notes"`
	SchemaVersion int         `json:"schema_version"`
	MaxChars      int         `json:"max_chars"` // the most characters of a note's text shown
}

// LinkedNote is a note with the notes it links to and the notes linking
// to it, each end with its own layer and date. A list not asked for is
// nil.
type LinkedNote struct {
	Key   string       `json:"key"`
	Layer string       `json:"layer"`
	Date  string       `json:"date"`
	Path  string       `json:"path"`
	Links *[]reply.Ref `json:"links,omitempty"`
	In    *[]reply.Ref `json:"in,omitempty"`
	// LinksMore and InMore count the links after the page each list holds.
	LinksMore int `json:"links_more,omitempty"`
	InMore    int `json:"in_more,omitempty"`
}

// Linked is omh links' reply: a page of each list, Offset and Limit as
// asked (Limit 0: all).
type Linked struct {
	Commit        *string      `json:"commit"`
	Notes         []LinkedNote `json:"notes"`
	SchemaVersion int          `json:"schema_version"`
	Offset        int          `json:"offset"`
	Limit         int          `json:"limit"`
}

// Direction chooses which links a Links call lists.
type Direction int

const (
	BothWays Direction = iota
	LinksOut
	LinksIn
)

// ShownRecord is a proof record as omh proof show gives it: what omh show
// gives, with where the record stands and the records that decided it.
type ShownRecord struct {
	ShownNote
	State           string      `json:"state"`
	By              []reply.Ref `json:"by"` // the records that overturned it, with their verbs
	Retracted       string      `json:"retracted,omitempty"`
	RetractedReason string      `json:"retracted_reason,omitempty"`
	Issue           string      `json:"issue,omitempty"` // issues: "open" or "resolved"
	ResolvedBy      []reply.Ref `json:"resolved_by,omitempty"`
}

// Records is omh proof show's reply. When there was no store at the
// moment asked for, Absent is the answer that says so instead.
type Records struct {
	AsOf          string        `json:"as_of,omitempty"` // the day asked for with --as-of
	Commit        *string       `json:"commit"`
	Records       []ShownRecord `json:"records"`
	SchemaVersion int           `json:"schema_version"`
	Absent        *Answer       `json:"-"`
}

// orNull is a string as replies give it: null when "" (a commit before
// the first, a hook's field that does not apply).
func orNull(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// CommitID is the commit a reply was read at; "" before the first.
func CommitID(commit *string) string {
	if commit == nil {
		return ""
	}
	return *commit
}

// Show gives every note holding key (of one layer, when layer is not 0),
// with its content: all of it, or the lines asked for, up to maxChars
// characters cut at a line's end (NextLines says what is left), and the
// first showRefs links each way.
func (s *Store) Show(key string, layer vault.Layer, lines Lines, maxChars int) (Shown, error) {
	if maxChars <= 0 {
		return Shown{}, invalid(fmt.Errorf("--max-chars is how many characters of the note's text to show, 1 or more (%d by default), not %d", DefaultShowChars, maxChars))
	}
	var out Shown
	err := s.withKey(key, layer, "", func(v *view, docs []uint32) error {
		out = Shown{Commit: orNull(v.snap.Commit()), SchemaVersion: reply.SchemaVersion, MaxChars: maxChars}
		for _, d := range docs {
			sn, err := s.showNote(v, d, lines, maxChars)
			if err != nil {
				return err
			}
			first := Page{Limit: showRefs}
			sn.Links, sn.LinksMore = first.cut(sn.Links)
			sn.In, sn.InMore = first.cut(sn.In)
			out.Notes = append(out.Notes, sn)
		}
		return nil
	})
	return out, err
}

// Links gives every note holding key with a page of its links out, in, or
// both: the page of each list, and how many come after it.
func (s *Store) Links(key string, layer vault.Layer, dir Direction, page Page) (Linked, error) {
	var out Linked
	err := s.withKey(key, layer, "", func(v *view, docs []uint32) error {
		out = Linked{Commit: orNull(v.snap.Commit()), SchemaVersion: reply.SchemaVersion, Offset: page.Offset, Limit: page.Limit}
		for _, d := range docs {
			n, err := v.snap.Note(d)
			if err != nil {
				return err
			}
			detail, err := v.snap.Detail(d)
			if err != nil {
				return err
			}
			ln := LinkedNote{Key: n.Key, Layer: n.Layer.String(), Date: string(n.Date), Path: n.Path}
			if dir != LinksIn {
				var links []reply.Ref
				links, ln.LinksMore = page.cut(find.RefsJSON(detail.Links))
				ln.Links = &links
			}
			if dir != LinksOut {
				var in []reply.Ref
				in, ln.InMore = page.cut(find.RefsJSON(find.OrderIn(detail.In)))
				ln.In = &in
			}
			out.Notes = append(out.Notes, ln)
		}
		return nil
	})
	return out, err
}

// ProofShow gives every record holding key as it stands now, or at asOf:
// its state and the records that decided it, and what Show gives.
func (s *Store) ProofShow(key string, layer vault.Layer, asOf string) (Records, error) {
	var out Records
	err := s.withKey(key, layer, asOf, func(v *view, docs []uint32) error {
		proofs := proof.NewProof(v.snap, v.proofDay(), proof.IncludeRetracted)
		out = Records{AsOf: string(v.asOf()), Commit: orNull(v.snap.Commit()), SchemaVersion: reply.SchemaVersion}
		for _, d := range docs {
			if !proofs.IsRecord(d) {
				n, err := v.snap.Note(d)
				if err != nil {
					return err
				}
				return notARecord(n)
			}
			r, err := s.showRecord(v, d, proofs)
			if err != nil {
				return err
			}
			out.Records = append(out.Records, r)
		}
		return nil
	})
	if absent, ok := absentAnswer(err, []string{key}, asOf); ok {
		return Records{Absent: &absent}, nil
	}
	return out, err
}

func notARecord(n corpus.Note) error {
	return refuse(reply.NotARecord, fmt.Errorf("%s is a note of type %s, not a proof record (%s)", n.Key, n.Type, vault.OrList(vault.TypeNames(true))))
}

// withKey runs fn on the documents holding a key (of one layer, when layer
// is not 0) in the store as it stands now, or at asOf; an unknown key is
// refused, naming the note the key would reach as a link. Keys are in NFC,
// so a key typed decomposed (as macOS hands file names over) is read
// composed.
func (s *Store) withKey(key string, layer vault.Layer, asOf string, fn func(v *view, docs []uint32) error) error {
	key = norm.NFC.String(key)
	if err := vault.CheckKey(key); err != nil {
		return refuse(reply.BadKey, err)
	}
	return s.read(asOf, s.readOptions(false), func(v *view) error {
		docs, err := v.snap.Find(key, layer)
		if err != nil {
			return err
		}
		if len(docs) == 0 {
			return v.unknownKey(key, layer)
		}
		return fn(v, docs)
	})
}

// unknownKey refuses an unknown key, naming the note a link written that
// way would reach when there is one.
func (v *view) unknownKey(key string, layer vault.Layer) error {
	err := fmt.Errorf("no note has the key %q", key)
	if layer != 0 {
		err = fmt.Errorf("no %s note has the key %q", layer, key)
	}
	if layer != vault.Local {
		if p, err := v.snap.Gone(key); err != nil || p != "" {
			if err == nil {
				err = refuse(reply.NotFound, fmt.Errorf("%s is deleted in the working tree, not committed: git show HEAD:%s prints it as committed, git restore %s brings it back", key, p, p))
			}
			return err
		}
	}
	res, rerr := vault.Resolve(vault.Link{Kind: vault.WikiLink, Target: key}, "", v.snap.Names())
	switch asKey := v.keyOfPath(key, layer); {
	case asKey != "":
		err = fmt.Errorf("%w; a key is a path under the notes root without .md: %s", err, asKey)
	case rerr != nil:
	case res.Key != "" && res.Key != key:
		err = fmt.Errorf("%w; did you mean %s?", err, res.Key)
	case len(res.Candidates) > 1:
		err = fmt.Errorf("%w; it could be any of %s", err, strings.Join(res.Candidates, ", "))
	}
	return refuse(reply.NotFound, err)
}

// keyOfPath reads a key written as a file's path (with .md, or from the
// repository root) and returns the key it names when a note has it.
func (v *view) keyOfPath(written string, layer vault.Layer) string {
	key, ok := strings.CutSuffix(written, ".md")
	if root := v.snap.NotesDir(); root != "" {
		if k, under := strings.CutPrefix(key, root+"/"); under {
			key, ok = k, true
		}
	}
	if !ok || vault.CheckKey(key) != nil {
		return ""
	}
	if docs, err := v.snap.Find(key, layer); err != nil || len(docs) == 0 {
		return ""
	}
	return key
}

// showNote gathers what omh show gives of one document, with the lines of
// its content asked for, up to maxChars characters (0: all of them).
func (s *Store) showNote(v *view, d uint32, lines Lines, maxChars int) (ShownNote, error) {
	n, err := v.snap.Note(d)
	if err != nil {
		return ShownNote{}, err
	}
	meta, err := v.snap.Meta(d)
	if err != nil {
		return ShownNote{}, err
	}
	detail, err := v.snap.Detail(d)
	if err != nil {
		return ShownNote{}, err
	}
	// All of it, up to maxShown: show is how a person or an agent reads
	// past what was indexed of a long note.
	content, err := s.Repo.ReadNote(n.Layer, n.Path, n.Blob, maxShown+1)
	if err != nil {
		return ShownNote{}, err
	}
	if len(content) > maxShown {
		content = content[:maxShown]
		s.warn("%s is larger than %d MiB; its first %d MiB are shown (git cat-file -p %s prints it all)", n.Path, maxShown>>20, maxShown>>20, n.Blob)
	}
	part, got, count, err := lines.cut(content)
	if err != nil {
		return ShownNote{}, fmt.Errorf("%s (%s): %w", n.Key, n.Layer, err)
	}
	sn := ShownNote{Hit: find.NoteJSON(n), Where: where(n), Source: meta.Source,
		Links: find.RefsJSON(detail.Links), In: find.RefsJSON(find.OrderIn(detail.In)),
		LineCount: count, LineStart: got.Start, LineEnd: got.End, ranged: !lines.whole()}
	if maxChars > 0 && utf8.RuneCount(part) > maxChars {
		if !sn.ranged {
			got = Lines{Start: 1, End: count}
		}
		part, got, sn.NextLines = fitChars(part, got, count, maxChars)
		sn.Cut, sn.LineStart, sn.LineEnd = true, got.Start, got.End
	}
	sn.Content = string(part)
	return sn, nil
}

// maxShown bounds what show prints of one note: a 500 MB note shown in
// full took 3.8 GB to print as JSON, its first 64 MiB 440 MB.
const maxShown = 16 << 20

// where says where a note was read from: HEAD's tree, an uncommitted
// working copy, or the private folder.
func where(n corpus.Note) string {
	switch {
	case n.Layer == vault.Team:
		return "head"
	case filepath.IsAbs(n.Path):
		return "private"
	}
	return "worktree"
}

// showRecord gathers what omh proof show gives of one record.
func (s *Store) showRecord(v *view, d uint32, proofs *proof.Proof) (ShownRecord, error) {
	standing, _, err := proofs.Standing(d)
	if err != nil {
		return ShownRecord{}, err
	}
	retracted := proofs.Retracted(d)
	sn, err := s.showNote(v, d, Lines{}, 0)
	if err != nil {
		return ShownRecord{}, err
	}
	meta, err := v.snap.Meta(d)
	if err != nil {
		return ShownRecord{}, err
	}
	detail, err := v.snap.Detail(d)
	if err != nil {
		return ShownRecord{}, err
	}
	// Link ends carry their own retraction dates.
	sn.Links, sn.In = find.RefsJSON(proofs.Mark(detail.Links)), find.RefsJSON(proofs.Mark(find.OrderIn(detail.In)))
	r := ShownRecord{ShownNote: sn, State: string(standing.State), By: []reply.Ref{}, Retracted: string(retracted)}
	if retracted != "" {
		r.RetractedReason = meta.RetractedReason
	}
	// The deciding records, with the verbs they decided by, from the links
	// in: the lifecycle names them, the links carry layer and date.
	deciders := func(keys []string, verbs ...string) []reply.Ref {
		out := []reply.Ref{}
		for _, ref := range find.OrderIn(detail.In) {
			if slices.Contains(keys, ref.Key) && slices.Contains(verbs, ref.Verb) {
				out = append(out, find.RefsJSON([]corpus.Ref{ref})...)
			}
		}
		return out
	}
	var overturning []string
	for _, vb := range vault.Verbs {
		if vb.Overturns != "" {
			overturning = append(overturning, vb.Name)
		}
	}
	r.By = deciders(standing.By, overturning...)
	switch {
	case len(standing.ResolvedBy) > 0:
		r.Issue, r.ResolvedBy = "resolved", deciders(standing.ResolvedBy, "resolves")
	case standing.Open:
		r.Issue = "open"
	}
	return r, nil
}
