package vault

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/text"
)

// costlyInputs made goldmark rescan a line or a paragraph once per marker,
// bracket, delimiter, backtick run or definition in it. At 128 KB most took
// seconds (nested list markers 9.7 s); at the 512 KB indexing reads,
// minutes. bound names what keeps each in check: the nesting depth, the
// inline budget, or the memo of backtick runs that found no closer.
var costlyInputs = []struct {
	name, unit, tail string
	size             int
	bound            string
}{
	{"nested list markers on one line", "- ", "x", 256 << 10, "depth"},
	{"nested ordered list markers on one line", "1. ", "x", 256 << 10, "depth"},
	{"nested blockquote markers on one line", "> ", "x", 256 << 10, "depth"},
	{"unclosed inline links on one line", "[a](", "", 512 << 10, "budget"},
	{"unclosed angle-bracket links on one line", "[a](<b", "", 256 << 10, "budget"},
	{"unmatched emphasis delimiters in a paragraph", "_* _\n", "", 512 << 10, "budget"},
	{"emphasis closers that outrun their openers", "_a *a a** ", "", 256 << 10, "budget"},
	{"backtick runs without closers in a paragraph", "``\\", "", 256 << 10, "memo"},
	{"link reference definitions in a paragraph", "[a]: a\n", "", 1 << 20, "budget"},
	{"shortcut references on every line of a paragraph", "[x]\n", "", 512 << 10, "budget"},
}

func costlyDoc(i int) []byte {
	c := costlyInputs[i]
	return []byte(strings.Repeat(c.unit, c.size/len(c.unit)) + c.tail)
}

// Every costly input meets the bound meant for it: nesting stops at
// maxContainerDepth, the inline budget runs out (and the parse says where,
// as markdown-too-costly), or a backtick run is searched for a closer once.
// What each costs in time is BenchmarkParseCostlyInputs' to measure; a
// unit test does not time (it flaked on a loaded machine).
func TestCostlyInputsMeetTheirBound(t *testing.T) {
	t.Parallel()
	for i, c := range costlyInputs {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			doc := costlyDoc(i)
			if c.bound == "budget" {
				// Parse says "too costly to parse in full" only where
				// the budget ran out: one parse checks both.
				if !budgetRanOut(Parse(doc)) {
					t.Error("the inline budget was not spent, or Parse reports no markdown-too-costly problem where it stopped")
				}
				return
			}
			md, budget := newMarkdownParser()
			root := md.Parse(text.NewReader(doc))
			switch c.bound {
			case "depth":
				if d := containerDepth(root); d != maxContainerDepth {
					t.Errorf("lists and blockquotes nest %d deep, want the bound, %d", d, maxContainerDepth)
				}
			case "memo":
				if len(budget.failedRuns) != 1 {
					t.Errorf("%d backtick run lengths remembered as failing, want 1", len(budget.failedRuns))
				}
			}
		})
	}
}

func containerDepth(root ast.Node) int {
	deepest := 0
	ast.Walk(root, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if entering {
			d := 0
			for p := n; p != nil; p = p.Parent() {
				if k := p.Kind(); k == ast.KindList || k == ast.KindBlockquote {
					d++
				}
			}
			deepest = max(deepest, d)
		}
		return ast.WalkContinue, nil
	})
	return deepest
}

// budgetRanOut reports whether p has the markdown-too-costly problem of
// an inline budget spent (not that of a note cut at MaxMarkdownBytes).
func budgetRanOut(p Parsed) bool {
	for _, pr := range p.Problems {
		if pr.Rule == "markdown-too-costly" && strings.Contains(pr.Message, "too costly to parse in full") {
			return true
		}
	}
	return false
}

func hasProblem(p Parsed, rule string) bool {
	for _, pr := range p.Problems {
		if pr.Rule == rule {
			return true
		}
	}
	return false
}

