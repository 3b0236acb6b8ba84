package find

import (
	"fmt"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/omh-notes/omh/retrieve"
	"github.com/omh-notes/omh/vault"
)

// DefaultMaxChars is the size a reply aims at. Passages count against it;
// a card's header, its matched terms and its links never do.
const DefaultMaxChars = 6000

// maxRefs bounds the links shown on one line, and maxNeighbours the
// header-only cards of linked notes under one card; the rest are counted.
// A hub note links to dozens of notes, and listing them all crowded the
// passages, which carry the answer, out of the size aim.
const (
	maxRefs       = 2
	maxNeighbours = 1
	maxWords      = 8 // missing question words listed on a matched line
)

// Ref is one end of a link: a note with its own provenance, and the verb
// of a typed link.
type Ref struct {
	Doc       uint32
	Key       string
	Layer     vault.Layer
	Date      vault.Date
	Verb      string
	Retracted vault.Date // set on a proof record retracted at the reply's moment
}

// Detail is what a card needs of a note beyond its hit.
type Detail struct {
	BodyStart int   // where the markdown body starts, after the frontmatter
	Links     []Ref // notes it links to, in the order its links appear
	In        []Ref // notes linking to it
}

// Store is what cards read beyond the ranked answer.
type Store interface {
	// Content returns the note's bytes as indexed.
	Content(doc uint32, n retrieve.Note) ([]byte, error)
	Detail(doc uint32) (Detail, error)
	Note(doc uint32) (retrieve.Note, error)
}

// Card is one hit of a reply, with what an agent needs to judge it.
type Card struct {
	Hit      retrieve.Hit
	Passages []Passage // kept within the size aim
	Matched  []string  // question words the note holds
	Missing  []string  // question words it lacks
	Links    []Ref
	In       []Ref
	// ShowLinks and ShowIn say whether the links lines made it into the
	// printed card within the size aim; JSON carries the lists regardless.
	ShowLinks, ShowIn bool
	// Proof records only: where the record stands, the day it was
	// retracted, the blob it rests on, and the retracted records it cites.
	Standing  *Standing
	Retracted vault.Date
	Blob      *BlobQuote
	Stale     []Ref
}

// Reply is an answer as cards.
type Reply struct {
	Result          retrieve.Result
	Commit          string
	Cards           []Card
	PassagesOmitted int  // passages the size aim left out
	LinesOmitted    int  // links lines the size aim left out
	Compacted       bool // some card left out lines by its rank (fullCards, passageCards)
	MaxChars        int
}

// Build makes a card for every hit of res: passages and matched terms for
// ranked notes, links both ways for all, and keeps passages within maxChars.
// With proof, records carry their standing and the blob they rest on, and
// link ends are marked or left out as its retraction mode says.
func Build(res retrieve.Result, commit string, store Store, maxChars int, proof *Proof) (Reply, error) {
	reply := Reply{Result: res, Commit: commit, MaxChars: maxChars}
	weight := map[string]float64{}
	for _, t := range res.Terms {
		weight[t.Term] = res.Rarity(t)
	}
	var candidates [][]Passage
	// Blobs quoted already, never twice in a reply: a ranked blob shows its
	// own passage.
	quoted := map[uint32]bool{}
	for _, h := range res.Hits {
		if h.Depth == 0 {
			quoted[h.Doc] = true
		}
	}
	for _, h := range res.Hits {
		d, err := store.Detail(h.Doc)
		if err != nil {
			return reply, err
		}
		card := Card{Hit: h, Links: proof.Mark(d.Links), In: proof.Mark(OrderIn(d.In))}
		if proof.IsRecord(h.Doc) {
			s := proof.standingFrom(h.Doc, h.Note.Key, d.In)
			card.Standing, card.Retracted, card.Stale = &s, proof.Retracted(h.Doc), proof.staleSupport(d.Links)
			if h.Depth == 0 {
				if card.Blob, err = proof.blobFor(d.Links, quoted, weight); err != nil {
					return reply, err
				}
			}
		}
		var passages []Passage
		if h.Depth == 0 {
			card.Matched, card.Missing = matchedWords(res.Terms, h.Matched)
			content, err := store.Content(h.Doc, h.Note)
			if err != nil {
				return reply, err
			}
			body := string(content[min(d.BodyStart, len(content)):])
			title := map[string]bool{}
			for _, t := range retrieve.Terms(h.Note.Title) {
				title[t] = true
			}
			passages = Passages(body, min(d.BodyStart, len(content)), weight, title)
		}
		reply.Cards = append(reply.Cards, card)
		candidates = append(candidates, passages)
	}
	reply.fit(candidates)
	return reply, nil
}

