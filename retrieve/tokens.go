package retrieve

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// TokenizerVersion names the rules below. The cache keys its posting lists
// by it, so changing how text becomes terms must change this number.
const TokenizerVersion = 1

// maxTermBytes bounds a term. Runs longer than this are base64, hashes or
// unspaced scripts; cutting them keeps the term dictionary small, and since
// questions are cut the same way, an identical long run still matches.
const maxTermBytes = 96

// EachToken calls fn for every word of text in order, with its byte span and
// its term. A word is a maximal run of letters, combining marks and decimal
// digits (marks included so that scripts written with vowel signs keep whole
// words); the term is the word lower-cased, and stemmed when it is made only
// of ASCII letters. Whole words only: a question's "a" never matches inside
// "named".
func EachToken(text string, fn func(start, end int, term string)) {
	start := -1
	for i := 0; i < len(text); {
		r, size := utf8.DecodeRuneInString(text[i:])
		inWord := r != utf8.RuneError && (unicode.IsLetter(r) || unicode.IsMark(r) || unicode.IsDigit(r))
		switch {
		case inWord && start < 0:
			start = i
		case !inWord && start >= 0:
			fn(start, i, Term(text[start:i]))
			start = -1
		}
		i += size
	}
	if start >= 0 {
		fn(start, len(text), Term(text[start:]))
	}
}

// Term turns one word into the term it is indexed and asked under.
func Term(word string) string {
	asciiLetters := true
	for i := 0; i < len(word); i++ {
		c := word[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z') {
			asciiLetters = false
			break
		}
	}
	lower := strings.ToLower(word)
	if asciiLetters {
		lower = stem(lower)
	}
	if len(lower) > maxTermBytes {
		cut := maxTermBytes
		for cut > 0 && !utf8.RuneStart(lower[cut]) {
			cut--
		}
		lower = lower[:cut]
	}
	return lower
}

// Terms returns the distinct terms of text in order of first appearance.
func Terms(text string) []string {
	var out []string
	seen := map[string]bool{}
	EachToken(text, func(_, _ int, term string) {
		if !seen[term] {
			seen[term] = true
			out = append(out, term)
		}
	})
	return out
}
