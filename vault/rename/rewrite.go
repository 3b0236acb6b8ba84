package rename

import (
	"bytes"
	"errors"
	"fmt"
	"path"
	"regexp"
	"slices"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/yuin/goldmark/util"

	"github.com/omh-notes/omh/vault"
)

// Edit replaces src[Start:End] of a file with Text.
type Edit struct {
	Start, End int
	Text       string
}

// LinkEnds is the key of a linking file and the names links resolve
// against, once a rename is done.
type LinkEnds struct {
	From  string
	Names vault.Names
}

// RewriteLink computes the edit that makes link l, read in src, reach the
// key want once a rename is done, where it reached was before; after is the
// linking file and the names links resolve against after the rename. Only
// the part of the link that names the note changes: labels, headings,
// block references, the embed mark, a dendron://vault/ prefix, ".md", a
// markdown link's title and the percent-encoding of what stays are kept.
// The smallest change comes first: the part of the key that changed,
// replaced where the link writes it, so a short name stays short, its
// letter case stays, and a rename and its reverse give back the same
// bytes. When that does not reach want alone, the link is written the way
// the dialect would write it anew (the shortest unique name, or a path from
// the linking note's folder).
func RewriteLink(d vault.Dialect, src []byte, l vault.Link, was string, after LinkEnds, want string) (Edit, error) {
	r, ok := d.Read(l)
	if !ok {
		return Edit{}, errors.New("it is no link to a note in this vault's dialect")
	}
	sp, err := spanOf(d, src, l, r)
	if err != nil {
		return Edit{}, err
	}
	var tried []string
	for _, name := range rewriteCandidates(d, r, was, after, want) {
		if slices.Contains(tried, name) {
			continue
		}
		tried = append(tried, name)
		moved := r
		moved.Name = name
		res, err := d.ResolveReading(moved, after.From, after.Names)
		if err != nil {
			return Edit{}, err
		}
		if res.Key != want {
			continue
		}
		text, err := sp.text(src, name)
		if err != nil {
			continue
		}
		return Edit{Start: sp.start, End: sp.end, Text: text}, nil
	}
	return Edit{}, fmt.Errorf("no way of writing it reaches %s alone", want)
}

// rewriteCandidates lists names for a link to want, best first.
func rewriteCandidates(d vault.Dialect, r vault.Reading, was string, after LinkEnds, want string) []string {
	var out []string
	// A wiki link keeps as many folders as it was written with: a short
	// name stays one name.
	if name, ok := substitute(r.Name, was, want); ok && (r.Kind == vault.MarkdownLink || strings.Count(name, "/") == strings.Count(r.Name, "/")) {
		out = append(out, name)
	}
	dir := path.Dir(after.From)
	switch {
	case r.Kind == vault.MarkdownLink:
		switch {
		case d.String() == vault.DialectMarkdown && strings.HasPrefix(r.Name, "~/"):
			out = append(out, "~/"+want)
		case strings.HasPrefix(r.Name, "/") && d.Site != "":
			out = append(out, "/"+strings.Trim(d.Site, "/")+"/"+want)
		case strings.HasPrefix(r.Name, "/"):
			out = append(out, "/"+want)
		default:
			p := relativeKey(dir, want)
			if strings.HasPrefix(r.Name, "./") && !strings.HasPrefix(p, "../") {
				p = "./" + p
			}
			out = append(out, p)
			if d.String() == vault.DialectObsidian {
				out = append(out, shortestName(d, want, strings.Contains(r.Name, "/"), after.From, after.Names))
			}
		}
	case r.HasVault && len(d.Vaults) > 0:
		if folder := d.Vaults[r.Vault]; folder == "." || folder == "" {
			out = append(out, want)
		} else if rest, ok := strings.CutPrefix(want, folder+"/"); ok {
			out = append(out, rest)
		}
	case d.String() == vault.DialectObsidian && vault.IsExplicitRelative(r.Name):
		p := relativeKey(dir, want)
		if !strings.HasPrefix(p, "../") {
			p = "./" + p
		}
		out = append(out, p)
	default:
		out = append(out, shortestName(d, want, strings.Contains(r.Name, "/"), after.From, after.Names), want)
	}
	return out
}

// substitute makes in a written name the change that turns the key was
// into want: the part between what the two keys share at their start and
// at their end is replaced, provided the name writes that part and all
// that follows it (in any letter case).
func substitute(name, was, want string) (string, bool) {
	p, s := commonEnds(was, want)
	tail := was[p:]
	if len(name) < len(tail) || !strings.EqualFold(name[len(name)-len(tail):], tail) {
		return "", false
	}
	return name[:len(name)-len(tail)] + want[p:len(want)-s] + name[len(name)-s:], true
}

