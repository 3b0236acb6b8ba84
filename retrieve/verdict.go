package retrieve

import (
	"math"

	"github.com/omh-notes/omh/vault/token"
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
// rare words that name its subject decide whether it is covered. Measured
// on the tune questions (36 that the vaults cannot answer, 84 they can,
// and the IR collections' 1,047): with plain idf weights no threshold marks
// half the negatives weak while keeping answerable ones under a tenth; with
// squared weights 0.35 marks 0.56 of the negatives and 0.05 of the
// answerable vault questions (scifact 0.03, cranfield 0.01, cisi 0.20,
// whose requests run to thirty words).
const weakCoverage = 0.35

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

// verdict judges the first verdictRoots ranked notes together, and for a
// Weak verdict names the meaningful words none of them holds.
func (c coverer) verdict(ranked []ranked) (Verdict, []string) {
	docs := make([]uint32, 0, verdictRoots)
	for _, r := range ranked[:min(len(ranked), verdictRoots)] {
		docs = append(docs, r.doc)
	}
	switch share := c.of(docs...); {
	case share == 0:
		return NoMatch, nil
	case share >= int64(weakCoverage*1000):
		return Answered, nil
	}
	var missing []string
	for _, t := range c.meaning {
		held := false
		for _, d := range docs {
			held = held || holds(c.lists[t], d)
		}
		if !held {
			missing = append(missing, c.terms[t].Word)
		}
	}
	return Weak, missing
}
