package token

import (
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

// Every token is a span of the text, in order, holding no space or
// punctuation, overlapping the one before only where both are character
// pairs of a script written without spaces; its term is non-empty,
// lower-cased, valid UTF-8 (when the text is) and no longer than
// maxTermBytes; an ASCII word has the term of its capitals. Catches: a span
// that splits a UTF-8 sequence; a cut term that is not UTF-8; a word that
// matches only when written in the case the note used.
func FuzzEachToken(f *testing.F) {
	for _, s := range []string{"", "The walrus's tusks, 2026-01-02: naïve café", "a\u0301b कि ค่ะ", strings.Repeat("x", 300),
		"\xff\xfeword\x00", "ARGUMENTS argued Argue", "ǅungla İstanbul ß", "Obsidianの設定を変える"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		prevStart, prevEnd, prevWord := -1, 0, ""
		EachToken(text, func(start, end int, term string) {
			if start <= prevStart || end <= prevEnd || start >= end || end > len(text) {
				t.Fatalf("span [%d,%d) after [%d,%d) in %d bytes", start, end, prevStart, prevEnd, len(text))
			}
			word := text[start:end]
			if start < prevEnd && !(allUnspaced(prevWord) && allUnspaced(word)) {
				t.Fatalf("%q overlaps %q, not two character pairs", word, prevWord)
			}
			prevStart, prevEnd, prevWord = start, end, word
			if strings.ContainsAny(word, " \t\n.,;:!?") {
				t.Fatalf("the word %q holds a separator", word)
			}
			if term == "" || len(term) > maxTermBytes {
				t.Fatalf("term %q of %q", term, word)
			}
			if utf8.ValidString(word) && !utf8.ValidString(term) {
				t.Fatalf("term %q of %q is not UTF-8", term, word)
			}
			if ascii(word) && Term(strings.ToUpper(word)) != term {
				t.Fatalf("%q and %q have different terms", word, strings.ToUpper(word))
			}
		})
	})
}

// allUnspaced reports whether s is made only of characters of a script
// written without spaces, and marks.
func allUnspaced(s string) bool {
	for _, r := range s {
		if !isUnspaced(r) && !unicode.IsMark(r) {
			return false
		}
	}
	return true
}

func ascii(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}
