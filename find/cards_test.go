package find

import (
	"fmt"
	"reflect"
	"sort"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/omh-notes/omh/retrieve"
	"github.com/omh-notes/omh/vault"
	"github.com/omh-notes/omh/vault/token"
)

// fakeSnapshot serves contents and details by document id.
type fakeSnapshot struct {
	content  map[uint32]string
	detail   map[uint32]vault.Detail
	notes    map[uint32]vault.Note
	linksOut map[uint32]int
}

func (f fakeSnapshot) Content(doc uint32, _ vault.Note) ([]byte, error) {
	return []byte(f.content[doc]), nil
}

func (f fakeSnapshot) CardDetail(doc uint32) (vault.Detail, error) {
	d := f.detail[doc]
	d.In = nil
	return d, nil
}

// LinksIn serves links in as the cache does: in name order, keyless.
func (f fakeSnapshot) LinksIn(doc uint32, plain, typed bool) ([]vault.Ref, int, error) {
	var in []vault.Ref
	for _, r := range f.detail[doc].In {
		if (r.Verb == "" && plain) || (r.Verb != "" && typed) {
			in = append(in, r)
		}
	}
	sort.SliceStable(in, func(i, j int) bool {
		a, b := in[i], in[j]
		if a.Key != b.Key {
			return a.Key < b.Key
		}
		if a.Layer != b.Layer {
			return a.Layer < b.Layer
		}
		return a.Verb < b.Verb
	})
	for i := range in {
		in[i].Key = ""
	}
	return in, len(f.detail[doc].In), nil
}

// KeyRefs finds each end's key among the links in the store serves.
func (f fakeSnapshot) KeyRefs(refs []vault.Ref) error {
	for i := range refs {
		for _, d := range f.detail {
			for _, in := range d.In {
				if in.Doc == refs[i].Doc {
					refs[i].Key = in.Key
				}
			}
		}
	}
	return nil
}

func (f fakeSnapshot) Note(doc uint32) (vault.Note, error) { return f.notes[doc], nil }

// Info reads the type and layer of the notes the snapshot serves; cards
// read it only with a proof.
func (f fakeSnapshot) Info(doc uint32) vault.DocInfo {
	n, ok := f.notes[doc]
	return vault.DocInfo{Present: ok, Layer: n.Layer, Type: n.Type}
}
func (f fakeSnapshot) LinksOut(doc uint32, limit int) (int, error) {
	return min(f.linksOut[doc], limit), nil
}

// parsed is the question asked in phrasings, each of its terms held by df
// notes.
func parsed(df int, phrasings ...string) retrieve.Question {
	q := retrieve.ParseQuestion(phrasings)
	for i := range q.Terms {
		q.Terms[i].DF = df
	}
	return q
}

// A question made only of function words ("the of and") is scored on them
// by the ranker, so its matched line counts them too, rather than saying
// nothing was asked; of a question with phrasings, the matched line counts
// the question's own words. Catches: cards of such a question reading
// "matched 0/0" while the ranking used every word, and "matched 4/4"
// counting the words of the agent's own phrasings.
func TestTheMatchedWordsAreTheQuestionsOwn(t *testing.T) {
	t.Parallel()
	held, lacked := matchedWords(parsed(1, "the of and"), []string{"of"})
	if !reflect.DeepEqual(held, []string{"of"}) || !reflect.DeepEqual(lacked, []string{"the", "and"}) {
		t.Errorf("function words only: held %v lacked %v", held, lacked)
	}
	held, lacked = matchedWords(parsed(1, "why does Sync skip .git", "sync excluded hidden folders"), []string{"sync", "hidden", "git"})
	if !reflect.DeepEqual(held, []string{"Sync", "git"}) || !reflect.DeepEqual(lacked, []string{"skip"}) {
		t.Errorf("with phrasings: held %v lacked %v", held, lacked)
	}
}

