package token

// stem reduces an all-ASCII-letter, lower-case word with the first step of
// Porter's algorithm (plurals, -ed and -ing with their fix-ups, y→i) plus the
// rule that drops a silent final e.
//
// Only step 1: the later steps strip derivational suffixes and merge words
// that mean different things, and over-stemming turns a rare term into a
// common one, which is the one thing a rarity ranker cannot afford. The
// silent-e rule is there because without it the two inflection paths
// disagree: "rewrites" keeps its e while "rewriting" loses it.
func stem(word string) string {
	w := []byte(word)
	w = stepPlural(w)
	w = stepInflection(w)
	w = stepY(w)
	w = stepSilentE(w)
	if len(w) == 0 {
		// A word that stems to nothing would match everything or nothing.
		return word
	}
	return string(w)
}

// consonant reports whether w[i] acts as a consonant: y is a vowel after a
// consonant and a consonant at the start or after a vowel.
func consonant(w []byte, i int) bool {
	switch w[i] {
	case 'a', 'e', 'i', 'o', 'u':
		return false
	case 'y':
		return i == 0 || !consonant(w, i-1)
	}
	return true
}

// measure is Porter's m: the number of vowel-consonant sequences in w.
func measure(w []byte) int {
	m := 0
	for i := 1; i < len(w); i++ {
		if consonant(w, i) && !consonant(w, i-1) {
			m++
		}
	}
	return m
}

func hasVowel(w []byte) bool {
	for i := range w {
		if !consonant(w, i) {
			return true
		}
	}
	return false
}

// endsCVC reports a consonant-vowel-consonant ending whose last letter is not
// w, x or y (Porter's *o), the shape of short words like "hop" or "fil".
func endsCVC(w []byte) bool {
	n := len(w)
	if n < 3 || !consonant(w, n-1) || consonant(w, n-2) || !consonant(w, n-3) {
		return false
	}
	switch w[n-1] {
	case 'w', 'x', 'y':
		return false
	}
	return true
}

// hasSuffix requires the word to be longer than the suffix, so a word is
// never reduced to nothing by removing all of it.
func hasSuffix(w []byte, suffix string) bool {
	return len(w) > len(suffix) && string(w[len(w)-len(suffix):]) == suffix
}

func stepPlural(w []byte) []byte {
	switch {
	case hasSuffix(w, "sses"), hasSuffix(w, "ies"):
		return w[:len(w)-2]
	case hasSuffix(w, "ss"):
		return w
	case hasSuffix(w, "s"):
		return w[:len(w)-1]
	}
	return w
}

func stepInflection(w []byte) []byte {
	var base []byte
	switch {
	case hasSuffix(w, "eed"):
		// "agreed" becomes "agree"; "feed" keeps its letters.
		if measure(w[:len(w)-3]) > 0 {
			return w[:len(w)-1]
		}
		return w
	case hasSuffix(w, "ed") && hasVowel(w[:len(w)-2]):
		base = w[:len(w)-2]
	case hasSuffix(w, "ing") && hasVowel(w[:len(w)-3]):
		base = w[:len(w)-3]
	default:
		return w
	}
	// Fix-ups so that the remaining stem is the one its other forms reach:
	// "conflated" → "conflate", "hopping" → "hop", "filing" → "file".
	n := len(base)
	switch {
	case hasSuffix(base, "at"), hasSuffix(base, "bl"), hasSuffix(base, "iz"):
		return append(base[:n:n], 'e')
	case n >= 2 && base[n-1] == base[n-2] && consonant(base, n-1) &&
		base[n-1] != 'l' && base[n-1] != 's' && base[n-1] != 'z':
		return base[:n-1]
	case measure(base) == 1 && endsCVC(base):
		return append(base[:n:n], 'e')
	}
	return base
}

func stepY(w []byte) []byte {
	if hasSuffix(w, "y") && hasVowel(w[:len(w)-1]) {
		out := append([]byte(nil), w...)
		out[len(out)-1] = 'i'
		return out
	}
	return w
}

func stepSilentE(w []byte) []byte {
	if !hasSuffix(w, "e") {
		return w
	}
	base := w[:len(w)-1]
	if m := measure(base); m > 1 || (m == 1 && !endsCVC(base)) {
		return base
	}
	return w
}
