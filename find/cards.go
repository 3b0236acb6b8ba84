package find

import (
	"errors"
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

// Store is what cards read beyond the ranked answer.
type Store interface {
	// Content returns the note's bytes as indexed.
	Content(doc uint32, n vault.Note) ([]byte, error)
	// CardDetail is the note's detail but its links in.
	CardDetail(doc uint32) (vault.Detail, error)
	// LinksIn lists the links into a note, without their keys, in name
	// order (the linking note's key, layer and path, then the verb): the
	// plain ones if plain, the typed ones if typed; n counts them all. A
	// hub has thousands of links in, and a card shows a few.
	LinksIn(doc uint32, plain, typed bool) (in []vault.Ref, n int, err error)
	// KeyRefs gives each link end its note's key.
	KeyRefs(refs []vault.Ref) error
	Note(doc uint32) (vault.Note, error)
	// LinksOut counts the notes a note links to, up to limit.
	LinksOut(doc uint32, limit int) (int, error)
}

// Card is one hit of a reply, with what an agent needs to judge it.
type Card struct {
	Hit      retrieve.Hit
	Passages []Passage // kept within the size aim
	Matched  []string  // question words the note holds
	Missing  []string  // question words it lacks
	Links    []vault.Ref
	// In are the links in that the card and its JSON hit may show, in the
	// order they show them (OrderIn): every typed link and the newest
	// plain ones (headIn); InCount counts every link in.
	In      []vault.Ref
	InCount int
	// ShowLinks and ShowIn say whether the links lines made it into the
	// printed card within the size aim; JSON carries the lists regardless.
	ShowLinks, ShowIn bool
	shownIn           []vault.Ref // In as a full card prints it: tables of contents last
	// Proof records only: where the record stands, the day it was
	// retracted, the blob it rests on, and the retracted records it cites.
	Standing  *Standing
	Retracted vault.Date
	Blob      *BlobQuote
	Stale     []vault.Ref
	// Changed: the note's file changed since the snapshot the answer is
	// from, so the card quotes no passage.
	Changed bool
}

// Reply is an answer as cards.
type Reply struct {
	Result          retrieve.Result
	Commit          string
	Cards           []Card
	PassagesOmitted int  // passages the size aim left out
	LinesOmitted    int  // links lines the size aim left out
	Compacted       bool // some card left out lines by its rank (fullCards, cardRoom)
	MaxChars        int
}

// Build makes a card for every hit of res: passages and matched terms for
// ranked notes, links both ways for all, and keeps passages within maxChars.
// With proof, records carry their standing and the blob they rest on, and
// link ends are marked or left out as its retraction mode says.
func Build(res retrieve.Result, commit string, store Store, maxChars int, proof *Proof) (Reply, error) {
	reply := Reply{Result: res, Commit: commit, MaxChars: maxChars}
	q := newQuestion(res)
	notes := make([]*note, len(res.Hits))
	// Blobs quoted already, never twice in a reply: a ranked blob shows its
	// own passage.
	quoted := map[uint32]bool{}
	for _, h := range res.Hits {
		if h.Depth == 0 {
			quoted[h.Doc] = true
		}
	}
	ranked := 0
	for i, h := range res.Hits {
		d, err := store.CardDetail(h.Doc)
		if err != nil {
			return reply, err
		}
		// A linked note's card is a header: its links in are counted, and
		// the typed ones read where a proof record's standing needs them;
		// all are read when the proof hides some, which only reading tells.
		shown := 0
		if h.Depth == 0 {
			ranked++
			shown = refsShown
		}
		in, total, err := store.LinksIn(h.Doc, shown > 0 || proof.hides(), shown > 0 || proof.hides() || proof.IsRecord(h.Doc))
		if err != nil {
			return reply, err
		}
		// Typed links in, few, are keyed all; of the plain ones, only those
		// the card shows.
		if err := keyRefs(in, isTyped, store); err != nil {
			return reply, err
		}
		marked := proof.Mark(in)
		if proof.hides() {
			total = len(marked)
		}
		card := Card{Hit: h, Links: proof.Mark(d.Links), InCount: total}
		head, cut := headIn(marked, shown)
		if err := keyRefs(head, isPlain, store); err != nil {
			return reply, err
		}
		card.In = head
		if h.Depth == 0 && ranked <= fullCards {
			if card.shownIn, err = shownIn(head, cut, marked, store); err != nil {
				return reply, err
			}
		}
		if proof.IsRecord(h.Doc) {
			s := proof.standingFrom(h.Doc, h.Note.Key, in)
			card.Standing, card.Retracted, card.Stale = &s, proof.Retracted(h.Doc), proof.staleSupport(d.Links)
			if h.Depth == 0 {
				if card.Blob, err = proof.blobFor(d.Links, quoted, q); err != nil {
					return reply, err
				}
			}
		}
		if h.Depth == 0 {
			card.Matched, card.Missing = matchedWords(res.Terms, h.Matched)
			content, err := store.Content(h.Doc, h.Note)
			switch {
			case errors.Is(err, vault.ErrChangedSince):
				card.Changed = true // its offsets point into text that is gone: nothing to quote
			case err != nil:
				return reply, err
			default:
				notes[i] = newNote(string(content), d, h.Note.Title, q)
				if section, ok := statementSections[h.Note.Type]; ok && proof.IsRecord(h.Doc) {
					notes[i].leadWith(section)
				}
			}
		}
		reply.Cards = append(reply.Cards, card)
	}
	reply.fit(notes)
	return reply, nil
}

// fit admits what a card may show while the reply stays within its size
// aim, in the order it matters to an agent: the passages of every card in
// rank order, each card given the room its rank earns (cardRoom), then the
// notes linking in (verdicts first), then the other links out. Headers,
// matched lines and linked notes' headers are never cut. What does not fit
// is counted and said, never silently dropped.
func (r *Reply) fit(notes []*note) {
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
	for i, n := range notes {
		if n == nil {
			continue
		}
		at := rank(r.Cards, i)
		room := roomFor(at)
		if room == 0 {
			r.Compacted = r.Compacted || len(n.quoted) > 0
			continue
		}
		// Only the first card quotes passages apart from its best one; a
		// lower card's room goes to its best passage and its neighbours.
		apart := at <= apartCards
		ps := n.choose(min(room, r.MaxChars-used), apart)
		if r.MaxChars-used < room {
			// What the aim cut is what the card's room would have shown.
			r.PassagesOmitted += max(len(n.choose(room, apart))-len(ps), 0)
		}
		for _, p := range ps {
			if admit(utf8.RuneCountInString(passageLine(p))) {
				r.Cards[i].Passages = append(r.Cards[i].Passages, p)
			}
		}
	}
	for i, q := range blobs {
		if q != nil && roomFor(rank(r.Cards, i)) == 0 {
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
	for i, c := range r.Cards {
		if _, shown := r.inRefs(i); c.Hit.Depth == 0 && c.InCount > shown {
			r.Compacted = true
		}
		if line := r.inLine(i); line != "" {
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
}

// cardRoom is the room, in characters of card lines, for the passages of
// the card of each rank: the first note is most often the one that
// answers, so it gets the most. Ranked notes past these show their header
// and matched line only. Measured with omh eval on the tune questions of
// obsidian-help-en, dendron-site and vba-docs (answer on a card when the
// note is in the reply): the first card's room from 900 to 1400 carried
// three more answers (a table row past two others, a remark past a long
// code example), and 120 characters for cards 6 to 8, which had none, one
// more; the room came from cards 2 to 5, which quote one passage each
// (apartCards) and lost no answer. The mean reply stayed under 3,900
// characters on each vault.
var cardRoom = []int{1400, 400, 300, 200, 200, 120, 120, 120}

// apartCards is how many of the first cards quote passages apart from
// their best one. Below it a card's room goes to its best passage grown by
// its neighbours: cards 2 to 5 quoting others carried no answer more on
// the tune questions and took 150 characters a reply.
const apartCards = 1

// roomFor is the passage room of the card ranked r (from 1).
func roomFor(r int) int {
	if r < 1 || r > len(cardRoom) {
		return 0
	}
	return cardRoom[r-1]
}

// Cards shrink down the ranking, as the answer is most often on the first
// notes: the first card shows links both ways and a linked note's header;
// the first verdictCards show the links in that are verdicts (typed links
// such as supersedes); every card shows passages while its rank has room
// (cardRoom), and its header and matched line. On the tune questions of
// the real vaults the links lines of cards 2 and 3 took 600 characters a
// reply, the room of a second card's passages. A compact card says so once,
// at the end of the reply, and JSON keeps every link.
const (
	fullCards    = 1
	verdictCards = 3
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

// omittedLinesRunes is room for the lines saying what the aim and the
// ranks left out, whatever their counts.
var omittedLinesRunes = utf8.RuneCountInString(leftOutLine(9999, 9999, 1<<30)) + utf8.RuneCountInString(compactLine)

// matchedWords splits the question's words that carry meaning into those
// the note holds and those it lacks, in question order: that a note lacks
// "me" or "why" says nothing about it.
func matchedWords(terms []retrieve.QueryTerm, matched []string) (held, lacked []string) {
	has := map[string]bool{}
	for _, m := range matched {
		has[m] = true
	}
	counts := meaningful(terms)
	for _, t := range terms {
		if !counts[t.Term] {
			continue
		}
		if has[t.Term] {
			held = append(held, t.Word)
		} else {
			lacked = append(lacked, t.Word)
		}
	}
	return held, lacked
}

// inRank ranks a link in by its verb: verdicts first, then derivations,
// citations and attachments, then plain links, then a verb omh
// does not know.
func inRank(verb string) int {
	if verb == "" {
		return vault.PlainLinkRank
	}
	if v, ok := vault.LookupVerb(verb); ok {
		return v.InRank
	}
	return vault.PlainLinkRank + 1
}

// OrderIn sorts links in for showing: by verb rank, then newest first,
// then by name.
func OrderIn(in []vault.Ref) []vault.Ref {
	out := append([]vault.Ref(nil), in...)
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i], out[j]
		ra, rb := inRank(a.Verb), inRank(b.Verb)
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

// headIn picks from links in, given in name order, every typed link and
// the newest n plain links, in OrderIn's order, without sorting them all:
// OrderIn's order is name order sorted stably by verb rank and date. cut
// is the index in head where the plain links left out would go, -1 when
// none was.
func headIn(in []vault.Ref, n int) (head []vault.Ref, cut int) {
	var newest []int // the newest plain links so far, newest first, ties in name order
	plain := 0
	for i, ref := range in {
		if ref.Verb != "" {
			continue
		}
		plain++
		at := sort.Search(len(newest), func(j int) bool { return in[newest[j]].Date < ref.Date })
		if at < n {
			newest = append(newest[:at], append([]int{i}, newest[at:min(len(newest), n-1)]...)...)
		}
	}
	picked := make([]bool, len(in))
	for _, i := range newest {
		picked[i] = true
	}
	for i, ref := range in {
		if ref.Verb != "" || picked[i] {
			head = append(head, ref)
		}
	}
	sort.SliceStable(head, func(i, j int) bool {
		a, b := head[i], head[j]
		if ra, rb := inRank(a.Verb), inRank(b.Verb); ra != rb {
			return ra < rb
		}
		return a.Date > b.Date
	})
	if plain == len(newest) {
		return head, -1
	}
	for cut < len(head) && inRank(head[cut].Verb) <= vault.PlainLinkRank {
		cut++
	}
	return head, cut
}

// shownIn is what the first card's in: line shows of its links in (see
// hubsLast): head, the card's own (cut as headIn's), unless tables of
// contents among the newest plain links push the line past them, when
// more are read.
func shownIn(head []vault.Ref, cut int, in []vault.Ref, store Store) ([]vault.Ref, error) {
	for n := refsShown; ; n *= 2 {
		out, ok, err := hubsLast(head, cut, store)
		if ok || err != nil {
			return out, err
		}
		head, cut = headIn(in, 2*n)
		if err := keyRefs(head, isPlain, store); err != nil {
			return nil, err
		}
	}
}

// keyRefs gives the refs that want admits their keys, in one call.
func keyRefs(refs []vault.Ref, want func(vault.Ref) bool, store Store) error {
	var need []vault.Ref
	var at []int
	for i, r := range refs {
		if want(r) {
			need, at = append(need, r), append(at, i)
		}
	}
	if len(need) == 0 {
		return nil
	}
	if err := store.KeyRefs(need); err != nil {
		return err
	}
	for j, i := range at {
		refs[i].Key = need[j].Key
	}
	return nil
}

func isTyped(r vault.Ref) bool { return r.Verb != "" }
func isPlain(r vault.Ref) bool { return r.Verb == "" }

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

// hubsLast moves plain links in from tables of contents (notes linking to
// more than retrieve.HubLinks notes) after the other links in, as far as
// the line shows them: such a note links every note and says nothing
// about this one. vba-docs' api/TOC sorted among the first two of every
// api note's links in. Only the links the line could show are counted.
// in may leave plain links out at index cut (headIn); ok is false when the
// line would have looked that far.
func hubsLast(in []vault.Ref, cut int, store Store) (out []vault.Ref, ok bool, err error) {
	var kept, hubs []vault.Ref
	for i, ref := range in {
		if len(kept) > maxRefs {
			kept = append(kept, in[i:]...)
			return append(kept, hubs...), true, nil
		}
		if i == cut {
			return nil, false, nil
		}
		if ref.Verb == "" {
			n, err := store.LinksOut(ref.Doc, retrieve.HubLinks+1)
			if err != nil {
				return nil, false, err
			}
			if n > retrieve.HubLinks {
				hubs = append(hubs, ref)
				continue
			}
		}
		kept = append(kept, ref)
	}
	return append(kept, hubs...), cut != len(in), nil
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
