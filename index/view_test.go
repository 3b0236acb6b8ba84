package index_test

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/omh-notes/omh/find"
	"github.com/omh-notes/omh/index"
	"github.com/omh-notes/omh/retrieve"
	"github.com/omh-notes/omh/vault"
)

// The tests of this package's behaviour use only its exported API, so they
// hold the cache to what it promises whatever its tables look like inside.

// view is a canonical description of what a snapshot answers, one fact per
// line: its commit and counts, every present note with what ranking, cards
// and lint read of it, the notes in name order, the posting lists of the
// terms asked for, the names its links resolve through, and the link graph
// both ways. A note is named by its layer and path, never by its document
// number: numbers are the cache's own business, and a snapshot refreshed
// step by step numbers the same notes differently from a rebuild. Two
// snapshots that answer every question alike have equal views.
type view []string

// describe reads the view of s, checking on the way that the snapshot is
// consistent with itself (counts match the notes present, postings and
// links reach only present notes, ...). It returns an error rather than
// failing the test, so that goroutines can call it.
func describe(s *index.Snapshot, terms []string) (view, error) {
	var v view
	add := func(format string, args ...any) { v = append(v, fmt.Sprintf(format, args...)) }
	add("commit %q", s.Commit())
	add("count %d words %d", s.Count(), s.Words())

	names := map[uint32]string{}
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
		info := s.Info(sn.Doc)
		info.NameRank = 0 // compared as an order below
		blob := n.Blob.String()
		n.Blob = plumbing.ZeroHash // said once, as text
		line, err := json.Marshal(struct {
			Blob              string
			Note              retrieve.Note
			Info              retrieve.DocInfo
			Worktree, Private bool
			Binary, Cut       bool
			Parsed            vault.Parsed
			Meta              vault.Parsed
		}{blob, n, info, sn.Worktree, sn.Private, sn.Binary, sn.Cut, sn.Parsed, meta})
		if err != nil {
			return nil, err
		}
		notes = append(notes, fmt.Sprintf("note %s %s", names[sn.Doc], line))
		keys[n.Key] = true
	}
	slices.Sort(notes)
	v = append(v, notes...)

	byName := slices.Clone(present)
	slices.SortFunc(byName, func(a, b uint32) int { return s.Info(a).NameRank - s.Info(b).NameRank })
	var order []string
	for i, doc := range byName {
		if i > 0 && s.Info(doc).NameRank == s.Info(byName[i-1]).NameRank {
			return nil, fmt.Errorf("notes %s and %s share a name rank", names[doc], names[byName[i-1]])
		}
		order = append(order, names[doc])
	}
	add("name order %s", strings.Join(order, " "))

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
	for _, doc := range present {
		targets, err := s.Links(doc)
		if err != nil {
			return nil, err
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
		out, err := refs(d.Links, name)
		if err != nil {
			return nil, fmt.Errorf("links of %s: %w", names[doc], err)
		}
		in, err := refs(d.In, name)
		if err != nil {
			return nil, fmt.Errorf("links to %s: %w", names[doc], err)
		}
		links = append(links, fmt.Sprintf("links %s body@%d -> %v; detail -> %v; <- %v", names[doc], d.BodyStart, reached, out, in))
	}
	slices.Sort(links)
	return append(v, links...), nil
}

// refs names the ends of links, checking that each is present and described
// as the note it is.
func refs(rs []find.Ref, name func(uint32) (string, error)) ([]string, error) {
	var out []string
	for _, r := range rs {
		n, err := name(r.Doc)
		if err != nil {
			return nil, err
		}
		out = append(out, fmt.Sprintf("%s(%s %s %s %s)", n, r.Key, r.Layer, r.Date, r.Verb))
	}
	return out, nil
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