// answer builds a ranked answer of n notes, each with a long body holding
// the rare question word twice, far apart, and the common one once.
func answer(n int) (retrieve.Result, fakeSnapshot) {
	res := retrieve.Result{
		Question: parsed(90, "why does the quokka lantern"), // why, does and the are function words
		Count:    100,
	}
	res.Question.Terms[3].DF, res.Question.Terms[4].DF = 2, 3 // quokka, lantern
	store := fakeSnapshot{content: map[uint32]string{}, detail: map[uint32]vault.Detail{}}
	for i := 0; i < n; i++ {
		doc := uint32(i)
		res.Hits = append(res.Hits, retrieve.Hit{Doc: doc, Parent: -1, Score: int64(1000 - i),
			Note:    vault.Note{Key: fmt.Sprintf("note-%d", i), Layer: vault.Team, Date: "2026-01-02", Type: "note", Title: "Note"},
			Matched: []string{token.Term("quokka"), token.Term("lantern")}})
		store.content[doc] = "---\nx: 1\n---\n" + filler + "The quokka sits here.\n\n" + filler + filler + filler + "\n\nA lantern glows there.\n\n" + filler
		store.detail[doc] = detailOf(store.content[doc])
	}
	return res, store
}

func TestCardsCarryPassagesMatchedWordsAndProvenance(t *testing.T) {
	res, store := answer(1)
	reply, err := Build(res, "abc", store, DefaultMaxChars, nil)
	if err != nil {
		t.Fatal(err)
	}
	c := reply.Cards[0]
	if got := texts(c.Passages); len(got) != 2 || !strings.Contains(got[0], "quokka") || !strings.Contains(got[1], "lantern") {
		t.Errorf("want both words' sentences, in note order: %q", got)
	}
	// "why" carries no meaning: it is neither matched nor missing.
	if !reflect.DeepEqual(c.Matched, []string{"quokka", "lantern"}) || len(c.Missing) != 0 {
		t.Errorf("matched %v missing %v", c.Matched, c.Missing)
	}
	text := reply.Text()
	for _, want := range []string{"note-0  note · team · 2026-01-02\n", "  matched 2/2\n", "  L4-6 > ", "  L6-10 > ", "@ abc\n"} {
		if !strings.Contains(text, want) {
			t.Errorf("card text lacks %q:\n%s", want, text)
		}
	}
	// Passage offsets slice the note file itself: its text, blocks joined
	// by " · ", is the span's.
	content := store.content[0]
	for _, p := range c.Passages {
		if got := collapse(content[p.Start:p.End]); strings.ReplaceAll(p.Text, " · ", " ") != got {
			t.Errorf("span %d..%d is %q, passage says %q", p.Start, p.End, got, p.Text)
		}
	}
}

// The matched line counts the words that carry meaning and names those
// missing.
func TestTheMatchedLineCountsWordsThatCarryMeaning(t *testing.T) {
	// "why", "does" and "me" are English function words.
	held, lacked := matchedWords(parsed(1, "why does sync forget me password"), []string{token.Term("sync"), token.Term("password"), token.Term("me")})
	if !reflect.DeepEqual(held, []string{"sync", "password"}) || !reflect.DeepEqual(lacked, []string{"forget"}) {
		t.Errorf("held %v lacked %v", held, lacked)
	}
}

