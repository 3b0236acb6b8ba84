package vault

import "bytes"

// A note git could not merge holds its conflict markers: "<<<<<<< ours",
// "||||||| base" (diff3), "=======", ">>>>>>> theirs". Read as markdown,
// "=======" under a line makes that line a heading and ">>>>>>>" a quote,
// so the note's structure would be the conflict's. Parse reads a complete
// block's marker lines as blank lines instead, so both sides' text is read
// as written, and says where each block starts (rule conflict-markers).
// Marker lines inside fenced code (a note about resolving conflicts) are
// text.

// conflictSpans finds the marker lines of complete conflict blocks:
// each line's [start, end) without its newline, and the 1-based line of
// each block's first marker.
func conflictSpans(content []byte) (spans [][2]int, blockLines []int) {
	if !bytes.Contains(content, []byte("<<<<<<<")) || !bytes.Contains(content, []byte(">>>>>>>")) {
		return nil, nil
	}
	var block [][2]int // the open block's markers so far
	sep := false       // the open block has its "=======" line
	blockLine, line := 0, 0
	fence := []byte(nil) // the open code fence's marks
	for start := 0; start < len(content); {
		end := bytes.IndexByte(content[start:], '\n')
		next := len(content)
		if end < 0 {
			end = len(content)
		} else {
			end += start
			next = end + 1
		}
		line++
		text := bytes.TrimSuffix(content[start:end], []byte("\r"))
		span := [2]int{start, start + len(text)}
		switch {
		case fence != nil:
			if f := fenceOf(text); f != nil && f[0] == fence[0] && len(f) >= len(fence) && len(bytes.TrimSpace(text[indentOf(text)+len(f):])) == 0 {
				fence = nil
			}
		case fenceOf(text) != nil:
			fence = fenceOf(text)
		case isMarker(text, '<'):
			block, sep, blockLine = [][2]int{span}, false, line
		case block == nil:
		case isMarker(text, '|') && len(block) == 1:
			block = append(block, span)
		case !sep && len(bytes.TrimRight(text, " \t")) == 7 && isMarker(text, '='):
			block, sep = append(block, span), true
		case sep && isMarker(text, '>'):
			spans = append(spans, append(block, span)...)
			blockLines = append(blockLines, blockLine)
			block = nil
		}
		start = next
	}
	return spans, blockLines
}

// isMarker reports whether line starts with seven c and then ends or goes
// on after a space or tab, as git writes its markers.
func isMarker(line []byte, c byte) bool {
	if len(line) < 7 || !bytes.Equal(line[:7], bytes.Repeat([]byte{c}, 7)) {
		return false
	}
	return len(line) == 7 || line[7] == ' ' || line[7] == '\t'
}

// fenceOf returns the marks opening a fenced code block on line (three or
// more backticks or tildes, indented at most three spaces); nil if none.
func fenceOf(line []byte) []byte {
	in := indentOf(line)
	if in > 3 || len(line) < in+3 || (line[in] != '`' && line[in] != '~') {
		return nil
	}
	n := in
	for n < len(line) && line[n] == line[in] {
		n++
	}
	if n-in < 3 {
		return nil
	}
	return line[in:n]
}

func indentOf(line []byte) int {
	n := 0
	for n < len(line) && line[n] == ' ' {
		n++
	}
	return n
}

// blankConflicts returns content with each conflict marker line (spans)
// turned into spaces, so offsets and line numbers stay as they were.
func blankConflicts(content []byte, spans [][2]int) []byte {
	out := bytes.Clone(content)
	for _, s := range spans {
		for i := s[0]; i < s[1]; i++ {
			out[i] = ' '
		}
	}
	return out
}
