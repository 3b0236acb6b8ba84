package token

import "testing"

// A function word of one language is a content word of another: the
// question's own language decides.
func TestEachQuestionGetsTheFunctionWordsOfItsLanguage(t *testing.T) {
	for _, tc := range []struct {
		question, lang string
		function       []string // words that must be function words
		meaningful     []string // words that must not
	}{
		{"how do plants die in winter", "en", []string{"how", "do", "in"}, []string{"die", "plants", "winter"}},
		{"wie kann ich die Notiz umbenennen", "de", []string{"wie", "kann", "ich", "die"}, []string{"notiz", "umbenennen"}},
		{"comment renommer une note", "fr", []string{"comment", "une"}, []string{"renommer", "note"}},
		{"как мне переименовать заметку", "ru", []string{"как", "мне"}, []string{"переименовать", "заметку"}},
		{"rename note", "", nil, []string{"rename", "note"}},
		// One listed word does not make a language: Italian io, Spanish lo.
		{"github io pages", "", nil, []string{"github", "io", "pages"}},
		{"Ly6C lo monocytes", "", nil, []string{"lo", "monocytes"}},
		// Stems of listed words must not swallow content words: "quite"
		// stems to "quit", "mine" is the stem of "mining".
		{"how do I quit while mining", "en", []string{"how", "do", "I", "while"}, []string{"quit", "mining"}},
	} {
		lang := QuestionLanguage(Terms(tc.question))
		if lang != tc.lang {
			t.Errorf("%q is in %q, want %q", tc.question, lang, tc.lang)
		}
		for _, w := range tc.function {
			if !IsFunctionWord(lang, Term(w)) {
				t.Errorf("%q: %q must be a function word of %s", tc.question, w, lang)
			}
		}
		for _, w := range tc.meaningful {
			if IsFunctionWord(lang, Term(w)) {
				t.Errorf("%q: %q must carry meaning", tc.question, w)
			}
		}
	}
}

// The lists hold terms as the tokenizer makes them, so a word written with
// a capital, an accent or an English inflection is found in its list.
func TestFunctionWordsAreMatchedAsTerms(t *testing.T) {
	for lang, words := range map[string][]string{"en": {"Does", "Is", "THE"}, "fr": {"Où", "Très"}, "de": {"Für", "ÜBER"}} {
		for _, w := range words {
			if !IsFunctionWord(lang, Term(w)) {
				t.Errorf("%s %q (term %q) is not found in its list", lang, w, Term(w))
			}
		}
	}
}

// Every language with a list is one the question's language can be.
func TestEveryListHasAPlaceInTheTieOrder(t *testing.T) {
	if len(languageOrder) != len(functionWords) {
		t.Fatalf("%d languages ordered, %d lists", len(languageOrder), len(functionWords))
	}
	for _, lang := range languageOrder {
		if len(functionTerms[lang]) == 0 {
			t.Errorf("%s is ordered but has no list", lang)
		}
	}
}