// fit admits what a card may show while the reply stays within its size
// aim, in the order it matters to an agent: the first passage of every
// card in rank order (the answer is most often there), then the notes
// linking in (verdicts first), then the other links out, then the second
// passages. Headers, matched lines and linked notes' headers are never cut.
// What does not fit is counted and said, never silently dropped.
func (r *Reply) fit(candidates [][]Passage) {
	// Blob quotes are passages too: set aside, then admitted in turn.
	blobs := make([]*BlobQuote, len(r.Cards))
	for i := range r.Cards {
		blobs[i], r.Cards[i].Blob = r.Cards[i].Blob, nil
	}
	// The lines that report omissions are counted in advance, so the reply
	// stays within the aim even when they are printed.
	used := utf8.RuneCountInString(r.Text()) + omittedLinesRunes
	admit := func(cost int) bool {
		if used+cost > r.MaxChars {
			return false
		}
		used += cost
		return true
	}
	for i, ps := range candidates {
		if len(ps) > 0 && rank(r.Cards, i) > passageCards {
			r.Compacted = true
			continue
		}
		if len(ps) > 0 {
			if admit(utf8.RuneCountInString(passageLine(ps[0]))) {
				r.Cards[i].Passages = ps[:1]
			} else {
				r.PassagesOmitted++
			}
		}
	}
	for i, q := range blobs {
		if q != nil && rank(r.Cards, i) > passageCards {
			r.Compacted = true
			continue
		}
		if q != nil {
			if admit(utf8.RuneCountInString(blobLine(q))) {
				r.Cards[i].Blob = q
			} else {
				r.PassagesOmitted++
			}
		}
	}
	for i := range r.Cards {
		if line := r.inLine(i); line != "" {
			if rank(r.Cards, i) > fullCards {
				r.Compacted = true
				continue
			}
			if r.Cards[i].ShowIn = admit(utf8.RuneCountInString(line)); !r.Cards[i].ShowIn {
				r.LinesOmitted++
			}
		}
	}
	for i := range r.Cards {
		if line := r.linksLine(i); line != "" {
			if rank(r.Cards, i) > fullCards {
				r.Compacted = true
				continue
			}
			if r.Cards[i].ShowLinks = admit(utf8.RuneCountInString(line)); !r.Cards[i].ShowLinks {
				r.LinesOmitted++
			}
		}
	}
	for i, ps := range candidates {
		if len(ps) < 2 {
			continue
		}
		if rank(r.Cards, i) > fullCards {
			r.Compacted = true
			continue
		}
		// A second passage never stands without the first.
		if len(r.Cards[i].Passages) == 1 && admit(utf8.RuneCountInString(passageLine(ps[1]))) {
			r.Cards[i].Passages = ps[:2]
		} else {
			r.PassagesOmitted++
		}
	}
}

// Cards shrink down the ranking. The answer is most often on the first
// notes: on the tune questions of both real vaults no answer was on a card
// past the fifth, yet full cards for every root made the average reply
// 5,400 characters. The first fullCards ranked notes show second passages,
// links both ways and their linked notes; the first passageCards show a
// passage; the rest show their header and matched line. A compact card says
// so once, at the end of the reply, and JSON keeps every link.
const (
	fullCards    = 3
	passageCards = 5
)

