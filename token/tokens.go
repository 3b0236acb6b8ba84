// Package token turns text into terms, the units notes are indexed under
// and questions are matched on: words folded and stemmed, and character
// pairs of the scripts written without spaces (EachToken, Term), beside
// each language's function words (IsFunctionWord). It imports no package
// of omh, so the cache that writes terms and the rankers that read them
// share one definition of a term.
package token

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// TokenizerVersion names the rules below, and how a note's key becomes
// terms (index: only a key's last part names the note). The cache keys its
// posting lists by it, so changing how text becomes terms must change this
// number.
//
// Version 2: Unicode compatibility and case folding, diacritics folded on
// Latin, Greek and Cyrillic letters and vowel points on Arabic and Hebrew,
// overlapping bigrams for Chinese, Japanese and Korean, and key folders
// apart from the key's last part.
const TokenizerVersion = 2

// maxTermBytes bounds a term. Runs longer than this are base64, hashes or
// unspaced scripts; cutting them keeps the term dictionary small, and since
// questions are cut the same way, an identical long run still matches.
const maxTermBytes = 96

// EachToken calls fn for every token of text in order, with its byte span
// and its term. A word is a maximal run of letters, combining marks and
// decimal digits (marks included so that scripts written with vowel signs
// keep whole words); its term is the word folded (see Term), and stemmed
// when it is made only of ASCII letters. Whole words only: a question's "a"
// never matches inside "named".
//
// Chinese, Japanese and Korean write words without spaces between them, so
// a run of their characters is a phrase, not a word: it yields each pair of
// neighbouring characters (a one-character run yields itself), and a
// question in the user's own words meets a note on the pairs they share.
// Where such a run touches letters of another script ("Obsidianの設定") the
// two are separate runs.
func EachToken(text string, fn func(start, end int, term string)) { eachToken(text, Term, fn) }

// Words remembers the terms of the words it has seen, so that a word seen
// again is not folded and stemmed again: a note's words repeat, and most
// of a store's are a few thousand. A cold build tokenizes every note
// through one per core. Not safe for concurrent use.
type Words struct{ terms map[string]string }

// maxWords bounds what Words remembers: past it, it starts over.
const maxWords = 1 << 16

// NewWords returns an empty Words.
func NewWords() *Words { return &Words{terms: map[string]string{}} }

// Term is Term(word), remembered.
func (w *Words) Term(word string) string {
	if t, ok := w.terms[word]; ok {
		return t
	}
	if len(w.terms) >= maxWords {
		clear(w.terms)
	}
	// Copies: a word and its term are parts of a text the cache must not
	// keep alive.
	t := strings.Clone(Term(word))
	w.terms[strings.Clone(word)] = t
	return t
}

// EachToken is EachToken, the terms of words taken from w.
func (w *Words) EachToken(text string, fn func(start, end int, term string)) {
	eachToken(text, w.Term, fn)
}

func eachToken(text string, term func(string) string, fn func(start, end int, term string)) {
	start, cjk := -1, false
	for i := 0; i < len(text); {
		var inWord, isCJK bool
		size := 1
		if c := text[i]; c < utf8.RuneSelf {
			// Most text is ASCII: no table lookups for it.
			inWord = 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
		} else {
			var r rune
			r, size = utf8.DecodeRuneInString(text[i:])
			mark := unicode.IsMark(r)
			inWord = r != utf8.RuneError && (unicode.IsLetter(r) || mark || unicode.IsDigit(r))
			// A mark belongs to the character before it, whatever its script.
			isCJK = inWord && (mark && start >= 0 && cjk || isUnspaced(r))
		}
		if start >= 0 && (!inWord || isCJK != cjk) {
			emitRun(text, start, i, cjk, term, fn)
			start = -1
		}
		if inWord && start < 0 {
			start, cjk = i, isCJK
		}
		i += size
	}
	if start >= 0 {
		emitRun(text, start, len(text), cjk, term, fn)
	}
}

// isUnspaced reports whether r is of a script written without spaces that
// is cut into character pairs: Han, Hiragana, Katakana (with its prolonged
// sound mark, which Unicode counts as common to both kana) and Hangul.
func isUnspaced(r rune) bool {
	switch {
	case r < 0x1100:
		return false
	case 0x3041 <= r && r <= 0x30FF, 0x4E00 <= r && r <= 0x9FFF, 0xAC00 <= r && r <= 0xD7A3:
		return true // the common blocks, without a table search
	}
	return unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Hangul) || r == 'ｰ'
}

// emitRun yields a word, or a CJK run's character pairs.
func emitRun(text string, start, end int, cjk bool, term func(string) string, fn func(start, end int, term string)) {
	if !cjk {
		fn(start, end, term(text[start:end]))
		return
	}
	// Character starts: a character is a letter and the marks after it, or
	// a Hangul syllable spelled out as jamo (text in NFD): its vowel and
	// final consonant continue it.
	var room [64]int
	starts := room[:0]
	for i := start; i < end; {
		r, size := utf8.DecodeRuneInString(text[i:])
		if !unicode.IsMark(r) && !(0x1160 <= r && r <= 0x11FF) || len(starts) == 0 {
			starts = append(starts, i)
		}
		i += size
	}
	if len(starts) == 1 {
		fn(start, end, term(text[start:end]))
		return
	}
	starts = append(starts, end)
	for k := 0; k+2 < len(starts); k++ {
		fn(starts[k], starts[k+2], term(text[starts[k]:starts[k+2]]))
	}
}

