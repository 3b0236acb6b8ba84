package find

import (
	"math/rand"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/omh-notes/omh/retrieve"
)

// weights gives each word of the question the rarity listed.
func weights(pairs ...any) map[string]float64 {
	w := map[string]float64{}
	for i := 0; i < len(pairs); i += 2 {
		w[retrieve.Term(pairs[i].(string))] = pairs[i+1].(float64)
	}
	return w
}

func terms(words ...string) map[string]bool {
	m := map[string]bool{}
	for _, w := range words {
		m[retrieve.Term(w)] = true
	}
	return m
}

var filler = strings.Repeat("Nothing of interest happens in this sentence at all. ", 6)

// Every passage is the source it claims: its span, whitespace collapsed and
// ellipses aside, is its text.
func checkSpans(t *testing.T, body string, base int, ps []Passage) {
	t.Helper()
	for _, p := range ps {
		raw := collapse(body[p.Start-base : p.End-base])
		if strings.Trim(p.Text, "…") != raw {
			t.Errorf("passage %q does not match its span %q", p.Text, raw)
		}
		if !utf8.ValidString(p.Text) {
			t.Errorf("passage %q is not valid UTF-8", p.Text)
		}
	}
}

// The rare word weighs more than two common ones, even where the common
// ones come first and together.
func TestTheWindowWithTheRarestTermsWins(t *testing.T) {
	body := "The mount and the volume are common words here. " + filler +
		"Only here does the word ebusy appear, alone. " + filler
	w := weights("mount", 0.2, "volume", 0.2, "ebusy", 3.0)
	ps := Passages(body, 0, w, nil)
	if len(ps) == 0 || !strings.Contains(ps[0].Text, "ebusy") {
		t.Fatalf("first passage %+v should hold the rare word", ps)
	}
	checkSpans(t, body, 0, ps)
}

// A term the title already shows counts only to break a tie.
func TestTitleWordsOnlyBreakTies(t *testing.T) {
	body := "Credentials are mentioned here with nothing else. " + filler +
		"The token expires here, quietly. " + filler +
		"The token expires and credentials rotate, both here. " + filler
	w := weights("credentials", 1.0, "token", 1.0)
	// The title shows "credentials": the lone token window and the window
	// with both tie on score; the title word breaks the tie.
	ps := Passages(body, 0, w, terms("credentials"))
	if !strings.Contains(ps[0].Text, "both here") {
		t.Errorf("first passage %q: the tie should go to the window with the title word", ps[0].Text)
	}
	// Without the title, holding both terms simply scores higher.
	if ps := Passages(body, 0, w, nil); !strings.Contains(ps[0].Text, "both here") {
		t.Errorf("first passage %q", ps[0].Text)
	}
}

// A second passage appears only for a question term that neither the first
// passage nor the title shows: checked both ways.
func TestASecondPassageOnlyForATermNotShownYet(t *testing.T) {
	w := weights("rename", 2.0, "ebusy", 2.0)
	apart := "The rename call fails on the bind mount. " + filler + filler + "It fails with ebusy every time. " + filler
	ps := Passages(apart, 10, w, nil)
	if len(ps) != 2 || !strings.Contains(ps[0].Text, "rename") && !strings.Contains(ps[0].Text, "ebusy") {
		t.Fatalf("want two passages, one per term: %+v", ps)
	}
	if strings.Contains(ps[0].Text, "rename") == strings.Contains(ps[1].Text, "rename") {
		t.Errorf("the passages should each bring one term: %+v", ps)
	}
	checkSpans(t, apart, 10, ps)

	// The second occurrence adds no new term: no second passage.
	repeated := "The rename call fails with ebusy on the bind mount. " + filler + filler + "Again rename fails with ebusy. " + filler
	if ps := Passages(repeated, 0, w, nil); len(ps) != 1 {
		t.Errorf("a second passage repeating shown terms: %+v", ps)
	}
	// The far term is in the title: no second passage either.
	if ps := Passages(apart, 0, w, terms("ebusy")); len(ps) != 1 {
		t.Errorf("a second passage for a term the title shows: %+v", ps)
	}
}

