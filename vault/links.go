package vault

import (
	"bytes"
	"cmp"
	"net/url"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/util"
)

// LinkKind tells which syntax a link was written in.
type LinkKind uint8

const (
	WikiLink     LinkKind = iota + 1 // [[target]] and its variants
	EmbedLink                        // ![[target]]
	MarkdownLink                     // [text](relative/path.md)
	TagLink                          // #tag, a page in Logseq and tags.tag in Dendron; no link elsewhere
	// WikiReference is the [x] inside [[x]] when the note defines [x]: path,
	// as Foam does at its end so that plain markdown reads [[x]] as a link:
	// a markdown reference link, the wiki link's double. Only a markdown
	// site reads it; elsewhere the wiki link is the link.
	WikiReference
)

// Link is one reference from a note to another note or a part of one.
//
// Parse reads every dialect's forms the same way, Obsidian's order first:
// a wiki link's Target is the part before "|" and Label the part after,
// which a Dialect that writes the label first reads the other way round.
// Target drops a trailing ".md" and is otherwise as written: a wiki link's
// name, a markdown link's URL-decoded path (which keeps a leading "/", "~/",
// "./" or "../" and any extension for resolution to interpret) or a tag
// without its "#". Lead lets a linter report a misspelled verb such as
// "supercedes".
type Link struct {
	Kind       LinkKind
	Target     string // the note linked to; empty only in [[#heading|label]]
	Fragment   string // heading, or "^block" for a block reference; "" if none
	Label      string // text after "|" in a wiki link, or a markdown link's text
	Verb       string // one of Verbs when a list item reads "verb [[link]]…"
	Lead       string // the word when a list item reads "word [[link]]…" and word is no verb
	Start, End int    // byte offsets of the link syntax in the file
	Line       int    // 1-based line of Start
}

// byteSpan is a half-open byte range [start, end).
type byteSpan struct{ start, end int }

// findLinks returns the body's links in order of their start, with
// offsets relative to src.
func findLinks(src []byte, nodes *bodyNodes) []Link {
	links := findWikiLinks(src, nodes.code)
	for _, item := range nodes.items {
		markTypedLink(src, item, links)
	}
	tags := tagsOutside(findTags(src, nodes.code), links)
	links = append(links, markdownLinks(src, nodes)...)
	links = append(links, tags...)
	slices.SortStableFunc(links, func(x, y Link) int { return cmp.Compare(x.Start, y.Start) })
	return links
}

// markdownLinks returns the links goldmark found that point at notes.
func markdownLinks(src []byte, nodes *bodyNodes) []Link {
	var links []Link
	// A block may hold many links; its text is built once.
	texts := map[ast.Node]*inlineText{}
	for _, l := range nodes.links {
		if l.Reference != nil && bytes.HasPrefix(l.Reference.Value, []byte("^")) {
			continue // [^1] with [^1]: text is a footnote where notes use them (Obsidian, GitHub, DocFX)
		}
		target, fragment, ok := noteDestination(string(util.UnescapePunctuations(l.Destination)))
		if !ok {
			continue
		}
		block := enclosingBlock(l)
		if texts[block] == nil {
			texts[block] = newInlineText(src, block)
		}
		link := Link{
			Kind:     MarkdownLink,
			Target:   validUTF8(target),
			Fragment: validUTF8(fragment),
			Label:    PlainText(l, src),
			Start:    l.Pos(),
			End:      texts[block].linkEnd(l, nodes.opaque),
		}
		if isWikiReference(src, l, link) {
			link.Kind = WikiReference
		}
		links = append(links, link)
	}
	return links
}

// isWikiReference reports whether the reference link l, read as link,
// fills the brackets of a wiki link: [[x]] with [x] defined.
func isWikiReference(src []byte, l *ast.Link, link Link) bool {
	return l.Reference != nil && l.Reference.Type == ast.ReferenceLinkShortcut &&
		link.Start > 0 && src[link.Start-1] == '[' && link.End < len(src) && src[link.End] == ']'
}

