package vault

import (
	"bytes"
	"errors"
	"fmt"
	"path"
	"regexp"
	"sort"
	"strings"

	"github.com/yuin/goldmark/util"
)

// Edit replaces src[Start:End] of a file with Text.
type Edit struct {
	Start, End int
	Text       string
}

// LinkEnds is the key of a linking file and the names links resolve
// against, before or after a rename.
type LinkEnds struct {
	From  string
	Names Names
}

// RewriteLink computes the edit that makes link l, read in src, reach the
// key want once a rename is done: before and after are the linking file
// and the names links resolve against, before and after the rename. Only
// the part of the link that names the note changes: labels, headings,
// block references, the embed mark and ".md" stay, and so does the
// writer's style (a short name stays as short as it can while still
// reaching the note alone).
func RewriteLink(src []byte, l Link, before, after LinkEnds, want string) (Edit, error) {
	if l.Kind == MarkdownLink {
		return rewriteMarkdown(src, l, after.From, want)
	}
	// Which part of the link named the note before: its target, or (in
	// Dendron's [[label|target]] order) the part after the pipe.
	part := "target"
	if l.Label != "" {
		alone := l
		alone.Label = ""
		if res, err := Resolve(alone, before.From, before.Names); err == nil && res.Key == "" && len(res.Candidates) == 0 {
			if viaLabel, err := Resolve(Link{Kind: WikiLink, Target: l.Label}, before.From, before.Names); err == nil && viaLabel.Key != "" {
				part = "label"
			}
		}
	}
	from, names := after.From, after.Names
	start, end, err := wikiSpan(src, l, part == "label")
	if err != nil {
		return Edit{}, err
	}
	written := string(src[start:end])
	ext := ""
	if len(written) >= 3 && strings.EqualFold(written[len(written)-3:], NoteExt) {
		ext = written[len(written)-3:]
	}
	name := shortestName(want, strings.Contains(strings.TrimSuffix(written, ext), "/"), from, names)
	return Edit{Start: start, End: end, Text: name + ext}, nil
}

// wikiSpan returns where, inside a wiki link or embed, its target (or with
// label, the part after the pipe) is written, spaces around it excluded
// and a ".md" included.
func wikiSpan(src []byte, l Link, label bool) (int, int, error) {
	open := l.Start
	if l.Kind == EmbedLink {
		open++
	}
	if open+2 > l.End-2 || l.End > len(src) || string(src[open:open+2]) != "[[" || string(src[l.End-2:l.End]) != "]]" {
		return 0, 0, errors.New("its brackets are not where the index says")
	}
	innerStart, inner := open+2, string(src[open+2:l.End-2])
	start, end := innerStart, innerStart+len(inner)
	if pipe := strings.IndexByte(inner, '|'); pipe >= 0 {
		if label {
			start = innerStart + pipe + 1
		} else {
			end = innerStart + pipe
			if end > start && src[end-1] == '\\' { // a pipe escaped inside a table
				end--
			}
		}
	} else if label {
		return 0, 0, errors.New("it has no label")
	}
	if !label {
		if i := bytes.IndexAny(src[start:end], "#^"); i >= 0 {
			end = start + i
		}
	}
	for start < end && isSpaceByte(src[start]) {
		start++
	}
	for end > start && isSpaceByte(src[end-1]) {
		end--
	}
	got := string(src[start:end])
	want := l.Target
	if label {
		want = l.Label
	} else if len(got) >= 3 && strings.EqualFold(got[len(got)-3:], NoteExt) {
		got = got[:len(got)-3]
	}
	if strings.TrimSpace(got) != want {
		return 0, 0, fmt.Errorf("its text %q is not the %q the index read", got, want)
	}
	return start, end, nil
}

func isSpaceByte(c byte) bool { return c == ' ' || c == '\t' }

