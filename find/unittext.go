// How a passage's units read as text: the headings they sit under, what
// joins them, and a table row or code block rendered for a card.

package find

import (
	"math"
	"strings"
	"unicode/utf8"

	"github.com/omh-notes/omh/token"
	"github.com/omh-notes/omh/vault"
)

// prefix is what a passage opens with: the path of headings it is under,
// "Heading › Sub: ", and the first line of the unit its first unit is read
// with (an item's parent item, the sentence before code) when the passage
// does not hold it. A one-line card's passage opens with neither: its
// header names the note, and in a line of 100 characters the path took
// the room of the words around the match (on the tune questions, lines of 100
// characters with the path carried two answers fewer than lines without
// it, with phrasings and without).
func (n *note) prefix(s span) string {
	if n.line {
		return ""
	}
	u := n.unit(s.lo)
	out := n.path(u.Heading)
	if u.Lead >= 0 && n.d.Units[u.Lead].Kind != vault.HeaderUnit && (s.lo == 0 || n.quoted[s.lo-1] != u.Lead) {
		lead := n.d.Units[u.Lead]
		text := shorten(plainLines(firstLine(n.content[lead.Start:lead.End])), leadRunes)
		if strings.HasSuffix(text, ":") {
			out += text + " "
		} else if text != "" {
			out += text + " › "
		}
	}
	return out
}

// leadRunes and pathRunes bound the context a passage opens with.
const (
	leadRunes = 60
	pathRunes = 60
)

// path is the headings above heading h joined with " › ", ending ": ";
// the note's title as a level-1 heading is left out (the header shows it).
func (n *note) path(h int) string {
	if h < 0 {
		return ""
	}
	if p, ok := n.paths[h]; ok {
		return p
	}
	var names []string
	level := math.MaxInt
	for i := h; i >= 0; i-- {
		hd := n.d.Headings[i]
		if hd.Level >= level {
			continue
		}
		level = hd.Level
		if hd.Level == 1 && strings.EqualFold(hd.Text, n.title) || hd.Text == "" {
			continue
		}
		names = append(names, hd.Text)
	}
	for i, j := 0, len(names)-1; i < j; i, j = i+1, j-1 {
		names[i], names[j] = names[j], names[i]
	}
	p := strings.Join(names, " › ")
	if utf8.RuneCountInString(p) > pathRunes && len(names) > 1 {
		p = names[len(names)-1]
	}
	if p != "" {
		if r, _ := utf8.DecodeLastRuneInString(p); strings.ContainsRune(".:?!。：？！", r) {
			p += " "
		} else {
			p += ": "
		}
	}
	n.paths[h] = p
	return p
}

// separator joins the unit at p to the one before it: a space between
// sentences of one paragraph and after the sentence that introduces code,
// " › " after the item a nested item hangs from, " · " between other
// blocks (items, rows, paragraphs).
func (n *note) separator(p int) string {
	prev, u := n.unit(p-1), n.unit(p)
	switch {
	case u.Lead == n.quoted[p-1] && u.Kind == vault.CodeUnit:
		return " "
	case u.Lead == n.quoted[p-1] && u.Kind == vault.ItemUnit:
		return " › "
	case u.Kind == vault.SentenceUnit && strings.Count(n.content[prev.End:u.Start], "\n") <= 1:
		return " "
	}
	return " · "
}

// unitText is the text of the unit at position p, a long one clipped to
// about unitRunes around the question's words.
func (n *note) unitText(p int) string {
	t := n.render(n.quoted[p])
	if utf8.RuneCountInString(t) > unitRunes {
		return window(t, unitRunes, n)
	}
	return t
}

// unitRunes and rowRunes bound one unit as a passage quotes it: a line of
// a long paragraph or a wide table row was quoted whole, 700 characters
// to hand an agent one cell. A row is clipped by its cells, keeping the
// first (which names the row) and those holding a question's word; other
// units around the words. On the tune questions no answer on a card was
// lost to either bound (a bound of 250 lost one).
const (
	unitRunes = 400
	rowRunes  = 300
)

// render is unit i as text: a table row as "header: cell; …", code as
// written, anything else without its markup.
func (n *note) render(i int) string {
	if t, ok := n.text[i]; ok {
		return t
	}
	u := n.d.Units[i]
	src := n.content[u.Start:u.End]
	var t string
	switch u.Kind {
	case vault.RowUnit:
		header := ""
		if u.Lead >= 0 {
			h := n.d.Units[u.Lead]
			header = n.content[h.Start:h.End]
		}
		t = clipCells(rowCells(header, src), rowRunes, n.holdsQuestionTerm)
	case vault.CodeUnit:
		t = collapse(src)
	default:
		t = plainLines(src)
	}
	n.text[i] = t
	return t
}

// cut quotes the unit at p alone, its text shortened to fit room around
// the question's terms.
func (n *note) cut(p, room int) Passage {
	whole := n.passage(span{p, p})
	over := utf8.RuneCountInString(passageLine(whole)) - room
	keep := utf8.RuneCountInString(whole.Text) - over - 2 // two ellipses
	whole.Text = window(whole.Text, max(keep, minCutRunes), n)
	return whole
}

// minCutRunes is the least of a unit a card quotes, however small its
// room.
const minCutRunes = 40

// statementSections name the section each type of record states itself
// in: what a card about the record quotes first.
var statementSections = map[string]string{"finding": "Claim", "decision": "Decision", "issue": "Problem", "citation": "Source"}

// leadWith makes the units under the section named section (and the
// headings below it) the ones the note's card quotes first.
func (n *note) leadWith(section string) {
	parents := headingParents(n.d.Headings)
	for p, i := range n.quoted {
		for h := n.d.Units[i].Heading; h >= 0; h = parents[h] {
			if vault.SameHeading(n.d.Headings[h].Text, section) {
				n.lead = append(n.lead, p)
				break
			}
		}
	}
}

// holdsQuestionTerm reports whether text holds a term the question weighs.
func (n *note) holdsQuestionTerm(text string) bool {
	found := false
	token.EachToken(text, func(_, _ int, term string) {
		found = found || n.isQuestionTerm(term)
	})
	return found
}
