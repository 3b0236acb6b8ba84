package store

import (
	"strings"
	"testing"

	"github.com/omh-notes/omh/vault/vaulttest"
)

// Line ranges are read as written, "L65-67" as a card prints a passage's
// lines too, and everything else is refused with the way to write one.
// Catches: "30-12" or "0-5" accepted, "12-" read as line 12 alone, the
// card's own "L65-67" refused.
func TestParseLinesReadsRangesAndRefusesTheRest(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]Lines{"12-30": {12, 30}, "7": {7, 7}, "3-": {3, 0}, " 1-1 ": {1, 1},
		"L65-67": {65, 67}, "L65-L67": {65, 67}, "l65-67": {65, 67}, "L9": {9, 9}, "L3-": {3, 0}} { // as cards print them
		got, err := ParseLines(in)
		if err != nil || got != want {
			t.Errorf("ParseLines(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for _, in := range []string{"", "0-5", "30-12", "a-b", "-4", "1-2-3", "1.5", "L", "L-5", "LL5", "Ll5", "L+5", "L0-3", "L12-L", "65-67L", "M65"} {
		_, err := ParseLines(in)
		if err == nil || !strings.Contains(err.Error(), "A-B, such as 12-30") {
			t.Errorf("ParseLines(%q): %v, want a refusal that says how to write a range", in, err)
		}
	}
}

// Cutting a note at any line and showing both halves gives back the note
// byte for byte, with or without a final newline. Catches: a line lost or
// repeated at the seam, a last line without a newline left out, a count
// off by one.
func TestLineRangesSplitANoteWithoutLosingAByte(t *testing.T) {
	t.Parallel()
	for _, content := range []string{"one\ntwo\nthree\n", "one\ntwo\nthree", "\n\nx\n", "solo"} {
		whole, _, count, err := Lines{}.cut([]byte(content))
		if err != nil || string(whole) != content {
			t.Fatalf("%q: the whole note is %q, %v", content, whole, err)
		}
		if want := strings.Count(strings.TrimSuffix(content, "\n"), "\n") + 1; count != want {
			t.Errorf("%q: %d lines, want %d", content, count, want)
		}
		for k := 1; k < count; k++ {
			head, got, _, err := Lines{1, k}.cut([]byte(content))
			if err != nil || got != (Lines{1, k}) {
				t.Fatalf("%q 1-%d: %v %v", content, k, got, err)
			}
			tail, got, _, err := Lines{k + 1, 0}.cut([]byte(content))
			if err != nil || got != (Lines{k + 1, count}) {
				t.Fatalf("%q %d-: %v %v", content, k+1, got, err)
			}
			if string(head)+string(tail) != content {
				t.Errorf("%q cut after line %d: %q + %q", content, k, head, tail)
			}
		}
	}
}

// omh show with a range gives those lines, says which it gave and how many
// the note has, clips an end past the last line, and refuses a start past
// it with the note's length. Catches: lines counted from the body rather
// than the file's first line, an end past the note refused.
func TestShowGivesTheLinesAskedFor(t *testing.T) {
	t.Parallel()
	r := vaulttest.New(t)
	r.Write("a.md", "---\nrecorded: 2026-01-02\n---\n# Alpha\n\nfirst\nsecond\n")
	r.Commit("2026-01-03T10:00:00Z", "a")
	s, _ := open(t, r.Dir)
	shown, err := s.Show("a", Scope{}, Lines{4, 6}, DefaultShowChars)
	if err != nil {
		t.Fatal(err)
	}
	n := shown.Notes[0]
	if n.Content != "# Alpha\n\nfirst\n" || n.LineStart != 4 || n.LineEnd != 6 || n.LineCount != 7 {
		t.Errorf("lines 4-6: %q, %d-%d of %d", n.Content, n.LineStart, n.LineEnd, n.LineCount)
	}
	shown, err = s.Show("a", Scope{}, Lines{6, 99}, DefaultShowChars)
	if n := shown.Notes[0]; err != nil || n.Content != "first\nsecond\n" || n.LineEnd != 7 {
		t.Errorf("lines 6-99: %+v, %v", n, err)
	}
	_, err = s.Show("a", Scope{}, Lines{8, 9}, DefaultShowChars)
	if code(err) != "bad_lines" || !strings.Contains(err.Error(), "last line, 7") {
		t.Errorf("lines 8-9: %v", err)
	}
}