// shortestName is how to write a wiki link to key from the note from: the
// shortest trailing part of the key that reaches it alone, or the whole key
// when the link was written with a folder (keeping the writer's style).
func shortestName(key string, full bool, from string, names Names) string {
	if full {
		return key
	}
	parts := strings.Split(key, "/")
	for i := len(parts) - 1; i > 0; i-- {
		cand := strings.Join(parts[i:], "/")
		if res, err := Resolve(Link{Kind: WikiLink, Target: cand}, from, names); err == nil && res.Key == key {
			return cand
		}
	}
	return key
}

// rewriteMarkdown points a markdown link at want, written relative to the
// folder of from (or from the notes root when the link starts with "/"),
// keeping its fragment, query, ".md" and angle brackets as written. A
// reference link's definition is rewritten instead.
func rewriteMarkdown(src []byte, l Link, from, want string) (Edit, error) {
	start, end, err := markdownDestSpan(src, l)
	if err != nil {
		return Edit{}, err
	}
	dest := string(src[start:end])
	pathEnd := len(dest)
	if i := strings.IndexAny(dest, "#?"); i >= 0 {
		pathEnd = i
	}
	written := dest[:pathEnd]
	decoded := pathUnescapeLoose(string(util.UnescapePunctuations([]byte(written))))
	ext := ""
	if len(decoded) >= 3 && strings.EqualFold(decoded[len(decoded)-3:], NoteExt) {
		ext = decoded[len(decoded)-3:]
		decoded = decoded[:len(decoded)-3]
	}
	if decoded != l.Target {
		return Edit{}, fmt.Errorf("its destination %q is not the %q the index read", written, l.Target)
	}
	var p string
	switch {
	case strings.HasPrefix(written, "/"):
		p = "/" + want
	default:
		p = relativeKey(path.Dir(from), want)
		if strings.HasPrefix(written, "./") && !strings.HasPrefix(p, "../") {
			p = "./" + p
		}
	}
	return Edit{Start: start, End: start + pathEnd, Text: escapeDestination(p + ext)}, nil
}

// markdownDestSpan finds a markdown link's destination: inside the
// parentheses of an inline link, or on the line that defines a reference
// link's label.
func markdownDestSpan(src []byte, l Link) (int, int, error) {
	if l.Start >= len(src) || src[l.Start] != '[' {
		return 0, 0, errors.New("it does not start where the index says")
	}
	closeAt := matchingBracket(src, l.Start, l.End)
	if closeAt < 0 {
		return 0, 0, errors.New("its text is not closed")
	}
	i := closeAt + 1
	if i < l.End && src[i] == '(' {
		i++
		for i < l.End && (src[i] == ' ' || src[i] == '\t' || src[i] == '\n' || src[i] == '\r') {
			i++
		}
		if i < l.End && src[i] == '<' {
			j := i + 1
			for j < l.End && src[j] != '>' && src[j] != '\n' {
				if src[j] == '\\' {
					j++
				}
				j++
			}
			if j >= l.End || src[j] != '>' {
				return 0, 0, errors.New("its destination is not closed")
			}
			return i + 1, j, nil
		}
		j, depth := i, 0
		for ; j < l.End; j++ {
			c := src[j]
			if c == '\\' && j+1 < l.End {
				j++
				continue
			}
			if c == '(' {
				depth++
			} else if c == ')' {
				if depth == 0 {
					break
				}
				depth--
			} else if c == ' ' || c == '\t' || c == '\n' || c == '\r' {
				break
			}
		}
		return i, j, nil
	}
	// A reference link: [text][label], [label][] or [label].
	label := string(src[l.Start+1 : closeAt])
	if i < l.End && src[i] == '[' {
		if c2 := matchingBracket(src, i, l.End); c2 > i+1 {
			label = string(src[i+1 : c2])
		}
	}
	def := regexp.MustCompile(`(?mi)^[ \t]{0,3}\[` + labelPattern(label) + `\]:[ \t]*(?:\r?\n[ \t]*)?(<[^>\n]*>|\S+)`)
	m := def.FindSubmatchIndex(src)
	if m == nil {
		return 0, 0, errors.New("its reference definition was not found")
	}
	s, e := m[2], m[3]
	if src[s] == '<' {
		s, e = s+1, e-1
	}
	return s, e, nil
}

