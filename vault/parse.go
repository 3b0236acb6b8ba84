package vault

import (
	"bufio"
	"bytes"
	"cmp"
	"errors"
	"io"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// Heading is one ATX or setext heading of a note's body.
type Heading struct {
	Level int
	Text  string // plain text of the heading's content, markup removed, trimmed
	Start int    // byte offset in the file where the heading's line starts
	Line  int
}

// Problem is something wrong with a note that Parse worked around.
type Problem struct {
	Line    int    // 1-based line in the file, 0 when not tied to a line
	Rule    string // stable id, such as "invalid-date"
	Message string // one line saying what is wrong and in which field
}

// Parsed is what Parse learns from a note's bytes.
type Parsed struct {
	Title           string // frontmatter title, else the first level-1 heading
	TitleFromH1     bool
	Type            string // frontmatter type, trimmed and lower-cased
	Source          string
	Description     string // frontmatter description, desc or summary
	DeclaredKey     string // frontmatter key
	Recorded        Date
	Dated           Date   // frontmatter date, else created
	DatedField      string // "date" or "created": where Dated came from
	Retracted       Date
	RetractedReason string   // frontmatter retracted_reason
	Aliases         []string // frontmatter aliases, and a Logseq page's title:: and alias::
	Tags            []string // frontmatter tags, without their leading '#'
	// PageTags are a Logseq page's tags:: property; its words are in the
	// body already.
	PageTags []string
	Answers  []string // frontmatter answers, then the Answers section's items
	Headings []Heading
	Links    []Link // in order of Start
	// Units are the body's passage units in order, for quoting it.
	Units     []Unit
	BodyStart int // offset where the markdown body starts
	// FrontmatterLines counts the lines of the frontmatter block, delimiters
	// included; 0 without one.
	FrontmatterLines int
	Problems         []Problem
}

// Scaffold reports whether a note is only a template's scaffolding: a
// title and section headings with nothing under them, no passage to quote
// (a sentence, an item, a row, code), no declared answer and no
// description. omh new writes one when it is given no body, and it stays
// one until someone fills it in; comments and rendered-away placeholders
// are no content. A note that is a title alone is not scaffolding: there
// are no sections waiting.
func (p Parsed) Scaffold() bool {
	sections := len(p.Headings)
	if p.TitleFromH1 {
		sections-- // the heading that titles the note
	}
	return sections > 0 && len(p.Units) == 0 && len(p.Answers) == 0 && p.Description == ""
}

// LooksBinary reports whether content has a NUL byte in its first 8000
// bytes, the test git uses to tell binary files from text.
func LooksBinary(content []byte) bool {
	return bytes.IndexByte(content[:min(len(content), 8000)], 0) >= 0
}

var byteOrderMark = []byte{0xEF, 0xBB, 0xBF}

// Parse reads a note. It depends on nothing but content, so results can be
// cached by content hash and reused under any path. Offsets in the result
// refer to content, a leading byte order mark included.
func Parse(content []byte) Parsed {
	var p Parsed
	if bytes.HasPrefix(content, byteOrderMark) {
		p.BodyStart = len(byteOrderMark)
	}
	if spans, lines := conflictSpans(content); len(spans) > 0 {
		content = blankConflicts(content, spans)
		for _, l := range lines {
			p.problem(l, "conflict-markers", "a merge conflict git left unresolved starts here; both sides are read, the markers as blank lines")
		}
	}
	fm, found, unclosed := splitFrontmatter(content, p.BodyStart)
	switch {
	case found:
		p.BodyStart, p.FrontmatterLines = fm.end, fm.lines
		decodeFrontmatter(fm.yaml, fm.start, &p)
	case unclosed:
		p.problem(1, "frontmatter-unclosed", `frontmatter opened on line 1 is never closed by a "---" line`)
	}
	p.readPageProperties(content[p.BodyStart:])
	p.parseBody(content)
	return p
}

// pageProperty matches a line of Logseq's page properties, "name:: value".
var pageProperty = LazyRegexp(`^([A-Za-z][\w-]*)::[ \t]*(.*?)[ \t\r]*$`)

// readPageProperties reads the page properties a Logseq page starts with:
// title:: names the page whatever its file is called (a/b in a.b.md, or a
// title its file name cannot hold), and alias:: gives it other names, so
// both are names a link reaches it by, as aliases are; title:: is its title.
// tags:: are the page's tags.
func (p *Parsed) readPageProperties(body []byte) {
	for len(body) > 0 {
		line, next, _ := lineAt(body, 0)
		m := pageProperty().FindSubmatch(line)
		if m == nil {
			return
		}
		value := validUTF8(string(m[2]))
		switch strings.ToLower(string(m[1])) {
		case "title":
			if value != "" {
				p.Aliases = append(p.Aliases, value)
				if p.Title == "" {
					p.Title = value
				}
			}
		case "alias":
			p.Aliases = append(p.Aliases, pageNames(value, false)...)
		case "tags":
			p.PageTags = append(p.PageTags, pageNames(value, true)...)
		}
		body = body[next:]
	}
}

// pageNames reads a page property's list of pages, "a, [[b c]], #d": a
// tag may be written with its '#'.
func pageNames(value string, tags bool) []string {
	var out []string
	for _, a := range strings.Split(value, ",") {
		a = strings.TrimSpace(a)
		if tags {
			a = strings.TrimPrefix(a, "#")
		}
		if inner, ok := strings.CutPrefix(a, "[["); ok {
			a = strings.TrimSpace(strings.TrimSuffix(inner, "]]"))
		}
		if a != "" {
			out = append(out, a)
		}
	}
	return out
}

// MaxMarkdownBytes bounds what ParseNote gives goldmark for headings and
// links: some inputs cost it time out of proportion to their size (160 KB
// of unclosed link openers took five seconds), and a note's structure is
// at its start. Its words are indexed further regardless.
const MaxMarkdownBytes = 512 << 10

// ParseNote parses a note as the index reads it: at most MaxMarkdownBytes.
// Where it cuts, a markdown-too-costly problem says so, so lint and mv
// know that links from there on were not read (a note of 100,000 links
// otherwise lost two thirds of them without a word).
func ParseNote(content []byte) Parsed {
	if len(content) <= MaxMarkdownBytes {
		return Parse(content)
	}
	p := Parse(content[:MaxMarkdownBytes])
	line := 1 + bytes.Count(content[:MaxMarkdownBytes], []byte("\n"))
	if _, closed, _ := splitFrontmatter(content, p.BodyStart); closed && p.FrontmatterLines == 0 {
		// Closed past the cut, not "never closed"; and what was parsed
		// is YAML, not the body.
		p = Parsed{BodyStart: len(content[:MaxMarkdownBytes])}
		p.problem(1, "frontmatter-too-large", "the frontmatter is larger than the %d KiB omh reads, so none of its fields are read", MaxMarkdownBytes>>10)
	}
	p.problem(line, "markdown-too-costly", "markdown past the first %d KiB is not parsed, so its links and headings are not read", MaxMarkdownBytes>>10)
	return p
}

// UnparsedMention finds where name (a key or the last part of one) is
// written, ignoring case, in a part of a note that p, its parse, read as
// plain text: from a markdown-too-costly problem's line on. A link there
// could not be found, or rewritten. It returns that problem's line, or 0.
// It reads the note from r in pieces, so a note of any size costs a
// piece's memory.
func UnparsedMention(r io.Reader, p Parsed, name string) (int, error) {
	i := slices.IndexFunc(p.Problems, func(pr Problem) bool { return pr.Rule == "markdown-too-costly" })
	if i < 0 {
		return 0, nil
	}
	line := p.Problems[i].Line
	br := bufio.NewReaderSize(r, 1<<16)
	for n := 1; n < line; n++ { // the unparsed part starts at the start of line
		if _, err := br.ReadSlice('\n'); err == bufio.ErrBufferFull {
			n-- // the same line goes on
		} else if err != nil {
			return 0, readErr(err)
		}
	}
	found, err := containsFold(br, []byte(name))
	if !found {
		line = 0
	}
	return line, err
}

// containsFold reports whether r holds needle, ignoring case, reading a
// piece at a time; consecutive pieces overlap by more than any lowered
// form of needle, so a match across two pieces is seen.
func containsFold(r io.Reader, needle []byte) (bool, error) {
	lower := bytes.ToLower(needle)
	overlap := 4 * len(needle)
	buf := make([]byte, 0, 1<<20+overlap)
	for {
		n, err := io.ReadFull(r, buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if bytes.Contains(bytes.ToLower(buf), lower) {
			return true, nil
		}
		if err != nil {
			return false, readErr(err)
		}
		keep := min(overlap, len(buf))
		buf = buf[:copy(buf, buf[len(buf)-keep:])]
	}
}

// readErr is nil for the ends of input io.ReadFull and bufio report.
func readErr(err error) error {
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return nil
	}
	return err
}

// parseBody reads the markdown after the frontmatter. goldmark sees only the
// body, so every offset it reports is shifted by BodyStart.
func (p *Parsed) parseBody(content []byte) {
	src := content[p.BodyStart:]
	mp := markdownParsers.Get().(*markdownParser)
	defer markdownParsers.Put(mp)
	md, budget := mp.md, mp.budget
	budget.reset()
	doc := md.Parse(text.NewReader(src))
	nodes := collectNodes(doc, src)
	lines := newLineStarts(content)
	if budget.stoppedAt >= 0 {
		p.problem(lines.line(p.BodyStart+budget.stoppedAt), "markdown-too-costly",
			"markdown from here on is too costly to parse in full, so its links and code spans are read as plain text")
	}
	for _, h := range nodes.headings {
		p.addHeading(h, src, lines)
	}
	body := findLinks(src, nodes)
	for i := range body {
		l := &body[i]
		l.Start += p.BodyStart
		l.End += p.BodyStart
		l.Line = lines.line(l.Start)
	}
	p.Links = append(p.Links, body...) // after the frontmatter's tags

	p.Answers = append(p.Answers, answersSection(doc, src)...)
	p.Units = buildUnits(doc, src, p.BodyStart, lines)
}

func (p *Parsed) addHeading(h *ast.Heading, src []byte, lines lineStarts) {
	// A byte order mark shares the first line but is not part of the body.
	start := max(lines.start(p.BodyStart+h.Pos()), p.BodyStart)
	text := PlainText(h, src)
	p.Headings = append(p.Headings, Heading{Level: h.Level, Text: text, Start: start, Line: lines.line(start)})
	if p.Title == "" && h.Level == 1 && text != "" {
		p.Title, p.TitleFromH1 = text, true
	}
}

// bodyNodes holds what one walk of the syntax tree gathers.
type bodyNodes struct {
	code     []byteSpan  // code blocks, code spans and HTML, sorted
	opaque   map[int]int // inline code, HTML and autolinks: start to end
	headings []*ast.Heading
	links    []*ast.Link
	items    []byteSpan // the first paragraph of each list item
}

func collectNodes(doc ast.Node, src []byte) *bodyNodes {
	b := &bodyNodes{opaque: map[int]int{}}
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n := n.(type) {
		case *ast.FencedCodeBlock, *ast.CodeBlock, *ast.HTMLBlock:
			b.code = append(b.code, blockLines(src, n))
			return ast.WalkSkipChildren, nil
		case *ast.CodeSpan:
			b.addInlineCode(byteSpan{n.Pos(), codeSpanEnd(src, n.Pos())})
		case *ast.RawHTML:
			if segs := n.Segments; segs.Len() > 0 {
				b.addInlineCode(byteSpan{segs.At(0).Start, segs.At(segs.Len() - 1).Stop})
			}
		case *ast.AutoLink:
			b.opaque[n.Pos()] = n.Pos() + bytes.IndexByte(src[n.Pos():], '>') + 1
		case *ast.Heading:
			b.headings = append(b.headings, n)
		case *ast.Link:
			b.links = append(b.links, n)
		case *ast.ListItem:
			if first := n.FirstChild(); isTextBlock(first) && first.Lines().Len() > 0 {
				lines := first.Lines()
				b.items = append(b.items, byteSpan{lines.At(0).Start, lines.At(lines.Len() - 1).Stop})
			}
		}
		return ast.WalkContinue, nil
	})
	slices.SortFunc(b.code, func(x, y byteSpan) int { return cmp.Compare(x.start, y.start) })
	return b
}

