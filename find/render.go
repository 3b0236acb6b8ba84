package find

import (
	"fmt"
	"strings"

	"github.com/omh-notes/omh/proof"
	"github.com/omh-notes/omh/retrieve"
	"github.com/omh-notes/omh/vault"
)

// maxRefs bounds the links shown on one line, and maxNeighbours the
// header-only cards of linked notes under one card; the rest are counted.
// A hub note links to dozens of notes, and listing them all crowded the
// passages, which carry the answer, out of the size aim.
const (
	maxRefs       = 2
	maxNeighbours = 1
	maxWords      = 8 // missing question words listed on a matched line
)

// Text renders the reply as cards, ending with the commit line.
func (r Reply) Text() string {
	res := r.Result
	if res.StoreEmpty || len(res.Hits) == 0 && res.Omitted == 0 {
		// The tree's sentences say it best; a card reply without cards is
		// the same answer.
		return retrieve.RenderTree(res, r.Commit)
	}
	var b strings.Builder
	if line := retrieve.VerdictLine(res); line != "" {
		b.WriteString(line + "\n\n")
	}
	for i, c := range r.Cards {
		h := c.Hit
		if h.Depth == 1 {
			continue // drawn under the card that reached it
		}
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(cardHeader(c) + "\n")
		if h.Explain != nil {
			b.WriteString("  " + retrieve.ExplainLine(h.Score, h.Explain) + "\n")
		}
		for _, p := range c.Passages {
			b.WriteString(passageLine(p))
		}
		if c.Changed {
			b.WriteString(changedLine)
		}
		if c.Blob != nil {
			b.WriteString(blobLine(c.Blob))
		}
		if len(c.Stale) > 0 {
			b.WriteString(staleLine(c.Stale))
		}
		if line := matchedLine(c); line != "" {
			b.WriteString("  " + line + "\n")
		}
		if c.ShowIn {
			b.WriteString(r.inLine(i))
		}
		if c.ShowLinks {
			b.WriteString(r.linksLine(i))
		}
		neighbours := r.neighbours(i)
		shown := r.shownNeighbours(i)
		for _, n := range neighbours[:shown] {
			fmt.Fprintf(&b, "  ↳ %s\n", cardHeader(n))
		}
		if more := len(neighbours) - shown + h.MoreLinked; more > 0 && rank(r.Cards, i) <= fullCards {
			and := "and "
			if shown == 0 {
				and = ""
			}
			fmt.Fprintf(&b, "  ↳ %s%d more linked %s\n", and, more, plural(more, "note", "notes"))
		}
	}
	if res.Omitted > 0 || r.PassagesOmitted > 0 || r.LinesOmitted > 0 || r.Compacted {
		b.WriteByte('\n')
	}
	if res.Omitted > 0 {
		fmt.Fprintf(&b, "… %d more %s; ask a narrower question.\n", res.Omitted, plural(res.Omitted, "match", "matches"))
	}
	if r.PassagesOmitted > 0 || r.LinesOmitted > 0 {
		b.WriteString(leftOutLine(r.PassagesOmitted, r.LinesOmitted, r.MaxChars))
	}
	if r.Compacted {
		b.WriteString(compactLine)
	}
	b.WriteString(retrieve.Footer(r.Commit, res.AsOf))
	return b.String()
}

// leftOutLine says what the size aim left out.
func leftOutLine(passages, lines, maxChars int) string {
	var left []string
	if passages > 0 {
		left = append(left, fmt.Sprintf("%d %s", passages, plural(passages, "passage", "passages")))
	}
	if lines > 0 {
		left = append(left, fmt.Sprintf("%d %s", lines, plural(lines, "links line", "links lines")))
	}
	return fmt.Sprintf("… %s left out to keep the reply near %d characters (--max-chars).\n", strings.Join(left, " and "), maxChars)
}

// compactLine says, once, what cards leave out by their rank.
var compactLine = fmt.Sprintf("… cards ranked %d+ leave out plain links, %d+ all links, %d+ passages; omh show KEY --lines A-B prints more of a note.\n",
	fullCards+1, verdictCards+1, len(cardRoom)+1)

// changedLine stands for the passages of a note changed since the
// snapshot an answer is from (another process is refreshing the cache).
const changedLine = "  changed since this snapshot: no passage quoted; the next refresh reads it again\n"

// inLine is card i's line of notes linking to it, or "".
func (r Reply) inLine(i int) string {
	refs, total := r.inRefs(i)
	if total == 0 {
		return ""
	}
	return "  in: " + refList(refs, total, r.Cards[i].Hit.Note.Layer, true) + "\n"
}

// inRefs are the links in that card i shows, by its rank, the first of
// them at least, and how many there are: all on the first card, verdicts
// to verdictCards, none below or on a linked note's card.
func (r Reply) inRefs(i int) ([]vault.Ref, int) {
	c := r.Cards[i]
	switch n := rank(r.Cards, i); {
	case c.Hit.Depth != 0 || n > verdictCards:
		return nil, 0
	case n > fullCards:
		var verdicts []vault.Ref
		for _, ref := range c.In {
			if ref.Verb != "" {
				verdicts = append(verdicts, ref)
			}
		}
		return verdicts, len(verdicts)
	}
	return c.shownIn, c.InCount
}