// labelPattern matches a reference label as markdown compares them:
// letter case and runs of white space do not matter.
func labelPattern(label string) string {
	words := strings.Fields(label)
	for i, w := range words {
		words[i] = regexp.QuoteMeta(w)
	}
	return `[ \t]*` + strings.Join(words, `[ \t\r\n]+`) + `[ \t]*`
}

// matchingBracket returns the "]" closing the "[" at open, before limit,
// skipping escaped brackets and code spans; -1 when there is none.
func matchingBracket(src []byte, open, limit int) int {
	depth := 0
	for i := open; i < limit; i++ {
		switch src[i] {
		case '\\':
			i++
		case '`':
			n := 0
			for i+n < limit && src[i+n] == '`' {
				n++
			}
			closeRun := bytes.Index(src[i+n:limit], bytes.Repeat([]byte{'`'}, n))
			if closeRun >= 0 {
				i += n + closeRun + n - 1
			} else {
				i += n - 1
			}
		case '[':
			depth++
		case ']':
			depth--
			if depth == 0 {
				return i
			}
		}
	}
	return -1
}

// pathUnescapeLoose decodes %XX escapes, leaving malformed ones as they are.
func pathUnescapeLoose(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '%' && i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2]) {
			b.WriteByte(unhex(s[i+1])<<4 | unhex(s[i+2]))
			i += 2
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

func unhex(c byte) byte {
	switch {
	case c >= 'a':
		return c - 'a' + 10
	case c >= 'A':
		return c - 'A' + 10
	}
	return c - '0'
}

// escapeDestination writes a path so a markdown destination reads it back
// whole: white space, brackets, parentheses and the characters that would
// start a fragment, a query or an escape are percent-encoded.
func escapeDestination(p string) string {
	var b strings.Builder
	for i := 0; i < len(p); i++ {
		c := p[i]
		if c <= ' ' || c == 0x7f || strings.IndexByte(`()<>[]#?%\`, c) >= 0 {
			fmt.Fprintf(&b, "%%%02X", c)
			continue
		}
		b.WriteByte(c)
	}
	return b.String()
}

// relativeKey is the path from folder dir (of keys, "." for the root) to
// key.
func relativeKey(dir, key string) string {
	var from []string
	if dir != "." && dir != "" {
		from = strings.Split(dir, "/")
	}
	to := strings.Split(key, "/")
	common := 0
	for common < len(from) && common < len(to)-1 && from[common] == to[common] {
		common++
	}
	parts := make([]string, 0, len(from)-common+len(to)-common)
	for range from[common:] {
		parts = append(parts, "..")
	}
	parts = append(parts, to[common:]...)
	return strings.Join(parts, "/")
}

// ApplyEdits makes non-overlapping edits to src; two links sharing one
// reference definition may ask for the same edit twice.
func ApplyEdits(src []byte, edits []Edit) ([]byte, error) {
	sort.Slice(edits, func(i, j int) bool { return edits[i].Start < edits[j].Start })
	var out bytes.Buffer
	at := 0
	for i, ed := range edits {
		if i > 0 && ed.Start < edits[i-1].End {
			if ed.Start == edits[i-1].Start && ed.End == edits[i-1].End && ed.Text == edits[i-1].Text {
				continue // one reference definition serving two links
			}
			return nil, errors.New("two links to rewrite overlap")
		}
		out.Write(src[at:ed.Start])
		out.WriteString(ed.Text)
		at = ed.End
	}
	out.Write(src[at:])
	return out.Bytes(), nil
}
