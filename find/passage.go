// Package find turns a ranked answer into what an agent reads: cards that
// quote the passages of each note that answer the question, with the
// note's links in and out, inside a size aim.
package find

import (
	"math"
	"slices"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/omh-notes/omh/retrieve"
	"github.com/omh-notes/omh/token"
	"github.com/omh-notes/omh/vault"
	"github.com/omh-notes/omh/vault/corpus"
)

// Passage is a quoted part of a note: the text shown, the byte span of the
// source it was cut from and its lines, relative to the note file.
type Passage struct {
	Text      string
	Start     int
	End       int
	LineStart int
	LineEnd   int
}

// Passages are chosen among a note's units (sentences, list items, table
// rows, definitions, runs of code lines: see vault.Unit) as
// Elasticsearch's highlighter chooses sentences: each unit is scored as a
// tiny document with the ranker's own term weights, the best ones are
// quoted, and each grows by its neighbours while the card has room.
const (
	// k1 saturates a term's count within a unit, as BM25 does in a note:
	// a unit that says a word three times is not three times as good.
	k1 = 1.2
	// contextShare is what a question term counts for when it is in the
	// headings above a unit or in the unit it is read with (a row's header,
	// an item's parent, the sentence before code) rather than in the unit.
	contextShare = 0.5
	// adjacentShare is what a neighbour's own score adds to a unit: of two
	// equal units, the one next to other matches sits in the part of the
	// note that is about the question.
	adjacentShare = 0.3
	// titleShare is what a term of the note's title counts for: the card's
	// header shows the title already, and a title word is in most of the
	// note's sentences without telling them apart.
	titleShare = 0.3
	// otherShare is how much a unit must weigh, against the best, to be
	// quoted apart from it. On the tune questions of the real vaults
	// without phrasings, 0.3 rather than 0.5 put four more answers on the
	// first card (obsidian-037's "Delete the obsidian-VERSION.asar file" a
	// section below the best sentence), one more with phrasings, at 190
	// characters a reply; 0.4 kept two of them.
	otherShare = 0.3
	// headingGain multiplies the score of every unit under headings that
	// say what the question asks: by 1 + headingGain × the share of the
	// question's weight those headings hold. A heading phrased like the
	// question ("Switch back to public versions on desktop") marks the
	// section that answers it even when its steps share no word with the
	// question. On the tune questions gains 2, 3 and 4 quote the same
	// answers (one more on obsidian-help-en, none lost); 3 is the middle.
	headingGain = 3
	// headingWords is how many of the question's terms, besides the note
	// title's, a section's headings must hold to multiply its units: a
	// single word names the note's subject ("Hashtags" in a note on tags,
	// "tabs and windows" in the note on tabs), not the part that answers,
	// and multiplying on one word lost two answers on the tune questions.
	headingWords = 2
)

// question is what passage choice needs of a question: the weight of each
// term that carries meaning.
type question struct {
	terms  []string
	weight []float64
	index  map[string]int
}

// newQuestion weighs the question's terms with the ranker's idf over the
// n notes of the store, times the share of the phrasings that hold the
// term, the question itself voting twice: a word of the question and of
// every other phrasing weighs its idf, a word only a guessed answer holds
// a fraction of it, so a hypothetical answer's invented words do not pull
// a card away from the passage the question asks for. With the question
// alone every term weighs its idf. Function words weigh nothing.
func newQuestion(res retrieve.Result) question {
	q := question{index: map[string]int{}}
	asked := res.Question
	counts := asked.Counting()
	votes := make([]int, len(asked.Terms))
	for i, uses := range asked.Uses {
		vote := 1
		if i == 0 {
			vote = 2
		}
		for _, u := range uses {
			votes[u.Term] += vote
		}
	}
	voters := float64(len(asked.Uses) + 1)
	for i, t := range asked.Terms {
		if t.DF == 0 || !counts[i] {
			continue
		}
		q.index[t.Term] = len(q.terms)
		q.terms = append(q.terms, t.Term)
		w := retrieve.IDF(res.Count, t.DF)
		if len(asked.Uses) > 1 {
			w *= float64(votes[i]) / voters
		}
		q.weight = append(q.weight, w)
	}
	return q
}

