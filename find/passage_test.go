package find

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/omh-notes/omh/retrieve"
	"github.com/omh-notes/omh/token"
	"github.com/omh-notes/omh/vault"
	"github.com/omh-notes/omh/vault/corpus"
)

// ask is a question whose words weigh what is listed.
func ask(pairs ...any) question {
	q := question{index: map[string]int{}}
	for i := 0; i < len(pairs); i += 2 {
		term := token.Term(pairs[i].(string))
		q.index[term] = len(q.terms)
		q.terms = append(q.terms, term)
		q.weight = append(q.weight, pairs[i+1].(float64))
	}
	return q
}

// detailOf is what the cache holds of a note's content.
func detailOf(content string) corpus.Detail {
	p := vault.Parse([]byte(content))
	return corpus.Detail{BodyStart: p.BodyStart, Units: p.Units, Headings: p.Headings}
}

// passagesOf chooses the passages of content for q within room.
func passagesOf(content string, q question, room int) []Passage {
	return newNote(content, detailOf(content), "", q).choose(room, true)
}

func texts(ps []Passage) []string {
	var out []string
	for _, p := range ps {
		out = append(out, p.Text)
	}
	return out
}

var filler = strings.Repeat("Nothing of interest happens in this sentence at all. ", 6)

// The sentence whose words are rare wins over one with common words, even
// where the common ones come first and together.
func TestTheUnitWithTheRarestWordsWins(t *testing.T) {
	body := "The mount and the volume are common words here.\n\n" + filler + "\n\nOnly here does the word ebusy appear, alone.\n"
	ps := passagesOf(body, ask("mount", 0.2, "volume", 0.2, "ebusy", 3.0), 80)
	if len(ps) != 1 || ps[0].Text != "Only here does the word ebusy appear, alone." {
		t.Errorf("passages %q", texts(ps))
	}
}

// A heading that holds the question's words brings the section under it
// forward: its first sentence is the one quoted, with the heading path.
func TestAMatchingHeadingBringsItsFirstSentence(t *testing.T) {
	body := "# Guide\n\n" + filler + "\n\n## Sync\n\n### Forgotten password\n\nNobody can recover it for you, not even us.\n\nMore about other things.\n"
	ps := passagesOf(body, ask("forgotten", 2.0, "password", 2.0), 120)
	if len(ps) == 0 || !strings.HasPrefix(ps[0].Text, "Guide › Sync › Forgotten password: Nobody can recover it for you, not even us.") {
		t.Errorf("passages %q", texts(ps))
	}
	// The title as a level-1 heading is the card's header already.
	n := newNote(body, detailOf(body), "Guide", ask("forgotten", 2.0, "password", 2.0))
	if ps := n.choose(120, true); len(ps) == 0 || !strings.HasPrefix(ps[0].Text, "Sync › Forgotten password: Nobody") {
		t.Errorf("with the title: %q", texts(ps))
	}
}

// A section whose headings hold two of the question's terms is where the
// answer is, even when its steps share no word with the question: it
// outranks a sentence elsewhere that holds the question's rarest word
// (obsidian-037: the steps under "Switch back to public versions on
// desktop" lost to "Early access versions are beta releases").
func TestAHeadingPhrasedLikeTheQuestionMultipliesItsSection(t *testing.T) {
	body := "Early builds are beta releases.\n\n## Enable them\n\nOpen the settings.\n\n" +
		"## Switch back on desktop\n\n1. Close the app.\n2. Delete the file.\n"
	q := ask("beta", 3.0, "back", 1.8, "desktop", 1.4)
	ps := newNote(body, detailOf(body), "", q).choose(60, false)
	if len(ps) != 1 || !strings.HasPrefix(ps[0].Text, "Switch back on desktop: ") {
		t.Errorf("passages %q", texts(ps))
	}
}

// A heading that holds one of the question's terms, or one besides the
// title's, names the note's subject, not the part that answers: it
// multiplies nothing, and the sentence that holds the question's words
// stays the one quoted (dendron-040 and obsidian-030 were lost when it
// did).
func TestAHeadingWithOneOfTheQuestionsWordsMultipliesNothing(t *testing.T) {
	body := "Tags cannot start with a number.\n\n## Hashtags windows\n\nAnything after the sign.\n"
	for _, c := range []struct {
		title string
		q     question
	}{
		{"", ask("number", 2.0, "hashtags", 2.0)},
		{"Windows", ask("number", 2.0, "hashtags", 2.0, "windows", 2.0)},
	} {
		ps := newNote(body, detailOf(body), c.title, c.q).choose(60, false)
		if len(ps) != 1 || ps[0].Text != "Tags cannot start with a number." {
			t.Errorf("title %q: passages %q", c.title, texts(ps))
		}
	}
}

