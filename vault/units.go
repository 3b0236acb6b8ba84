package vault

import (
	"bytes"
	"encoding/binary"
	"errors"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/yuin/goldmark/ast"
)

// UnitKind says which part of a note's structure a passage unit is.
type UnitKind uint8

const (
	// SentenceUnit is a sentence of a paragraph; a very short one is
	// grouped with the sentence after it.
	SentenceUnit UnitKind = iota + 1
	// ItemUnit is the first sentence of a list item; its Lead is the item
	// it is nested in.
	ItemUnit
	// HeaderUnit is a table's header row: it names the cells of the rows
	// below and is read with them, not on its own.
	HeaderUnit
	// RowUnit is a table row; its Lead is the table's header row.
	RowUnit
	// DefinitionUnit is a line of a paragraph that defines a term,
	// "Term: what it is", or a term line with a ": definition" line below.
	DefinitionUnit
	// CodeUnit is a run of lines of a code block; its Lead is the sentence
	// just before the block, which says what the code is.
	CodeUnit
)

// Unit is a passage unit: a part of a note that can be quoted on its own,
// cut along the note's structure. Cards choose among a note's units and
// merge neighbours, so a quote never starts mid-sentence or runs across a
// heading.
type Unit struct {
	Kind       UnitKind
	Start, End int // byte span in the file, from the unit's first character to just after its last
	Line       int // 1-based line of Start
	EndLine    int // 1-based line of the unit's last byte
	// Heading is the index in Parsed.Headings of the heading the unit is
	// under; -1 before the first heading.
	Heading int
	// Lead is the index of the unit read before this one when it is quoted
	// alone (a nested item's parent item, a row's header row, a code
	// block's preceding sentence); -1 when none.
	Lead int
}

// minSentenceRunes is the shortest sentence that is a unit of its own; a
// shorter one ("Yes.", "See below.") says little without the next.
const minSentenceRunes = 24

// maxCodeLines is how many lines of a code block make one unit: a long
// block is quoted by the lines that match, not whole.
const maxCodeLines = 6

// unitBuilder cuts a note's body into units, walking goldmark's syntax tree
// in document order.
type unitBuilder struct {
	src     []byte // the body
	base    int    // where the body starts in the file
	lines   lineStarts
	heading int // index of the last heading passed
	units   []Unit
}

// buildUnits returns the units of a body parsed into doc; src is the body
// and base its offset in the file whose line starts are lines.
func buildUnits(doc ast.Node, src []byte, base int, lines lineStarts) []Unit {
	// A unit per 83 bytes of body in obsidian-help-en, per 93 in dendron-site.
	b := &unitBuilder{src: src, base: base, lines: lines, heading: -1, units: make([]Unit, 0, len(src)/80)}
	b.blocks(doc, -1)
	return b.units
}

// blocks adds the units of n's children; parentItem is the unit of the
// list item they are nested in, or -1.
func (b *unitBuilder) blocks(n ast.Node, parentItem int) {
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		b.block(c, parentItem)
	}
}

// block adds the units of one block. HTML blocks and thematic breaks are
// not text to quote.
func (b *unitBuilder) block(n ast.Node, parentItem int) {
	switch n := n.(type) {
	case *ast.Heading:
		b.heading++
	case *ast.Paragraph, *ast.TextBlock:
		b.text(n, SentenceUnit, -1)
	case *ast.ListItem:
		b.item(n, parentItem)
	case *ast.FencedCodeBlock, *ast.CodeBlock:
		b.code(n)
	case *ast.Blockquote, *ast.List:
		b.blocks(n, parentItem)
	}
}

// item adds a list item: its first block led by the item it is nested
// in, then the rest of it, whose items are led by this one.
func (b *unitBuilder) item(item *ast.ListItem, parentItem int) {
	first := item.FirstChild()
	lead := parentItem
	if first != nil && isTextBlock(first) {
		if before := len(b.units); b.text(first, ItemUnit, parentItem) > before {
			lead = before
		}
		first = first.NextSibling()
	}
	for c := first; c != nil; c = c.NextSibling() {
		b.block(c, lead)
	}
}

// segment is a line of a block's text, container markers and indentation
// left out, as a span of the body.
type segment struct{ start, stop int }