// note is one note's units scored for a question, with their text
// rendered as they are needed.
type note struct {
	content string
	d       corpus.Detail
	title   string
	q       question
	quoted  []int     // indexes into d.Units of the units that can be quoted, in order
	score   []float64 // by position in quoted
	any     bool      // some unit holds a question term
	// lead are the positions in quoted of the units of a record's
	// statement (its Claim, Decision, ...): the best of them is quoted first.
	lead  []int
	text  map[int]string
	paths map[int]string
	// line: the note's card is one line, whose passage opens with no
	// heading path (see prefix).
	line bool
}

// newNote scores the units of content for q; title is the note's title.
func newNote(content string, d corpus.Detail, title string, q question) *note {
	n := &note{content: content, d: d, title: title, q: q, text: map[int]string{}, paths: map[int]string{}}
	weight := append([]float64(nil), q.weight...)
	inTitle := make([]bool, len(q.terms))
	for _, t := range token.Terms(title) {
		if i, ok := q.index[t]; ok && !inTitle[i] {
			inTitle[i] = true
			weight[i] *= titleShare
		}
	}
	held := make([][]int, len(d.Units)) // question terms in each unit
	own := make([]float64, len(d.Units))
	counts := make([]int, len(q.terms))
	shown := make([]bool, len(d.Units))
	for i, u := range d.Units {
		if u.Start < 0 || u.End > len(content) || u.Start >= u.End || u.Lead >= i {
			continue // stored for other bytes than these: quote nothing from it
		}
		// A unit is scored on the words it shows: a link's destination and
		// an embed's target are not read.
		text := n.render(i)
		if u.Kind == vault.RowUnit {
			text = plainLines(content[u.Start:u.End]) // its header's words are context
		}
		shown[i] = text != ""
		held[i], own[i] = unitMatches(text, q, weight, counts)
	}
	headingTerms := make([][]int, len(d.Headings))
	for h, hd := range d.Headings {
		headingTerms[h] = termsIn(hd.Text, q)
	}
	parents := headingParents(d.Headings)
	for i, u := range d.Units {
		if u.Kind == vault.HeaderUnit || !shown[i] {
			continue
		}
		n.quoted = append(n.quoted, i)
		s := own[i]
		if s > 0 {
			n.any = true
		}
		var context []int
		for h := u.Heading; h >= 0; h = parents[h] {
			context = append(context, headingTerms[h]...)
		}
		if u.Lead >= 0 {
			context = append(context, held[u.Lead]...)
		}
		if len(context) > 0 {
			n.any = true
		}
		s += contextShare * weightOf(without(context, held[i]), weight)
		n.score = append(n.score, s)
	}
	// A neighbour under the same heading adds a little of its own score.
	for p, i := range n.quoted {
		for _, o := range []int{p - 1, p + 1} {
			if o >= 0 && o < len(n.quoted) && d.Units[n.quoted[o]].Heading == d.Units[i].Heading {
				n.score[p] += adjacentShare * own[n.quoted[o]]
			}
		}
	}
	gain := sectionGain(headingTerms, parents, inTitle, weight)
	for p, i := range n.quoted {
		if h := d.Units[i].Heading; h >= 0 {
			n.score[p] *= gain[h]
		}
	}
	return n
}

// sectionGain is, for each heading, what the scores of the units under it
// are multiplied by: 1 + headingGain × the share of the question's weight
// held by the heading and those above it, when they hold at least
// headingWords of the question's terms that are not in the title; 1
// otherwise.
func sectionGain(headingTerms [][]int, parents []int, inTitle []bool, weight []float64) []float64 {
	total := 0.0
	for _, w := range weight {
		total += w
	}
	gain := make([]float64, len(headingTerms))
	for h := range headingTerms {
		gain[h] = 1
		var terms []int
		for k := h; k >= 0; k = parents[k] {
			terms = append(terms, headingTerms[k]...)
		}
		terms = without(terms, nil)
		words := 0
		for _, t := range terms {
			if !inTitle[t] {
				words++
			}
		}
		if words >= headingWords && total > 0 {
			gain[h] = 1 + headingGain*weightOf(terms, weight)/total
		}
	}
	return gain
}