// rank is card i's position among ranked notes, from 1.
func rank(cards []Card, i int) int {
	n := 0
	for _, c := range cards[:i+1] {
		if c.Hit.Depth == 0 {
			n++
		}
	}
	return n
}

// omittedLinesRunes is room for the lines saying what the aim left out.
const omittedLinesRunes = 160

// matchedWords splits the question's words into those the note holds and
// those it lacks, in question order.
func matchedWords(terms []retrieve.QueryTerm, matched []string) (held, lacked []string) {
	has := map[string]bool{}
	for _, m := range matched {
		has[m] = true
	}
	for _, t := range terms {
		if has[t.Term] {
			held = append(held, t.Word)
		} else {
			lacked = append(lacked, t.Word)
		}
	}
	return held, lacked
}

// inOrder ranks reverse links: verdicts first, then derivations, citations
// and attachments, then plain links (SPEC §6).
var inOrder = map[string]int{
	"supersedes": 0, "invalidates": 1, "rejects": 2, "resolves": 3, "mitigates": 4,
	"derives_from": 5, "cites": 6, "attaches": 7, "": 8,
}

// reverseVerb names a typed link seen from its target.
var reverseVerb = map[string]string{"derives_from": "derived_by", "cites": "cited_by", "attaches": "attached_by"}

// OrderIn sorts links in for showing: by verb rank, then newest first.
func OrderIn(in []Ref) []Ref {
	out := append([]Ref(nil), in...)
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i], out[j]
		ra, okA := inOrder[a.Verb]
		rb, okB := inOrder[b.Verb]
		if !okA {
			ra = len(inOrder)
		}
		if !okB {
			rb = len(inOrder)
		}
		if ra != rb {
			return ra < rb
		}
		if a.Date != b.Date {
			return a.Date > b.Date
		}
		if a.Key != b.Key {
			return a.Key < b.Key
		}
		return a.Layer < b.Layer
	})
	return out
}

func passageLine(p Passage) string { return "  > " + p.Text + "\n" }

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
		for _, p := range c.Passages {
			b.WriteString(passageLine(p))
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
		if more := len(neighbours) - shown; more > 0 {
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
		var left []string
		if r.PassagesOmitted > 0 {
			left = append(left, fmt.Sprintf("%d %s", r.PassagesOmitted, plural(r.PassagesOmitted, "passage", "passages")))
		}
		if r.LinesOmitted > 0 {
			left = append(left, fmt.Sprintf("%d %s", r.LinesOmitted, plural(r.LinesOmitted, "links line", "links lines")))
		}
		fmt.Fprintf(&b, "… %s left out to keep the reply near %d characters (--max-chars).\n", strings.Join(left, " and "), r.MaxChars)
	}
	if r.Compacted {
		fmt.Fprintf(&b, "… cards ranked %d and lower leave out links, %d and lower passages too; omh show KEY prints a note.\n",
			fullCards+1, passageCards+1)
	}
	b.WriteString(retrieve.Footer(r.Commit, res.AsOf))
	return b.String()
}

// inLine is card i's line of notes linking to it, or "".
func (r Reply) inLine(i int) string {
	c := r.Cards[i]
	if c.Hit.Depth != 0 || len(c.In) == 0 {
		return ""
	}
	return "  in: " + refList(c.In, c.Hit.Note.Layer, true) + "\n"
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
	return "  links: " + refList(links, c.Hit.Note.Layer, false) + "\n"
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
func unshown(links []Ref, shown map[string]bool) []Ref {
	var out []Ref
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

// refList shows links: each note once per verb, with its own layer and date
// when its layer differs from the card's, and typed verbs named.
func refList(refs []Ref, layer vault.Layer, incoming bool) string {
	var parts []string
	for i, ref := range refs {
		if i == maxRefs {
			parts = append(parts, fmt.Sprintf("+%d more", len(refs)-maxRefs))
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
			if v, ok := reverseVerb[verb]; ok && incoming {
				verb = v
			}
			s += " " + verb
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, ", ")
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