// linksLine is card i's line of links out that no linked-note header under
// it shows already, or "".
func (r Reply) linksLine(i int) string {
	c := r.Cards[i]
	if c.Hit.Depth != 0 {
		return ""
	}
	neighbours := r.neighbours(i)
	shown := map[string]bool{}
	for _, n := range neighbours[:r.shownNeighbours(i)] {
		shown[n.Hit.Note.Key] = true
	}
	links := unshown(c.Links, shown)
	if len(links) == 0 {
		return ""
	}
	return "  links: " + refList(links, len(links), c.Hit.Note.Layer, false) + "\n"
}

// shownNeighbours is how many of card i's linked notes get a header line:
// compact cards count them only.
func (r Reply) shownNeighbours(i int) int {
	if rank(r.Cards, i) > fullCards {
		return 0
	}
	return min(len(r.neighbours(i)), maxNeighbours)
}

// neighbours are the header-only cards of the notes card i links to.
func (r Reply) neighbours(i int) []Card {
	var out []Card
	for _, c := range r.Cards[i+1:] {
		if c.Hit.Depth == 0 {
			break
		}
		out = append(out, c)
	}
	return out
}

// unshown drops the links a neighbour card already shows.
func unshown(links []vault.Ref, shown map[string]bool) []vault.Ref {
	var out []vault.Ref
	for _, l := range links {
		if !shown[l.Key] {
			out = append(out, l)
		}
	}
	return out
}

// cardHeader is a card's first line: key, type, layer and date, and a
// proof record's standing.
func cardHeader(c Card) string {
	n := c.Hit.Note
	line := fmt.Sprintf("%s  %s · %s · %s", n.Key, n.Type, n.Layer, n.Date)
	if c.Standing != nil {
		line += " · " + stateLabel(*c.Standing, c.Retracted)
	}
	return line
}

// matchedLine says how many of the question's words the note holds and
// which it lacks: enough to judge a weak match, in a few words.
func matchedLine(c Card) string {
	total := len(c.Matched) + len(c.Missing)
	if total == 0 {
		return ""
	}
	line := fmt.Sprintf("matched %d/%d", len(c.Matched), total)
	if len(c.Matched) == 0 {
		line += " (the note matched by its name)"
	}
	if len(c.Missing) > 0 {
		line += " · missing: " + wordList(c.Missing)
	}
	return line
}

// wordList shows up to maxWords words and counts the rest.
func wordList(words []string) string {
	if len(words) <= maxWords {
		return strings.Join(words, " ")
	}
	return strings.Join(words[:maxWords], " ") + fmt.Sprintf(" +%d", len(words)-maxWords)
}

// refList shows links, the first of total: each note once per verb, with
// its own layer and date when its layer differs from the card's, and typed
// verbs named.
func refList(refs []vault.Ref, total int, layer vault.Layer, incoming bool) string {
	var parts []string
	for i, ref := range refs {
		if i == maxRefs {
			break
		}
		s := ref.Key
		if ref.Layer != layer {
			s += fmt.Sprintf(" (%s · %s)", ref.Layer, ref.Date)
		}
		if ref.Retracted != "" {
			s += fmt.Sprintf(" (retracted %s)", ref.Retracted)
		}
		if verb := ref.Verb; verb != "" {
			if v, _ := vault.LookupVerb(verb); v.Reverse != "" && incoming {
				verb = v.Reverse
			}
			s += " " + verb
		}
		parts = append(parts, s)
	}
	if total > maxRefs {
		parts = append(parts, fmt.Sprintf("+%d more", total-maxRefs))
	}
	return strings.Join(parts, ", ")
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// stateLabel is what a proof card's header adds after the date: the
// retraction, or the state with the records that decided it, and an
// issue's resolution.
func stateLabel(s proof.Standing, retracted vault.Date) string {
	var parts []string
	switch {
	case s.State == proof.Retracted:
		parts = append(parts, "retracted "+string(retracted))
	case len(s.By) > 0:
		parts = append(parts, string(s.State)+" by "+strings.Join(s.By, ", "))
	default:
		parts = append(parts, string(s.State))
	}
	switch {
	case len(s.ResolvedBy) > 0:
		parts = append(parts, "resolved by "+strings.Join(s.ResolvedBy, ", "))
	case s.Open:
		parts = append(parts, "open")
	}
	return strings.Join(parts, " · ")
}

// blobLine quotes a blob on a card.
func blobLine(q *BlobQuote) string {
	return "  blob " + q.ID + ": " + q.Passage.Text + "\n"
}

// staleLine names the retracted records a card's record rests on.
func staleLine(refs []vault.Ref) string {
	var parts []string
	for _, r := range refs {
		parts = append(parts, fmt.Sprintf("%s retracted %s (%s)", r.Verb, r.Key, r.Retracted))
	}
	return "  " + strings.Join(parts, " · ") + "\n"
}
