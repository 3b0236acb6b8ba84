package find

import (
	"unicode/utf8"

	"github.com/omh-notes/omh/retrieve"
)

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
		room, line := r.room(at)
		if room == 0 {
			continue
		}
		// Only the first card quotes passages apart from its best one; a
		// lower card's room goes to its best passage and its neighbours.
		apart := at <= apartCards && !line
		n.line = line
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
		if q != nil && !r.full(i) {
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
			if r.Cards[i].ShowIn = admit(utf8.RuneCountInString(line)); !r.Cards[i].ShowIn {
				r.LinesOmitted++
			}
		}
	}
	for i := range r.Cards {
		if line := r.linksLine(i); line != "" {
			if r.Cards[i].ShowLinks = admit(utf8.RuneCountInString(line)); !r.Cards[i].ShowLinks {
				r.LinesOmitted++
			}
		}
	}
}

// A reply is sized by how sure its answer is. When the first note stands
// clearly ahead (an answered verdict that leads), its card is the answer:
// the reply is that card, its answering passage first and no links
// lines, then one line for each of leadLines runners-up. When the first notes score close together, or the
// verdict is weak, several cards are full, so an agent can compare them;
// below them every ranked note gets one line. Notes sharing only common
// words with the question get a line each.
//
// leadRooms, closeRooms and weakRooms are the room, in characters of card
// lines, for the passages of each full card by rank; lineRoom is the
// passage a one-line card clips around the question's words. Measured with omh eval on
// the tune questions of obsidian-help-en, dendron-site and vba-docs with
// their phrasings (answer anywhere on a card / within the reply's first
// 1,000 characters / within 1,500 / median reply), the passages as choose
// bounds them: cards by rank as before (1,400, 400, 300, 200, 200, 120,
// 120, 120) 0.893 / 0.702 / 0.810 / 3,696; runners-up in one line of 160
// characters 0.893 / 0.738 / 0.857 / 2,464, of 110 0.869 / 0.738 / 0.833 /
// 2,209, of 50 0.869 / 0.738 / 0.833 / 1,858; the first close card at 700
// rather than 900 0.869 / 0.750 / 0.845 / 1,854 (60: 1,924); the first
// runner-up's line at 160 one answer more at a median of 2,024; the first
// card at 1,000 rather than 1,400 two answers fewer, close cards at 500,
// 500, 300 one. A weak answer's notes are the closest, not answers: two
// full cards (400, 200) for the agent to judge, where three (500, 300,
// 300) took 150 characters more a reply and carried no answer more.
//
// A line of 60 characters quoted 30 of a unit after the header's key,
// which held too few answers (the answers named on the tune questions are
// 12 to 70 characters): the quality gate's answer on a card fell by three
// or four questions on obsidian-help-en, dendron-site and vba-docs asked
// without phrasings. Measured again as above, with and without phrasings
// (answer anywhere / within 1,000 / median reply): lines of 60, 0.869 /
// 0.750 / 1,924 and 0.393 / 0.369 / 2,098; of 100 with no heading path
// (see prefix) 0.893 / 0.750 / 2,114 and 0.429 / 0.369 / 2,276; of 130
// and 160 no answer more at 170 and 340 characters more; then
// otherShare 0.3 0.905 / 0.762 / 2,377 and 0.476 / 0.417 / 2,465; then no
// links lines under a clear leader 2,308 and 2,414, no answer fewer; then
// five runners-up under a clear leader (leadLines) rather than seven,
// 2,190 and 2,280, no answer fewer, where four lost one. A clear leader's
// lines at 80 and the others at 100: 2,117 and 2,201, one answer fewer
// without phrasings. The first card's room at 1,200, 1,000 or 800 lost
// answers (1,000: three with phrasings); other passages windowed to 150
// characters lost eight with phrasings.
var (
	leadRooms  = []int{1400}
	closeRooms = []int{700, 500, 300}
	weakRooms  = []int{400, 200}
)

const lineRoom = 100

// rooms are the passage rooms of the reply's full cards, by rank.
func (r Reply) rooms() []int {
	switch res := r.Result; {
	case r.leads():
		return leadRooms
	case res.Verdict == retrieve.Answered:
		return closeRooms
	case res.Verdict == retrieve.Weak:
		return weakRooms
	}
	return nil
}

// leadLines is how many runners-up a clear leader's reply names, each in
// one line; JSON lists every ranked note.
const leadLines = 5

// room is the passage room of the card ranked at (from 1), and whether
// the card is one line; 0 for a card the reply leaves out (see shown).
func (r Reply) room(at int) (room int, line bool) {
	if rooms := r.rooms(); at <= len(rooms) {
		return rooms[at-1], false
	}
	if r.leads() && at > 1+leadLines {
		return 0, true
	}
	return lineRoom, true
}

// leads reports whether the reply's first note stands clearly ahead.
func (r Reply) leads() bool {
	return r.Result.Verdict == retrieve.Answered && r.Result.Leads
}

// shown reports whether the cards print card i: a clear leader's reply
// names leadLines runners-up, and a linked note's card is drawn under the
// card that reached it.
func (r Reply) shown(i int) bool {
	room, _ := r.room(rank(r.Cards, i))
	return r.Cards[i].Hit.Depth == 0 && room > 0
}

// full reports whether card i is a full card: a ranked note within the
// reply's full cards.
func (r Reply) full(i int) bool {
	_, line := r.room(rank(r.Cards, i))
	return r.Cards[i].Hit.Depth == 0 && !line
}

// apartCards is how many of the first cards quote passages apart from
// their best one. Below it a card's room goes to its best passage grown by
// its neighbours: cards 2 to 5 quoting others carried no answer more on
// the tune questions and took 150 characters a reply.
const apartCards = 1

// The first card shows links both ways; the first verdictCards full cards show the links in that are verdicts (typed
// links such as supersedes). On the tune questions of the real vaults the
// links lines of cards 2 and 3 took 600 characters a reply, the room of a
// second card's passages. JSON keeps every link.
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

// omittedLinesRunes is room for the line saying what the aim left out,
// whatever its counts.
var omittedLinesRunes = utf8.RuneCountInString(leftOutLine(9999, 9999, 1<<30))
