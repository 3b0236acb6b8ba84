package lint

// The words lint's fixes suggest: the near misses of names, types and
// verbs, and the English its messages are written in.

import (
	"slices"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/omh-notes/omh/vault"
)

// nearNames maps a loose form of each note's last name to the notes'
// keys, built when the first dangling link needs it. byLength holds the
// same loose names by their length in runes, so that a link one edit away
// from every name (a typo) is compared only with names of its length or
// one off, not with every note of a 38,000-note store.
type nearNames struct {
	keys     map[string][]string
	byLength map[int][]string
	typos    map[string][]string // the typo matches of each loose name asked about, found once
}

func (nn *nearNames) build(keys map[string]*keyInfo) {
	nn.keys, nn.byLength, nn.typos = map[string][]string{}, map[int][]string{}, map[string][]string{}
	for k := range keys {
		loose := looseName(k)
		if nn.keys[loose] == nil {
			n := utf8.RuneCountInString(loose)
			nn.byLength[n] = append(nn.byLength[n], loose)
		}
		nn.keys[loose] = append(nn.keys[loose], k)
	}
	for _, ks := range nn.keys {
		sort.Strings(ks)
	}
}

// minTypoRunes is the shortest loose name a typo is looked for in: one
// edit turns a short name into too many others for a guess to help.
const minTypoRunes = 6

// meant lists the keys a link written as name likely meant: those whose
// loose last name is the link's, else those one edit (an insertion,
// deletion, substitution or swap of neighbours) away from it.
func (nn *nearNames) meant(name string) []string {
	loose := looseName(name)
	if ks := nn.keys[loose]; len(ks) > 0 {
		return ks
	}
	n := utf8.RuneCountInString(loose)
	if n < minTypoRunes {
		return nil
	}
	if ks, ok := nn.typos[loose]; ok {
		return ks
	}
	var out []string
	for length := n - 1; length <= n+1; length++ {
		for _, other := range nn.byLength[length] {
			if oneEditApart(loose, other) {
				out = append(out, nn.keys[other]...)
			}
		}
	}
	sort.Strings(out)
	nn.typos[loose] = out
	return out
}

// oneEditApart reports whether a and b are one edit apart. The bytes they
// share at both ends are compared first, without allocating: two names one
// edit apart differ only in a few bytes between them, so editDistance runs
// on the rare pair that passes.
func oneEditApart(a, b string) bool {
	prefix := 0
	for prefix < len(a) && prefix < len(b) && a[prefix] == b[prefix] {
		prefix++
	}
	suffix := 0
	for suffix < len(a)-prefix && suffix < len(b)-prefix && a[len(a)-1-suffix] == b[len(b)-1-suffix] {
		suffix++
	}
	if max(len(a), len(b))-prefix-suffix > 2*utf8.UTFMax {
		return false
	}
	return editDistance(a, b) == 1
}

// looseName is the last "/"-separated part of a name, lower-cased, with
// only its letters and digits kept.
func looseName(name string) string {
	name = strings.ToLower(name[strings.LastIndexByte(name, '/')+1:])
	return strings.Map(func(r rune) rune {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			return r
		}
		return -1
	}, name)
}

// nearVerb returns the verb word is a near miss of: one edit away, or two
// for verbs of seven letters or more, starting with the same letter.
func nearVerb(word string) string {
	best, bestD := "", 3
	for _, v := range vault.VerbNames() {
		if word == "" || word[0] != v[0] {
			continue
		}
		allowed := 1
		if len(v) >= 7 {
			allowed = 2
		}
		if d := editDistance(word, v); d <= allowed && d < bestD {
			best, bestD = v, d
		}
	}
	return best
}

// nearest returns the word of words at most two edits from w, if any.
func nearest(w string, words []string) string {
	best, bestD := "", 3
	for _, c := range words {
		if d := editDistance(w, c); d < bestD {
			best, bestD = c, d
		}
	}
	return best
}

// editDistance counts the insertions, deletions, substitutions and swaps
// of neighbouring letters that turn a into b (optimal string alignment).
func editDistance(a, b string) int {
	x, y := []rune(a), []rune(b)
	d := make([][]int, len(x)+1)
	for i := range d {
		d[i] = make([]int, len(y)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(x); i++ {
		for j := 1; j <= len(y); j++ {
			cost := 1
			if x[i-1] == y[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && x[i-1] == y[j-2] && x[i-2] == y[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(x)][len(y)]
}

// withArticle puts "a" or "an" before a type's name.
func withArticle(t string) string {
	if t != "" && strings.ContainsRune("aeiou", rune(t[0])) {
		return "an " + t
	}
	return "a " + t
}

// articles lists types as "a finding or a decision".
func articles(types []string) string {
	out := make([]string, len(types))
	for i, t := range types {
		out[i] = withArticle(t)
	}
	return strings.Join(out, " or ")
}

// pastTense reads a verb of Verbs as its participle: "resolves"
// becomes "resolved".
func pastTense(verb string) string {
	stem := strings.TrimSuffix(verb, "s")
	if strings.HasSuffix(stem, "e") {
		return stem + "d"
	}
	return stem + "ed"
}

func distinct(ss []string) []string {
	out := slices.Clone(ss)
	slices.Sort(out)
	return slices.Compact(out)
}