// commonEnds returns how many bytes a and b share at their start, and then
// how many of the rest they share at their end, both on rune boundaries.
func commonEnds(a, b string) (prefix, suffix int) {
	for prefix < len(a) && prefix < len(b) && a[prefix] == b[prefix] {
		prefix++
	}
	for prefix > 0 && prefix < len(a) && !utf8.RuneStart(a[prefix]) {
		prefix--
	}
	for suffix < len(a)-prefix && suffix < len(b)-prefix && a[len(a)-1-suffix] == b[len(b)-1-suffix] {
		suffix++
	}
	for suffix > 0 && !utf8.RuneStart(a[len(a)-suffix]) {
		suffix--
	}
	return prefix, suffix
}

// nameSpan is where a link writes the name of its note.
type nameSpan struct {
	start, end int    // in the file; ".md" is left outside
	written    string // the name as the dialect reads it
	prefix     string // the part of written that is not in the file ("tags." of a Dendron hashtag)
	offs       []int  // offs[i]: where in src[start:end] byte i of written (after prefix) comes from; one more for the end
	escape     func(string) (string, error)
}

// text writes name in the span's syntax, keeping the bytes of what it
// shares with the written name at both ends as they are.
func (sp nameSpan) text(src []byte, name string) (string, error) {
	rest, ok := strings.CutPrefix(name, sp.prefix)
	if !ok {
		return "", fmt.Errorf("%q cannot be written as a link of this kind", name)
	}
	w := strings.TrimPrefix(sp.written, sp.prefix)
	p, s := commonEnds(w, rest)
	mid, err := sp.escape(rest[p : len(rest)-s])
	if err != nil {
		return "", err
	}
	raw := string(src[sp.start:sp.end])
	return raw[:sp.offs[p]] + mid + raw[sp.offs[len(w)-s]:], nil
}

// spanOf finds where l, read as r, writes its note's name.
func spanOf(d vault.Dialect, src []byte, l vault.Link, r vault.Reading) (nameSpan, error) {
	var sp nameSpan
	switch l.Kind {
	case vault.MarkdownLink, vault.WikiReference:
		start, end, err := markdownDestSpan(src, l)
		if err != nil {
			return sp, err
		}
		if i := bytes.IndexAny(src[start:end], "#?"); i >= 0 {
			end = start + i
		}
		decoded, offs := decodeDestination(src[start:end])
		if len(decoded) >= 3 && strings.EqualFold(decoded[len(decoded)-3:], vault.NoteExt) {
			decoded = decoded[:len(decoded)-3]
			end = start + offs[len(decoded)]
			offs = offs[:len(decoded)+1]
		}
		sp = nameSpan{start: start, end: end, written: decoded, offs: offs, escape: func(s string) (string, error) { return escapeDestination(s), nil }}
	case vault.TagLink:
		if l.Start >= len(src) || l.End > len(src) {
			return sp, errors.New("it does not start where the index says")
		}
		start := l.Start
		if src[start] == '#' {
			start++ // a frontmatter tag is written without it
		}
		sp = nameSpan{start: start, end: l.End, written: string(src[start:l.End]), escape: tagText}
		if d.String() == vault.DialectDendron {
			sp.prefix = "tags."
			sp.written = sp.prefix + sp.written
		}
	default:
		start, end, err := wikiSpan(src, l, d.String() == vault.DialectDendron && l.Label != "")
		if err != nil {
			return sp, err
		}
		if r.HasVault {
			// dendron://vault/note: the note starts after the vault's name.
			const scheme = len("dendron://")
			slash := bytes.IndexByte(src[start+scheme:end], '/')
			if slash < 0 {
				return sp, errors.New("it names no note after its vault")
			}
			start += scheme + slash + 1
			for start < end && isSpaceByte(src[start]) {
				start++
			}
		}
		written := string(src[start:end])
		if len(written) >= 3 && strings.EqualFold(written[len(written)-3:], vault.NoteExt) {
			end -= 3
			written = written[:len(written)-3]
		}
		sp = nameSpan{start: start, end: end, written: written, escape: wikiText}
	}
	if sp.offs == nil {
		for i := 0; i <= len(sp.written)-len(sp.prefix); i++ {
			sp.offs = append(sp.offs, i)
		}
	}
	if strings.TrimSpace(sp.written) != r.Name {
		return sp, fmt.Errorf("its text %q is not the %q the index read", sp.written, r.Name)
	}
	return sp, nil
}

