package store

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/omh-notes/omh/reply"
	"github.com/omh-notes/omh/vault/vaulttest"
)

// hubRepo is a repository whose note hub links to 23 notes, 17 of which
// link back to it.
func hubRepo(t *testing.T) *vaulttest.Repo {
	t.Helper()
	r := vaulttest.New(t)
	var hub strings.Builder
	hub.WriteString("# Hub\n\n")
	for i := range 23 {
		fmt.Fprintf(&hub, "- [[n%02d]]\n", i)
		body := fmt.Sprintf("---\nrecorded: 2026-01-%02d\n---\n# N%d\n", 1+i, i)
		if i < 17 {
			body += "\nBack to [[hub]].\n"
		}
		r.Write(fmt.Sprintf("n%02d.md", i), body)
	}
	r.Write("hub.md", hub.String())
	r.Commit("2026-02-01T10:00:00Z", "notes")
	return r
}

// Paging through a hub's links, any page size, gives back the whole list
// in its order, each link once, and each page's count of what comes after
// it is what does. Catches: a link lost or repeated at a page's edge, a
// count off by the page, a page past the end that is not empty.
func TestLinksPagesMakeTheWholeList(t *testing.T) {
	t.Parallel()
	s, _ := open(t, hubRepo(t).Dir)
	all, err := s.Links("hub", 0, BothWays, Page{})
	if err != nil {
		t.Fatal(err)
	}
	whole := all.Notes[0]
	if len(*whole.Links) != 23 || len(*whole.In) != 17 || whole.LinksMore != 0 || whole.InMore != 0 {
		t.Fatalf("all links: %d out (+%d), %d in (+%d)", len(*whole.Links), whole.LinksMore, len(*whole.In), whole.InMore)
	}
	for _, limit := range []int{1, 4, 5, 17, 30} {
		var out, in []reply.Ref
		for offset := 0; offset < 40; offset += limit {
			page, err := s.Links("hub", 0, BothWays, Page{Offset: offset, Limit: limit})
			if err != nil {
				t.Fatal(err)
			}
			n := page.Notes[0]
			out, in = append(out, *n.Links...), append(in, *n.In...)
			if n.LinksMore != max(0, 23-offset-limit) || n.InMore != max(0, 17-offset-limit) {
				t.Errorf("limit %d, offset %d: %d more out, %d more in", limit, offset, n.LinksMore, n.InMore)
			}
		}
		if !slices.Equal(out, *whole.Links) || !slices.Equal(in, *whole.In) {
			t.Errorf("limit %d: the pages make %d out, %d in, not the whole lists", limit, len(out), len(in))
		}
	}
	if _, err := NewPage(0, -1); Code(err) != "usage" {
		t.Errorf("limit -1: %v", err)
	}
	if _, err := NewPage(-2, 5); Code(err) != "usage" {
		t.Errorf("offset -2: %v", err)
	}
}

// The text of a page says which links it holds of how many, how many come
// after it and the offset of the next page; the last page says nothing
// more. Catches: "links in (5):" for five of seventeen, a next offset
// that skips or repeats a page.
func TestALinksPageSaysWhatItLeftOutAndWhereTheNextStarts(t *testing.T) {
	t.Parallel()
	s, _ := open(t, hubRepo(t).Dir)
	text := func(p Page) string {
		linked, err := s.Links("hub", 0, LinksIn, p)
		if err != nil {
			t.Fatal(err)
		}
		var b strings.Builder
		linked.Text(&b)
		return b.String()
	}
	first := text(Page{Limit: 5})
	if !strings.Contains(first, "links in (1-5 of 17):\n") || !strings.Contains(first, "  … 12 more links in; --offset 5 for the next\n") {
		t.Errorf("first page:\n%s", first)
	}
	last := text(Page{Offset: 15, Limit: 5})
	if !strings.Contains(last, "links in (16-17 of 17):\n") || strings.Contains(last, "more links in") {
		t.Errorf("last page:\n%s", last)
	}
	if past := text(Page{Offset: 20, Limit: 5}); !strings.Contains(past, "links in (none past the first 20):\n") {
		t.Errorf("past the end:\n%s", past)
	}
	if all := text(Page{}); !strings.Contains(all, "links in (17):\n") || strings.Count(all, "\n  ") != 17 {
		t.Errorf("all of them:\n%s", all)
	}
}

// Show gives a long note's text up to the size aim, cut at a line's end,
// names the lines left out, and those lines asked for next continue it
// without a gap until the note is whole; its links lists stop at
// showRefs, counting the rest. A line longer than the aim alone is cut
// inside itself. Catches: show of a hub sending its 80 kB whole, a page
// that ends mid-line, a next range that skips or repeats a line.
func TestShowCutsALongNoteAtALineEndAndNamesTheRest(t *testing.T) {
	t.Parallel()
	r := hubRepo(t)
	var long strings.Builder
	for i := range 300 {
		fmt.Fprintf(&long, "Line %d of a long note, with a few words é to count as characters.\n", i)
	}
	r.Write("long.md", long.String())
	r.Write("oneline.md", strings.Repeat("é", 3000))
	r.Commit("2026-02-02T10:00:00Z", "long notes")
	s, _ := open(t, r.Dir)
	var pages []string
	lines := Lines{}
	for range 50 {
		shown, err := s.Show("long", 0, lines, 1000)
		if err != nil {
			t.Fatal(err)
		}
		n := shown.Notes[0]
		if utf8.RuneCountInString(n.Content) > 1000 || !strings.HasSuffix(n.Content, "\n") {
			t.Fatalf("lines %v: %d characters, ending %q", lines, utf8.RuneCountInString(n.Content), n.Content[max(0, len(n.Content)-10):])
		}
		if want := strings.Count(n.Content, "\n"); n.Cut && n.LineEnd-n.LineStart+1 != want {
			t.Errorf("lines %v: holds L%d-%d, %d lines", lines, n.LineStart, n.LineEnd, want)
		}
		pages = append(pages, n.Content)
		if n.NextLines == "" {
			break
		}
		if lines, err = ParseLines(n.NextLines); err != nil {
			t.Fatal(err)
		}
	}
	if got := strings.Join(pages, ""); got != long.String() || len(pages) < 20 {
		t.Errorf("%d pages make %d bytes of %d", len(pages), len(got), long.Len())
	}
	shown, err := s.Show("oneline", 0, Lines{}, 1000)
	if n := shown.Notes[0]; err != nil || !n.Cut || n.NextLines != "" || n.Content != strings.Repeat("é", 1000) {
		t.Errorf("one long line: %v, cut %v, next %q, %d characters", err, n.Cut, n.NextLines, utf8.RuneCountInString(n.Content))
	}
	var text bytes.Buffer
	shown.Text(&text)
	if !strings.Contains(text.String(), "… line 1 is cut at 1000 characters (git cat-file -p ") {
		t.Errorf("one long line:\n%s", text.String())
	}
	hub, err := s.Show("hub", 0, Lines{}, DefaultShowChars)
	if n := hub.Notes[0]; err != nil || len(n.Links) != showRefs || n.LinksMore != 23-showRefs || len(n.In) != showRefs || n.InMore != 17-showRefs || n.Cut {
		t.Errorf("hub: %v, %d links (+%d), %d in (+%d), cut %v", err, len(n.Links), n.LinksMore, len(n.In), n.InMore, n.Cut)
	}
}
