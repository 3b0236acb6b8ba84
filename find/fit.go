package find

import "unicode/utf8"

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

// omittedLinesRunes is room for the lines saying what the aim and the
// ranks left out, whatever their counts.
var omittedLinesRunes = utf8.RuneCountInString(leftOutLine(9999, 9999, 1<<30)) + utf8.RuneCountInString(compactLine)