// wikiSpan returns where, inside a wiki link or embed, the part before
// the pipe (or with label, the part after it) names a note: spaces around
// it, a heading and a block reference left out.
func wikiSpan(src []byte, l vault.Link, label bool) (int, int, error) {
	open := l.Start
	if l.Kind == vault.EmbedLink {
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
	if i := bytes.IndexAny(src[start:end], "#^"); i >= 0 {
		end = start + i
	}
	for start < end && isSpaceByte(src[start]) {
		start++
	}
	for end > start && isSpaceByte(src[end-1]) {
		end--
	}
	return start, end, nil
}

func isSpaceByte(c byte) bool { return c == ' ' || c == '\t' }

// shortestName is how to write a wiki link to key from the note from: the
// shortest trailing part of the key that reaches it alone, or the whole key
// when the link was written with a folder (keeping the writer's style).
func shortestName(d vault.Dialect, key string, full bool, from string, names vault.Names) string {
	if full {
		return key
	}
	parts := strings.Split(key, "/")
	for i := len(parts) - 1; i > 0; i-- {
		cand := strings.Join(parts[i:], "/")
		if res, err := d.Resolve(vault.Link{Kind: vault.WikiLink, Target: cand}, from, names); err == nil && res.Key == key {
			return cand
		}
	}
	return key
}

// wikiText checks that a name can stand inside [[ ]].
func wikiText(s string) (string, error) {
	if strings.ContainsAny(s, "|#^\n") || strings.Contains(s, "]]") || strings.Contains(s, "[[") {
		return "", fmt.Errorf("%q cannot stand inside [[ ]]", s)
	}
	return s, nil
}

// tagText checks that a name can follow "#" as a hashtag.
func tagText(s string) (string, error) {
	for _, r := range s {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) && !strings.ContainsRune("_-./", r) {
			return "", fmt.Errorf("%q cannot be written as a hashtag", s)
		}
	}
	return s, nil
}

// decodeDestination reads a markdown destination's path as Parse does
// (backslash escapes, then %XX escapes), and where each byte it reads comes
// from, with one more offset for the end.
func decodeDestination(raw []byte) (string, []int) {
	var b strings.Builder
	var offs []int
	for i := 0; i < len(raw); {
		switch {
		case raw[i] == '\\' && i+1 < len(raw) && util.IsPunct(raw[i+1]):
			b.WriteByte(raw[i+1])
			offs = append(offs, i)
			i += 2
		case raw[i] == '%' && i+2 < len(raw) && isHex(raw[i+1]) && isHex(raw[i+2]):
			b.WriteByte(unhex(raw[i+1])<<4 | unhex(raw[i+2]))
			offs = append(offs, i)
			i += 3
		default:
			b.WriteByte(raw[i])
			offs = append(offs, i)
			i++
		}
	}
	return b.String(), append(offs, len(raw))
}

// LinkText is how to write a link of kind to key from the note from so that
// the dialect resolves it to key alone: for a markdown link the path from
// from's folder, for other links the shortest trailing part of the key
// that does (the whole key when none does).
func LinkText(d vault.Dialect, key string, kind vault.LinkKind, from string, names vault.Names) string {
	if kind == vault.MarkdownLink {
		return escapeDestination(relativeKey(path.Dir(from), key) + vault.NoteExt)
	}
	return shortestName(d, key, false, from, names)
}

// NewLink is a link to key, whose title is title ("" when it has none of
// its own), as the dialect's tool writes one in the note from: a markdown
// link [title](path.md) on a markdown site, the page's name in Logseq, the
// shortest name that reaches it alone in Obsidian and Foam, and the key in
// Dendron (its hierarchy), zk (its path) and omh.
func NewLink(d vault.Dialect, key, title, from string, names vault.Names) string {
	name := key
	switch d.String() {
	case vault.DialectMarkdown:
		if title == "" {
			title = path.Base(key)
		}
		return "[" + markdownLabel.Replace(title) + "](" + LinkText(d, key, vault.MarkdownLink, from, names) + ")"
	case vault.DialectLogseq:
		name = title
		if name == "" {
			name = logseqPageName.Replace(path.Base(key))
		}
	case vault.DialectObsidian, vault.DialectFoam:
		name = LinkText(d, key, vault.WikiLink, from, names)
	}
	if _, err := wikiText(name); err != nil {
		name = key
	}
	return "[[" + name + "]]"
}

// markdownLabel escapes what would end a markdown link's text early.
var markdownLabel = strings.NewReplacer(`\`, `\\`, "[", `\[`, "]", `\]`)

// logseqPageName reads a page's name from its file's: a namespace a/b is
// kept as a___b, or a%2Fb in older graphs.
var logseqPageName = strings.NewReplacer("___", "/", "%2F", "/", "%2f", "/")

// markdownDestSpan finds a markdown link's destination: inside the
// parentheses of an inline link, or on the line that defines a reference
// link's label.
func markdownDestSpan(src []byte, l vault.Link) (int, int, error) {
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
	m := definitionPattern(label).FindSubmatchIndex(src)
	if m == nil {
		return 0, 0, errors.New("its reference definition was not found")
	}
	s, e := m[4], m[5]
	if src[s] == '<' {
		s, e = s+1, e-1
	}
	return s, e, nil
}

// definitionPattern matches the definition of a reference label: the
// label as written, then the destination.
func definitionPattern(label string) *regexp.Regexp {
	return regexp.MustCompile(`(?mi)^[ \t]{0,3}\[(` + labelPattern(label) + `)\]:[ \t]*(?:\r?\n[ \t]*)?(<[^>\n]*>|\S+)`)
}

// definitionLabel finds where the definition of label writes it.
func definitionLabel(src []byte, label string) (int, int, bool) {
	m := definitionPattern(label).FindSubmatchIndex(src)
	if m == nil {
		return 0, 0, false
	}
	return m[2], m[3], true
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
