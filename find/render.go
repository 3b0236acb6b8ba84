package find

import (
	"fmt"
	"slices"
	"strings"

	"github.com/omh-notes/omh/proof"
	"github.com/omh-notes/omh/reply"
	"github.com/omh-notes/omh/retrieve"
	"github.com/omh-notes/omh/vault"
	"github.com/omh-notes/omh/vault/corpus"
)

// maxRefs bounds the links shown on one line; the rest are counted. A hub
// note links to dozens of notes, and listing them all crowded the
// passages, which carry the answer, out of the size aim. The notes a card
// links to are named there only: a header line for the first of them and
// a line counting the rest took 110 characters under the first card.
const (
	maxRefs  = 2
	maxWords = 8 // missing question words listed on a matched line
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
		b.WriteString(line + "\n")
	}
	lines := false // one-line cards have begun
	for i, c := range r.Cards {
		h := c.Hit
		if !r.shown(i) {
			continue
		}
		if !r.full(i) {
			if !lines {
				b.WriteByte('\n')
				lines = true
			}
			b.WriteString(r.lineCard(i))
			continue
		}
		b.WriteByte('\n')
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
		if file := fileOf(c.Hit.Note); file != "" {
			b.WriteString("  file: " + file + "\n")
		}
		if line := matchedLine(c, res.Unheld); line != "" && !res.Leads {
			b.WriteString("  " + line + "\n")
		}
		if c.ShowIn {
			b.WriteString(r.inLine(i))
		}
		if c.ShowLinks {
			b.WriteString(r.linksLine(i))
		}
	}
	omitted := retrieve.OmittedLine(res)
	if omitted != "" || r.PassagesOmitted > 0 || r.LinesOmitted > 0 {
		b.WriteByte('\n')
	}
	b.WriteString(omitted)
	if r.PassagesOmitted > 0 || r.LinesOmitted > 0 {
		b.WriteString(leftOutLine(r.PassagesOmitted, r.LinesOmitted, r.MaxChars))
	}
	b.WriteString(retrieve.SourceLines(res.Stores))
	b.WriteString(retrieve.Footer(r.Commit, res.AsOf))
	return b.String()
}

// lineCard is card i as one line: its header, then its best passage
// clipped, with the explanation, the retracted records a proof record
// rests on and a changed note's line under it.
func (r Reply) lineCard(i int) string {
	c := r.Cards[i]
	line := cardHeader(c)
	for _, p := range c.Passages {
		line += "  " + lineRange(p.LineStart, p.LineEnd) + " > " + p.Text
	}
	line += "\n"
	if c.Hit.Explain != nil {
		line += "  " + retrieve.ExplainLine(c.Hit.Score, c.Hit.Explain) + "\n"
	}
	if len(c.Stale) > 0 {
		line += staleLine(c.Stale)
	}
	if c.Changed {
		line += changedLine
	}
	return line
}

// leftOutLine says what the size aim left out.
func leftOutLine(passages, lines, maxChars int) string {
	var left []string
	if passages > 0 {
		left = append(left, reply.CountOf(passages, "passage", "passages"))
	}
	if lines > 0 {
		left = append(left, reply.CountOf(lines, "links line", "links lines"))
	}
	return fmt.Sprintf("… %s left out to keep the reply near %d characters (--max-chars).\n", strings.Join(left, " and "), maxChars)
}

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
// to verdictCards, none below or on a linked note's card, and none under
// a clear leader, whose card is the answer (JSON lists them).
func (r Reply) inRefs(i int) ([]corpus.Ref, int) {
	c := r.Cards[i]
	switch n := rank(r.Cards, i); {
	case !r.full(i) || n > verdictCards || r.leads():
		return nil, 0
	case n > fullCards:
		var verdicts []corpus.Ref
		for _, ref := range c.In {
			if ref.Verb != "" {
				verdicts = append(verdicts, ref)
			}
		}
		return verdicts, len(verdicts)
	}
	return c.shownIn, c.InCount
}

// linksLine is card i's line of links out, or "": none under a clear
// leader, as inRefs.
func (r Reply) linksLine(i int) string {
	c := r.Cards[i]
	if !r.full(i) || rank(r.Cards, i) > fullCards || len(c.Links) == 0 || r.leads() {
		return ""
	}
	return "  links: " + refList(c.Links, len(c.Links), c.Hit.Note.Layer, false) + "\n"
}

// neighbours are the hits of the notes card i links to, which its links
// line names.
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

// fileOf names the note's file, under a full card's passages, when its
// path is not its key and ".md" (a notes root, a private note's folder),
// so an agent can open it with its own tools: the key Plugins/Format
// converter is the file en/Plugins/Format converter.md, which only --json
// said. Under the passages: on the header it put answers 40 characters
// later.
func fileOf(n corpus.Note) string {
	if n.Path == "" || n.Path == n.Key+vault.NoteExt {
		return ""
	}
	return n.Path
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

// matchedLine names the question's own words the note lacks, and how many
// it holds: enough to judge a weak match or compare close ones, in a few
// words. A note holding them all says nothing, nor a card standing clearly
// ahead (the words it lacks are the ones the question put its own way):
// "matched 4/4" under the card that answered was noise.
func matchedLine(c Card, unheld []string) string {
	missing := slices.DeleteFunc(slices.Clone(c.Missing), func(w string) bool { return slices.Contains(unheld, w) })
	if len(missing) == 0 {
		return ""
	}
	line := fmt.Sprintf("matched %d/%d", len(c.Matched), len(c.Matched)+len(c.Missing))
	if len(c.Matched) == 0 {
		line += " (the note matched by its name)"
	}
	return line + " · missing: " + wordList(missing)
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
func refList(refs []corpus.Ref, total int, layer vault.Layer, incoming bool) string {
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
func staleLine(refs []corpus.Ref) string {
	var parts []string
	for _, r := range refs {
		parts = append(parts, fmt.Sprintf("%s retracted %s (%s)", r.Verb, r.Key, r.Retracted))
	}
	return "  " + strings.Join(parts, " · ") + "\n"
}
