package vault

import (
	"bytes"
	"sync"
	"unicode"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// goldmark (v1.8.7) does work that grows with the square of some inputs.
// Indexing feeds it up to 512 KB of a note, where the worst of these take
// minutes (times for Parse on a loaded machine):
//
//   - every nested list or blockquote marker on a line makes it rescan the
//     line: "- " × 65536 + "x" (128 KB) took 9.7 s, "> " × 65536 + "x" 3.3 s;
//   - every "](" retries a link destination up to the end of its line:
//     "[a](" × 40960 (160 KB) took 5.6 s;
//   - a paragraph's unmatched emphasis delimiters are compared pairwise
//     (parser.ProcessDelimiters): "_* _\n" × 26214 (128 KB) took 6.8 s;
//   - every backtick run without a closer rescans the rest of its
//     paragraph: two backticks and a backslash × 43690 (128 KB) took 2.1 s;
//   - every link reference definition re-slices its paragraph's lines:
//     "[a]: a\n" × 37449 (256 KB) took 1.1 s.
//
// newMarkdownParser is goldmark's default parser with each of these
// bounded. Notes that come near no bound parse exactly as with
// goldmark.DefaultParser; past a bound, the syntax involved reads as text.
func newMarkdownParser() (parser.Parser, *inlineBudget) {
	var blocks []util.PrioritizedValue
	for _, v := range parser.DefaultBlockParsers() {
		switch v.Value {
		case parser.NewListParser(), parser.NewBlockquoteParser():
			v.Value = depthLimited{v.Value.(parser.BlockParser)}
		}
		blocks = append(blocks, v)
	}
	budget := &inlineBudget{note: noteInlineBudget, stoppedAt: -1, failedRuns: map[int]int{}, openers: map[byte][]int{}}
	var inlines []util.PrioritizedValue
	for _, v := range parser.DefaultInlineParsers() {
		p := budgeted{InlineParser: v.Value.(parser.InlineParser), budget: budget}
		switch v.Value {
		case parser.NewCodeSpanParser():
			p.kind = codeSpanSyntax
		case parser.NewEmphasisParser():
			p.kind = emphasisSyntax
		case parser.NewLinkParser():
			p.kind = linkSyntax
		}
		inlines = append(inlines, util.Prioritized(p, v.Priority))
	}
	var transformers []util.PrioritizedValue
	for _, v := range parser.DefaultParagraphTransformers() {
		if v.Value == parser.LinkReferenceParagraphTransformer {
			v.Value = boundedReferences{v.Value.(parser.ParagraphTransformer)}
		}
		transformers = append(transformers, v)
	}
	return parser.NewParser(parser.WithBlockParsers(blocks...),
		parser.WithInlineParsers(inlines...),
		parser.WithParagraphTransformers(transformers...)), budget
}

// markdownParser is a parser newMarkdownParser made, kept for reuse with
// the budget its inline parsers charge.
type markdownParser struct {
	md     parser.Parser
	budget *inlineBudget
}

// markdownParsers keeps parsers between notes: making one per note (every
// block and inline parser, goldmark's trigger tables) allocated more than
// parsing a typical note did, an eighth of a cold build's allocations.
var markdownParsers = sync.Pool{New: func() any {
	md, budget := newMarkdownParser()
	return &markdownParser{md, budget}
}}

// maxContainerDepth bounds nested lists and blockquotes. Each level makes
// goldmark rescan the line for every block that could open there, so depth
// costs time in proportion to depth × line length. Notes nest a handful of
// levels; markers past the bound read as the deepest item's text.
const maxContainerDepth = 32

// depthLimited is a list or blockquote parser that opens nothing deeper
// than maxContainerDepth.
type depthLimited struct{ parser.BlockParser }

func (d depthLimited) Open(parent ast.Node, reader text.Reader, pc parser.Context) (ast.Node, parser.State) {
	depth := 0
	for n := parent; n != nil; n = n.Parent() {
		if k := n.Kind(); k == ast.KindList || k == ast.KindBlockquote {
			depth++
		}
	}
	if depth >= maxContainerDepth {
		return nil, parser.NoChildren
	}
	return d.BlockParser.Open(parent, reader, pc)
}

// Inline syntax that fails to parse is where goldmark's time goes: a link
// that does not close is retried from every "](", a code span from every
// backtick run. Each attempt is charged what it may have scanned, in bytes
// or lines, and a block, or a note, that has spent its budget gets no more
// inline syntax parsed; Parse then reports where it stopped. The costliest
// ordinary shape is a long table, which goldmark reads as one paragraph in
// which every bracketed label that is not an inline link makes it walk the
// lines below: 12,000 rows each ending "[x] |" spend 72 M (a unit is one to
// a few nanoseconds of goldmark's time). A block's budget holds a table of
// one such label a row up to the 512 KB a note is indexed from; spending a
// note's budget takes goldmark under a second (0.7 s for the costliest
// input of TestParseIsNotQuadraticOnInputsGoldmarkRescans).
const (
	blockInlineBudget = 1 << 27
	noteInlineBudget  = 1 << 28
)

type inlineBudget struct {
	note      int // left for the note
	stoppedAt int // offset in the source where syntax was first left unparsed; -1 while none was

	block      ast.Node       // whose inline content is being parsed
	left       int            // left for block
	failedRuns map[int]int    // backtick run length → offset of a run that found no closer in block
	delimiters int            // emphasis delimiters in goldmark's list for block, or more
	openers    map[byte][]int // lengths left of the opening-only delimiters in that list, by character
}

// enter starts charging to block when it is not the block being charged.
func (b *inlineBudget) enter(block ast.Node) {
	if block == b.block {
		return
	}
	b.block, b.left, b.delimiters = block, blockInlineBudget, 0
	clear(b.failedRuns)
	clear(b.openers)
}

// reset makes the budget a new note's, as newMarkdownParser made it.
func (b *inlineBudget) reset() {
	b.note, b.stoppedAt = noteInlineBudget, -1
	b.block, b.left, b.delimiters = nil, 0, 0
	clear(b.failedRuns)
	clear(b.openers)
}

func (b *inlineBudget) spent() bool { return b.left <= 0 || b.note <= 0 }

func (b *inlineBudget) charge(n int) {
	b.left -= n
	b.note -= n
}

// delimiter charges an emphasis delimiter for the work
// parser.ProcessDelimiters will do on it when the block closes. A closer
// looks back through the list for an opener of its character; the
// delimiters it passes go when it finds one, so that finding is cheap over
// time, but one that finds none has passed the whole list for nothing.
// Openers are followed only when they can open and not close, since only
// those match a closer whatever the lengths; a closer that meets no such
// opener is charged the whole list.
func (b *inlineBudget) delimiter(d *parser.Delimiter) {
	b.delimiters++
	if !d.CanClose {
		if d.CanOpen {
			b.openers[d.Char] = append(b.openers[d.Char], d.Length)
		}
		b.charge(1)
		return
	}
	left := d.Length
	if !d.CanOpen {
		stack := b.openers[d.Char]
		for left > 0 && len(stack) > 0 {
			top := &stack[len(stack)-1]
			n := min(*top, left)
			*top -= n
			left -= n
			if *top == 0 {
				stack = stack[:len(stack)-1]
				b.delimiters--
			}
		}
		b.openers[d.Char] = stack
	}
	if left == 0 {
		b.delimiters-- // used up, the closer leaves the list
		b.charge(1)
		return
	}
	b.charge(b.delimiters)
}

// linkFormed notes that goldmark has matched and removed the delimiters in
// a link's text. Which they were is not known here, so no opener is
// trusted any longer.
func (b *inlineBudget) linkFormed() {
	clear(b.openers)
}

type inlineSyntax uint8

const (
	otherSyntax inlineSyntax = iota
	codeSpanSyntax
	emphasisSyntax
	linkSyntax
)

// budgeted is one of goldmark's inline parsers, charged to a budget.
type budgeted struct {
	parser.InlineParser
	budget *inlineBudget
	kind   inlineSyntax
}

func (p budgeted) Parse(parent ast.Node, block text.Reader, pc parser.Context) ast.Node {
	b := p.budget
	b.enter(parent)
	line, seg := block.PeekLine()
	if b.spent() {
		if b.stoppedAt < 0 {
			b.stoppedAt = seg.Start
		}
		return nil
	}
	if len(line) == 0 {
		return p.InlineParser.Parse(parent, block, pc)
	}
	switch p.kind {
	case codeSpanSyntax:
		return p.codeSpan(parent, block, pc, line, seg)
	case emphasisSyntax:
		n := p.InlineParser.Parse(parent, block, pc)
		if d, ok := n.(*parser.Delimiter); ok {
			b.delimiter(d)
		}
		return n
	}
	closing := p.kind == linkSyntax && line[0] == ']'
	linesBelow := 0
	if closing {
		at, _ := block.Position()
		linesBelow = parent.Lines().Len() - at
	}
	n := p.InlineParser.Parse(parent, block, pc)
	if closing && (n == nil || len(line) < 2 || line[1] != '(') {
		// A label that does not close an inline link is looked up as a
		// reference: goldmark reads it back through the block reader,
		// which finds its line by walking back from the block's last line.
		// A table row ending "[x] |" costs that walk on every row.
		b.charge(linesBelow)
	}
	switch {
	case n == nil && closing:
		b.charge(destinationReach(line))
	case n == nil:
		// An autolink or HTML tag that fails does so by its first space.
		b.charge(wordLength(line))
	case closing:
		b.linkFormed()
	}
	return n
}

// destinationReach returns how far goldmark may have scanned for the
// destination of a link whose label closes at line[0]: up to the first
// space after "](", or to the first ">" after "](<", or the line's end.
func destinationReach(line []byte) int {
	if len(line) < 2 || line[1] != '(' {
		return 1
	}
	i := 2
	for i < len(line) && util.IsSpace(line[i]) {
		i++
	}
	if i < len(line) && line[i] == '<' {
		if end := bytes.IndexByte(line[i:], '>'); end >= 0 {
			return i + end
		}
		return len(line)
	}
	return i + wordLength(line[i:])
}

// wordLength returns the length of the run of non-space bytes line starts
// with.
func wordLength(line []byte) int {
	if n := bytes.IndexFunc(line, unicode.IsSpace); n >= 0 {
		return n
	}
	return len(line)
}

// codeSpan parses a code span. goldmark looks for the closing backtick run
// through the rest of the block, and gives up by returning the opening run
// as text. A run of the same length later in the block can find no closer
// either, since the first search saw every run after it; it gets the same
// answer without the search.
func (p budgeted) codeSpan(parent ast.Node, block text.Reader, pc parser.Context, line []byte, seg text.Segment) ast.Node {
	b := p.budget
	run := backtickRun(line, 0)
	if at, ok := b.failedRuns[run]; ok && at < seg.Start {
		block.Advance(run)
		return ast.NewTextSegment(seg.WithStop(seg.Start + run))
	}
	n := p.InlineParser.Parse(parent, block, pc)
	if _, failed := n.(*ast.Text); failed {
		b.failedRuns[run] = seg.Start
		if lines := parent.Lines(); lines.Len() > 0 {
			b.charge(lines.At(lines.Len()-1).Stop - seg.Start)
		}
	}
	return n
}

// CloseBlock passes the end of a block on to parsers that track state
// across it, as the link parser does for unclosed brackets.
func (p budgeted) CloseBlock(parent ast.Node, block text.Reader, pc parser.Context) {
	if cb, ok := p.InlineParser.(parser.CloseBlocker); ok {
		cb.CloseBlock(parent, block, pc)
	}
}

// maxReferenceWork bounds the work of reading a paragraph's link reference
// definitions, which goldmark does in time proportional to definitions ×
// lines.
const maxReferenceWork = 1 << 24

// boundedReferences reads link reference definitions only in paragraphs
// whose lines × lines that could start a definition stay within
// maxReferenceWork: 4,096 definitions in a row, far more than notes hold.
type boundedReferences struct{ parser.ParagraphTransformer }

func (t boundedReferences) Transform(node *ast.Paragraph, reader text.Reader, pc parser.Context) {
	lines := node.Lines()
	src := reader.Source()
	openers := 0
	for i := 0; i < lines.Len(); i++ {
		s := lines.At(i)
		if v := util.TrimLeftSpace(src[s.Start:s.Stop]); len(v) > 0 && v[0] == '[' {
			openers++
		}
	}
	if openers*lines.Len() > maxReferenceWork {
		return
	}
	t.ParagraphTransformer.Transform(node, reader, pc)
}