func segments(n ast.Node) []segment {
	lines := n.Lines()
	out := make([]segment, 0, lines.Len())
	for i := 0; i < lines.Len(); i++ {
		s := lines.At(i)
		out = append(out, segment{s.Start, s.Stop})
	}
	return out
}

// add appends a unit over body[start:end], trimmed of white space; it
// returns the unit's index, or -1 when nothing is left.
func (b *unitBuilder) add(kind UnitKind, start, end, lead int) int {
	for start < end && isWhite(b.src[start]) {
		start++
	}
	for end > start && isWhite(b.src[end-1]) {
		end--
	}
	if start >= end || isBlockAnchor(b.src[start:end]) {
		return -1
	}
	fs, fe := b.base+start, b.base+end
	b.units = append(b.units, Unit{Kind: kind, Start: fs, End: fe, Line: b.lines.line(fs), EndLine: b.lines.line(fe - 1),
		Heading: b.heading, Lead: lead})
	return len(b.units) - 1
}

// isBlockAnchor reports whether text is only a block's id, "^id", which
// names the block for links and says nothing.
func isBlockAnchor(text []byte) bool {
	if len(text) < 2 || text[0] != '^' {
		return false
	}
	for _, c := range text[1:] {
		if !(c == '-' || c == '_' || '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z') {
			return false
		}
	}
	return true
}

func isWhite(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'
}

// text adds a paragraph's units: its table rows, its definition lines and
// its sentences. The first unit gets kind first (an item's first sentence)
// and lead. It returns how many units the note has so far.
func (b *unitBuilder) text(n ast.Node, first UnitKind, lead int) int {
	lines := segments(n)
	kind := first
	next := func() (UnitKind, int) {
		k, l := kind, lead
		kind, lead = SentenceUnit, -1
		return k, l
	}
	// Lines of "Term: what it is" are units of their own only in a
	// paragraph made of them: in wrapped prose such a line is half a
	// sentence ("One thing to remember: you can't include spaces,").
	definitions := len(lines) > 1
	for _, l := range lines {
		line := bytes.TrimSpace(b.src[l.start:l.stop])
		definitions = definitions && (isLabelLine(line) || bytes.HasSuffix(line, []byte(":")) || isBlockAnchor(line) ||
			bytes.HasPrefix(line, []byte("[!"))) // a callout's title
	}
	var prose []segment
	flush := func() {
		if len(prose) > 0 {
			k, l := next()
			b.sentences(prose, k, l)
			prose = nil
		}
	}
	for i := 0; i < len(lines); i++ {
		line := b.src[lines[i].start:lines[i].stop]
		switch {
		case i+1 < len(lines) && bytes.IndexByte(line, '|') >= 0 && isDelimiterRow(b.src[lines[i+1].start:lines[i+1].stop]):
			flush()
			next()
			header := b.add(HeaderUnit, lines[i].start, lines[i].stop, -1)
			i += 2
			for ; i < len(lines) && bytes.IndexByte(b.src[lines[i].start:lines[i].stop], '|') >= 0; i++ {
				b.add(RowUnit, lines[i].start, lines[i].stop, header)
			}
			i--
		case len(lines) > 1 && i+1 < len(lines) && isDefinitionLine(b.src[lines[i+1].start:lines[i+1].stop]) && !endsSentence(line):
			// "Term" then ": what it is".
			flush()
			k, l := next()
			b.add(definitionKind(k), lines[i].start, lines[i+1].stop, l)
			i++
		case definitions && isLabelLine(line):
			flush()
			k, l := next()
			b.add(definitionKind(k), lines[i].start, lines[i].stop, l)
		default:
			prose = append(prose, lines[i])
		}
	}
	flush()
	return len(b.units)
}

// definitionKind keeps an item's kind on its first line.
func definitionKind(k UnitKind) UnitKind {
	if k == ItemUnit {
		return ItemUnit
	}
	return DefinitionUnit
}