// The size aim: cards get room by rank; what does not fit is counted and
// said; no header, matched line or commit line is ever cut.
func TestTheSizeAimCountsWhatItLeavesOut(t *testing.T) {
	res, store := answer(12)
	full, _ := Build(res, "abc", store, 1<<20, nil)
	all := 0
	for i, c := range full.Cards {
		all += len(c.Passages)
		// The first card quotes both matches; the cards below it down to
		// the eighth the best one (the rarer word), which cards 6 to 8
		// left out when they had no room.
		want := 2*btoi(i < apartCards) + btoi(i >= apartCards && i < len(cardRoom))
		if len(c.Passages) != want {
			t.Errorf("without an aim card %d shows %d passages, want %d (passages on the best %d)", i, len(c.Passages), want, len(cardRoom))
		}
		if want == 1 && !strings.Contains(c.Passages[0].Text, "quokka") {
			t.Errorf("card %d quotes %q, not its best passage", i, c.Passages[0].Text)
		}
	}
	if full.PassagesOmitted != 0 || !full.Compacted || !strings.Contains(full.Text(), fmt.Sprintf("%d+ passages", len(cardRoom)+1)) {
		t.Fatalf("without an aim: %d omitted, compact cards said: %v\n%s", full.PassagesOmitted, full.Compacted, full.Text())
	}
	aim := 1200
	reply, _ := Build(res, "abc", store, aim, nil)
	text := reply.Text()
	shown := 0
	for i, c := range reply.Cards {
		shown += len(c.Passages)
		if !strings.Contains(text, cardHeader(c)+"\n") || !strings.Contains(text, "matched 2/2") {
			t.Errorf("card %d lost its provenance", i)
		}
		if len(c.Passages) > 0 {
			for j, earlier := range reply.Cards[:i] {
				if len(earlier.Passages) < len(full.Cards[j].Passages) {
					t.Errorf("card %d got a passage before an earlier card got all of its own", i)
				}
			}
		}
	}
	if shown+reply.PassagesOmitted != all || reply.PassagesOmitted == 0 {
		t.Errorf("shown %d + omitted %d != %d", shown, reply.PassagesOmitted, all)
	}
	if n := utf8.RuneCountInString(text); n > aim {
		t.Errorf("reply of %d characters for an aim of %d", n, aim)
	}
	if !strings.Contains(text, fmt.Sprintf("… %d passages left out", reply.PassagesOmitted)) {
		t.Errorf("the omitted passages are not reported:\n%s", text)
	}
	// An aim smaller than the provenance itself cuts passages, never cards.
	tiny, _ := Build(res, "abc", store, 10, nil)
	if tiny.PassagesOmitted != all || strings.Count(tiny.Text(), "  matched 2/2") != 12 {
		t.Errorf("a tiny aim: %d omitted\n%s", tiny.PassagesOmitted, tiny.Text())
	}
}

// Every ranked card of a default reply quotes a passage: cards 6 to 8 had
// no room, and the answer on a sixth card (obsidian-041's "There is no
// from or source like in SQL or Dataview") was left out.
func TestEveryCardOfADefaultReplyHasRoom(t *testing.T) {
	for r := 1; r <= retrieve.DefaultRoots; r++ {
		if roomFor(r) < minCutRunes+len("  L1-2 > \n") {
			t.Errorf("card %d of a default reply has room %d, too little to quote", r, roomFor(r))
		}
	}
}

