package retrieve

import (
	"fmt"
	"math"

	"github.com/omh-notes/omh/token"
)

// Ranker names a scoring function.
type Ranker string

const (
	// BaselineRanker is the first ranker omh had: the rarity of the distinct question
	// terms a note contains, doubled for terms in its key or title.
	BaselineRanker Ranker = "baseline"
	// TunedRanker is BM25 with field weights and question-term counts,
	// over the question's meaningful words (function words left out while
	// the question has others, see token.IsFunctionWord). For a term held
	// by df of n notes and written qtf times:
	//
	//	idf   = ln(1 + (n - df + 0.5) / (df + 0.5)) × (k3+1)·qtf / (k3+qtf)
	//	tf    = occurrences in the body + 2 if in the title or the key's
	//	        last part + 2 if in a heading or the frontmatter description
	//	        + 2 if in the declared answers
	//	score = Σ idf × tf·(k1+1) / (tf + k1·(1 − b + b·words/average))
	//
	// with k1 1.2, b 0.6, k3 3, each term's share rounded to thousandths
	// (at least one). Issue 6 measured the form (nDCG@10, baseline →
	// tuned: obsidian 0.514 → 0.632, dendron 0.247 → 0.421, scifact train
	// 0.676 → 0.695, cranfield 0.488 → 0.524, cisi 0.225 → 0.332; k3 gave
	// cisi +0.06). Issue 16, each part taken out of the final ranker on the
	// tune sets (hit@1 over the 84 answerable vault questions; nDCG@10 mean
	// of the three IR sets): function words 43 → 39 questions and 0.529 →
	// 0.513 (dendron -0.07, cisi -0.03); b 0.6 rather than 0.75 43 → 38 and
	// 0.529 → 0.531, long notes such as meeting transcripts and reference
	// pages being the answer more often in notes than in abstracts; a key's
	// folders read as its subject 43 → 42 (vba-docs, whose notes sit in a
	// few large folders: "user" lifted all of User-Interface-Help).
	TunedRanker Ranker = "tuned"
	// DefaultRanker is the best measured one.
	DefaultRanker = TunedRanker
)

// ParseRanker accepts a ranker's name; "" is the default.
func ParseRanker(s string) (Ranker, error) {
	switch r := Ranker(s); r {
	case "", "default":
		return DefaultRanker, nil
	case BaselineRanker, TunedRanker:
		return r, nil
	}
	return "", fmt.Errorf("unknown ranker %q (want baseline or tuned)", s)
}

// IDF is what the tuned ranker weighs a term held by df of n notes by,
// BM25's ln(1 + (n − df + 0.5) / (df + 0.5)); cards weigh passages by it
// too.
func IDF(n, df int) float64 {
	return math.Log(1 + (float64(n)-float64(df)+0.5)/(float64(df)+0.5))
}

// scorer weighs one term's postings; every weight is an integer number of
// thousandths, at least one, so scores are exact and a matched term always
// counts.
type scorer struct {
	n int
	// term weighs the postings of a term held by df notes and written qtf
	// times in the phrasing.
	term func(df, qtf int) func(token.Posting) int64
	// reads, when set, keeps only the postings this ranker reads.
	reads func(token.Posting) bool
	// everyTerm scores function words too: the baseline knows none.
	everyTerm bool
}

func newScorer(r Ranker, c Corpus) (scorer, error) {
	n := c.Count()
	switch r {
	case "", BaselineRanker:
		return scorer{n: n, term: func(df, _ int) func(token.Posting) int64 {
			plain, asked := Contribution(n, df, false), Contribution(n, df, true)
			return func(p token.Posting) int64 {
				if p.Fields&askedFields != 0 {
					return asked
				}
				return plain
			}
		}, reads: func(p token.Posting) bool { return p.Fields&^token.InDescription != 0 }, everyTerm: true}, nil
	case TunedRanker:
		avg := float64(c.Words()) / float64(max(n, 1))
		return scorer{n: n, term: func(df, qtf int) func(token.Posting) int64 {
			idf := IDF(n, df)
			if tuning.k3 > 0 {
				idf *= (tuning.k3 + 1) * float64(qtf) / (tuning.k3 + float64(qtf))
			}
			return func(p token.Posting) int64 {
				tf := float64(p.TF)
				if p.Fields&nameFields != 0 {
					tf += tuning.asked
				}
				if p.Fields&(token.InHeading|token.InDescription) != 0 {
					tf += tuning.heading
				}
				if p.Fields&token.InAnswers != 0 {
					tf += tuning.answers
				}
				length := float64(c.DocWords(p.Doc))
				norm := tf * (tuning.k1 + 1) / (tf + tuning.k1*(1-tuning.b+tuning.b*length/max(avg, 1)))
				return max(1, int64(math.Round(1000*idf*norm)))
			}
		}}, nil
	}
	return scorer{}, fmt.Errorf("unknown ranker %q", r)
}