// A row is read with its table's header, an item with the item it is
// nested in, code with the sentence before it.
func TestUnitsAreReadWithWhatTheyHangFrom(t *testing.T) {
	tests := []struct {
		name, body string
		q          question
		want       string
	}{
		{"a table row", "Intro sentence that is long enough here.\n\n| Action | Windows | macOS |\n|---|---|---|\n| Open | `Ctrl+O` | `Cmd+O` |\n| Reopen closed tab | `Ctrl+Shift+T` | `Cmd+Shift+T` |\n",
			ask("reopen", 3.0), "Action: Reopen closed tab; Windows: `Ctrl+Shift+T`; macOS: `Cmd+Shift+T`"},
		{"a nested item", "- Settings\n  - Sync\n    - Excluded folders are never uploaded to the server.\n",
			ask("excluded", 3.0), "Sync › Excluded folders are never uploaded to the server."},
		{"code after its sentence", "To list orphans, run:\n\n```\nob files --orphans\n```\n\nOther text that follows the code block.\n",
			ask("orphans", 3.0), "To list orphans, run: ob files --orphans"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ps := passagesOf(tt.body, tt.q, len(tt.want)+12)
			if len(ps) != 1 || ps[0].Text != tt.want {
				t.Errorf("passages %q, want %q", texts(ps), tt.want)
			}
		})
	}
}

// A chosen unit is read with its neighbours under the same heading, the
// one after it first, before a lesser unit is quoted; a passage never runs
// into the next section, and the best passage comes first.
func TestPassagesGrowWithinTheirSectionInNoteOrder(t *testing.T) {
	body := "## One\n\nFirst fact about the otter here. Second fact follows the first one. Third fact ends the section.\n\n" +
		"## Two\n\nA heron stands in the water. The heron waits for fish all day.\n"
	q := ask("second", 2.0, "heron", 1.0)
	ps := passagesOf(body, q, 95)
	if got := texts(ps); len(got) != 1 || got[0] != "One: Second fact follows the first one. Third fact ends the section." {
		t.Errorf("little room: %q", got)
	}
	wide := passagesOf(body, q, 1000)
	want := []string{"One: First fact about the otter here. Second fact follows the first one. Third fact ends the section.",
		"Two: A heron stands in the water. The heron waits for fish all day."}
	if got := texts(wide); strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("room for all: %q, want %q", got, want)
	}
	for _, p := range wide {
		if p.Start >= p.End || strings.Count(body[p.Start:p.End], "##") > 0 {
			t.Errorf("passage %+v spans a heading", p)
		}
	}
}

// The passage that answers comes first, the others after it by score, not
// in note order: what an agent reads first is the answer. Catches: the
// answering passage fifth on the first card, 1,238 characters into the
// reply (obsidian-046).
func TestTheBestPassageComesFirst(t *testing.T) {
	body := "## One\n\nA heron stands in the water. The heron waits for fish all day.\n\n" +
		"## Two\n\nFirst fact about the otter here. Second fact follows the first one.\n\n" +
		"## Three\n\nThe heron flies off at dusk.\n"
	got := texts(passagesOf(body, ask("second", 3.0, "heron", 2.0, "dusk", 0.5), 1000))
	want := []string{"Two: First fact about the otter here. Second fact follows the first one.",
		"One: A heron stands in the water. The heron waits for fish all day.", "Three: The heron flies off at dusk."}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("passages %q, want %q", got, want)
	}
}

// Passages stay short however much room a card has: a unit grown by its
// neighbours stays within spanRunes, the first within bestRunes, so the
// passages after the first come early in the reply. Catches: the first
// card's room filled by growing every passage, the answer in the third
// one past the reply's first 1,000 characters.
func TestPassagesStayShortWhateverTheRoom(t *testing.T) {
	var b strings.Builder
	for i := range 12 {
		fmt.Fprintf(&b, "## Part %d\n\n", i)
		for j := range 8 {
			if j == 4 {
				fmt.Fprintf(&b, "In part %d the otter swims%s. ", i, strings.Repeat(" far", i%3))
				continue
			}
			fmt.Fprintf(&b, "Sentence %d of part %d says nothing at all. ", j, i)
		}
		b.WriteString("\n\n")
	}
	n := newNote(b.String(), detailOf(b.String()), "", ask("otter", 2.0))
	ps := n.choose(1400, true)
	if len(ps) < 2 {
		t.Fatalf("passages %q", texts(ps))
	}
	for i, p := range ps {
		bound := spanRunes
		if i == 0 {
			bound = bestRunes
		}
		if cost := utf8.RuneCountInString(passageLine(p)); cost > bound {
			t.Errorf("passage %d costs %d characters, more than %d: %q", i, cost, bound, p.Text)
		}
	}
}

