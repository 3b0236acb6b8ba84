package retrieve

import (
	"math"

	"github.com/omh-notes/omh/token"
)

// Verdict is what a reply says of itself: whether its notes answer the
// question, as far as words can tell.
type Verdict string

const (
	// Answered: the first ranked notes hold the question's meaningful words.
	Answered Verdict = "answered"
	// Weak: notes match, but together they hold too little of the
	// question's meaningful words to be an answer.
	Weak Verdict = "weak"
	// NoMatch: no note holds a meaningful word of the question.
	NoMatch Verdict = "none"
)

// A question's meaningful words weigh their idf squared in coverage, so the
// rare words that name its subject decide whether it is covered. The
// thresholds were measured on the tune questions of obsidian-help-en,
// dendron-site and vba-docs (36 the vaults cannot answer, 84 they can, each
// asked with and without an agent's three phrasings) and the IR
// collections' 1,047 answerable ones; docs/agents.md gives the verdict's
// precision and recall. With plain idf weights no threshold marked half the
// negatives weak while keeping answerable ones under a tenth.
//
// weakCoverage: the first notes holding less than this share of the
// question's weight read as weak. 0.35 alone marked 0.61 of the negatives
// with phrasings and 0.56 without, and 0.048 of the answerable vault
// questions without (scifact 26 of 809, cisi 12 of 60); beside the two
// rules on words no note holds, 0.30 loses no negative those rules do not
// catch and wrongly doubts one answerable question fewer (cisi 10).
const weakCoverage = 0.30

// nameCoverage: a question naming a thing no note mentions (a word it
// writes with a capital past its sentence's start: Nextcloud, WebDAV,
// PlantUML) is weak unless the first notes still hold this share of its
// weight. Names were absent from no answerable vault question's store and
// from 24 negatives'; without phrasings this rule lifted the negatives
// marked from 0.56 to 0.67. A name that merely abbreviates what the notes
// spell out is the price: scifact's claims (PBA, SNV, Mbd3) took 26 -> 38 of
// 809 answerable questions weak, with 0.25 of the weight 33, with 0.6 46.
// Words with digits (40mg, 3D) are not names: on scifact they were units
// and compounds in 46 questions, in the vaults' negatives one.
const nameCoverage = 0.5

// verdictRoots is how many ranked notes the verdict reads together,
// whatever the reply's budget, so --roots does not change it. Together,
// because a question's parts are often answered by neighbouring notes:
// reading the first note alone, the threshold that marked 0.53 of the
// negatives weak also marked 0.11 of the answerable vault questions.
const verdictRoots = DefaultRoots

// weight is a meaningful term's weight in coverage, in integer units so
// that coverage is the same on every machine. A term no note holds weighs
// most of all: a question about something the store never mentions is not
// covered by notes that share its other words.
func weight(n, df int) int64 {
	idf := math.Log(1 + (float64(n)-float64(df)+0.5)/(float64(df)+0.5))
	return int64(math.Round(1000 * idf * idf))
}

// coverer measures how much of a question's weight notes hold.
type coverer struct {
	n     int
	terms []QueryTerm // the question's terms, DF counted
	// meaning lists the question's meaningful terms, by index into terms.
	meaning   []int
	phrasings [][]int // each phrasing's distinct meaningful terms
	lists     [][]token.Posting
}

func newCoverer(n int, q Question, lists [][]token.Posting) coverer {
	c := coverer{n: n, terms: q.Terms, lists: lists}
	for i, t := range q.Terms {
		if t.Meaningful {
			c.meaning = append(c.meaning, i)
		}
	}
	for _, uses := range q.Uses {
		var ts []int
		for _, u := range uses {
			if q.Terms[u.Term].Meaningful {
				ts = append(ts, u.Term)
			}
		}
		c.phrasings = append(c.phrasings, ts)
	}
	return c
}

// of is the share, in thousandths, of the question's weight that the docs
// hold between them: the mean over the phrasings of the share of each
// phrasing's weight they hold; 0 for a question without meaningful words.
// The mean, not the best phrasing nor the union of their words: a phrasing
// written in the store's words is covered by notes that do not answer the
// question, and an unanswerable question must not read as answered for it.
func (c coverer) of(docs ...uint32) int64 {
	var sum, phrasings int64
	for _, ts := range c.phrasings {
		var total, held int64
		for _, t := range ts {
			w := weight(c.n, c.terms[t].DF)
			total += w
			for _, d := range docs {
				if holds(c.lists[t], d) {
					held += w
					break
				}
			}
		}
		if total > 0 {
			sum += held * 1000 / total
			phrasings++
		}
	}
	if phrasings == 0 {
		return 0
	}
	return sum / phrasings
}

// verdict judges the first verdictRoots ranked notes together. A question
// is weak when those notes hold less than weakCoverage of its weight; when
// it names a thing no note holds and they hold less than nameCoverage; or,
// asked in several phrasings, when a meaningful word of the question that
// every phrasing writes again is in no note. An agent rewording a question
// keeps the words it means and drops the ones it wrote by chance: on the
// tune questions no answerable question's phrasings all repeated a word
// the store lacks, and 26 of 36 negatives' did (Nextcloud, flashcard,
// Jupyter). It is none when the notes hold no meaningful word at all.
//
// For a Weak verdict it returns the question's own meaningful words no
// note holds (unheld) and those none of the notes read holds (missing),
// which are the phrasings' when the question's own are all held.
func (c coverer) verdict(ranked []ranked, q Question) (v Verdict, unheld, missing []string) {
	docs := make([]uint32, 0, verdictRoots)
	for _, r := range ranked[:min(len(ranked), verdictRoots)] {
		docs = append(docs, r.doc)
	}
	share := c.of(docs...)
	if share == 0 {
		return NoMatch, nil, nil
	}
	held := func(t int) bool {
		for _, d := range docs {
			if holds(c.lists[t], d) {
				return true
			}
		}
		return false
	}
	var own []int
	if len(q.Uses) > 0 {
		for _, u := range q.Uses[0] {
			if q.Terms[u.Term].Meaningful {
				own = append(own, u.Term)
			}
		}
	}
	weak := share < int64(weakCoverage*1000)
	for _, t := range own {
		term := q.Terms[t]
		if term.DF > 0 {
			continue
		}
		unheld = append(unheld, term.Word)
		weak = weak || term.Name && share < int64(nameCoverage*1000) || len(q.Uses) > 1 && q.everyPhrasingWrites(t)
	}
	if !weak {
		return Answered, nil, nil
	}
	for _, t := range own {
		if !held(t) {
			missing = append(missing, q.Terms[t].Word)
		}
	}
	if len(missing) == 0 {
		for _, t := range c.meaning {
			if !held(t) {
				missing = append(missing, c.terms[t].Word)
			}
		}
	}
	return Weak, unheld, missing
}
