package index_test

import (
	"cmp"
	"encoding/json"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/omh-notes/omh/index"
	"github.com/omh-notes/omh/vault"
	"github.com/omh-notes/omh/vault/corpus"
)

// The tests of this package's behaviour use only its exported API, so they
// hold the cache to what it promises whatever its tables look like inside.

// view is a canonical description of what a snapshot answers, one fact per
// line: its commit and counts, every present note with what ranking, cards
// and lint read of it, the notes each key finds and the names it resolves
// through, the posting lists of the terms asked for, and the link graph
// both ways. A note is named by its layer and path, never by its document
// number: numbers are the cache's own business, and a snapshot refreshed
// step by step numbers the same notes differently from a rebuild. Two
// snapshots that answer every question alike have equal views.
type view []string

// describe reads the view of s, checking on the way that the snapshot is
// consistent with itself: Count and Words are those of the notes present;
// Note, Notes, Meta, Content and Info agree; name ranks order the notes by
// key, layer and path; postings, Find, links and backlinks reach only
// present notes; and each note's inbound count is the number of notes whose
// links reach its key. The checks hold in a rebuild too, so they catch what
// a comparison with one cannot: a defect both ways of building share.
// describe returns an error rather than failing the test, so that
// goroutines can call it.
func describe(s *index.Snapshot, terms []string) (view, error) {
	var v view
	add := func(format string, args ...any) { v = append(v, fmt.Sprintf(format, args...)) }
	add("commit %q", s.Commit())
	add("count %d words %d", s.Count(), s.Words())

	names := map[uint32]string{}
	notesOf := map[uint32]corpus.Note{}
	var present []uint32
	var words int64
	for doc := uint32(0); doc < uint32(s.Span()); doc++ {
		info := s.Info(doc)
		if !info.Present {
			continue
		}
		n, err := s.Note(doc)
		if err != nil {
			return nil, err
		}
		if n.Layer != info.Layer || n.Type != info.Type || n.Date != vault.DateFromNumber(info.Day) {
			return nil, fmt.Errorf("note #%d reads %s %q %s, its info %s %q %d", doc, n.Layer, n.Type, n.Date, info.Layer, info.Type, info.Day)
		}
		names[doc] = n.Layer.String() + ":" + n.Path
		notesOf[doc] = n
		present = append(present, doc)
		words += int64(info.Words)
	}
	if len(present) != s.Count() || words != s.Words() {
		return nil, fmt.Errorf("count %d and words %d, but %d notes present with %d words", s.Count(), s.Words(), len(present), words)
	}
	name := func(doc uint32) (string, error) {
		if n, ok := names[doc]; ok {
			return n, nil
		}
		return "", fmt.Errorf("note #%d is referred to and not present", doc)
	}
	// refs names the ends of links, checking that each is present and
	// described as the note it is.
	refs := func(rs []corpus.Ref) ([]string, error) {
		var out []string
		for _, r := range rs {
			n, err := name(r.Doc)
			if err != nil {
				return nil, err
			}
			if note := notesOf[r.Doc]; r.Key != note.Key || r.Layer != note.Layer || r.Date != note.Date {
				return nil, fmt.Errorf("%s is described as %s %s %s", n, r.Key, r.Layer, r.Date)
			}
			out = append(out, fmt.Sprintf("%s(%s)", n, r.Verb))
		}
		return out, nil
	}

	stored, err := s.Notes()
	if err != nil {
		return nil, err
	}
	if len(stored) != len(present) {
		return nil, fmt.Errorf("Notes lists %d notes, %d are present", len(stored), len(present))
	}
	var notes []string
	keys := map[string]bool{}
	for _, sn := range stored {
		if _, err := name(sn.Doc); err != nil {
			return nil, fmt.Errorf("Notes: %w", err)
		}
		n, err := s.Note(sn.Doc)
		if err != nil {
			return nil, err
		}
		if n != sn.Note {
			return nil, fmt.Errorf("note #%d is %+v to Note and %+v to Notes", sn.Doc, n, sn.Note)
		}
		meta, err := s.Meta(sn.Doc)
		if err != nil {
			return nil, err
		}
		if !reflect.DeepEqual(meta, sn.Parsed) {
			return nil, fmt.Errorf("%s parses as %+v to Meta and %+v to Notes", names[sn.Doc], meta, sn.Parsed)
		}
		content, err := s.Content(sn.Doc, n)
		if err != nil {
			return nil, err
		}
		if id := plumbing.ComputeHash(plumbing.BlobObject, content); id != n.Blob {
			return nil, fmt.Errorf("%s holds blob %s, and its content is blob %s", names[sn.Doc], n.Blob, id)
		}
		info := s.Info(sn.Doc)
		info.NameRank = 0 // compared as an order below
		blob := n.Blob.String()
		n.Blob = plumbing.ZeroHash // said once, as text
		line, err := json.Marshal(struct {
			Blob              string
			Note              corpus.Note
			Info              corpus.DocInfo
			Worktree, Private bool
			Binary, Cut       bool
			Parsed            vault.Parsed
		}{blob, n, info, sn.Worktree, sn.Private, sn.Binary, sn.Cut, sn.Parsed})
		if err != nil {
			return nil, err
		}
		notes = append(notes, fmt.Sprintf("note %s %s", names[sn.Doc], line))
		keys[n.Key] = true
	}
	slices.Sort(notes)
	v = append(v, notes...)

	// Name ranks order the notes by key, layer and path, each its own.
	byRank, byName := slices.Clone(present), slices.Clone(present)
	slices.SortFunc(byRank, func(a, b uint32) int { return s.Info(a).NameRank - s.Info(b).NameRank })
	slices.SortFunc(byName, func(a, b uint32) int {
		x, y := notesOf[a], notesOf[b]
		return cmp.Or(strings.Compare(x.Key, y.Key), cmp.Compare(x.Layer, y.Layer), strings.Compare(x.Path, y.Path))
	})
	for i, doc := range byRank {
		if i > 0 && s.Info(doc).NameRank == s.Info(byRank[i-1]).NameRank {
			return nil, fmt.Errorf("notes %s and %s share a name rank", names[doc], names[byRank[i-1]])
		}
		if doc != byName[i] {
			return nil, fmt.Errorf("name rank %d is %s's, and %s comes there by key, layer and path", i, names[doc], names[byName[i]])
		}
	}

	for _, key := range slices.Sorted(maps.Keys(keys)) {
		docs, err := s.Find(key, 0)
		if err != nil {
			return nil, err
		}
		var found []string
		for _, doc := range docs {
			n, err := name(doc)
			if err != nil {
				return nil, fmt.Errorf("Find %s: %w", key, err)
			}
			found = append(found, n)
		}
		resolved, err := s.Names().Lookup(strings.ToLower(key))
		if err != nil {
			return nil, err
		}
		slices.SortFunc(resolved, func(a, b vault.Name) int { return strings.Compare(fmt.Sprint(a), fmt.Sprint(b)) })
		add("key %s found %v names %v", key, found, resolved)
	}

	for _, term := range terms {
		list, err := s.Postings(term)
		if err != nil {
			return nil, err
		}
		var entries []string
		seen := map[uint32]bool{}
		for _, p := range list {
			n, err := name(p.Doc)
			if err != nil {
				return nil, fmt.Errorf("postings of %q: %w", term, err)
			}
			if seen[p.Doc] {
				return nil, fmt.Errorf("postings of %q hold %s twice", term, n)
			}
			seen[p.Doc] = true
			entries = append(entries, fmt.Sprintf("%s tf=%d fields=%d", n, p.TF, p.Fields))
		}
		slices.Sort(entries)
		add("postings %q %s", term, strings.Join(entries, ", "))
	}

	var links []string
	inbound := map[string]int{} // key → present notes of other keys linking to it
	for _, doc := range present {
		targets, err := s.Links(doc)
		if err != nil {
			return nil, err
		}
		linked := map[string]bool{}
		for _, to := range targets {
			n, err := s.Note(to) // a link may reach a note the snapshot leaves out
			if err != nil {
				return nil, err
			}
			if n.Key != notesOf[doc].Key && !linked[n.Key] {
				linked[n.Key] = true
				inbound[n.Key]++
			}
		}
		// Ranking follows only the links that reach a present note.
		var reached []string
		for _, to := range targets {
			if n, ok := names[to]; ok {
				reached = append(reached, n)
			}
		}
		d, err := s.Detail(doc)
		if err != nil {
			return nil, err
		}
		out, err := refs(d.Links)
		if err != nil {
			return nil, fmt.Errorf("links of %s: %w", names[doc], err)
		}
		in, err := refs(d.In)
		if err != nil {
			return nil, fmt.Errorf("links to %s: %w", names[doc], err)
		}
		links = append(links, fmt.Sprintf("links %s body@%d -> %v; detail -> %v; <- %v", names[doc], d.BodyStart, reached, out, in))
	}
	for _, doc := range present {
		if got, want := s.Info(doc).Inbound, inbound[notesOf[doc].Key]; got != want {
			return nil, fmt.Errorf("%s counts %d notes linking to it, and %d do", names[doc], got, want)
		}
	}
	slices.Sort(links)
	return append(v, links...), nil
}

// mustDescribe is describe for the test's own goroutine.
func mustDescribe(t *testing.T, s *index.Snapshot, terms []string) view {
	t.Helper()
	v, err := describe(s, terms)
	if err != nil {
		t.Fatalf("snapshot at %q: %v", s.Commit(), err)
	}
	return v
}

// diff says how got differs from want, line by line, or "" when equal.
func (got view) diff(want view) string {
	if slices.Equal(got, want) {
		return ""
	}
	var b strings.Builder
	for _, l := range got {
		if !slices.Contains(want, l) {
			fmt.Fprintf(&b, "  + %s\n", l)
		}
	}
	for _, l := range want {
		if !slices.Contains(got, l) {
			fmt.Fprintf(&b, "  - %s\n", l)
		}
	}
	if b.Len() == 0 {
		b.WriteString("  the same lines in another order or number\n")
	}
	return b.String()
}
