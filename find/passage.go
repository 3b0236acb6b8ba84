// Package find turns a ranked answer into what an agent reads: cards that
// quote the passages of each note where the question's rare words weigh
// most, with the note's links in and out, inside a size aim.
package find

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/omh-notes/omh/retrieve"
)

// PassageRunes is the length a passage aims at, in characters.
const PassageRunes = 160

// valueRunes is how far a passage may run on past its last match to finish
// a short value ("timeout: 30 s", "fails with EBUSY"), so a value that
// follows its label stays on the card.
const valueRunes = 32

// Passage is a quoted part of a note: the text shown, and the byte span of
// the raw source it was cut from, relative to the note file.
type Passage struct {
	Text  string `json:"text"`
	Start int    `json:"start"`
	End   int    `json:"end"`
}

// secondShare is how much a second passage must weigh, against the first,
// to be worth its characters: a second passage that only brings a common
// word ("does", "the") crowds out another note's first passage.
const secondShare = 0.25

// match is one occurrence of a question term in the body.
type match struct {
	start, end int
	term       string
}

// window is a run of matches that fits in one passage.
type window struct {
	first, last int // indexes into the matches
	score       float64
	tie         float64
}

// Passages picks up to two passages of body, which starts at byte offset
// base of the note file. weight gives each question term's rarity; terms in
// title are shown by the card's header already, so they only break ties.
// The first passage is the window where the question's rarest terms weigh
// most, its matches centred; a second is added only when another part of
// the body holds a question term the first passage and the title lack.
func Passages(body string, base int, weight map[string]float64, title map[string]bool) []Passage {
	var matches []match
	hidden := addresses(body)
	retrieve.EachToken(body, func(start, end int, term string) {
		for len(hidden) > 0 && hidden[0][1] <= start {
			hidden = hidden[1:]
		}
		if len(hidden) > 0 && hidden[0][0] <= start {
			return // inside a URL or a link's destination: not prose
		}
		if _, ok := weight[term]; ok {
			matches = append(matches, match{start, end, term})
		}
	})
	if len(matches) == 0 {
		if p, ok := opening(body, base); ok {
			return []Passage{p}
		}
		return nil
	}
	best, ok := bestWindow(body, matches, func(term string) (float64, float64) {
		if title[term] {
			return 0, weight[term]
		}
		return weight[term], 0
	}, nil)
	if !ok {
		return nil
	}
	first, start, end := cut(body, matches, best, base, 0, len(body))
	out := []Passage{first}
	// Terms the first passage and the title already show count for nothing
	// in the second; a second passage must bring a term of its own.
	shown := map[string]bool{}
	for t := range title {
		shown[t] = true
	}
	for _, m := range matches {
		if m.start >= start && m.end <= end {
			shown[m.term] = true
		}
	}
	second, ok := bestWindow(body, matches, func(term string) (float64, float64) {
		if shown[term] {
			return 0, 0
		}
		return weight[term], 0
	}, func(w window) bool { return matches[w.last].end <= start || matches[w.first].start >= end })
	if ok && second.score > 0 && second.score >= secondShare*best.score {
		// The second passage stays clear of the first.
		lo, hi := end, len(body)
		if matches[second.last].end <= start {
			lo, hi = 0, start
		}
		p, _, _ := cut(body, matches, second, base, lo, hi)
		out = append(out, p)
	}
	return out
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

// bestWindow scores every run of matches that fits in a passage by the
// distinct terms it holds, and returns the best: highest score, then
// highest tie-breaker, then the tighter run, then the earlier one.
func bestWindow(body string, matches []match, value func(term string) (score, tie float64), allowed func(window) bool) (window, bool) {
	var best window
	found := false
	for i := range matches {
		seen := map[string]bool{}
		w := window{first: i}
		for j := i; j < len(matches); j++ {
			if j > i && utf8.RuneCountInString(body[matches[i].start:matches[j].end]) > PassageRunes {
				break
			}
			if t := matches[j].term; !seen[t] {
				seen[t] = true
				s, tie := value(t)
				w.score += s
				w.tie += tie
			}
			w.last = j
			if allowed != nil && !allowed(w) {
				continue
			}
			if !found || better(body, matches, w, best) {
				best, found = w, true
			}
		}
	}
	return best, found
}

func better(body string, matches []match, a, b window) bool {
	if a.score != b.score {
		return a.score > b.score
	}
	if a.tie != b.tie {
		return a.tie > b.tie
	}
	spanA := matches[a.last].end - matches[a.first].start
	spanB := matches[b.last].end - matches[b.first].start
	if spanA != spanB {
		return spanA < spanB
	}
	return matches[a.first].start < matches[b.first].start
}

// cut widens a window to about PassageRunes with its matches in the middle,
// within body[lo:hi]; snaps both ends to word boundaries; and runs on to
// finish a short value after the last match. It returns the passage and its
// span in body.
func cut(body string, matches []match, w window, base, lo, hi int) (Passage, int, int) {
	a, b := matches[w.first].start, matches[w.last].end
	spare := PassageRunes - utf8.RuneCountInString(body[a:b])
	var start, end int
	if h, ok := headingAt(body, a, lo); ok {
		// A heading that holds the question's words is followed by what
		// answers them: open on the heading and run on below it.
		start = h
		end = forward(body, b, PassageRunes-utf8.RuneCountInString(body[h:b]), hi)
	} else {
		start = back(body, a, spare/2, lo)
		// Room the start could not use goes to the end, and room the end
		// could not use goes back to the start.
		end = forward(body, b, spare-utf8.RuneCountInString(body[start:a]), hi)
		start = back(body, start, spare-utf8.RuneCountInString(body[start:a])-utf8.RuneCountInString(body[b:end]), lo)
		start = sentenceStart(body, start, lo)
	}
	start = wordStart(body, start, lo, a)
	end = wordEnd(body, end, b, hi)
	end = finishSentence(body, end, hi)
	text := collapse(body[start:end])
	if start > 0 && body[start-1] != '\n' {
		text = "…" + text
	}
	if end < len(body) && body[end] != '\n' && body[end] != '\r' {
		text += "…"
	}
	return Passage{Text: text, Start: base + start, End: base + end}, start, end
}

// headingAt reports where the line holding i starts when that line is a
// markdown heading, not before lo.
func headingAt(s string, i, lo int) (int, bool) {
	start := strings.LastIndexByte(s[:i], '\n') + 1
	if start < lo {
		return 0, false
	}
	line := strings.TrimLeft(s[start:i], " ")
	return start, strings.HasPrefix(line, "#")
}

// sentenceRunes is how far a passage's start moves back to begin its
// sentence: an answer often opens the sentence whose end holds the
// question's words ("PayPal purchases are processed in CAD. You may incur a
// foreign transaction fee").
const sentenceRunes = 100

// sentenceStart moves a start that falls inside a sentence back to where
// the sentence begins, when that is within sentenceRunes and not before lo.
func sentenceStart(s string, i, lo int) int {
	j := i
	for n := 0; j > lo && n < sentenceRunes; n++ {
		r, size := utf8.DecodeLastRuneInString(s[:j])
		if r == '\n' {
			return j
		}
		if unicode.IsSpace(r) && j-size > lo {
			if prev := lastRune(s[:j-size]); prev == '.' || prev == '!' || prev == '?' || prev == ':' {
				return j
			}
		}
		j -= size
	}
	if j == lo {
		return j
	}
	return i
}

// back moves i left by up to n runes, not before lo.
func back(s string, i, n, lo int) int {
	for ; n > 0 && i > lo; n-- {
		_, size := utf8.DecodeLastRuneInString(s[:i])
		i -= size
	}
	return i
}

// forward moves i right by up to n runes, not past hi.
func forward(s string, i, n, hi int) int {
	for ; n > 0 && i < hi; n-- {
		_, size := utf8.DecodeRuneInString(s[i:])
		i += size
	}
	return i
}

// maxSnapRunes bounds how far a cut moves to reach a space: text written
// without spaces (Chinese, Japanese, a long URL) is cut where it falls.
const maxSnapRunes = 24

// wordStart moves a start that falls inside a word (a run of non-space
// characters, so "bind-mounted" is one) back to the word's beginning (not
// before lo), or, if the word is too long for that, forward to its end (not
// past limit), so no passage opens with half a word. Leading spaces are
// dropped.
func wordStart(s string, i, lo, limit int) int {
	if i > lo && !unicode.IsSpace(lastRune(s[:i])) {
		if j, ok := runTo(s, i, -1, lo); ok {
			i = j
		} else if j, ok := runTo(s, i, +1, limit); ok {
			i = j
		}
	}
	for i < limit && unicode.IsSpace(firstRune(s[i:])) {
		i += utf8.RuneLen(firstRune(s[i:]))
	}
	return i
}

// wordEnd moves an end that falls inside a word forward to the word's end
// (not past hi), or, if the word is too long for that, back to its
// beginning (not before limit). Trailing spaces are dropped.
func wordEnd(s string, i, limit, hi int) int {
	if i < hi && !unicode.IsSpace(firstRune(s[i:])) {
		if j, ok := runTo(s, i, +1, hi); ok {
			i = j
		} else if j, ok := runTo(s, i, -1, limit); ok {
			i = j
		}
	}
	for i > limit && unicode.IsSpace(lastRune(s[:i])) {
		i -= utf8.RuneLen(lastRune(s[:i]))
	}
	return i
}

// runTo walks from i in direction dir to the nearest space (or to bound),
// within maxSnapRunes; ok is false when no such place is that near.
func runTo(s string, i, dir, bound int) (int, bool) {
	for n := 0; n <= maxSnapRunes; n++ {
		if i == bound {
			return i, true
		}
		var r rune
		var size int
		if dir > 0 {
			r, size = utf8.DecodeRuneInString(s[i:])
		} else {
			r, size = utf8.DecodeLastRuneInString(s[:i])
		}
		if unicode.IsSpace(r) {
			return i, true
		}
		i += dir * size
	}
	return i, false
}

func firstRune(s string) rune {
	r, _ := utf8.DecodeRuneInString(s)
	return r
}

func lastRune(s string) rune {
	r, _ := utf8.DecodeLastRuneInString(s)
	return r
}

// finishSentence runs a passage on to the end of the sentence it stops
// in, when that end is within sentenceRunes: the words after a question's
// last match are often the answer ("If your firewall supports it, we
// recommend whitelisting sync-*.obsidian.md."). Failing that, it finishes
// a short value.
func finishSentence(s string, end, hi int) int {
	limit := forward(s, end, sentenceRunes, hi)
	for i := end; i < limit; {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch r {
		case '\n', '\r':
			return i
		case '.', '!', '?':
			if next, _ := utf8.DecodeRuneInString(s[i+size:]); i+size >= len(s) || unicode.IsSpace(next) {
				return i + size
			}
		}
		i += size
	}
	return finishValue(s, end, hi)
}

// finishValue runs a passage on to the end of its clause when that end is
// near: the rest of a line, up to a sentence's full stop or a list's comma.
func finishValue(s string, end, hi int) int {
	limit := forward(s, end, valueRunes, hi)
	for i := end; i < limit; {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch r {
		case '\n', '\r':
			return i
		case '.', ';', ',', '!', '?':
			// A full stop inside a number or a name ("1.5", "os.Rename")
			// does not end the clause.
			if next, _ := utf8.DecodeRuneInString(s[i+size:]); i+size >= len(s) || unicode.IsSpace(next) {
				return i + size
			}
		}
		i += size
	}
	return end
}

// opening is the start of a body with no question term in it: the note
// matched by its name, and its first words say what it is.
func opening(body string, base int) (Passage, bool) {
	start := 0
	for start < len(body) {
		r, size := utf8.DecodeRuneInString(body[start:])
		if !unicode.IsSpace(r) {
			break
		}
		start += size
	}
	if start == len(body) {
		return Passage{}, false
	}
	end := wordEnd(body, forward(body, start, PassageRunes, len(body)), start, len(body))
	if end == start {
		end = forward(body, start, PassageRunes, len(body))
	}
	text := collapse(body[start:end])
	if end < len(body) && body[end] != '\n' {
		text += "…"
	}
	return Passage{Text: text, Start: base + start, End: base + end}, true
}

// collapse puts a passage on one line: every run of white space becomes one
// space.
func collapse(s string) string {
	return strings.Join(strings.Fields(s), " ")
}