// sentences adds the sentences of lines, which read as one run of text.
// A sentence shorter than minSentenceRunes joins the next one.
func (b *unitBuilder) sentences(lines []segment, first UnitKind, lead int) {
	kind := first
	start := -1 // of the sentence being read
	flushAt := func(end int) {
		if start < 0 {
			return
		}
		if i := b.add(kind, start, end, lead); i >= 0 {
			kind, lead = SentenceUnit, -1
		}
		start = -1
	}
	for li, seg := range lines {
		for i := seg.start; i < seg.stop; {
			if start < 0 {
				if r, size := utf8.DecodeRune(b.src[i:seg.stop]); unicode.IsSpace(r) {
					i += size
					continue
				}
				start = i
			}
			// Only the marks that can end a sentence need a look; the
			// rest of the line is skipped over.
			j := nextSentenceMark(b.src[i:seg.stop])
			if j < 0 {
				break
			}
			r, size := utf8.DecodeRune(b.src[i+j : seg.stop])
			i += j + size
			if !isSentenceEnd(r) {
				continue
			}
			end := i
			for end < seg.stop && isCloser(b.src[end]) {
				end++
			}
			if r == '.' && abbreviation(b.src[start:i]) {
				continue
			}
			wide := r == '。' || r == '！' || r == '？'
			if !wide && end < seg.stop && !isWhite(b.src[end]) {
				continue // "os.Rename", "1.5", "sync-*.obsidian.md"
			}
			if !startsSentence(b.src, end, lines[li:], seg.stop) {
				continue
			}
			if utf8.RuneCount(b.src[start:end]) < minSentenceRunes {
				continue
			}
			flushAt(end)
			i = end
		}
	}
	if start >= 0 {
		flushAt(lines[len(lines)-1].stop)
	}
}

// sentenceEnds are the marks that end a sentence, in Latin and CJK text.
const sentenceEnds = ".!?。！？"

func isSentenceEnd(r rune) bool {
	return strings.ContainsRune(sentenceEnds, r)
}

// nextSentenceMark returns the offset of the first byte in s that may
// start a mark of sentenceEnds ("。" and its kind start with 0xE3 or 0xEF),
// or -1: a byte scan, which bytes.IndexAny is not for a set with
// multi-byte characters.
func nextSentenceMark(s []byte) int {
	for k, c := range s {
		switch c {
		case '.', '!', '?', 0xE3, 0xEF:
			return k
		}
	}
	return -1
}

// isCloser reports whether c may follow a sentence's full stop and still
// belong to it: a closing quote, bracket or emphasis mark.
func isCloser(c byte) bool {
	switch c {
	case '"', '\'', ')', ']', '*', '_', '`':
		return true
	}
	return false
}

// startsSentence reports whether the text after end (in the current line,
// else in the next) opens a sentence: anything but a lower-case letter.
func startsSentence(src []byte, end int, rest []segment, stop int) bool {
	i := end
	for {
		for i < stop && isWhite(src[i]) {
			i++
		}
		if i < stop {
			r, _ := utf8.DecodeRune(src[i:stop])
			return !unicode.IsLower(r)
		}
		if len(rest) < 2 {
			return true // the block ends here
		}
		rest = rest[1:]
		i, stop = rest[0].start, rest[0].stop
	}
}

// abbreviation reports whether a full stop ends an abbreviation rather than
// a sentence: initials ("e.g.", "U.S.") or a common short form.
func abbreviation(sentence []byte) bool {
	word := bytes.TrimSuffix(sentence, []byte("."))
	for k := len(word) - 1; k >= 0; k-- {
		if c := word[k]; c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '(' {
			word = word[k+1:]
			break
		}
	}
	initials, letters := true, 0
	for _, r := range string(word) {
		if r == '.' {
			initials = initials && letters == 1
			letters = 0
			continue
		}
		letters++
	}
	if initials && letters == 1 {
		return true
	}
	switch strings.ToLower(string(word)) {
	case "etc", "vs", "cf", "approx", "incl", "no", "fig", "eg", "ie", "ex":
		return true
	}
	return false
}

// endsSentence reports whether a line ends with a sentence's punctuation.
func endsSentence(line []byte) bool {
	line = bytes.TrimRight(line, " \t\r\n")
	if len(line) == 0 {
		return true
	}
	r, _ := utf8.DecodeLastRune(line)
	return isSentenceEnd(r) || r == ':'
}

// maxLabelRunes bounds the term of a definition line.
const maxLabelRunes = 40

