package find

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// A passage is printed as text, not markdown: an agent reads the words,
// and markup spends its characters ("[[Obsidian Sync/Security and
// privacy#Encryption|end-to-end encrypted]]" says "end-to-end encrypted").
// Links print their labels, emphasis and list and quote markers go, and
// code keeps its backticks, which tell a name from a word.

// plainLines renders the source of a unit, which may span lines: the
// quote markers, callout types and list indentation at the start of each
// line are dropped, then the inline markup, and white space collapses.
func plainLines(src string) string {
	var b strings.Builder
	for i, line := range strings.Split(src, "\n") {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(plainInline(lineBody(line, i == 0)))
	}
	return collapse(b.String())
}

// lineBody drops what starts a line and is not text: quote markers on
// lines after the first (the first starts at the unit's text), then an
// Obsidian callout's type, a task's box and a block id at the end.
func lineBody(line string, first bool) string {
	line = strings.TrimRight(line, " \t\r")
	if !first {
		line = strings.TrimLeft(line, " \t>")
	}
	line = strings.TrimLeft(line, " \t")
	if rest, ok := strings.CutPrefix(line, "[!"); ok {
		if end := strings.IndexByte(rest, ']'); end >= 0 && !strings.ContainsAny(rest[:end], " \t") {
			line = strings.TrimLeft(strings.TrimLeft(rest[end+1:], "+-"), " \t")
		}
	}
	for _, box := range []string{"[ ] ", "[x] ", "[X] "} {
		line = strings.TrimPrefix(line, box)
	}
	if i := strings.LastIndex(line, " ^"); i >= 0 && isBlockID(line[i+2:]) {
		line = line[:i]
	}
	return line
}

// isBlockID reports whether s is a block's id as written after "^".
func isBlockID(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range s {
		if !(c == '-' || c == '_' || unicode.IsLetter(c) || unicode.IsDigit(c)) {
			return false
		}
	}
	return true
}

// plainInline renders one line's inline markdown as text.
func plainInline(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == '\\' && i+1 < len(s) && isASCIIPunct(s[i+1]):
			b.WriteByte(s[i+1])
			i += 2
		case c == '`':
			n := runLength(s, i, '`')
			if end := closingRun(s, i+n, n); end >= 0 {
				b.WriteString(s[i : end+n])
				i = end + n
			} else {
				b.WriteString(s[i : i+n])
				i += n
			}
		case strings.HasPrefix(s[i:], "![["), strings.HasPrefix(s[i:], "[["):
			open := i + strings.Index(s[i:], "[[")
			end := strings.Index(s[open+2:], "]]")
			if end < 0 {
				b.WriteString(s[i : open+2])
				i = open + 2
				break
			}
			// An embedded picture or note is not text of this one.
			if open == i {
				b.WriteString(wikiText(s[open+2 : open+2+end]))
			}
			i = open + 2 + end + 2
		case c == '[' && includeLength(s[i:]) > 0:
			// A documentation site's include ([!include[label](file)]):
			// another file's text is pasted there, not this note's.
			i += includeLength(s[i:])
		case c == '[' || c == '!' && i+1 < len(s) && s[i+1] == '[':
			image := c == '!'
			open := i
			if image {
				open++
			}
			label, next, ok := linkAt(s, open)
			switch {
			case ok && strings.HasPrefix(label, "^"): // a footnote reference
			case ok:
				b.WriteString(plainInline(label))
			default:
				b.WriteString(s[i : open+1])
				next = open + 1
			}
			i = next
		case c == '<':
			if end := strings.IndexByte(s[i:], '>'); end > 0 && isTag(s[i+1:i+end]) {
				inner := s[i+1 : i+end]
				if strings.Contains(inner, "://") || strings.HasPrefix(inner, "mailto:") {
					b.WriteString(inner)
				}
				i += end + 1
				break
			}
			b.WriteByte(c)
			i++
		case c == '*' || c == '_' || c == '~' || c == '=':
			n := runLength(s, i, c)
			if (c == '~' || c == '=') && n < 2 || !isDelimiter(s, i, n, c) {
				b.WriteString(s[i : i+n])
			}
			i += n
		default:
			b.WriteByte(c)
			i++
		}
	}
	return b.String()
}