// BenchmarkParseCostlyInputs times Parse on each costly input and reports
// it as times-text: its time over that of ordinary text of the same size,
// parsed in the same run. Bounded, none passes about 12 on the development
// machine; unbounded, they grow with the square of the size, to 50 and far
// more.
//
//	go test ./vault -run '^$' -bench ParseCostlyInputs -benchtime 3x
func BenchmarkParseCostlyInputs(b *testing.B) {
	for i, c := range costlyInputs {
		b.Run(c.name, func(b *testing.B) {
			text := []byte(strings.Repeat("Some words, a [[link]], [another](b.md) and *emphasis* here.\n", c.size/62))
			start := time.Now()
			Parse(text)
			base := time.Since(start)
			doc := costlyDoc(i)
			b.ResetTimer()
			for range b.N {
				Parse(doc)
			}
			b.ReportMetric(float64(b.Elapsed())/float64(b.N)/float64(base), "times-text")
		})
	}
}

// The bounds must not change how notes within them parse: newMarkdownParser
// and goldmark.DefaultParser build the same tree, large notes included.
func TestMarkdownParserMatchesGoldmarkWithinItsBounds(t *testing.T) {
	docs := append([]string{}, parseSeeds...)
	docs = append(docs,
		// Code spans, whose failed searches are remembered.
		"`a ``b` c``", "\\``x` `y``", "``\\``\\``\\`` a `` b", "` `` ``` ```` a ``` b`",
		"a `x\ny` b\n\nc `d", "``` `` ` ` `` ```", "`a` `` `b` `` ``c", "- `a\n  b`` `c\n",
		"> ``a\n> `b` ``\n", strings.Repeat("`a ``b ", 200),
		// Emphasis, links and references, short of the budgets.
		"a* b", "a** b *c*", "*a* b* c* _d_ e_", "**a *b** c*", "***a** b*", "*[a *b](c.md) d* e*",
		"snake_case_name *x* a_b_c", "2*3*4 and *a*b*c*",
		strings.Repeat("*a_b*c_d**e_f*g**h*i_j**", 50), strings.Repeat("_* _\n", 300),
		strings.Repeat("[a](", 100), strings.Repeat("[x]\n", 2000),
		strings.Repeat("[a]: b\n", 1000)+"[a] [a][] [t][a]\n",
		// Nesting just inside maxContainerDepth.
		strings.Repeat("- ", maxContainerDepth-1)+"x\n", strings.Repeat("> ", maxContainerDepth)+"x\n",
		strings.Repeat("1. ", maxContainerDepth-1)+"[t](a.md)\n",
		nestedList(maxContainerDepth-1),
		// Large notes of common shapes.
		table(5000), links(3000), strings.Repeat("Words [l](a.md) `c` *e* [[w]] ", 2000),
	)
	for _, doc := range docs {
		src := []byte(doc)
		md, _ := newMarkdownParser()
		got := dumpTree(md.Parse(text.NewReader(src)))
		want := dumpTree(goldmark.DefaultParser().Parse(text.NewReader(src)))
		if got != want {
			i := 0
			for i < min(len(got), len(want)) && got[i] == want[i] {
				i++
			}
			t.Errorf("%.60q…: trees differ at byte %d:\n got …%.200s\nwant …%.200s", doc, i, got[i:], want[i:])
		}
	}
}

func nestedList(depth int) string {
	var b strings.Builder
	for i := range depth {
		fmt.Fprintf(&b, "%s- item [[n%d]] [t](n%d.md)\n", strings.Repeat("  ", i), i, i)
	}
	return b.String()
}

func table(rows int) string {
	var b strings.Builder
	b.WriteString("| link | code | flag |\n|---|---|---|\n")
	for i := range rows {
		fmt.Fprintf(&b, "| [n%d](n%d.md) | `c%d` | **b** [x] |\n", i, i, i)
	}
	return b.String()
}

func links(items int) string {
	var b strings.Builder
	for i := range items {
		fmt.Fprintf(&b, "- resolves [[n%d]] and [t](n%d.md)\n", i, i)
	}
	return b.String()
}