func (b *bodyNodes) addInlineCode(s byteSpan) {
	b.code = append(b.code, s)
	b.opaque[s.start] = s.end
}

// blockLines covers a block from its start to the end of its last line,
// so that a fence's info string and an HTML block's closing line are
// covered too.
func blockLines(src []byte, n ast.Node) byteSpan {
	// goldmark sets a block's Pos from the line's byte offset plus the
	// block's offset in columns, so a tab before the block can put Pos past
	// the block's first byte, even past the end of src ("*\t  0" puts an
	// indented code block at 6 in 5 bytes). The block's own lines are byte
	// offsets and win; Pos only covers what they do not, such as a fence.
	start := min(n.Pos(), len(src))
	lines := n.Lines()
	if lines.Len() > 0 {
		start = min(start, lines.At(0).Start)
	}
	last := start
	if lines.Len() > 0 {
		last = max(last, lines.At(lines.Len()-1).Stop-1)
	}
	if h, ok := n.(*ast.HTMLBlock); ok && h.HasClosure() {
		last = max(last, h.ClosureLine.Stop-1)
	}
	end := len(src)
	if i := bytes.IndexByte(src[last:], '\n'); i >= 0 {
		end = last + i + 1
	}
	return byteSpan{start, end}
}

// codeSpanEnd returns the end of the code span whose backticks start at pos.
// goldmark's segments cover only the code, not the backticks around it.
func codeSpanEnd(src []byte, pos int) int {
	n := backtickRun(src, pos)
	for i := pos + n; i < len(src); i++ {
		if m := backtickRun(src, i); m == n {
			return i + m
		} else if m > 0 {
			i += m - 1
		}
	}
	return pos + n
}

