package retrieve

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
func EachToken(text string, fn func(start, end int, term string)) {
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
			emitRun(text, start, i, cjk, fn)
			start = -1
		}
		if inWord && start < 0 {
			start, cjk = i, isCJK
		}
		i += size
	}
	if start >= 0 {
		emitRun(text, start, len(text), cjk, fn)
	}
}

// isUnspaced reports whether r is of a script written without spaces that
// is cut into character pairs: Han, Hiragana, Katakana (with its prolonged
// sound mark, which Unicode counts as common to both kana) and Hangul.
func isUnspaced(r rune) bool {
	return r >= 0x1100 && (unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Hangul) || r == 'ー' || r == 'ｰ')
}

// emitRun yields a word, or a CJK run's character pairs.
func emitRun(text string, start, end int, cjk bool, fn func(start, end int, term string)) {
	if !cjk {
		fn(start, end, Term(text[start:end]))
		return
	}
	// Character starts: a character is a letter and the marks after it, or
	// a Hangul syllable spelled out as jamo (text in NFD): its vowel and
	// final consonant continue it.
	var starts []int
	for i := start; i < end; {
		r, size := utf8.DecodeRuneInString(text[i:])
		if !unicode.IsMark(r) && !(0x1160 <= r && r <= 0x11FF) || len(starts) == 0 {
			starts = append(starts, i)
		}
		i += size
	}
	if len(starts) == 1 {
		fn(start, end, Term(text[start:end]))
		return
	}
	starts = append(starts, end)
	for k := 0; k+2 < len(starts); k++ {
		fn(starts[k], starts[k+2], Term(text[starts[k]:starts[k+2]]))
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

// foldLetters are the case and letter foldings that neither lower-casing
// nor decomposition gives.
var foldLetters = strings.NewReplacer("ß", "ss", "ς", "σ", "ł", "l", "ø", "o", "đ", "d", "ı", "i", "æ", "ae", "œ", "oe")

// foldedScripts lose their combining marks in Term: accents on alphabets,
// and the optional vowel points of Arabic and Hebrew, which most text and
// most questions leave out.
var foldedScripts = []*unicode.RangeTable{unicode.Latin, unicode.Greek, unicode.Cyrillic, unicode.Arabic, unicode.Hebrew}

// fold applies Term's folding to a word that is not all ASCII.
func fold(word string) string {
	w := foldLetters.Replace(strings.ToLower(norm.NFKC.String(word)))
	var b strings.Builder
	b.Grow(len(w))
	var base rune
	for _, r := range norm.NFD.String(w) {
		if r == 'ـ' || unicode.Is(unicode.Mn, r) && unicode.In(base, foldedScripts...) {
			continue
		}
		if !unicode.IsMark(r) {
			base = r
		}
		b.WriteRune(r)
	}
	return norm.NFC.String(b.String())
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