// unitMatches finds the question's terms in a unit's text, leaving out
// web addresses and link destinations, and scores them: each term's
// weight times its saturated count.
func unitMatches(text string, q question, weight []float64, counts []int) (held []int, score float64) {
	hidden := addresses(text)
	token.EachToken(text, func(start, end int, term string) {
		for len(hidden) > 0 && hidden[0][1] <= start {
			hidden = hidden[1:]
		}
		if len(hidden) > 0 && hidden[0][0] <= start {
			return
		}
		if i, ok := q.index[term]; ok {
			if counts[i] == 0 {
				held = append(held, i)
			}
			counts[i]++
		}
	})
	for _, i := range held {
		tf := float64(counts[i])
		score += weight[i] * tf * (k1 + 1) / (tf + k1)
		counts[i] = 0
	}
	return held, score
}

// termsIn lists the question's terms in a heading's text.
func termsIn(text string, q question) []int {
	var out []int
	seen := map[int]bool{}
	token.EachToken(text, func(_, _ int, term string) {
		if i, ok := q.index[term]; ok && !seen[i] {
			seen[i] = true
			out = append(out, i)
		}
	})
	return out
}

// without lists the terms of a not in b, each once.
func without(a, b []int) []int {
	var out []int
	for _, t := range a {
		dup := false
		for _, u := range b {
			dup = dup || t == u
		}
		for _, u := range out {
			dup = dup || t == u
		}
		if !dup {
			out = append(out, t)
		}
	}
	return out
}

func weightOf(terms []int, weight []float64) float64 {
	s := 0.0
	for _, t := range terms {
		s += weight[t]
	}
	return s
}

// headingParents gives each heading the index of the nearest heading
// before it of a higher level, or -1.
func headingParents(hs []vault.Heading) []int {
	parents := make([]int, len(hs))
	var stack []int
	for i, h := range hs {
		for len(stack) > 0 && hs[stack[len(stack)-1]].Level >= h.Level {
			stack = stack[:len(stack)-1]
		}
		parents[i] = -1
		if len(stack) > 0 {
			parents[i] = stack[len(stack)-1]
		}
		stack = append(stack, i)
	}
	return parents
}

// span is a run of quoted units, by position in note.quoted, inclusive.
type span struct{ lo, hi int }

// choose picks the passages that fit in room characters of card lines:
// the best unit first, then, when apart is set, others weighing at least
// otherShare of it. Each is read with the unit after it and the one before
// while its passage stays within spanRunes, and the first grows by its
// neighbours to bestRunes. A note without any question term shows its
// opening. It returns the passages the first first, then by score: what
// an agent reads first is what answers.
func (n *note) choose(room int, apart bool) []Passage {
	if len(n.quoted) == 0 || room <= 0 {
		return nil
	}
	order := make([]int, len(n.quoted))
	for p := range order {
		order[p] = p
	}
	sort.SliceStable(order, func(a, b int) bool { return n.score[order[a]] > n.score[order[b]] })
	best := n.score[order[0]]
	switch {
	case len(n.lead) > 0:
		// A record is read by what it states: its statement's best unit
		// leads, the rest as they score.
		first := n.lead[0]
		for _, p := range n.lead {
			if n.score[p] > n.score[first] {
				first = p
			}
		}
		order = append([]int{first}, slices.DeleteFunc(order, func(p int) bool { return p == first })...)
	case !n.any || best <= 0:
		order = []int{0} // the opening
	}
	var spans []span
	for _, p := range order {
		if len(spans) > 0 && (!apart || n.score[p] <= 0 || n.score[p] < otherShare*best || n.holds(spans, p)) {
			continue
		}
		trial := n.insert(spans, p)
		if n.cost(trial) > room {
			if len(spans) == 0 {
				// The best unit alone is longer than the room: it is quoted
				// cut to fit, around its matches, when the room holds
				// enough of it to read.
				if cut := n.cut(p, room); utf8.RuneCountInString(passageLine(cut)) <= room {
					return []Passage{cut}
				}
				return nil
			}
			continue
		}
		spans = trial
		// A unit is read with its neighbours: the one after it first (what
		// follows a match is more often its answer), then the one before.
		for _, o := range []int{p + 1, p - 1} {
			if o >= 0 && o < len(n.quoted) && !n.holds(spans, o) && n.sameSection(span{p, p}, o) {
				if t := n.insert(spans, o); n.cost(t) <= room && n.cost([]span{around(t, o)}) <= spanRunes {
					spans = t
				}
			}
		}
	}
	spans = n.growFirst(spans, order[0], room)
	first := around(spans, order[0])
	rest := n.byScore(slices.DeleteFunc(slices.Clone(spans), func(s span) bool { return s == first }))
	out := []Passage{n.passage(first)}
	for _, s := range rest {
		out = append(out, n.passage(s))
	}
	return out
}