// includeLength is the length of the DocFX include s starts with,
// "[!include[label](file)]" with the directive in either case, or 0.
func includeLength(s string) int {
	const directive = "[!include"
	if len(s) < len(directive) || !strings.EqualFold(s[:len(directive)], directive) {
		return 0
	}
	rest := strings.TrimLeft(s[len(directive):], " ")
	at := len(s) - len(rest)
	if _, next, ok := linkAt(s, at); ok && next < len(s) && s[next] == ']' {
		return next + 1
	}
	return 0
}

// wikiText is what a wiki link shows: its label, else the note's name and
// the heading it points at. Obsidian writes the label after the pipe,
// Dendron before it; the side that reads as a note's name (no spaces, a
// dot or a slash in it) is the target.
func wikiText(inner string) string {
	ref, label, ok := strings.Cut(inner, "|")
	if ok {
		ref = strings.TrimSuffix(ref, `\`)
		if looksLikeName(label) && !looksLikeName(ref) {
			return plainInline(strings.TrimSpace(ref))
		}
		return plainInline(strings.TrimSpace(label))
	}
	target, fragment, _ := strings.Cut(ref, "#")
	name := target[strings.LastIndexByte(target, '/')+1:]
	name = strings.TrimSuffix(name, ".md")
	switch {
	case name == "":
		return fragment
	case fragment != "" && !strings.HasPrefix(fragment, "^"):
		return name + " › " + fragment
	}
	if i := strings.IndexByte(name, '^'); i > 0 {
		name = name[:i]
	}
	return name
}

func looksLikeName(s string) bool {
	s = strings.TrimSpace(s)
	return s != "" && !strings.ContainsAny(s, " \t") && strings.ContainsAny(s, "./")
}

// linkAt reads "[label](destination)", "[label][ref]" or "[label]" at
// s[open]; it returns the label and where the link ends. A label that does
// not close on the line is no link.
func linkAt(s string, open int) (label string, next int, ok bool) {
	depth := 0
	for j := open; j < len(s); j++ {
		switch s[j] {
		case '\\':
			j++
		case '`':
			n := runLength(s, j, '`')
			if end := closingRun(s, j+n, n); end >= 0 {
				j = end + n - 1
			} else {
				j += n - 1
			}
		case '[':
			depth++
		case ']':
			depth--
			if depth > 0 {
				continue
			}
			label = s[open+1 : j]
			next = j + 1
			switch {
			case next < len(s) && s[next] == '(':
				if end := closingParen(s, next); end >= 0 {
					return label, end + 1, true
				}
				return "", 0, false
			case next < len(s) && s[next] == '[':
				if end := strings.IndexByte(s[next:], ']'); end >= 0 {
					return label, next + end + 1, true
				}
			}
			// A shortcut reference or a bracketed word reads as its text;
			// a footnote reference as nothing.
			return label, next, true
		}
	}
	return "", 0, false
}

// closingParen finds the parenthesis closing the one at s[open], counting
// nested pairs as link destinations may hold them.
func closingParen(s string, open int) int {
	depth := 0
	for j := open; j < len(s); j++ {
		switch s[j] {
		case '\\':
			j++
		case '(':
			depth++
		case ')':
			if depth--; depth == 0 {
				return j
			}
		}
	}
	return -1
}

// isTag reports whether the text between "<" and ">" is an HTML tag or an
// autolink rather than a comparison.
func isTag(inner string) bool {
	if inner == "" || strings.ContainsAny(inner, "<\n") {
		return false
	}
	r, _ := utf8.DecodeRuneInString(strings.TrimPrefix(inner, "/"))
	return r < utf8.RuneSelf && unicode.IsLetter(r) || strings.HasPrefix(inner, "!--")
}