// Term turns one word into the term it is indexed and asked under. ASCII
// words are lower-cased and stemmed (Porter's step 1, see stem). Other words
// are folded so that the ways people type them meet: compatibility forms
// unified (full-width letters, ligatures), case folded (ß as ss, final
// sigma as sigma), the diacritics of Latin, Greek and Cyrillic letters and
// the vowel points and stretching of Arabic and Hebrew dropped, so "resume"
// finds "résumé" and "Ελληνικά" finds "ελληνικα". Marks of other scripts
// are kept: an Indic vowel sign is part of its letter.
// A word that folds to ASCII letters is stemmed like an English one.
func Term(word string) string {
	ascii, letters := scan(word)
	switch {
	case !ascii && plainPair(word):
		// Nothing to fold; a CJK run yields one such pair per character.
	case !ascii:
		if folded := fold(word); folded != "" {
			word = folded // a lone Arabic tatweel folds to nothing: keep it
		}
		if _, letters = scan(word); letters {
			word = stem(word)
		}
	case letters:
		word = stem(strings.ToLower(word))
	default:
		word = strings.ToLower(word)
	}
	if len(word) > maxTermBytes {
		cut := maxTermBytes
		for cut > 0 && !utf8.RuneStart(word[cut]) {
			cut--
		}
		word = word[:cut]
	}
	return word
}

// plainPair reports whether w is made only of kana, Hangul syllables and
// unified Han ideographs, which have no case, no compatibility forms and
// no marks: what fold would return unchanged.
func plainPair(w string) bool {
	for _, r := range w {
		switch {
		case 0x3041 <= r && r <= 0x3096, 0x30A1 <= r && r <= 0x30FA, r == 'ー',
			0x3400 <= r && r <= 0x4DBF, 0x4E00 <= r && r <= 0x9FFF, 0xAC00 <= r && r <= 0xD7A3:
		default:
			return false
		}
	}
	return true
}

// foldedScripts lose their combining marks in Term: accents on alphabets,
// and the optional vowel points of Arabic and Hebrew, which most text and
// most questions leave out.
var foldedScripts = []*unicode.RangeTable{unicode.Latin, unicode.Greek, unicode.Cyrillic, unicode.Arabic, unicode.Hebrew}

// What fold needs to know of a rune below classified, looked up in one
// step: the alphabets, Arabic and Hebrew all lie there.
const (
	classified = 0x2000
	mapped     = 1 << iota // foldRune has it
	nonspacing             // a nonspacing mark
	ofFolded               // a letter of a folded script
	// stable: compatibility normalisation leaves it as it is wherever it
	// stands, normal and never composed with its neighbours.
	stable
	// plain: fold leaves it as it is, being stable, lower case (or
	// caseless), not mapped and no mark.
	plain
)

func classOf(r rune) uint8 {
	if r < classified {
		return runeClass[r]
	}
	var c uint8
	if _, ok := foldRune[r]; ok {
		c |= mapped
	}
	if unicode.Is(unicode.Mn, r) {
		c |= nonspacing
	}
	if unicode.In(r, foldedScripts...) {
		c |= ofFolded
	}
	return c
}

// plainWord reports whether fold would return word as it is: most words
// of Arabic, Hebrew and lower-case Cyrillic or Greek text without accents,
// checked in one pass over a table.
func plainWord(word string) bool {
	return allOf(word, plain)
}

// allOf reports whether every rune of word is below classified and has
// the class bit.
func allOf(word string, bit uint8) bool {
	for _, r := range word {
		if r >= classified || runeClass[r]&bit == 0 {
			return false
		}
	}
	return true
}

// fold applies Term's folding to a word that is not all ASCII: it
// unifies compatibility forms, lowers the case, maps letters by foldRune
// and drops the marks of folded scripts and the Arabic tatweel. A word
// with nothing to fold comes back as it came, without a copy.
func fold(word string) string {
	if plainWord(word) {
		return word
	}
	return foldEach(word)
}

// foldEach is fold without the plain-word shortcut.
func foldEach(word string) string {
	w := word
	if !allOf(w, stable) {
		w = norm.NFKC.String(w)
	}
	w = strings.ToLower(w)
	var b strings.Builder
	copied, baseFolded := false, false
	for i, r := range w {
		out, keep := "", true
		if r >= 0xC0 {
			c := classOf(r)
			switch {
			case r == 'ـ' || c&nonspacing != 0 && baseFolded:
				keep = false
			case c&mapped != 0:
				out, keep = foldRune[r], false
			}
			if c&nonspacing == 0 {
				baseFolded = c&ofFolded != 0
			}
		} else {
			baseFolded = r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z'
		}
		if keep && !copied {
			continue
		}
		if !copied {
			b.Grow(len(w))
			b.WriteString(w[:i])
			copied = true
		}
		if keep {
			b.WriteRune(r)
		} else {
			b.WriteString(out)
		}
	}
	if !copied {
		return w
	}
	return b.String()
}

// scan reports whether s is all ASCII, and whether it is all ASCII letters.
func scan(s string) (ascii, letters bool) {
	ascii, letters = true, s != ""
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= utf8.RuneSelf {
			return false, false
		}
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z') {
			letters = false
		}
	}
	return ascii, letters
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