// A passage is short enough to read at a glance, so the answer an agent
// wants sits early in the reply. spanRunes bounds a passage grown by its
// neighbours, bestRunes the first one, grown further. Measured with omh
// eval on the tune questions with phrasings (answer on a card / within
// the reply's first 1,000 characters): growing every passage to fill the
// card's room, as cards did, 0.893 / 0.714, the reply's median 2,804
// characters; no growth past the neighbours, 0.869 / 0.738; the first
// grown to 400 and each to 250, 0.869 / 0.750 at a median of 1,854 (with
// rooms cut to fit, see leadRooms); 300 and 200, 0.845 / 0.726.
const (
	spanRunes = 250
	bestRunes = 400
)

// around is the span of spans that holds position p.
func around(spans []span, p int) span {
	for _, s := range spans {
		if s.lo <= p && p <= s.hi {
			return s
		}
	}
	return span{p, p}
}

// growFirst widens the span holding position p by its neighbours under
// the same heading, the one after it first, while it stays within
// bestRunes and the spans within room.
func (n *note) growFirst(spans []span, p, room int) []span {
	for {
		at := around(spans, p)
		grown := false
		for _, o := range []int{at.hi + 1, at.lo - 1} {
			if o < 0 || o >= len(n.quoted) || n.holds(spans, o) || !n.sameSection(at, o) {
				continue
			}
			if trial := n.insert(spans, o); n.cost(trial) <= room && n.cost([]span{around(trial, p)}) <= bestRunes {
				spans, grown = trial, true
				break
			}
		}
		if !grown {
			return spans
		}
	}
}

func (n *note) holds(spans []span, p int) bool {
	for _, s := range spans {
		if s.lo <= p && p <= s.hi {
			return true
		}
	}
	return false
}

// insert adds position p to spans, which are in order, merging spans that
// touch under the same heading.
func (n *note) insert(spans []span, p int) []span {
	all := make([]span, 0, len(spans)+1)
	added := false
	for _, s := range spans {
		if !added && p < s.lo {
			all, added = append(all, span{p, p}), true
		}
		all = append(all, s)
	}
	if !added {
		all = append(all, span{p, p})
	}
	out := all[:1]
	for _, s := range all[1:] {
		last := &out[len(out)-1]
		if last.hi+1 == s.lo && n.sameSection(*last, s.lo) {
			last.hi = s.hi
			continue
		}
		out = append(out, s)
	}
	return out
}

// byScore lists spans by the best score they hold, best first.
func (n *note) byScore(spans []span) []span {
	best := func(s span) float64 {
		b := math.Inf(-1)
		for p := s.lo; p <= s.hi; p++ {
			b = max(b, n.score[p])
		}
		return b
	}
	out := append([]span(nil), spans...)
	sort.SliceStable(out, func(a, b int) bool { return best(out[a]) > best(out[b]) })
	return out
}

// sameSection reports whether the unit at position p is under the heading
// of span s.
func (n *note) sameSection(s span, p int) bool {
	return n.unit(p).Heading == n.unit(s.lo).Heading
}

func (n *note) unit(p int) vault.Unit { return n.d.Units[n.quoted[p]] }

// cost is how many characters the spans take as card lines.
func (n *note) cost(spans []span) int {
	c := 0
	for _, s := range spans {
		c += utf8.RuneCountInString(passageLine(n.passage(s)))
	}
	return c
}

// passage renders a span: the headings it is under, the unit it is read
// with when that is not part of it, and its units' text.
func (n *note) passage(s span) Passage {
	first, last := n.unit(s.lo), n.unit(s.hi)
	var b strings.Builder
	b.WriteString(n.prefix(s))
	for p := s.lo; p <= s.hi; p++ {
		if p > s.lo {
			b.WriteString(n.separator(p))
		}
		b.WriteString(n.unitText(p))
	}
	return Passage{Text: b.String(), Start: first.Start, End: last.End, LineStart: first.Line, LineEnd: last.EndLine}
}