// The first card gets the most room, and no card more than its rank earns:
// with seven notes each long enough to fill any room, every card quotes
// between half its rank's room and all of it, no card more than the card
// above, and the first more than any other. Catches: a reply of no cards
// passing for one that shrinks; every card given the first card's room.
func TestRoomShrinksDownTheRanking(t *testing.T) {
	long := "---\nx: 1\n---\n" + strings.Repeat("The quokka sits here in the sun for a while. ", 60) + "\n"
	const notes = 7
	res, store := answer(notes)
	for doc := range store.content {
		store.content[doc] = long
		store.detail[doc] = detailOf(long)
	}
	reply, err := Build(res, "abc", store, 1<<20, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(reply.Cards) != notes {
		t.Fatalf("%d cards for %d ranked notes", len(reply.Cards), notes)
	}
	prev := 1 << 30
	for i, c := range reply.Cards {
		used := 0
		for _, p := range c.Passages {
			used += utf8.RuneCountInString(passageLine(p))
		}
		if used == 0 || used > roomFor(i+1) || used > prev || used < roomFor(i+1)/2 {
			t.Errorf("card %d quotes %d characters; room %d, card above %d", i+1, used, roomFor(i+1), prev)
		}
		if i == 1 && used >= prev {
			t.Errorf("the second card quotes %d characters, the first %d: the first gets the most room", used, prev)
		}
		prev = used
	}
}

// Verdicts first, then derivations, citations, attachments, then plain
// links; each source with its own layer and date when it differs.
func TestInLinksPutVerdictsFirst(t *testing.T) {
	in := []vault.Ref{
		{Key: "plain-note", Layer: vault.Team, Date: "2026-01-09"},
		{Key: "derived", Layer: vault.Team, Date: "2026-01-08", Verb: "derives_from"},
		{Key: "mitigation", Layer: vault.Team, Date: "2026-01-07", Verb: "mitigates"},
		{Key: "citing", Layer: vault.Local, Date: "2026-01-06", Verb: "cites"},
		{Key: "fix", Layer: vault.Team, Date: "2026-01-05", Verb: "resolves"},
		{Key: "newer", Layer: vault.Team, Date: "2026-01-04", Verb: "supersedes"},
		{Key: "attacher", Layer: vault.Team, Date: "2026-01-03", Verb: "attaches"},
		{Key: "refuter", Layer: vault.Team, Date: "2026-01-02", Verb: "invalidates"},
		{Key: "no", Layer: vault.Team, Date: "2026-01-01", Verb: "rejects"},
	}
	var got []string
	for _, r := range OrderIn(in) {
		got = append(got, r.Key)
	}
	want := []string{"newer", "refuter", "no", "fix", "mitigation", "derived", "citing", "attacher", "plain-note"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("order %v, want %v", got, want)
	}
	if line := refList(OrderIn(in), len(in), vault.Team, true); line != "newer supersedes, refuter invalidates, +7 more" {
		t.Errorf("in: line %q", line)
	}
	// Reverse verbs are named from the target's side, and a source in
	// another layer shows its own layer and date.
	if line := refList(OrderIn(in)[5:7], 2, vault.Team, true); line != "derived derived_by, citing (local · 2026-01-06) cited_by" {
		t.Errorf("in: line %q", line)
	}
	if line := refList(OrderIn(in)[7:8], 1, vault.Team, true); line != "attacher attached_by" {
		t.Errorf("in: line %q", line)
	}
}

// A table of contents links every note: on the first card's in: line it
// comes after the notes that mean their link, newer though it is.
func TestATableOfContentsLinkingInComesLast(t *testing.T) {
	res, store := answer(1)
	d := store.detail[0]
	d.In = []vault.Ref{{Doc: 50, Key: "api/TOC", Layer: vault.Team, Date: "2026-02-01"},
		{Doc: 51, Key: "object", Layer: vault.Team, Date: "2026-01-02"},
		{Doc: 52, Key: "summary", Layer: vault.Team, Date: "2026-01-01"}}
	store.detail[0] = d
	store.linksOut = map[uint32]int{50: 9213, 51: 12, 52: retrieve.HubLinks}
	reply, err := Build(res, "abc", store, DefaultMaxChars, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(reply.Text(), "\n  in: object, summary, +1 more\n") {
		t.Errorf("in: line:\n%s", reply.Text())
	}
	if in := reply.JSON().Hits[0].In; len(in) != 3 || in[0].Key != "api/TOC" {
		t.Errorf("JSON keeps every link in, newest first: %+v", in)
	}
}

func TestNeighboursGetHeaderOnlyCards(t *testing.T) {
	res, store := answer(1)
	res.Hits = append(res.Hits, retrieve.Hit{Doc: 7, Depth: 1, Parent: 0,
		Note: vault.Note{Key: "linked", Layer: vault.Local, Date: "2026-03-03", Type: "topic"}})
	store.detail[7] = vault.Detail{}
	reply, _ := Build(res, "", store, DefaultMaxChars, nil)
	if !strings.Contains(reply.Text(), "\n  ↳ linked  topic · local · 2026-03-03\n") || len(reply.Cards[1].Passages) != 0 {
		t.Errorf("neighbour card:\n%s", reply.Text())
	}
	if !strings.HasSuffix(reply.Text(), "@ no commits\n") {
		t.Error("the commit line is missing")
	}
}

func TestJSONListsAreNeverNull(t *testing.T) {
	res, store := answer(1)
	res.Hits[0].Matched = nil
	reply, _ := Build(res, "", store, DefaultMaxChars, nil)
	j := reply.JSON()
	h := j.Hits[0]
	if h.Passages == nil || h.Matched == nil || h.Missing == nil || h.Links == nil || h.In == nil || j.Commit != nil {
		t.Errorf("null lists or commit: %+v", j)
	}
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// Cards past the first show no plain links and no linked notes, only the
// links in that are verdicts, to verdictCards; the reply says so once.
// JSON keeps every link.
func TestCompactCardsCountWhatTheyLeaveOut(t *testing.T) {
	res, store := answer(5)
	var hits []retrieve.Hit
	for i, h := range res.Hits {
		d := store.detail[h.Doc]
		d.Links = []vault.Ref{{Doc: 100, Key: "linked", Layer: vault.Team, Date: "2026-01-01"}}
		d.In = []vault.Ref{{Doc: 101, Key: "linker", Layer: vault.Team, Date: "2026-01-01"},
			{Doc: 102, Key: "newer", Layer: vault.Team, Date: "2026-01-01", Verb: "supersedes"}}
		store.detail[h.Doc] = d
		hits = append(hits, h, retrieve.Hit{Doc: uint32(200 + i), Depth: 1, Parent: len(hits),
			Note: vault.Note{Key: fmt.Sprintf("neighbour-%d", i), Layer: vault.Team, Date: "2026-01-01", Type: "note"}})
	}
	res.Hits = hits
	reply, err := Build(res, "abc", store, 1<<20, nil)
	if err != nil {
		t.Fatal(err)
	}
	text := reply.Text()
	for i := 0; i < 5; i++ {
		full := i < fullCards
		if got := strings.Contains(text, fmt.Sprintf("  ↳ neighbour-%d  note", i)); got != full {
			t.Errorf("card %d: neighbour header shown %v, want %v", i, got, full)
		}
	}
	if n := strings.Count(text, "  in: newer supersedes, linker\n"); n != fullCards {
		t.Errorf("%d full in: lines, want %d\n%s", n, fullCards, text)
	}
	if n := strings.Count(text, "  in: newer supersedes\n"); n != verdictCards-fullCards {
		t.Errorf("%d verdict-only in: lines, want %d\n%s", n, verdictCards-fullCards, text)
	}
	if n := strings.Count(text, "  links: linked"); n != fullCards {
		t.Errorf("%d links lines, want %d\n%s", n, fullCards, text)
	}
	if strings.Contains(text, "more linked note") || !strings.Contains(text, "… cards ranked 2+ leave out plain links, 4+ all links") {
		t.Errorf("compact cards are not said once:\n%s", text)
	}
	for _, h := range reply.JSON().Hits {
		if h.Depth == 0 && (len(h.Links) != 1 || len(h.In) != 2) {
			t.Errorf("JSON of %s lost links: %+v %+v", h.Key, h.Links, h.In)
		}
	}
}

// Cards open with the same verdict line as the tree when the notes do not
// answer the question, and it counts against the size aim.
func TestCardsOpenWithTheVerdictLine(t *testing.T) {
	res, store := answer(2)
	res.Verdict, res.Uncovered = retrieve.Weak, []string{"lantern"}
	reply, err := Build(res, "abc", store, DefaultMaxChars, nil)
	if err != nil {
		t.Fatal(err)
	}
	text := reply.Text()
	if want := retrieve.VerdictLine(res) + "\n\nnote-0  "; !strings.HasPrefix(text, want) {
		t.Errorf("want the reply to open with %q:\n%s", want, text)
	}
	res.Verdict, res.Uncovered = retrieve.Answered, nil
	if answered, _ := Build(res, "abc", store, DefaultMaxChars, nil); !strings.HasPrefix(answered.Text(), "note-0  ") {
		t.Errorf("an answered reply opens with its first card:\n%s", answered.Text())
	}
}
