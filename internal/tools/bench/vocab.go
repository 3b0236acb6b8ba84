package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"strings"
	"unicode"
)

// fillerText holds real English words that take the top ranks of the
// vocabulary, so that the most frequent terms of the synthetic notes behave
// like the function words of real prose: nearly every note holds them.
const fillerText = `
the of and to a in is it that for on was with as be by this are or at from not but have an
they which one you were all we when there can has more if will would about their what so up
out them into some than then these its time only could new other do also how may our first
any like now after use because way most where why does fail error make need work just over
such through back even want see well very here must should get set run build test file note
code change case call step look find read write check keep show start stop open close move
name path line list part value type user data cache index query store branch commit merge
config option flag default field table row column word term page link tag date version
release issue fix bug patch review team local remote server client request response token
key lock wait retry timeout limit size count number order sort filter match search rank score
result answer question reason cause effect problem solution plan idea design model layer
level stage phase state status event log trace metric alert deploy rollback upgrade install
remove update create delete rename copy load save parse format print render draw send receive
before during while until since between under above again still already never always often
sometimes usually rather quite almost enough each every both either neither few many much less
least same different other another next last early late long short high low big small good bad
right wrong true false full empty clean dirty safe unsafe fast slow old young hard easy simple
`

// syllable parts for the synthetic words. No coda is "s", "d" or "y" and no
// word ends in "ing", so the Porter step 1 stemmer leaves most words alone
// and each synthetic word is one distinct term.
var (
	onsets = []string{"b", "d", "f", "g", "k", "l", "m", "n", "p", "r", "t", "v", "z",
		"br", "kr", "st", "tr", "pl", "gr", "sh", "ch", "th", "dr", "fl", "sk", "w", "h", "j"}
	nuclei = []string{"a", "e", "i", "o", "u", "ai", "ou", "ea", "io"}
	codas  = []string{"", "", "", "", "n", "r", "l", "m", "x", "k", "t", "rn", "lt"}
)

// vocabulary is a word list ordered by rank: rank 0 is the most frequent.
type vocabulary struct {
	words   []string
	fillers int // words[:fillers] are the real English words
}

// syntheticWords is how many made-up words follow the filler words.
const syntheticWords = 50000

// newVocabulary builds the word list from r alone, so it is the same for
// every N of one seed and questions compare across sizes.
func newVocabulary(r *rand.Rand) *vocabulary {
	words := uniqueFields(fillerText)
	seen := map[string]bool{}
	for _, w := range words {
		seen[w] = true
	}
	fillers := len(words)
	for made := 0; made < syntheticWords; {
		w := syntheticWord(r)
		if seen[w] || len(w) < 3 {
			continue
		}
		seen[w] = true
		words = append(words, w)
		made++
	}
	return &vocabulary{words: words, fillers: fillers}
}

// syntheticWord strings two to four syllables together.
func syntheticWord(r *rand.Rand) string {
	var b strings.Builder
	n := 2 + r.IntN(3)
	for i := 0; i < n; i++ {
		b.WriteString(onsets[r.IntN(len(onsets))])
		b.WriteString(nuclei[r.IntN(len(nuclei))])
		if i == n-1 || r.IntN(4) == 0 {
			b.WriteString(codas[r.IntN(len(codas))])
		}
	}
	return b.String()
}

func uniqueFields(s string) []string {
	seen := map[string]bool{}
	var out []string
	for _, w := range strings.Fields(s) {
		if !seen[w] {
			seen[w] = true
			out = append(out, w)
		}
	}
	return out
}

// zipfWords draws words with Zipf-distributed ranks from one random stream.
type zipfWords struct {
	v *vocabulary
	z *rand.Zipf
}

// zipfExponent makes the rank-1 word about 14% of all tokens and a word of
// rank 10 appear in most notes, while the tail of the 50,000 made-up words
// is rare: the shape of natural text.
const zipfExponent = 1.1

func newZipfWords(v *vocabulary, r *rand.Rand) *zipfWords {
	return &zipfWords{v: v, z: rand.NewZipf(r, zipfExponent, 1, uint64(len(v.words)-1))}
}

func (z *zipfWords) next() string { return z.v.words[z.z.Uint64()] }

// phrase is n Zipf-drawn words separated by spaces.
func (z *zipfWords) phrase(n int) string {
	words := make([]string, n)
	for i := range words {
		words[i] = z.next()
	}
	return strings.Join(words, " ")
}

