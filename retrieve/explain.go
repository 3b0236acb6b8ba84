package retrieve

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/omh-notes/omh/token"
)

// Explanation says why a note is in an answer. A ranked note's score is the
// sum of its terms' shares over the phrasings (see bestScores), so a
// person or an agent can see which words carried it and from which fields;
// a linked note names the ranked note whose link brought it in.
type Explanation struct {
	// Phrasing is the phrasing that gave the largest part of the score: 1
	// the first --also, and so on; 0 for the question itself.
	Phrasing int
	// Terms are a ranked note's shares, largest first; none on a linked
	// note.
	Terms []TermShare
	// LinkedFrom is, on a linked note, the key of the ranked note above it.
	LinkedFrom string
}

// TermShare is one question term's part of a ranked note's score.
type TermShare struct {
	Term   string   // as indexed
	Word   string   // as written in the question
	Fields []string // where the note holds it: key, title, heading, description, answers, body
	Count  int      // occurrences in the body
	DF     int      // notes holding it
	Score  int64    // thousandths; the shares add up to the note's score
}

// fieldNames name Field bits in the order a person reads a note.
var fieldNames = []struct {
	f    token.Field
	name string
}{{token.InKey, "key"}, {token.InFolder, "folder"}, {token.InTitle, "title"}, {token.InHeading, "heading"}, {token.InDescription, "description"},
	{token.InAnswers, "answers"}, {token.InBody, "body"}}

// explainer computes explanations with the scorer, lists and phrasing
// scales a search used, so the shares are the very numbers the ranking
// added.
type explainer struct {
	sc     scorer
	asked  Question
	scales []float64
	lists  [][]token.Posting
	scores []bool
}

// of explains a ranked note's score: each term the note holds with its
// share, summed over the phrasings that hold it, largest first. A phrasing's
// shares are scaled as its score was (see bestScores) and their rounding put
// on its largest share, so that they add up to the score exactly.
func (e explainer) of(doc uint32) *Explanation {
	x := &Explanation{}
	at := map[string]int{} // term → index in x.Terms
	var most int64 = -1
	for i, uses := range e.asked.Uses {
		var raw int64
		var shares []TermShare
		for _, u := range uses {
			list := e.lists[u.Term]
			if len(list) == 0 || !e.scores[u.Term] {
				continue
			}
			k := sort.Search(len(list), func(i int) bool { return list[i].Doc >= doc })
			if k == len(list) || list[k].Doc != doc {
				continue
			}
			p := list[k]
			share := e.sc.term(len(list), u.Count)(p)
			raw += share
			t := e.asked.Terms[u.Term]
			shares = append(shares, TermShare{Term: t.Term, Word: t.Word, Fields: fieldsOf(p.Fields), Count: int(p.TF),
				DF: len(list), Score: share})
		}
		if len(shares) == 0 {
			continue
		}
		total := int64(math.Round(float64(raw) * e.scales[i]))
		if total > most {
			x.Phrasing, most = i, total
		}
		var sum int64
		largest := 0
		for j := range shares {
			shares[j].Score = int64(math.Round(float64(shares[j].Score) * e.scales[i]))
			sum += shares[j].Score
			if shares[j].Score > shares[largest].Score {
				largest = j
			}
		}
		shares[largest].Score += total - sum
		for _, s := range shares {
			if j, ok := at[s.Term]; ok {
				x.Terms[j].Score += s.Score
				continue
			}
			at[s.Term] = len(x.Terms)
			x.Terms = append(x.Terms, s)
		}
	}
	sort.SliceStable(x.Terms, func(i, j int) bool { return x.Terms[i].Score > x.Terms[j].Score })
	return x
}

func fieldsOf(f token.Field) []string {
	out := []string{}
	for _, fn := range fieldNames {
		if f&fn.f != 0 {
			out = append(out, fn.name)
		}
	}
	return out
}

// ExplainLine renders a ranked note's explanation on one line for people:
// "score 4.211 = credential 1.532 (title, body ×2) + mount 1.210 (…)".
func ExplainLine(score int64, x *Explanation) string {
	var parts []string
	for _, t := range x.Terms {
		where := strings.Join(t.Fields, ", ")
		if t.Count > 0 {
			where = strings.Replace(where, "body", fmt.Sprintf("body ×%d", t.Count), 1)
		}
		parts = append(parts, fmt.Sprintf("%s %s (%s)", t.Word, thousandths(t.Score), where))
	}
	line := explainWord + thousandths(score) + " = " + strings.Join(parts, " + ")
	if x.Phrasing > 0 {
		line += fmt.Sprintf(" [phrasing %d]", x.Phrasing+1)
	}
	return line
}

// explainWord starts an explanation line.
const explainWord = "score "

// thousandths writes an integer number of thousandths as a decimal.
func thousandths(n int64) string {
	return fmt.Sprintf("%d.%03d", n/1000, n%1000)
}