func enclosingBlock(n ast.Node) ast.Node {
	for n.Type() != ast.TypeBlock {
		n = n.Parent()
	}
	return n
}

// findWikiLinks scans src for wiki links and embeds whose brackets lie
// outside the sorted code ranges; a code span wholly inside a link, as in
// [[note|`label`]], is part of its label. A link may not span lines, nor
// close inside code (the markdown parser gives code precedence over
// brackets).
func findWikiLinks(src []byte, code []byteSpan) []Link {
	var links []Link
	for start := 0; start < len(src); {
		end := len(src)
		if n := bytes.IndexByte(src[start:], '\n'); n >= 0 {
			end = start + n
		}
		links = wikiLinksInLine(links, src, start, end, code)
		start = end + 1
	}
	return links
}

// inCode reports whether offset i lies inside one of the sorted code
// ranges.
func inCode(code []byteSpan, i int) bool {
	k, _ := slices.BinarySearchFunc(code, i, func(c byteSpan, i int) int { return cmp.Compare(c.start, i+1) })
	return k > 0 && i < code[k-1].end
}

// wikiLinksInLine appends the links in src[start:end], one line.
func wikiLinksInLine(links []Link, src []byte, start, end int, code []byteSpan) []Link {
	for i := start; ; {
		n := bytes.Index(src[i:end], []byte("[["))
		if n < 0 {
			return links
		}
		i += n
		if inCode(code, i) {
			i++
			continue
		}
		n = bytes.Index(src[i+2:end], []byte("]]"))
		if n < 0 {
			return links
		}
		closing := i + 2 + n
		// The last "[[" before the closing brackets opens the link, as in
		// "[[[x]]".
		opening := i + bytes.LastIndex(src[i:closing], []byte("[["))
		if !inCode(code, closing) && !inCode(code, opening) {
			if l, ok := wikiLinkAt(src, opening, closing); ok {
				links = append(links, l)
			}
		}
		i = closing + 2
	}
}

// wikiLinkAt reads the wiki link whose "[[" is at opening and "]]" at
// closing.
func wikiLinkAt(src []byte, opening, closing int) (Link, bool) {
	if backslashEscaped(src, opening) {
		return Link{}, false
	}
	l := Link{Kind: WikiLink, Start: opening, End: closing + 2}
	if opening > 0 && src[opening-1] == '!' && !backslashEscaped(src, opening-1) {
		l.Kind, l.Start = EmbedLink, opening-1
	}
	l.Target, l.Fragment, l.Label = splitWikiInner(validUTF8(string(src[opening+2 : closing])))
	// [[#heading]] stays inside its note; Dendron's [[#label|note]] has
	// its note after the pipe.
	return l, l.Target != "" || l.Label != ""
}

// backslashEscaped reports whether the byte at i follows an odd run of backslashes.
func backslashEscaped(src []byte, i int) bool {
	n := 0
	for i-n > 0 && src[i-n-1] == '\\' {
		n++
	}
	return n%2 == 1
}

