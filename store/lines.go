package store

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"

	"github.com/omh-notes/omh/reply"
)

// Lines is a range of a note's lines, counted from 1 at the file's first
// line (frontmatter included), both ends included. The zero value is the
// whole note.
type Lines struct{ Start, End int }

// ParseLines reads a line range as a person or an agent writes it: "A-B",
// "A-" (from A to the end) or "A" (that line alone), each number with or
// without the L a card prints before it ("L65-67" as a passage names its
// lines).
func ParseLines(s string) (Lines, error) {
	bad := func() (Lines, error) {
		return Lines{}, invalid(fmt.Errorf("a line range is written A-B, such as 12-30 or L12-30 as a card prints it (from line 1, both ends included), or A- for line A to the end; got %q", s))
	}
	from, to, ranged := strings.Cut(strings.TrimSpace(s), "-")
	start, err := lineNumber(from)
	if err != nil || start < 1 {
		return bad()
	}
	end := start
	switch {
	case ranged && to == "":
		end = 0 // to the end
	case ranged:
		if end, err = lineNumber(to); err != nil || end < start {
			return bad()
		}
	}
	return Lines{Start: start, End: end}, nil
}

// lineNumber reads a line number, "65" or "L65".
func lineNumber(s string) (int, error) {
	if strings.HasPrefix(s, "L") || strings.HasPrefix(s, "l") {
		s = s[1:]
	}
	if s == "" || s[0] < '0' || s[0] > '9' { // Atoi takes a sign: "L+5", "L-5"
		return 0, strconv.ErrSyntax
	}
	return strconv.Atoi(s)
}

// whole reports whether the range asks for the whole note.
func (l Lines) whole() bool { return l == Lines{} }

// cut returns the lines of content the range holds, the range as it holds
// them (its end no further than the last line) and how many lines content
// has. A last line without a newline is a line; a final newline does not
// start one.
func (l Lines) cut(content []byte) (part []byte, got Lines, count int, err error) {
	count = bytes.Count(content, []byte("\n"))
	if len(content) > 0 && content[len(content)-1] != '\n' {
		count++
	}
	if l.whole() {
		return content, l, count, nil
	}
	if l.Start > count {
		return nil, l, count, refuse(reply.BadLines, fmt.Errorf("lines %s start past the note's last line, %d", l, count))
	}
	got = Lines{Start: l.Start, End: count}
	if l.End != 0 && l.End < count {
		got.End = l.End
	}
	begin := lineOffset(content, got.Start)
	return content[begin:lineOffset(content, got.End+1)], got, count, nil
}

// lineOffset is the byte offset where line n (from 1) starts; past the
// last line, the end of content.
func lineOffset(content []byte, n int) int {
	off := 0
	for line := 1; line < n; line++ {
		i := bytes.IndexByte(content[off:], '\n')
		if i < 0 {
			return len(content)
		}
		off += i + 1
	}
	return off
}

func (l Lines) String() string {
	if l.End == 0 {
		return strconv.Itoa(l.Start) + "-"
	}
	return strconv.Itoa(l.Start) + "-" + strconv.Itoa(l.End)
}
