package store

import (
	"bytes"
	"fmt"
	"unicode/utf8"

	"github.com/omh-notes/omh/reply"
)

// Page is part of a long list: the items from Offset (counted from 0), at
// most Limit of them; Limit 0 is all of them.
type Page struct{ Offset, Limit int }

// DefaultLinksLimit is how many links each way omh links lists at a time.
// Every link of vba-docs' api/Excel.Application(object) (309 out, 606 in)
// made an MCP reply of 130 kB; 50 each way made 15.5 kB, near the 16 kB
// a reply should stay under (keys longer than its 40 characters would pass
// it); 30 each way make 9.6 kB.
const DefaultLinksLimit = 30

// DefaultShowChars is how many characters of a note's text omh show gives
// at a time: the MCP reply carries the text twice (as text and as
// structured content), and 5,000 characters of a long note with its header
// and 8 links each way made at most 13.8 kB on five long notes of vba-docs
// (6,000: 16.0 kB).
const DefaultShowChars = 5000

// NewPage checks a page of links as the command line gives it.
func NewPage(offset, limit int) (Page, error) {
	return newPage(offset, limit, "links each way", DefaultLinksLimit)
}

// NewChangesPage checks a page of omh changes as the command line gives it.
func NewChangesPage(offset, limit int) (Page, error) {
	return newPage(offset, limit, "changes", DefaultChangesLimit)
}

// newPage checks a page of a list of what, def long by default.
func newPage(offset, limit int, what string, def int) (Page, error) {
	if limit < 0 {
		return Page{}, invalid(fmt.Errorf("--limit is how many %s a reply lists, 0 for all of them (%d by default), not %d", what, def, limit))
	}
	if offset < 0 {
		return Page{}, invalid(fmt.Errorf("--offset is how many %s to skip, 0 or more, not %d", what, offset))
	}
	return Page{Offset: offset, Limit: limit}, nil
}

// cut returns the page of refs and how many come after it.
func (p Page) cut(refs []reply.Ref) (page []reply.Ref, more int) {
	from := min(p.Offset, len(refs))
	to := len(refs)
	if p.Limit > 0 {
		to = min(to, from+p.Limit)
	}
	return refs[from:to], len(refs) - to
}

// showRefs is how many links out and in omh show lists, as find's JSON
// does; omh links pages through the rest.
const showRefs = 8

// fitChars cuts part, the lines got of a note that has count lines, to at
// most maxChars characters at a line's end; a first line longer than that
// alone is cut inside itself. It returns what is kept, the lines it holds,
// and the lines that are left out ("" when the cut fell in the last line).
func fitChars(part []byte, got Lines, count, maxChars int) (kept []byte, shown Lines, next string) {
	off, runes, n := 0, 0, 0
	for off < len(part) {
		end := len(part)
		if i := bytes.IndexByte(part[off:], '\n'); i >= 0 {
			end = off + i + 1
		}
		r := utf8.RuneCount(part[off:end])
		if runes+r > maxChars {
			break
		}
		off, runes, n = end, runes+r, n+1
	}
	if n == 0 { // the first line alone is too long
		for i := 0; i < maxChars && off < len(part); i++ {
			_, size := utf8.DecodeRune(part[off:])
			off += size
		}
		n = 1
	}
	shown = Lines{Start: got.Start, End: got.Start + n - 1}
	if shown.End < got.End {
		rest := Lines{Start: shown.End + 1, End: got.End}
		if got.End == count {
			rest.End = 0 // to the end
		}
		next = rest.String()
	}
	return part[:off], shown, next
}