// isDelimiter reports whether the run of n characters c at s[i] marks
// emphasis: it touches text on one side and not white space on both.
// An underscore inside a word ("snake_case") is a letter.
func isDelimiter(s string, i, n int, c byte) bool {
	before, _ := utf8.DecodeLastRuneInString(s[:i])
	after, _ := utf8.DecodeRuneInString(s[i+n:])
	if i == 0 {
		before = ' '
	}
	if i+n == len(s) {
		after = ' '
	}
	spaceBefore, spaceAfter := unicode.IsSpace(before), unicode.IsSpace(after)
	if spaceBefore && spaceAfter {
		return false
	}
	if c == '_' && isWordRune(before) && isWordRune(after) {
		return false
	}
	return true
}

func isWordRune(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }

func isASCIIPunct(c byte) bool {
	return c < utf8.RuneSelf && unicode.IsPunct(rune(c)) || strings.IndexByte("$+<=>^`|~", c) >= 0
}

func runLength(s string, i int, c byte) int {
	n := 0
	for i+n < len(s) && s[i+n] == c {
		n++
	}
	return n
}

// closingRun finds a run of exactly n backticks at or after from.
func closingRun(s string, from, n int) int {
	for j := from; j < len(s); {
		k := strings.IndexByte(s[j:], '`')
		if k < 0 {
			return -1
		}
		j += k
		m := runLength(s, j, '`')
		if m == n {
			return j
		}
		j += m
	}
	return -1
}

// tableCells splits a table row into its cells' plain text: pipes inside
// code or escaped are text.
func tableCells(row string) []string {
	row = strings.TrimSpace(row)
	row = strings.TrimPrefix(row, "|")
	if strings.HasSuffix(row, "|") && !strings.HasSuffix(row, `\|`) {
		row = row[:len(row)-1]
	}
	var cells []string
	start := 0
	for j := 0; j < len(row); j++ {
		switch row[j] {
		case '\\':
			j++
		case '`':
			n := runLength(row, j, '`')
			if end := closingRun(row, j+n, n); end >= 0 {
				j = end + n - 1
			} else {
				j += n - 1
			}
		case '|':
			cells = append(cells, row[start:j])
			start = j + 1
		}
	}
	cells = append(cells, row[start:])
	for i, c := range cells {
		cells[i] = collapse(plainInline(strings.ReplaceAll(c, `\|`, "|")))
	}
	return cells
}

// rowCells are a table row's cells that are not empty, each as "header:
// cell", so each value keeps the name of its column; a card joins them
// with "; ".
func rowCells(header, row string) []string {
	names := tableCells(header)
	var parts []string
	for i, cell := range tableCells(row) {
		if cell == "" {
			continue
		}
		if i < len(names) && names[i] != "" {
			cell = names[i] + ": " + cell
		}
		parts = append(parts, cell)
	}
	return parts
}

// clipCells joins a long row's cells keeping the first, which names the
// row, and those answers wants, with "…" where cells were left out; a row
// within limit runes is joined whole.
func clipCells(cells []string, limit int, wants func(string) bool) string {
	whole := strings.Join(cells, "; ")
	if utf8.RuneCountInString(whole) <= limit || len(cells) < 2 {
		return whole
	}
	var b strings.Builder
	b.WriteString(cells[0])
	skipped := false
	for _, c := range cells[1:] {
		if !wants(c) {
			skipped = true
			continue
		}
		if skipped {
			b.WriteString("; …")
			skipped = false
		}
		b.WriteString("; " + c)
	}
	if skipped {
		b.WriteString("; …")
	}
	return b.String()
}

// collapse puts text on one line: every run of white space becomes one
// space.
func collapse(s string) string {
	return strings.Join(strings.Fields(s), " ")
}
