package retrieve

import (
	"math/rand"
	"slices"
	"strings"
	"testing"

	"github.com/omh-notes/omh/token"
)

// The question is parsed once and every pass reads the parse, so the parse
// must say what tokenizing each phrasing again would: its distinct terms in
// order, how often it writes each, the word first written for each term,
// and which terms are function words of the question's language.
// Catches: a parse whose counts or order drift from the tokenizer's (the
// scorer weighs a repeated word by its count; passages and the verdict
// read the phrasings' own terms).
func TestAParsedQuestionSaysWhatTokenizingAgainWould(t *testing.T) {
	t.Parallel()
	words := []string{"the", "sync", "Sync", "syncing", "vault", "of", "a", "WebDAV", "server", "how", "does", "it", "fail", "übersicht", "東京", "files", "file"}
	rnd := rand.New(rand.NewSource(7))
	for round := 0; round < 200; round++ {
		var phrasings []string
		for p := 0; p < 1+rnd.Intn(4); p++ {
			var w []string
			for k := 0; k < rnd.Intn(12); k++ {
				w = append(w, words[rnd.Intn(len(words))])
			}
			phrasings = append(phrasings, strings.Join(w, " "))
		}
		q := ParseQuestion(phrasings)
		if q.Cut || !slices.Equal(q.Phrasings, phrasings) || len(q.Uses) != len(phrasings) {
			t.Fatalf("%q: parsed as %q, cut %v", phrasings, q.Phrasings, q.Cut)
		}
		var all []string
		for i, p := range phrasings {
			var got []string
			for _, u := range q.Uses[i] {
				got = append(got, q.Terms[u.Term].Term)
				n := 0
				token.EachToken(p, func(_, _ int, term string) {
					if term == q.Terms[u.Term].Term {
						n++
					}
				})
				if u.Count != n {
					t.Errorf("%q writes %q %d times, parsed %d", p, q.Terms[u.Term].Term, n, u.Count)
				}
			}
			if want := token.Terms(p); !slices.Equal(got, want) {
				t.Errorf("%q: terms %q, want %q", p, got, want)
			}
			for _, term := range token.Terms(p) {
				if !slices.Contains(all, term) {
					all = append(all, term)
				}
			}
		}
		var terms []string
		for _, term := range q.Terms {
			terms = append(terms, term.Term)
			if token.Term(term.Word) != term.Term {
				t.Errorf("%q is written %q, which is another term", term.Term, term.Word)
			}
			if term.Meaningful == token.IsFunctionWord(token.QuestionLanguage(all), term.Term) {
				t.Errorf("%q in %q: meaningful %v", term.Term, phrasings, term.Meaningful)
			}
		}
		if !slices.Equal(terms, all) {
			t.Errorf("%q: terms %q, want %q", phrasings, terms, all)
		}
	}
}