// question is one fixed benchmark question, the same for every N of a seed.
type question struct {
	Words []string `json:"words"`
	Ranks []int    `json:"ranks"` // vocabulary rank of each word (0 = most frequent)
	Kind  string   `json:"kind"`
	// Also are other phrasings of the question, as an agent passes them
	// with --also: a rewording, a keyword query, a guessed answer sentence.
	Also []string `json:"also,omitempty"`
}

// questionShapes says, for each question, the vocabulary rank band of each
// word: low ranks are common, high ranks rare. "c" picks one of the 40 most
// common words (in nearly every note), "f" another real English filler
// word, "m" a mid-frequency synthetic word, "r" a rare one and "x" one so
// rare it may occur nowhere.
var questionShapes = []struct{ kind, bands string }{
	{"2 mid", "mm"},
	{"2 common", "cc"},
	{"3 filler+mid", "fmm"},
	{"4 rare", "rrrr"},
	{"5 mixed", "cfmmr"},
	{"6 mixed", "ffmmrr"},
	{"8 long", "ccfmmmrx"},
	{"3 filler", "fff"},
	{"7 mixed", "cfmmmrr"},
	{"2 filler+rare", "fr"},
}

// rankBand is the half-open range of ranks a band letter draws from.
func (v *vocabulary) rankBand(band byte) (lo, hi int) {
	f := v.fillers
	switch band {
	case 'c':
		return 0, 40
	case 'f':
		return 40, f
	case 'm':
		return f + 200, f + 3000
	case 'r':
		return f + 3000, f + 15000
	default: // 'x'
		return f + 30000, len(v.words)
	}
}

// questions builds the fixed question set; words never repeat inside one
// question.
func (v *vocabulary) questions(r *rand.Rand) []question {
	var qs []question
	for _, shape := range questionShapes {
		q := question{Kind: shape.kind}
		used := map[int]bool{}
		for i := 0; i < len(shape.bands); i++ {
			lo, hi := v.rankBand(shape.bands[i])
			rank := lo + r.IntN(hi-lo)
			for used[rank] {
				rank = lo + r.IntN(hi-lo)
			}
			used[rank] = true
			q.Words = append(q.Words, v.words[rank])
			q.Ranks = append(q.Ranks, rank)
		}
		qs = append(qs, q)
	}
	return qs
}

// phrasings gives each question the three extra phrasings an agent writes
// (a rewording, a keyword query, a guess at the answer's sentence), drawn
// from the same bands as the question so their cost is of the same kind:
// the rewording swaps every other word for another of its band, the
// keywords are the question's rarer words and one more, the sentence
// wraps the question's words in common and filler ones.
func (v *vocabulary) phrasings(r *rand.Rand, qs []question) {
	draw := func(band byte) string {
		lo, hi := v.rankBand(band)
		return v.words[lo+r.IntN(hi-lo)]
	}
	for i := range qs {
		q := &qs[i]
		shape := questionShapes[i%len(questionShapes)].bands
		var reworded, keywords []string
		for j, w := range q.Words {
			if j%2 == 1 {
				w = draw(shape[j])
			}
			reworded = append(reworded, w)
			if shape[j] != 'c' && shape[j] != 'f' {
				keywords = append(keywords, q.Words[j])
			}
		}
		keywords = append(keywords, draw('m'))
		sentence := append([]string{draw('c'), draw('c'), draw('f')}, q.Words...)
		sentence = append(sentence, draw('f'), draw('m'))
		q.Also = []string{strings.Join(reworded, " "), strings.Join(keywords, " "), strings.Join(sentence, " ")}
	}
}

// goldQuestions reads the first n questions of a gold file as word lists:
// letters and digits, lower-cased, as rg and the FTS5 peer take them.
func goldQuestions(path string, n int) ([]question, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []question
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() && len(out) < n {
		var g struct {
			ID       string   `json:"id"`
			Question string   `json:"question"`
			Also     []string `json:"also"`
		}
		if strings.TrimSpace(sc.Text()) == "" {
			continue
		}
		if err := json.Unmarshal(sc.Bytes(), &g); err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		words := strings.FieldsFunc(strings.ToLower(g.Question), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
		out = append(out, question{Words: words, Kind: g.ID, Also: g.Also})
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s holds no questions", path)
	}
	return out, nil
}