// A unit longer than unitRunes (a paragraph written as one line) is
// clipped around the question's words, even where the card has room for
// all of it. Catches: a 700-character line quoted whole for one clause.
func TestALongLineIsClippedAroundItsWords(t *testing.T) {
	long := strings.Repeat("word ", 100) + "the quokka sits right here " + strings.Repeat("more ", 100) + "end.\n"
	ps := passagesOf(long, ask("quokka", 3.0), 1400)
	if len(ps) != 1 || !strings.Contains(ps[0].Text, "quokka") || utf8.RuneCountInString(ps[0].Text) > unitRunes+2 ||
		!strings.HasPrefix(ps[0].Text, "…") || !strings.HasSuffix(ps[0].Text, "…") {
		t.Errorf("passages %q", texts(ps))
	}
}

// What a card quotes fits its room, however long the unit; a unit too long
// is cut around its matches, and says so.
func TestAPassageFitsItsRoom(t *testing.T) {
	long := strings.Repeat("word ", 80) + "the quokka sits right here " + strings.Repeat("more ", 80) + "end."
	for _, room := range []int{60, 120, 300} {
		ps := passagesOf(long+"\n", ask("quokka", 3.0), room)
		if len(ps) != 1 {
			t.Fatalf("room %d: %d passages", room, len(ps))
		}
		if n := utf8.RuneCountInString(passageLine(ps[0])); n > room && n > minCutRunes+20 {
			t.Errorf("room %d: a line of %d characters", room, n)
		}
		if !strings.Contains(ps[0].Text, "quokka") || !strings.HasPrefix(ps[0].Text, "…") || !strings.HasSuffix(ps[0].Text, "…") {
			t.Errorf("room %d: %q", room, ps[0].Text)
		}
	}
}

// A note that holds no question word shows its opening.
func TestANoteWithoutMatchesShowsItsOpening(t *testing.T) {
	body := "---\ntitle: T\n---\nThe opening sentence says what this is.\n\nLater text.\n"
	ps := passagesOf(body, ask("absent", 1.0), 60)
	if len(ps) != 1 || ps[0].Text != "The opening sentence says what this is." {
		t.Errorf("passages %q", texts(ps))
	}
	if ps := passagesOf("---\nx: 1\n---\n  \n", ask("absent", 1.0), 60); len(ps) != 0 {
		t.Errorf("an empty body: %q", texts(ps))
	}
}

// Line ranges are the file's: sed -n prints the lines a passage was cut
// from, whatever the frontmatter, line endings or characters.
func TestSedPrintsAPassagesLines(t *testing.T) {
	t.Parallel()
	sed, err := exec.LookPath("sed")
	if err != nil {
		t.Skip("no sed")
	}
	body := "---\ntitle: Café\n---\n# Café\n\n## Hours\n\nLe café est fermé le dimanche. Il ouvre à 8 h\nle lundi, et ferme tard.\n\n| jour | heure |\n|---|---|\n| lundi | 8 h |\n\n- thé\n  - thé vert : 3 €\n"
	for name, content := range map[string]string{"LF": body, "CRLF": strings.ReplaceAll(body, "\n", "\r\n")} {
		path := filepath.Join(t.TempDir(), "note.md")
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		ps := passagesOf(content, ask("lundi", 2.0, "vert", 2.0, "fermé", 1.0), 1000)
		if len(ps) == 0 {
			t.Fatalf("%s: no passage", name)
		}
		for _, p := range ps {
			out, err := exec.Command(sed, "-n", strconv.Itoa(p.LineStart)+","+strconv.Itoa(p.LineEnd)+"p", path).Output()
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(string(out), content[p.Start:p.End]) {
				t.Errorf("%s: sed -n %d,%dp prints %q, not the passage's source %q", name, p.LineStart, p.LineEnd, out, content[p.Start:p.End])
			}
			if strings.ContainsAny(p.Text, "\r\n") || !utf8.ValidString(p.Text) {
				t.Errorf("%s: passage text %q", name, p.Text)
			}
		}
	}
}