// Passages start and end on word boundaries and hold the matches in the
// middle.
func TestPassagesAreCutAtWordBoundariesAroundCentredMatches(t *testing.T) {
	words := strings.Repeat("alpha bravo charlie delta echo foxtrot golf hotel india juliet ", 10)
	body := words + "kilo QUOKKA lima " + words
	ps := Passages(body, 0, weights("quokka", 1.0), nil)
	if len(ps) != 1 {
		t.Fatalf("got %+v", ps)
	}
	text := strings.Trim(ps[0].Text, "…")
	for _, w := range strings.Fields(text) {
		if !strings.Contains(" "+words+" kilo QUOKKA lima ", " "+w+" ") {
			t.Errorf("passage holds a cut word %q: %q", w, text)
		}
	}
	i := strings.Index(text, "QUOKKA")
	before, after := utf8.RuneCountInString(text[:i]), utf8.RuneCountInString(text[i+len("QUOKKA"):])
	if diff := before - after; diff > 12 || diff < -12 {
		t.Errorf("match not centred: %d runes before, %d after", before, after)
	}
	if n := utf8.RuneCountInString(text); n > PassageRunes+valueRunes || n < PassageRunes-20 {
		t.Errorf("passage of %d runes", n)
	}
	checkSpans(t, body, 0, ps)
}

// A value that follows its label stays on the card even when the window
// would end just after the label.
func TestAPassageRunsOnToFinishAShortValue(t *testing.T) {
	body := strings.Repeat("x ", 70) + "the timeout was 30 seconds." + strings.Repeat(" y", 200)
	ps := Passages(body, 0, weights("timeout", 1.0), nil)
	if len(ps) != 1 || !strings.Contains(ps[0].Text, "30 seconds.") {
		t.Errorf("the value was cut: %+v", ps)
	}
}

func TestMultiByteTextIsCountedInCharacters(t *testing.T) {
	body := strings.Repeat("日本語の文章です。", 30) + "ここで検索語が出ます。" + strings.Repeat("ほかの文章。", 30)
	w := map[string]float64{"検索": 2.0, "索語": 2.0}
	ps := Passages(body, 7, w, nil)
	if len(ps) != 1 || !strings.Contains(ps[0].Text, "ここで検索語が出ます") {
		t.Fatalf("got %+v", ps)
	}
	// Text without spaces is cut where the window falls, not shrunk to the
	// match.
	if n := utf8.RuneCountInString(ps[0].Text); n > PassageRunes+valueRunes+2 || n < PassageRunes-10 {
		t.Errorf("passage of %d characters", n)
	}
	checkSpans(t, body, 7, ps)
}

// A note found by its name alone still shows its first words.
func TestANoteWithoutMatchesShowsItsOpening(t *testing.T) {
	body := "\n\n# Heading\n\nFirst words of the note. " + filler
	ps := Passages(body, 100, weights("absent", 1.0), nil)
	if len(ps) != 1 || !strings.HasPrefix(ps[0].Text, "# Heading First words") || ps[0].Start != 102 {
		t.Errorf("got %+v", ps)
	}
	if ps := Passages("  \n ", 0, weights("absent", 1.0), nil); len(ps) != 0 {
		t.Errorf("an empty body has no passage: %+v", ps)
	}
}

// addresses scans by hand for what one regular expression matches; random
// texts built from the characters that matter must give the same spans.
func TestAddressesFindWhatTheExpressionFinds(t *testing.T) {
	pattern := regexp.MustCompile(`https?://[^\s)>\]]+|\]\([^)\s]*\)`)
	pieces := []string{"http://", "https://", "http:/", "htt", "h", "](", "]", "(", ")", ">", " ", "\n", "\t", "x", "é", "a.b/c", "[l", "s://"}
	rng := rand.New(rand.NewSource(3))
	for round := 0; round < 20000; round++ {
		var b strings.Builder
		for n := rng.Intn(12); n > 0; n-- {
			b.WriteString(pieces[rng.Intn(len(pieces))])
		}
		s := b.String()
		want := pattern.FindAllStringIndex(s, -1)
		if got := addresses(s); !reflect.DeepEqual(got, want) {
			t.Fatalf("%q: got %v, want %v", s, got, want)
		}
	}
}