// dumpTree writes what Parse reads from a syntax tree: each node's kind,
// position and segments.
func dumpTree(doc ast.Node) string {
	var b strings.Builder
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			b.WriteString(")")
			return ast.WalkContinue, nil
		}
		fmt.Fprintf(&b, "(%s@%d", n.Kind(), n.Pos())
		if n.Type() == ast.TypeBlock {
			for i := 0; i < n.Lines().Len(); i++ {
				s := n.Lines().At(i)
				fmt.Fprintf(&b, " %d-%d+%d", s.Start, s.Stop, s.Padding)
			}
		}
		switch n := n.(type) {
		case *ast.Text:
			fmt.Fprintf(&b, " %d-%d %t %t %t", n.Segment.Start, n.Segment.Stop, n.IsRaw(), n.SoftLineBreak(), n.HardLineBreak())
		case *ast.Link:
			fmt.Fprintf(&b, " %q %q %v", n.Destination, n.Title, n.Reference != nil)
		case *ast.Heading:
			fmt.Fprintf(&b, " %d", n.Level)
		case *ast.Emphasis:
			fmt.Fprintf(&b, " %d", n.Level)
		}
		return ast.WalkContinue, nil
	})
	return b.String()
}

// Past maxContainerDepth the markers are text of the deepest item, which
// keeps the links in it.
func TestNestingPastTheBoundIsText(t *testing.T) {
	doc := strings.Repeat("- ", 100) + "[t](a.md) [[w]]\n" + strings.Repeat("> ", 100) + "[[q]]\n"
	p := Parse([]byte(doc))
	var targets []string
	for _, l := range p.Links {
		targets = append(targets, l.Target)
	}
	if strings.Join(targets, " ") != "a w q" {
		t.Errorf("links %q, want a w q", targets)
	}
	depth, deepest := 0, 0
	md, _ := newMarkdownParser()
	_ = ast.Walk(md.Parse(text.NewReader([]byte(doc))), func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if k := n.Kind(); k == ast.KindList || k == ast.KindBlockquote {
			if entering {
				depth++
			} else {
				depth--
			}
			deepest = max(deepest, depth)
		}
		return ast.WalkContinue, nil
	})
	if deepest != maxContainerDepth {
		t.Errorf("nested %d deep, want %d", deepest, maxContainerDepth)
	}
}

// goldmark reads a table as one paragraph. Every link close was charged
// the rows below it, and the budgets were a quarter of these: the links
// past row 5,500 or so of a long table were read as plain text, silently.
func TestALongTableKeepsEveryLink(t *testing.T) {
	doc := table(11500) // 507 KB, within the 512 KB a note is indexed from
	p := Parse([]byte(doc))
	if len(p.Links) != 11500 || len(p.Problems) != 0 {
		t.Errorf("%d bytes: %d links of 11500, problems %v", len(doc), len(p.Links), p.Problems)
	}
}

// Past a budget the rest is read as text, and Parse says from which line,
// so lint and the index can tell the user rather than drop links silently.
func TestMarkdownTooCostlyToParseIsReportedWhereItStops(t *testing.T) {
	doc := "# T\n\nSee [[a]].\n\n" + strings.Repeat("[a](", 20000) + "\n\nThen [[b]] and [c](c.md).\n"
	p := Parse([]byte(doc))
	var targets []string
	for _, l := range p.Links {
		targets = append(targets, l.Target)
	}
	// The budget spent was the paragraph's: the next one is parsed.
	if strings.Join(targets, " ") != "a b c" {
		t.Errorf("links %q, want a, b and c", targets)
	}
	if len(p.Problems) != 1 || p.Problems[0].Rule != "markdown-too-costly" || p.Problems[0].Line != 5 {
		t.Errorf("problems %+v, want one markdown-too-costly on line 5", p.Problems)
	}
}

// Parsers are reused between notes; a note parsed after one that spent a
// budget starts with its own. Catches a budget carried over: the second
// note reported markdown-too-costly where it had none, and lost links.
func TestANoteParsedAfterACostlyOneHasItsOwnBudget(t *testing.T) {
	costly := "# T\n\n" + strings.Repeat("[a](", 20000) + "\n"
	plain := "# P\n\nSee [[b]] and `code` and [c](c.md).\n"
	for range 4 {
		if p := Parse([]byte(costly)); !hasProblem(p, "markdown-too-costly") {
			t.Fatal("the costly note reports no markdown-too-costly problem")
		}
		p := Parse([]byte(plain))
		var targets []string
		for _, l := range p.Links {
			targets = append(targets, l.Target)
		}
		if len(p.Problems) != 0 || strings.Join(targets, " ") != "b c" {
			t.Fatalf("after a costly note: problems %+v, links %q; want none, b and c", p.Problems, targets)
		}
	}
}