// A guessed answer passed as a phrasing brings words the note may not use
// as it guessed: its invented words weigh by how many phrasings share them,
// the question's own twice, so the passage the question asks for stays
// first. Weighing every phrasing's words alike quoted the sentence full of
// the guess's words instead.
func TestAGuessedAnswersInventedWordsDoNotPullTheCardAway(t *testing.T) {
	question := "why does the ribbon vanish from the sidebar"
	guess := "the toolbar setting under appearance hides the toolbar; a toolbar preference restores it"
	res := retrieve.Result{Question: parsed(2, question, guess), Count: 100}
	content := "# Ribbon\n\n" + filler + "\n\nThe toolbar in the appearance preference changes the toolbar.\n\n" + filler +
		"\n\nThe ribbon can vanish from the sidebar when the window is narrow.\n\n" + filler + "\n"
	ps := passagesOf(content, newQuestion(res), 120)
	if len(ps) == 0 || !strings.Contains(ps[0].Text, "ribbon can vanish") {
		t.Errorf("quoted %q, want the sentence the question asks for", texts(ps))
	}
}

// A record's card quotes its statement first (a finding's Claim), though
// its Evidence links line and Answers item hold more of the question's
// words; a card with room for one passage quotes the Claim alone, and
// without a statement section the best-scoring unit leads as before.
func TestARecordsCardQuotesItsStatementFirst(t *testing.T) {
	t.Parallel()
	content := "---\ntype: finding\n---\n# Cold start is spent in model load\n\n## Claim\n\n" +
		"Deserialising the model weights takes the time, not reading them from disk.\n\n## Evidence\n\n" +
		"- supersedes [[finding/cold-start-is-disk-bound]]\n- cites [[citation/profile-run]] showing cold start slow in load\n\n" +
		"## Answers\n\n- why is cold start slow\n"
	q := ask("cold", 2.0, "start", 2.0, "slow", 3.0)
	n := newNote(content, detailOf(content), "Cold start is spent in model load", q)
	plain := texts(n.choose(1400, false))
	n.leadWith("Claim")
	lead := texts(n.choose(1400, false))
	apart := texts(n.choose(1400, true))
	if len(plain) != 1 || strings.HasPrefix(plain[0], "Claim:") {
		t.Errorf("without a statement the best unit leads: %q", plain)
	}
	if len(lead) != 1 || lead[0] != "Claim: Deserialising the model weights takes the time, not reading them from disk." {
		t.Errorf("one passage: %q", lead)
	}
	if len(apart) < 2 || apart[0] != lead[0] {
		t.Errorf("with room for others the Claim still comes first: %q", apart)
	}
}

// A one-line card quotes its best unit with no heading path, clipped
// around the question's words: its header names the note, and a path
// took the room of the answer. Catches: runner-up lines reading "Remove a
// collaborator from a site: Next to the…", the answer a few words on.
func TestALineCardQuotesItsUnitWithoutItsPath(t *testing.T) {
	body := "## A rather long section heading about many things\n\n" +
		"The pelican appears and eats a fish whole, then flies far off over the bay.\n"
	n := newNote(body, detailOf(body), "", ask("pelican", 2.0))
	n.line = true
	ps := n.choose(lineRoom, false)
	if len(ps) != 1 || ps[0].Text != "The pelican appears and eats a fish whole, then flies far off over the bay." {
		t.Errorf("line passage %q", texts(ps))
	}
	if cost := utf8.RuneCountInString(passageLine(ps[0])); cost > lineRoom {
		t.Errorf("line passage costs %d characters, more than %d", cost, lineRoom)
	}
}

// The first card quotes, apart from its best unit, a unit weighing
// otherShare of it: the answer often sits a section below the sentence
// holding most of the question's words. Catches: obsidian-037's "Delete
// the obsidian-VERSION.asar file" left off a card that quoted the
// section's other steps, at otherShare 0.5.
func TestTheFirstCardQuotesAUnitWeighingAThirdOfTheBest(t *testing.T) {
	body := "## Alpha\n\nThe walrus and the narwhal swim together.\n\n" + filler + "\n\n" +
		"## Beta\n\nOnly the narwhal is here.\n"
	// walrus 2 + narwhal 1.1 against narwhal 1.1: a share of 0.35.
	got := texts(passagesOf(body, ask("walrus", 2.0, "narwhal", 1.1), 1400))
	if len(got) != 2 || !strings.Contains(got[1], "Only the narwhal is here.") {
		t.Errorf("passages %q", got)
	}
}