// splitWikiInner splits "target#heading|label", "target^block" and
// "target#^block" into their parts.
func splitWikiInner(inner string) (target, fragment, label string) {
	ref, label, hasLabel := strings.Cut(inner, "|")
	if hasLabel {
		// Inside tables the pipe is written "\|".
		ref = strings.TrimSuffix(ref, `\`)
	}
	target = ref
	if i := strings.IndexAny(ref, "#^"); i >= 0 {
		target, fragment = ref[:i], ref[i:]
		// "#^block" and "^block" both keep the caret, so that a block
		// reference never reads as a heading.
		fragment = strings.TrimPrefix(fragment, "#")
	}
	return TrimNoteExt(strings.TrimSpace(target)), strings.TrimSpace(fragment), strings.TrimSpace(label)
}

// TrimNoteExt drops a trailing ".md" in any letter case.
func TrimNoteExt(s string) string {
	if len(s) >= 3 && strings.EqualFold(s[len(s)-3:], ".md") {
		return s[:len(s)-3]
	}
	return s
}

// URLScheme matches destinations that leave the vault, such as "https:".
var URLScheme = LazyRegexp(`^[A-Za-z][A-Za-z0-9+.-]*:`)

// noteDestination reads a markdown link destination that may point at a
// note: any path, not a URL and not an anchor inside the note. Its ".md" is
// dropped; any other extension stays, for resolution to find a note whose
// name has dots (dendron.topic.schema, Excel.Range) or for lint to tell an
// attachment from a broken link.
func noteDestination(dest string) (target, fragment string, ok bool) {
	dest = strings.TrimSpace(dest)
	if URLScheme().MatchString(dest) {
		return "", "", false
	}
	dest, fragment, _ = strings.Cut(dest, "#")
	dest, _, _ = strings.Cut(dest, "?")
	dest, fragment = TrimNoteExt(PathUnescape(dest)), PathUnescape(fragment)
	return dest, fragment, dest != ""
}

// PathUnescape decodes %XX escapes, keeping s as written when they are
// malformed.
func PathUnescape(s string) string {
	if u, err := url.PathUnescape(s); err == nil {
		return u
	}
	return s
}

// inlineText is a block's inline content as goldmark's inline parser reads
// it: the block's lines joined without the container prefixes (such as
// "> ") between them.
type inlineText struct {
	buf  []byte
	offs []int // offs[k] is the offset in the body of buf[k]
}

func newInlineText(src []byte, block ast.Node) *inlineText {
	t := &inlineText{}
	lines := block.Lines()
	for k := 0; k < lines.Len(); k++ {
		seg := lines.At(k)
		t.buf = append(t.buf, src[seg.Start:seg.Stop]...)
		for o := seg.Start; o < seg.Stop; o++ {
			t.offs = append(t.offs, o)
		}
	}
	return t
}

// linkEnd returns the body offset just past the syntax of link, which is
// part of t. goldmark records where a link starts but not where it ends, so
// its syntax is read again. opaque maps the start of each code span, raw
// HTML and autolink to its end; brackets inside those do not count.
func (t *inlineText) linkEnd(link *ast.Link, opaque map[int]int) int {
	buf := t.buf
	start, _ := slices.BinarySearch(t.offs, link.Pos())
	end := closingBracket(buf, t.offs, start, opaque) + 1
	switch {
	case link.Reference == nil:
		end = inlineLinkTail(buf, end)
	case link.Reference.Type != ast.ReferenceLinkShortcut:
		end = closureEnd(buf, end+1, ']')
	}
	// goldmark formed the link, so its syntax is complete; the guards
	// below only keep a future goldmark from making Parse panic.
	end = min(end, len(buf))
	if end <= start {
		return link.Pos() + 1
	}
	return t.offs[end-1] + 1
}

// closingBracket returns the index of the "]" that closes the "[" at start.
func closingBracket(buf []byte, offs []int, start int, opaque map[int]int) int {
	depth := 0
	for i := start; i < len(buf); i++ {
		if stop, ok := opaque[offs[i]]; ok {
			for i+1 < len(buf) && offs[i+1] < stop {
				i++
			}
			continue
		}
		switch buf[i] {
		case '\\':
			if i+1 < len(buf) && util.IsPunct(buf[i+1]) {
				i++
			}
		case '[':
			depth++
		case ']':
			if depth--; depth == 0 {
				return i
			}
		}
	}
	return len(buf)
}

// inlineLinkTail returns the index just past the "(destination "title")"
// that starts at i.
func inlineLinkTail(buf []byte, i int) int {
	i = skipMarkdownSpace(buf, i+1)
	if i < len(buf) && buf[i] == '<' {
		i = closureEnd(buf, i+1, '>')
	} else {
		i = bareDestinationEnd(buf, i)
	}
	i = skipMarkdownSpace(buf, i)
	if i < len(buf) && (buf[i] == '"' || buf[i] == '\'' || buf[i] == '(') {
		closer := buf[i]
		if closer == '(' {
			closer = ')'
		}
		i = skipMarkdownSpace(buf, closureEnd(buf, i+1, closer))
	}
	return min(i+1, len(buf))
}

// bareDestinationEnd returns the end of a destination not in angle
// brackets: it stops at a space or at a ")" that closes no "(" of its own.
func bareDestinationEnd(buf []byte, i int) int {
	open := 0
	for ; i < len(buf); i++ {
		switch c := buf[i]; {
		case c == '\\' && i+1 < len(buf) && util.IsPunct(buf[i+1]):
			i++
		case c == '(':
			open++
		case c == ')':
			if open--; open < 0 {
				return i
			}
		case util.IsSpace(c):
			return i
		}
	}
	return i
}

// closureEnd returns the index just past the first unescaped closer at or
// after i.
func closureEnd(buf []byte, i int, closer byte) int {
	for ; i < len(buf); i++ {
		switch buf[i] {
		case '\\':
			if i+1 < len(buf) && util.IsPunct(buf[i+1]) {
				i++
			}
		case closer:
			return i + 1
		}
	}
	return len(buf)
}

func skipMarkdownSpace(buf []byte, i int) int {
	for i < len(buf) && util.IsSpace(buf[i]) {
		i++
	}
	return i
}

// markTypedLink gives the wiki link that follows a list item's leading word
// its Verb, or its Lead when the word is not a verb. item is the item's
// first paragraph; wiki holds the wiki links and embeds sorted by Start.
func markTypedLink(src []byte, item byteSpan, wiki []Link) {
	word, at := leadingWord(src, item.start)
	if word == "" || at >= item.end {
		return
	}
	i, found := slices.BinarySearchFunc(wiki, at, func(l Link, at int) int { return l.Start - at })
	if !found {
		return
	}
	if IsVerb(word) {
		wiki[i].Verb = word
	} else {
		wiki[i].Lead = word
	}
}

// leadingWord reads the word of letters, digits, '_' and '-' at i and the
// whitespace after it, returning the word and the offset that follows. The
// word is "" unless whitespace follows it.
func leadingWord(src []byte, i int) (string, int) {
	j := i
	for j < len(src) {
		r, size := utf8.DecodeRune(src[j:])
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '_' && r != '-' {
			break
		}
		j += size
	}
	k := skipMarkdownSpace(src, j)
	if j == i || k == j {
		return "", k
	}
	return string(src[i:j]), k
}

// findTags returns the hashtags outside the sorted code ranges: a "#" at the
// start of a line or after white space, then a letter (#1213 is an issue
// number, #43B02A a colour), then letters, digits and "_-./", a trailing
// "." or "/" left out. "#[[page name]]" is a wiki link already.
func findTags(src []byte, code []byteSpan) []Link {
	var tags []Link
	ci := 0
	for i := 0; i < len(src); i++ {
		if src[i] != '#' || (i > 0 && !isTagBoundary(src[i-1])) {
			continue
		}
		for ci < len(code) && code[ci].end <= i {
			ci++
		}
		if ci < len(code) && code[ci].start <= i {
			continue
		}
		end := i + 1
		for end < len(src) {
			r, size := utf8.DecodeRune(src[end:])
			if !unicode.IsLetter(r) && !unicode.IsDigit(r) && !strings.ContainsRune("_-./", r) {
				break
			}
			end += size
		}
		for end > i+1 && (src[end-1] == '.' || src[end-1] == '/') {
			end--
		}
		name := string(src[i+1 : end])
		if first, _ := utf8.DecodeRuneInString(name); !unicode.IsLetter(first) {
			continue
		}
		tags = append(tags, Link{Kind: TagLink, Target: validUTF8(name), Start: i, End: end})
		i = end - 1
	}
	return tags
}

// tagsOutside drops the tags written inside a wiki link (its heading or
// label); wiki is sorted by Start.
func tagsOutside(tags, wiki []Link) []Link {
	out := tags[:0]
	w := 0
	for _, t := range tags {
		for w < len(wiki) && wiki[w].End <= t.Start {
			w++
		}
		if w < len(wiki) && wiki[w].Start <= t.Start {
			continue
		}
		out = append(out, t)
	}
	return out
}

// isTagBoundary reports whether a hashtag may follow the byte c.
func isTagBoundary(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }
