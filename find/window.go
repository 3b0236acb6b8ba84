package find

import (
	"fmt"
	"strings"
	"unicode"

	"github.com/omh-notes/omh/token"
)

// window returns about keep runes of text, cut at spaces, where the
// note's question terms are densest, with an ellipsis where text was cut.
func window(text string, keep int, n *note) string {
	runes := []rune(text)
	if len(runes) <= keep {
		return text
	}
	// Rune offsets of question terms in the text.
	var hits []int
	byteToRune := map[int]int{}
	r := 0
	for b := range text {
		byteToRune[b] = r
		r++
	}
	token.EachToken(text, func(start, _ int, term string) {
		if n.isQuestionTerm(term) {
			hits = append(hits, byteToRune[start])
		}
	})
	bestStart, bestCount := 0, -1
	for _, h := range hits {
		start := max(0, min(h-keep/4, len(runes)-keep))
		count := 0
		for _, o := range hits {
			if o >= start && o < start+keep {
				count++
			}
		}
		if count > bestCount {
			bestStart, bestCount = start, count
		}
	}
	start, end := bestStart, bestStart+keep
	for start > 0 && start < end && !unicode.IsSpace(runes[start-1]) {
		start++
	}
	for end < len(runes) && end > start && !unicode.IsSpace(runes[end]) {
		end--
	}
	if end <= start {
		start, end = bestStart, bestStart+keep
	}
	out := strings.TrimSpace(string(runes[start:end]))
	if start > 0 {
		out = "…" + out
	}
	if end < len(runes) {
		out += "…"
	}
	return out
}

func (n *note) isQuestionTerm(term string) bool {
	_, ok := n.q.index[term]
	return ok
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

// shorten cuts text to about max runes at a space, with an ellipsis.
func shorten(text string, max int) string {
	runes := []rune(text)
	if len(runes) <= max {
		return text
	}
	end := max
	for end > max/2 && !unicode.IsSpace(runes[end]) {
		end--
	}
	return strings.TrimSpace(string(runes[:end])) + "…"
}

// passageLine is a passage as a card prints it, its lines first.
func passageLine(p Passage) string {
	return "  " + lineRange(p.LineStart, p.LineEnd) + " > " + p.Text + "\n"
}

// lineRange names a passage's lines as "L42-47", or "L42" for one line.
func lineRange(a, b int) string {
	if a == b {
		return fmt.Sprintf("L%d", a)
	}
	return fmt.Sprintf("L%d-%d", a, b)
}

// addresses returns the byte spans of web addresses and markdown link
// destinations in s, in order: their words
// ("stackoverflow.com/questions/…-spawn-git-enoent") repeat a question's
// words without saying anything about them. It finds what the expression
// https?://[^\s)>\]]+|\]\([^)\s]*\) would, scanning by hand: the regexp
// package took two thirds of the time of choosing a long note's passages.
func addresses(s string) [][]int {
	var out [][]int
	for i := 0; i < len(s); {
		j := strings.IndexAny(s[i:], "h]")
		if j < 0 {
			break
		}
		start := i + j
		end := start + 1
		switch {
		case s[start] == 'h' && (strings.HasPrefix(s[start:], "http://") || strings.HasPrefix(s[start:], "https://")):
			scheme := start + strings.Index(s[start:], "//") + 2
			end = scheme
			for end < len(s) && !addressStop(s[end], ")>]") {
				end++
			}
			if end == scheme { // nothing after the scheme: not an address
				end = start + 1
				break
			}
			out = append(out, []int{start, end})
		case s[start] == ']' && start+1 < len(s) && s[start+1] == '(':
			k := start + 2
			for k < len(s) && !addressStop(s[k], ")") {
				k++
			}
			if k < len(s) && s[k] == ')' {
				end = k + 1
				out = append(out, []int{start, end})
			}
		}
		i = end
	}
	return out
}

// addressStop reports whether b ends an address: ASCII white space, as the
// regexp \s, or one of stops.
func addressStop(b byte, stops string) bool {
	switch b {
	case ' ', '\t', '\n', '\f', '\r':
		return true
	}
	return strings.IndexByte(stops, b) >= 0
}
