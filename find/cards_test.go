package find

import (
	"fmt"
	"reflect"
	"sort"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/omh-notes/omh/retrieve"
	"github.com/omh-notes/omh/token"
	"github.com/omh-notes/omh/vault"
	"github.com/omh-notes/omh/vault/corpus"
)

// fakeSnapshot serves contents and details by document id.
type fakeSnapshot struct {
	content  map[uint32]string
	detail   map[uint32]corpus.Detail
	notes    map[uint32]corpus.Note
	linksOut map[uint32]int
}

func (f fakeSnapshot) Content(doc uint32, _ corpus.Note) ([]byte, error) {
	return []byte(f.content[doc]), nil
}

func (f fakeSnapshot) CardDetail(doc uint32) (corpus.Detail, error) {
	d := f.detail[doc]
	d.In = nil
	return d, nil
}

// LinksIn serves links in as the cache does: in name order, keyless.
func (f fakeSnapshot) LinksIn(doc uint32, plain, typed bool) ([]corpus.Ref, int, error) {
	var in []corpus.Ref
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
func (f fakeSnapshot) KeyRefs(refs []corpus.Ref) error {
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

func (f fakeSnapshot) Note(doc uint32) (corpus.Note, error) { return f.notes[doc], nil }

// Info reads the type and layer of the notes the snapshot serves; cards
// read it only with a proof.
func (f fakeSnapshot) Info(doc uint32) corpus.DocInfo {
	n, ok := f.notes[doc]
	return corpus.DocInfo{Present: ok, Layer: n.Layer, Type: n.Type}
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
		Verdict:  retrieve.Answered, // several notes close: the first three get full cards
	}
	res.Question.Terms[3].DF, res.Question.Terms[4].DF = 2, 3 // quokka, lantern
	store := fakeSnapshot{content: map[uint32]string{}, detail: map[uint32]corpus.Detail{}}
	for i := 0; i < n; i++ {
		doc := uint32(i)
		res.Hits = append(res.Hits, retrieve.Hit{Doc: doc, Parent: -1, Score: int64(1000 - i),
			Note:    corpus.Note{Key: fmt.Sprintf("note-%d", i), Layer: vault.Team, Date: "2026-01-02", Type: "note", Title: "Note"},
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
		t.Errorf("want both words' sentences, the rarer word's first: %q", got)
	}
	// "why" carries no meaning: it is neither matched nor missing.
	if !reflect.DeepEqual(c.Matched, []string{"quokka", "lantern"}) || len(c.Missing) != 0 {
		t.Errorf("matched %v missing %v", c.Matched, c.Missing)
	}
	text := reply.Text()
	for _, want := range []string{"note-0  note · team · 2026-01-02\n", "  L4-6 > ", "  L6-10 > ", "@ abc\n"} {
		if !strings.Contains(text, want) {
			t.Errorf("card text lacks %q:\n%s", want, text)
		}
	}
	// A note holding every word of the question has nothing to say on a
	// matched line: "matched 2/2" was noise.
	if strings.Contains(text, "matched") {
		t.Errorf("a matched line on a card that lacks nothing:\n%s", text)
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

// The size aim: cards get room by rank and by the verdict; what does not
// fit is counted and said; no header or commit line is ever cut.
func TestTheSizeAimCountsWhatItLeavesOut(t *testing.T) {
	res, store := answer(12)
	full, _ := Build(res, "abc", store, 1<<20, nil)
	all := 0
	for i, c := range full.Cards {
		all += len(c.Passages)
		// The first card quotes both matches; the other full cards and the
		// one-line cards below them the best one (the rarer word).
		want := 1 + btoi(i < apartCards)
		if len(c.Passages) != want {
			t.Errorf("without an aim card %d shows %d passages, want %d", i, len(c.Passages), want)
		}
		if want == 1 && !strings.Contains(c.Passages[0].Text, "quokka") {
			t.Errorf("card %d quotes %q, not its best passage", i, c.Passages[0].Text)
		}
	}
	if full.PassagesOmitted != 0 {
		t.Fatalf("without an aim: %d omitted\n%s", full.PassagesOmitted, full.Text())
	}
	aim := 900
	reply, _ := Build(res, "abc", store, aim, nil)
	text := reply.Text()
	shown := 0
	for i, c := range reply.Cards {
		shown += len(c.Passages)
		if !strings.Contains(text, cardHeader(c)) {
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
	if tiny.PassagesOmitted != all || strings.Count(tiny.Text(), "note · team · 2026-01-02") != 12 {
		t.Errorf("a tiny aim: %d omitted\n%s", tiny.PassagesOmitted, tiny.Text())
	}
}

// Every ranked card a default reply prints quotes a passage, whatever the
// verdict: cards 6 to 8 had no room, and the answer on a sixth card
// (obsidian-041's "There is no from or source like in SQL or Dataview")
// was left out. Under a clear leader the cards past its leadLines
// runners-up are not printed and take no room.
func TestEveryCardOfADefaultReplyHasRoom(t *testing.T) {
	for _, v := range []retrieve.Result{{Verdict: retrieve.Answered, Leads: true}, {Verdict: retrieve.Answered}, {Verdict: retrieve.Weak}, {Verdict: retrieve.NoMatch}} {
		r := Reply{Result: v}
		for at := 1; at <= retrieve.DefaultRoots; at++ {
			room, _ := r.room(at)
			if r.leads() && at > 1+leadLines {
				if room != 0 {
					t.Errorf("card %d under a clear leader is not printed but has room %d", at, room)
				}
				continue
			}
			if room < minCutRunes+len("  L1234-1240 > \n") {
				t.Errorf("verdict %s, leads %v: card %d of a default reply has room %d, too little to quote", v.Verdict, v.Leads, at, room)
			}
		}
	}
}

// A reply is sized by how sure it is: with the first note clearly ahead
// its card is full and every other ranked note is one line; with notes
// close, the first three are full; a weak answer's first two; notes that
// share only common words are lines. Every full card quotes between half
// its room and all of it (seven notes each long enough to fill any room),
// no card more than the card above, and a line card no more than its
// line. Catches: a reply of no cards passing for one that shrinks; every
// card given the first card's room; runners-up quoted whole below a clear
// leader.
func TestRoomShrinksDownTheRankingAndByConfidence(t *testing.T) {
	long := "---\nx: 1\n---\n" + strings.Repeat("The quokka sits here in the sun for a while. ", 60) + "\n"
	const notes = 7
	for _, c := range []struct {
		verdict retrieve.Verdict
		leads   bool
		full    int
	}{{retrieve.Answered, true, 1}, {retrieve.Answered, false, 3}, {retrieve.Weak, false, 2}, {retrieve.NoMatch, false, 0}} {
		res, store := answer(notes)
		res.Verdict, res.Leads = c.verdict, c.leads
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
		for i, card := range reply.Cards {
			used := 0
			for _, p := range card.Passages {
				used += utf8.RuneCountInString(passageLine(p))
			}
			room, line := reply.room(i + 1)
			if room == 0 {
				if used != 0 || !c.leads || i <= leadLines || reply.shown(i) {
					t.Errorf("verdict %s, leads %v: card %d left out, quoting %d characters", c.verdict, c.leads, i+1, used)
				}
				continue
			}
			if line != (i >= c.full) || reply.full(i) == line {
				t.Errorf("verdict %s, leads %v: card %d is one line %v, want %v", c.verdict, c.leads, i+1, line, i >= c.full)
			}
			if used == 0 || used > room || used > prev || !line && used < room/2 {
				t.Errorf("verdict %s, leads %v: card %d quotes %d characters; room %d, card above %d", c.verdict, c.leads, i+1, used, room, prev)
			}
			prev = used
		}
	}
}

// Verdicts first, then derivations, citations, attachments, then plain
// links; each source with its own layer and date when it differs.
func TestInLinksPutVerdictsFirst(t *testing.T) {
	in := []corpus.Ref{
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
	d.In = []corpus.Ref{{Doc: 50, Key: "api/TOC", Layer: vault.Team, Date: "2026-02-01"},
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

// A linked note is named on its card's links line, with its own layer and
// date, and gets no card of its own: a header line for it and a line
// counting the rest took 110 characters under the first card.
func TestLinkedNotesAreNamedOnTheLinksLine(t *testing.T) {
	res, store := answer(1)
	linked := corpus.Ref{Doc: 7, Key: "linked", Layer: vault.Local, Date: "2026-03-03"}
	d := store.detail[0]
	d.Links = []corpus.Ref{linked}
	store.detail[0] = d
	res.Hits = append(res.Hits, retrieve.Hit{Doc: 7, Depth: 1, Parent: 0,
		Note: corpus.Note{Key: "linked", Layer: vault.Local, Date: "2026-03-03", Type: "topic"}})
	store.detail[7] = corpus.Detail{}
	reply, _ := Build(res, "", store, DefaultMaxChars, nil)
	text := reply.Text()
	if !strings.Contains(text, "\n  links: linked (local · 2026-03-03)\n") || strings.Contains(text, "↳") || len(reply.Cards[1].Passages) != 0 {
		t.Errorf("linked note:\n%s", text)
	}
	if j := reply.ContextJSON(); len(j.Hits) != 1 || j.Hits[0].MoreLinked != 1 || len(j.Hits[0].Links) != 1 {
		t.Errorf("the structured content counts the linked note as the card names it: %+v", j.Hits)
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

// Cards past the first show no plain links, only the links in that are
// verdicts, to verdictCards, and one-line cards none. JSON keeps every
// link.
func TestCompactCardsCountWhatTheyLeaveOut(t *testing.T) {
	res, store := answer(5)
	var hits []retrieve.Hit
	for i, h := range res.Hits {
		d := store.detail[h.Doc]
		d.Links = []corpus.Ref{{Doc: 100, Key: "linked", Layer: vault.Team, Date: "2026-01-01"}}
		d.In = []corpus.Ref{{Doc: 101, Key: "linker", Layer: vault.Team, Date: "2026-01-01"},
			{Doc: 102, Key: "newer", Layer: vault.Team, Date: "2026-01-01", Verb: "supersedes"}}
		store.detail[h.Doc] = d
		hits = append(hits, h, retrieve.Hit{Doc: uint32(200 + i), Depth: 1, Parent: len(hits),
			Note: corpus.Note{Key: fmt.Sprintf("neighbour-%d", i), Layer: vault.Team, Date: "2026-01-01", Type: "note"}})
	}
	res.Hits = hits
	reply, err := Build(res, "abc", store, 1<<20, nil)
	if err != nil {
		t.Fatal(err)
	}
	text := reply.Text()
	if n := strings.Count(text, "  in: newer supersedes, linker\n"); n != fullCards {
		t.Errorf("%d full in: lines, want %d\n%s", n, fullCards, text)
	}
	if n := strings.Count(text, "  in: newer supersedes\n"); n != verdictCards-fullCards {
		t.Errorf("%d verdict-only in: lines, want %d\n%s", n, verdictCards-fullCards, text)
	}
	if n := strings.Count(text, "  links: linked"); n != fullCards {
		t.Errorf("%d links lines, want %d\n%s", n, fullCards, text)
	}
	for _, h := range reply.JSON().Hits {
		if h.Depth == 0 && (len(h.Links) != 1 || len(h.In) != 2) {
			t.Errorf("JSON of %s lost links: %+v %+v", h.Key, h.Links, h.In)
		}
	}
}

// Cards open with the same verdict line as the tree, whatever the
// verdict, and it counts against the size aim.
func TestCardsOpenWithTheVerdictLine(t *testing.T) {
	res, store := answer(2)
	for _, v := range []struct {
		verdict retrieve.Verdict
		leads   bool
		words   []string
	}{{retrieve.Weak, false, []string{"lantern"}}, {retrieve.Answered, true, nil}, {retrieve.Answered, false, nil}} {
		res.Verdict, res.Leads, res.Uncovered = v.verdict, v.leads, v.words
		reply, err := Build(res, "abc", store, DefaultMaxChars, nil)
		if err != nil {
			t.Fatal(err)
		}
		text := reply.Text()
		if want := retrieve.VerdictLine(res) + "\n\nnote-0  "; !strings.HasPrefix(text, want) || retrieve.VerdictLine(res) == "" {
			t.Errorf("want the reply to open with %q:\n%s", want, text)
		}
	}
}

// Below a note that leads clearly, each runner-up is one line: its header
// and its best passage clipped, no links, no matched line; the card that
// leads names its file when the path is not its key, and says nothing of
// the question's words it lacks. The match count stands only under a weak
// verdict, where a narrower question would help. Catches: eight full
// cards under an answer that stood clearly ahead (3,900 characters),
// "matched 4/4" and "… 5,656 more matches; ask a narrower question" under
// the card that answered, a card naming Plugins/Format converter whose
// file is en/Plugins/Format converter.md.
func TestAClearLeaderGetsTheOnlyFullCard(t *testing.T) {
	res, store := answer(4)
	res.Verdict, res.Leads, res.Omitted = retrieve.Answered, true, 5656
	res.Question.Terms[4].DF = 0 // lantern: the first card lacks nothing it could show
	for i := range res.Hits {
		res.Hits[i].Note.Path = "en/" + res.Hits[i].Note.Key + ".md"
	}
	res.Hits[0].Matched = res.Hits[0].Matched[:1]
	reply, err := Build(res, "abc", store, DefaultMaxChars, nil)
	if err != nil {
		t.Fatal(err)
	}
	text := reply.Text()
	lines := strings.Split(text, "\n")
	if !strings.Contains(text, "\n  file: en/note-0.md\n") || strings.Contains(text, "en/note-1.md") {
		t.Errorf("the full card names its file, the lines do not:\n%s", text)
	}
	for k := 1; k < 4; k++ {
		var line string
		for _, l := range lines {
			if strings.HasPrefix(l, fmt.Sprintf("note-%d  ", k)) {
				line = l
			}
		}
		c := reply.Cards[k]
		if len(c.Passages) != 1 || line != cardHeader(c)+"  "+lineRange(c.Passages[0].LineStart, c.Passages[0].LineEnd)+" > "+c.Passages[0].Text {
			t.Errorf("runner-up %d reads %q", k, line)
		}
		if n := utf8.RuneCountInString(passageLine(c.Passages[0])); n > lineRoom {
			t.Errorf("runner-up %d quotes %d characters, more than its line's %d", k, n, lineRoom)
		}
	}
	if strings.Contains(text, "matched") || strings.Contains(text, "more matches") {
		t.Errorf("noise under a clear leader:\n%s", text)
	}
	res.Verdict, res.Leads, res.Unheld = retrieve.Weak, false, []string{"lantern"}
	weak, _ := Build(res, "abc", store, DefaultMaxChars, nil)
	if text := weak.Text(); strings.Contains(text, "more matches") || strings.Contains(text, "missing: lantern") {
		t.Errorf("a weak answer naming words no note holds leaves them to its verdict line and counts no matches (no narrower question finds them):\n%s", text)
	}
	res.Unheld, res.Uncovered = nil, []string{"quokka"}
	lacking, _ := Build(res, "abc", store, DefaultMaxChars, nil)
	if text := lacking.Text(); !strings.Contains(text, "… 5656 more matches; ask a narrower question.\n") {
		t.Errorf("a weak answer whose closest notes lack words counts its matches:\n%s", text)
	}
}

// A clear leader's reply is its card and leadLines runners-up in a line
// each, with no links lines: the card is the answer, and JSON lists every
// ranked note and link. Catches: seven runner-up lines and the in and
// links lines (150 characters) under a card that answered, 2,300
// characters a reply at the median of the tune questions.
func TestAClearLeaderNamesFewRunnersUpAndNoLinks(t *testing.T) {
	res, store := answer(8)
	res.Verdict, res.Leads = retrieve.Answered, true
	d := store.detail[0]
	d.Links = []corpus.Ref{{Doc: 1, Key: "note-1", Layer: vault.Team}}
	d.In = []corpus.Ref{{Doc: 2, Key: "note-2", Layer: vault.Team}}
	store.detail[0] = d
	headers := func(r Reply) []string {
		var keys []string
		for _, l := range strings.Split(r.Text(), "\n") {
			if k, _, ok := strings.Cut(l, "  note · "); ok && strings.HasPrefix(k, "note-") {
				keys = append(keys, k)
			}
		}
		return keys
	}
	reply, err := Build(res, "abc", store, DefaultMaxChars, nil)
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	for i := range 1 + leadLines {
		want = append(want, fmt.Sprintf("note-%d", i))
	}
	if got := headers(reply); !reflect.DeepEqual(got, want) {
		t.Errorf("a clear leader's reply names %q, want %q", got, want)
	}
	if text := reply.Text(); strings.Contains(text, "  in: ") || strings.Contains(text, "  links: ") {
		t.Errorf("links lines under a clear leader:\n%s", text)
	}
	if j := reply.JSON(); len(j.Hits) != 8 || len(j.Hits[0].Links) != 1 || len(j.Hits[0].In) != 1 {
		t.Errorf("JSON lists every ranked note and link: %d hits, %+v", len(j.Hits), j.Hits[0])
	}
	res.Leads = false
	close, _ := Build(res, "abc", store, DefaultMaxChars, nil)
	if got := headers(close); len(got) != 8 || !strings.Contains(close.Text(), "  in: ") || !strings.Contains(close.Text(), "  links: ") {
		t.Errorf("close notes: every ranked note and the first card's links:\n%s", close.Text())
	}
}