func backtickRun(src []byte, i int) int {
	n := 0
	for i+n < len(src) && src[i+n] == '`' {
		n++
	}
	return n
}

func isTextBlock(n ast.Node) bool {
	switch n.(type) {
	case *ast.Paragraph, *ast.TextBlock:
		return true
	}
	return false
}

// answersSection returns the list items under a top-level "Answers" heading,
// up to the next heading of the same or a higher level. Deeper headings
// inside the section do not end it.
func answersSection(doc ast.Node, src []byte) []string {
	var answers []string
	level := 0 // of the Answers heading being read, 0 outside one
	for n := doc.FirstChild(); n != nil; n = n.NextSibling() {
		switch n := n.(type) {
		case *ast.Heading:
			if level > 0 && n.Level <= level {
				level = 0
			}
			if level == 0 && isAnswersHeading(PlainText(n, src)) {
				level = n.Level
			}
		case *ast.List:
			if level > 0 {
				answers = append(answers, itemTexts(n, src)...)
			}
		}
	}
	return answers
}

func isAnswersHeading(s string) bool {
	return strings.EqualFold(strings.TrimSpace(strings.TrimSuffix(s, ":")), "answers")
}

// itemTexts returns the plain text of each item's first paragraph, skipping
// items without one.
func itemTexts(list *ast.List, src []byte) []string {
	var texts []string
	for item := list.FirstChild(); item != nil; item = item.NextSibling() {
		if first := item.FirstChild(); isTextBlock(first) {
			if t := PlainText(first, src); t != "" {
				texts = append(texts, t)
			}
		}
	}
	return texts
}