// isLabelLine reports whether a line reads "Term: what it is": a short
// label without a sentence's punctuation, a colon, then text.
func isLabelLine(line []byte) bool {
	i := bytes.Index(line, []byte(": "))
	if i <= 0 || utf8.RuneCount(line[:i]) > maxLabelRunes {
		return false
	}
	label := line[:i]
	if bytes.ContainsAny(label, ".!?") || bytes.Contains(label, []byte("://")) {
		return false
	}
	return len(bytes.TrimSpace(line[i+1:])) > 0
}

// isDefinitionLine reports whether a line is the ": definition" half of a
// term and its definition.
func isDefinitionLine(line []byte) bool {
	return bytes.HasPrefix(line, []byte(": ")) || bytes.HasPrefix(line, []byte(":\t"))
}

// isDelimiterRow reports whether a line is a table's delimiter row:
// cells of dashes, each with an optional colon either side.
func isDelimiterRow(line []byte) bool {
	line = bytes.TrimSpace(line)
	if len(line) == 0 || bytes.IndexByte(line, '-') < 0 {
		return false
	}
	line = bytes.TrimPrefix(bytes.TrimSuffix(line, []byte("|")), []byte("|"))
	for _, cell := range bytes.Split(line, []byte("|")) {
		cell = bytes.TrimSpace(cell)
		cell = bytes.TrimSuffix(bytes.TrimPrefix(cell, []byte(":")), []byte(":"))
		if len(cell) == 0 || len(bytes.Trim(cell, "-")) != 0 {
			return false
		}
	}
	return true
}

// code adds a code block's lines in runs of maxCodeLines, each led by the
// text unit just before the block under the same heading: the sentence
// that says what the code is.
func (b *unitBuilder) code(n ast.Node) {
	lead := -1
	if last := len(b.units) - 1; last >= 0 && b.units[last].Kind != CodeUnit && b.units[last].Heading == b.heading {
		lead = last
	}
	lines := segments(n)
	for i := 0; i < len(lines); i += maxCodeLines {
		last := min(i+maxCodeLines, len(lines)) - 1
		b.add(CodeUnit, lines[i].start, lines[last].stop, lead)
	}
}

// AppendUnits appends units in a compact form for storing: each unit's
// kind, then varints of its start after the previous unit's end, its
// length, its first line after the previous unit's last, its line count,
// its heading plus one, and how many units back its lead is (0 for none).
// Units never overlap and come in order, so every number is small.
func AppendUnits(b []byte, units []Unit) []byte {
	prevEnd, prevLine := 0, 0
	for i, u := range units {
		b = append(b, byte(u.Kind))
		b = binary.AppendUvarint(b, uint64(u.Start-prevEnd))
		b = binary.AppendUvarint(b, uint64(u.End-u.Start))
		b = binary.AppendUvarint(b, uint64(u.Line-prevLine))
		b = binary.AppendUvarint(b, uint64(u.EndLine-u.Line))
		b = binary.AppendUvarint(b, uint64(u.Heading+1))
		lead := 0
		if u.Lead >= 0 {
			lead = i - u.Lead
		}
		b = binary.AppendUvarint(b, uint64(lead))
		prevEnd, prevLine = u.End, u.EndLine
	}
	return b
}

// ErrUnitsDamaged says stored units do not decode.
var ErrUnitsDamaged = errors.New("stored passage units are damaged")

// DecodeUnits reads what AppendUnits wrote.
func DecodeUnits(b []byte) ([]Unit, error) {
	var out []Unit
	prevEnd, prevLine := 0, 0
	for len(b) > 0 {
		u := Unit{Kind: UnitKind(b[0])}
		b = b[1:]
		var v [6]uint64
		for k := range v {
			x, n := binary.Uvarint(b)
			if n <= 0 {
				return nil, ErrUnitsDamaged
			}
			v[k], b = x, b[n:]
		}
		u.Start = prevEnd + int(v[0])
		u.End = u.Start + int(v[1])
		u.Line = prevLine + int(v[2])
		u.EndLine = u.Line + int(v[3])
		u.Heading = int(v[4]) - 1
		u.Lead = -1
		if v[5] > 0 {
			if int(v[5]) > len(out) {
				return nil, ErrUnitsDamaged
			}
			u.Lead = len(out) - int(v[5])
		}
		out = append(out, u)
		prevEnd, prevLine = u.End, u.EndLine
	}
	return out, nil
}