// PlainText returns the visible text of n's inline content: markup and raw
// HTML dropped, backslash escapes resolved, line breaks read as spaces.
func PlainText(n ast.Node, src []byte) string {
	var sb strings.Builder
	writePlain(&sb, n, src)
	return validUTF8(strings.TrimSpace(sb.String()))
}

func writePlain(sb *strings.Builder, n ast.Node, src []byte) {
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		switch c := c.(type) {
		case *ast.Text:
			writeText(sb, c, src)
		case *ast.AutoLink:
			sb.Write(c.Label(src))
		case *ast.RawHTML:
			// Tags are markup; the text between them is in sibling nodes.
		default:
			writePlain(sb, c, src)
		}
	}
}

func writeText(sb *strings.Builder, t *ast.Text, src []byte) {
	v := t.Segment.Value(src)
	if t.IsRaw() {
		// Code span text keeps its backslashes; its line endings read as
		// spaces.
		sb.WriteString(lineEndsToSpaces.Replace(string(v)))
	} else {
		sb.Write(util.UnescapePunctuations(v))
	}
	if t.SoftLineBreak() || t.HardLineBreak() {
		sb.WriteByte(' ')
	}
}

var lineEndsToSpaces = strings.NewReplacer("\r\n", " ", "\n", " ")

func validUTF8(s string) string {
	return strings.ToValidUTF8(s, "\uFFFD")
}

// lineStarts holds the offsets where the lines of a file start.
type lineStarts []int

func newLineStarts(content []byte) lineStarts {
	ix := lineStarts{0}
	for i, c := range content {
		if c == '\n' {
			ix = append(ix, i+1)
		}
	}
	return ix
}

// line returns the 1-based line holding offset off.
func (ix lineStarts) line(off int) int {
	n, _ := slices.BinarySearch(ix, off+1)
	return n
}

// start returns the offset where the line holding off starts.
func (ix lineStarts) start(off int) int {
	return ix[ix.line(off)-1]
}

// LazyRegexp compiles a pattern the first time it is used rather than when
// the program starts: omh find reads no note text, and every command pays
// for a package's init. The note model and its rooms declare their
// patterns with it.
func LazyRegexp(pattern string) func() *regexp.Regexp {
	return sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(pattern) })
}

// SameHeading reports whether a heading's text names section: letter case,
// surrounding space and a trailing colon do not matter.
func SameHeading(text, section string) bool {
	return strings.EqualFold(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(text), ":")), section)
}
