// Package eval measures how well omh answers a set of questions with known
// answers: ranking (hit@1, Recall@1, Recall@5, MRR@10, nDCG@10 over ranked
// notes), whether the answer text is on a card and how far into the reply,
// whether the reply's verdict
// tells questions nobody can answer from those it answers, and how long
// replies are.
package eval

import (
	"bufio"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"io"
	"math"
	"slices"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/omh-notes/omh/find"
	"github.com/omh-notes/omh/retrieve"
)

// Gold is one question with what a good answer holds.
type Gold struct {
	ID       string   `json:"id"`
	Question string   `json:"question"`
	Also     []string `json:"also,omitempty"`
	Expect   []string `json:"expect"`
	Answer   string   `json:"answer,omitempty"`   // text that must appear on a card
	Negative bool     `json:"negative,omitempty"` // no note answers it
	// Gains grades the expected notes for nDCG (test collections grade
	// relevance); without it every expected note gains 1.
	Gains map[string]float64 `json:"gains,omitempty"`
}

// ReadGold reads one gold question per line; blank lines are skipped and
// unknown fields ignored.
func ReadGold(r io.Reader) ([]Gold, error) {
	var out []Gold
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	for line := 1; sc.Scan(); line++ {
		text := strings.TrimSpace(sc.Text())
		if text == "" {
			continue
		}
		var g Gold
		if err := json.Unmarshal([]byte(text), &g); err != nil {
			return nil, fmt.Errorf("line %d: %w", line, err)
		}
		if g.ID == "" || strings.TrimSpace(g.Question) == "" {
			return nil, fmt.Errorf("line %d: a gold question needs an id and a question", line)
		}
		if !g.Negative && len(g.Expect) == 0 {
			return nil, fmt.Errorf("line %d (%s): a question that is not negative needs expect", line, g.ID)
		}
		out = append(out, g)
	}
	return out, sc.Err()
}

// Split names the half a question belongs to: holdout when the FNV-1a
// 32-bit hash of its id is 0 modulo 5, tune otherwise. Tune on tune; look
// at holdout once, when the code is final.
func Split(id string) string {
	h := fnv.New32a()
	h.Write([]byte(id))
	if h.Sum32()%5 == 0 {
		return "holdout"
	}
	return "tune"
}

// InSplit reports whether id belongs to split ("tune", "holdout" or "all").
func InSplit(id, split string) bool {
	return split == "all" || Split(id) == split
}

// Answer is what omh replied to one question: the ranked keys (at least
// ten, for the metrics) and the reply an agent would read.
type Answer struct {
	Ranked []string   // keys of ranked notes, best first
	Reply  find.Reply // the cards, within the size aim
}

// Question is the measure of one question.
type Question struct {
	ID           string  `json:"id"`
	Negative     bool    `json:"negative"`
	Rank         int     `json:"rank"`  // of the first expected note among ranked notes; 0 when absent
	Hit1         bool    `json:"hit_1"` // the first ranked note is an expected one
	Recall1      float64 `json:"recall_1"`
	Recall5      float64 `json:"recall_5"`
	MRR10        float64 `json:"mrr_10"`
	NDCG10       float64 `json:"ndcg_10"`
	HasAnswer    bool    `json:"has_answer"`     // the gold names answer text
	AnswerOnCard bool    `json:"answer_on_card"` // that text is on a card of the reply
	// AnswerAt is how many characters of the reply an agent reads before
	// it has read the whole answer text, where the text first appears; 0
	// when the reply does not hold it.
	AnswerAt      int  `json:"answer_at"`
	ExpectInReply bool `json:"expect_in_reply"` // an expected note is among the reply's ranked notes
	ReplyRank     int  `json:"reply_rank"`      // the card rank of the first expected note in the reply; 0 when none is
	Empty         bool `json:"empty"`           // the reply holds no note
	// Verdict is the reply's own: answered, weak or none; Leads, whether it
	// said the first note stands clearly ahead.
	Verdict    retrieve.Verdict `json:"verdict"`
	Leads      bool             `json:"leads"`
	ReplyChars int              `json:"reply_chars"`
	// Reply is the reply scored, as omh find --cards prints it; kept so a
	// test can hold it against the command's, not saved.
	Reply string `json:"-"`
}

// Doubted reports whether the reply said it has no good answer (weak or
// none): right for a negative question, wrong for an answerable one.
func (q Question) Doubted() bool {
	return q.Verdict == retrieve.Weak || q.Verdict == retrieve.NoMatch
}

// Score measures one answer against its gold question.
func Score(g Gold, a Answer) Question {
	q := Question{ID: g.ID, Negative: g.Negative, HasAnswer: g.Answer != "", Verdict: a.Reply.Result.Verdict, Leads: a.Reply.Result.Leads}
	text := a.Reply.Text()
	q.Reply, q.ReplyChars = text, utf8.RuneCountInString(text)
	q.Empty = len(a.Reply.Result.Hits) == 0
	if g.Negative {
		return q
	}
	gain := gains(g)
	m := MeasureRanking(gain, a.Ranked)
	q.Rank, q.Recall1, q.Recall5, q.MRR10, q.NDCG10 = m.Rank, m.Recall1, m.Recall5, m.MRR10, m.NDCG10
	q.Hit1 = m.Rank == 1
	// In the reply means on a ranked note's card: a linked note's card is
	// a header only and cannot carry an answer.
	cards := 0
	for _, h := range a.Reply.Result.Hits {
		if h.Depth != 0 {
			continue
		}
		cards++
		if gain[h.Note.Key] > 0 && q.ReplyRank == 0 {
			q.ReplyRank, q.ExpectInReply = cards, true
		}
	}
	if q.HasAnswer {
		q.AnswerAt = answerAt(text, g.Answer)
		q.AnswerOnCard = q.AnswerAt > 0
	}
	return q
}

// Ranking is how a ranked list of keys meets graded gains. Hit@1 is Rank
// == 1: unlike Recall@1 it gives full credit when the first note is one of
// several right ones.
type Ranking struct {
	Rank      int // of the first relevant key, from 1; 0 when none is listed
	Recall1   float64
	Recall5   float64
	Recall100 float64
	MRR10     float64
	NDCG10    float64 // linear gains, log2(i+2) discount, over the ideal order of all gains
}

// MeasureRanking scores ranked keys (a key listed again, from the other
// layer, counts once, where first listed) against gains; keys without a
// positive gain are not relevant. Recall@k is the share of the relevant
// keys among the first k.
func MeasureRanking(gain map[string]float64, ranked []string) Ranking {
	var m Ranking
	relevant := 0
	for _, v := range gain {
		if v > 0 {
			relevant++
		}
	}
	if relevant == 0 {
		return m
	}
	seen := map[string]bool{}
	var dcg float64
	i := -1
	for _, key := range ranked {
		if seen[key] {
			continue
		}
		seen[key] = true
		i++
		v := gain[key]
		if v <= 0 {
			continue
		}
		if m.Rank == 0 {
			m.Rank = i + 1
		}
		share := 1 / float64(relevant)
		if i < 1 {
			m.Recall1 += share
		}
		if i < 5 {
			m.Recall5 += share
		}
		if i < 100 {
			m.Recall100 += share
		}
		if i < 10 {
			dcg += v / math.Log2(float64(i+2))
		}
	}
	if m.Rank > 0 && m.Rank <= 10 {
		m.MRR10 = 1 / float64(m.Rank)
	}
	if ideal := idealDCG(gain); ideal > 0 {
		m.NDCG10 = dcg / ideal
	}
	return m
}

func gains(g Gold) map[string]float64 { return Gains(g.Expect, g.Gains) }

// Gains grades each expected note: graded when the gold grades them, else
// 1 for every expected key.
func Gains(expect []string, graded map[string]float64) map[string]float64 {
	if len(graded) > 0 {
		return graded
	}
	out := map[string]float64{}
	for _, k := range expect {
		out[k] = 1
	}
	return out
}

// idealDCG is the DCG@10 of the best possible ranking.
func idealDCG(gain map[string]float64) float64 {
	var vs []float64
	for _, v := range gain {
		if v > 0 {
			vs = append(vs, v)
		}
	}
	sort.Sort(sort.Reverse(sort.Float64Slice(vs))) // largest gains first
	var ideal float64
	for i, v := range vs {
		if i == 10 {
			break
		}
		ideal += v / math.Log2(float64(i+2))
	}
	return ideal
}

// normalize lower-cases, drops markdown punctuation and collapses white
// space, on the answer and the card alike, so an answer matches a card
// however lines were wrapped and whether the card prints "**once**" as
// markdown or "once" as text. ends[i] is the count of runes of s up to and
// including the one that gave the normalized text's byte i.
func normalize(s string) (text string, ends []int) {
	var b strings.Builder
	space := false
	n := 0
	for _, r := range s {
		n++
		switch r = unicode.ToLower(r); {
		case strings.ContainsRune(markdownPunctuation, r):
		case unicode.IsSpace(r):
			space = b.Len() > 0
		default:
			if space {
				b.WriteByte(' ')
				ends = append(ends, n)
				space = false
			}
			b.WriteRune(r)
			for range utf8.RuneLen(r) {
				ends = append(ends, n)
			}
		}
	}
	return b.String(), ends
}

// markdownPunctuation is what markdown writes around text rather than in
// it: code, emphasis, links, tables, headings and quotes.
const markdownPunctuation = "`*_[]|#>"

// answerAt is how many characters of reply come before the end of the
// first appearance of answer in it (normalized), or 0 when it does not hold
// it.
func answerAt(reply, answer string) int {
	text, ends := normalize(reply)
	want, _ := normalize(answer)
	i := strings.Index(text, want)
	if i < 0 || want == "" {
		return 0
	}
	return ends[i+len(want)-1]
}

// Totals are the means over a set of questions.
type Totals struct {
	Questions    int     `json:"questions"`
	Answerable   int     `json:"answerable"`
	Negatives    int     `json:"negatives"`
	Hit1         float64 `json:"hit_1"` // share of answerable questions whose first note is right
	Recall1      float64 `json:"recall_1"`
	Recall5      float64 `json:"recall_5"`
	MRR10        float64 `json:"mrr_10"`
	NDCG10       float64 `json:"ndcg_10"`
	AnswerOnCard float64 `json:"answer_on_card"` // over answerable questions that name answer text
	// AnswerWhenFound is the same rate over those whose expected note is in
	// the reply: whether a card carries the answer and not just the pointer.
	AnswerWhenFound float64 `json:"answer_when_found"`
	HonestEmpty     float64 `json:"honest_empty"` // negatives answered with no note
	// NegativesDoubted is the share of negatives whose verdict was weak or
	// none, AnswerableDoubted the share of answerable questions wrongly so.
	NegativesDoubted  float64 `json:"negatives_doubted"`
	AnswerableDoubted float64 `json:"answerable_doubted"`
	MeanReplyChars    float64 `json:"mean_reply_chars"`
	MedianReplyChars  float64 `json:"median_reply_chars"`
	// AnswerWithin1000 and AnswerWithin1500 are the shares of answerable
	// questions that name answer text whose reply holds all of it within
	// its first 1,000 and 1,500 characters: what an agent reads before it
	// has the answer.
	AnswerWithin1000 float64 `json:"answer_within_1000"`
	AnswerWithin1500 float64 `json:"answer_within_1500"`
	// AnswerByRank splits AnswerWhenFound by the card the expected note is
	// on (card 1, cards 2–3, cards 4 and lower), which get less room down
	// the ranking.
	AnswerByRank []RankShare `json:"answer_by_rank"`
}

// RankShare is answer-on-card over the questions whose expected note is on
// a card of the ranks named.
type RankShare struct {
	Ranks        string  `json:"ranks"` // "1", "2-3" or "4+"
	Found        int     `json:"found"` // questions whose expected note is on such a card
	AnswerOnCard float64 `json:"answer_on_card"`
}

// rankBuckets are the ranks AnswerByRank reports, by their first rank.
var rankBuckets = []struct {
	name  string
	first int
}{{"1", 1}, {"2-3", 2}, {"4+", 4}}

// Total averages questions.
func Total(qs []Question) Totals {
	var t Totals
	var withAnswer, found, foundWithAnswer int
	var chars int
	var sizes []int
	byRank := make([]RankShare, len(rankBuckets))
	for i, b := range rankBuckets {
		byRank[i].Ranks = b.name
	}
	for _, q := range qs {
		t.Questions++
		chars += q.ReplyChars
		sizes = append(sizes, q.ReplyChars)
		if q.Negative {
			t.Negatives++
			if q.Empty {
				t.HonestEmpty++
			}
			if q.Doubted() {
				t.NegativesDoubted++
			}
			continue
		}
		t.Answerable++
		if q.Hit1 {
			t.Hit1++
		}
		if q.Doubted() {
			t.AnswerableDoubted++
		}
		t.Recall1 += q.Recall1
		t.Recall5 += q.Recall5
		t.MRR10 += q.MRR10
		t.NDCG10 += q.NDCG10
		if q.HasAnswer {
			withAnswer++
			if q.AnswerOnCard {
				t.AnswerOnCard++
			}
			if q.AnswerOnCard && q.AnswerAt <= 1000 {
				t.AnswerWithin1000++
			}
			if q.AnswerOnCard && q.AnswerAt <= 1500 {
				t.AnswerWithin1500++
			}
			if q.ExpectInReply {
				found++
				if q.AnswerOnCard {
					foundWithAnswer++
				}
				b := len(rankBuckets) - 1
				for b > 0 && q.ReplyRank < rankBuckets[b].first {
					b--
				}
				byRank[b].Found++
				if q.AnswerOnCard {
					byRank[b].AnswerOnCard++
				}
			}
		}
	}
	div := func(x float64, n int) float64 {
		if n == 0 {
			return 0
		}
		return x / float64(n)
	}
	t.Hit1, t.Recall1, t.Recall5 = div(t.Hit1, t.Answerable), div(t.Recall1, t.Answerable), div(t.Recall5, t.Answerable)
	t.MRR10, t.NDCG10 = div(t.MRR10, t.Answerable), div(t.NDCG10, t.Answerable)
	t.AnswerOnCard = div(t.AnswerOnCard, withAnswer)
	t.AnswerWithin1000, t.AnswerWithin1500 = div(t.AnswerWithin1000, withAnswer), div(t.AnswerWithin1500, withAnswer)
	t.AnswerWhenFound = div(float64(foundWithAnswer), found)
	t.HonestEmpty = div(t.HonestEmpty, t.Negatives)
	t.NegativesDoubted, t.AnswerableDoubted = div(t.NegativesDoubted, t.Negatives), div(t.AnswerableDoubted, t.Answerable)
	t.MeanReplyChars = div(float64(chars), t.Questions)
	t.MedianReplyChars = median(sizes)
	for i := range byRank {
		byRank[i].AnswerOnCard = div(byRank[i].AnswerOnCard, byRank[i].Found)
	}
	t.AnswerByRank = byRank
	return t
}

// Store identifies what was measured: results from different stores are
// not comparable.
type Store struct {
	Commit      string `json:"commit"`
	Schema      int    `json:"schema"`
	Tokenizer   int    `json:"tokenizer"`
	Fingerprint string `json:"fingerprint"` // BLAKE3 of the sorted (layer, key, blob) list
	Notes       int    `json:"notes"`
}

// Report is a whole evaluation, as printed with --json and read back by
// --baseline.
type Report struct {
	SchemaVersion int `json:"schema_version"`

	Store     Store      `json:"store"`
	Ranker    string     `json:"ranker"`
	Also      string     `json:"also,omitempty"` // with, without or both: see WithAlso
	Split     string     `json:"split"`
	Roots     int        `json:"roots"`
	MaxChars  int        `json:"max_chars"`
	Questions []Question `json:"questions"`
	Total     Totals     `json:"total"`
	// Bare are the same questions asked without their extras, when they
	// were asked both ways and some question has extras: Questions and
	// Total are then with them.
	BareQuestions []Question `json:"bare_questions,omitempty"`
	Bare          *Totals    `json:"bare,omitempty"`
}

// Which phrasings omh eval asks a question with: the question and the
// gold's also (WithAlso), the question alone (WithoutAlso), or both ways
// (BothAlso), Report.Bare beside the figures with extras.
const (
	WithAlso    = "with"
	WithoutAlso = "without"
	BothAlso    = "both"
)

// Change is a question that moved between a baseline and now.
type Change struct {
	ID     string
	Metric string // "recall@5" or "answer on card"
}

// Compare lists the questions gained and lost against a baseline from the
// same store; a baseline from another store is refused.
func Compare(base, now Report) (gained, lost []Change, err error) {
	if base.Store != now.Store {
		return nil, nil, fmt.Errorf("the baseline was measured on another store (%s at %.12s, fingerprint %.12s) than this one (%s at %.12s, fingerprint %.12s)",
			"schema "+fmt.Sprint(base.Store.Schema), base.Store.Commit, base.Store.Fingerprint,
			"schema "+fmt.Sprint(now.Store.Schema), now.Store.Commit, now.Store.Fingerprint)
	}
	before := map[string]Question{}
	for _, q := range base.Questions {
		before[q.ID] = q
	}
	for _, q := range now.Questions {
		b, ok := before[q.ID]
		if !ok || q.Negative {
			continue
		}
		switch {
		case q.Recall5 > b.Recall5:
			gained = append(gained, Change{q.ID, "recall@5"})
		case q.Recall5 < b.Recall5:
			lost = append(lost, Change{q.ID, "recall@5"})
		}
		switch {
		case q.AnswerOnCard && !b.AnswerOnCard:
			gained = append(gained, Change{q.ID, "answer on card"})
		case !q.AnswerOnCard && b.AnswerOnCard:
			lost = append(lost, Change{q.ID, "answer on card"})
		}
	}
	return gained, lost, nil
}

// RankedKeys lists the keys of a result's ranked notes, in order.
func RankedKeys(res retrieve.Result) []string {
	var out []string
	for _, h := range res.Hits {
		if h.Depth == 0 {
			out = append(out, h.Note.Key)
		}
	}
	return out
}

// median is the middle of xs, the mean of the two middle ones for an even
// count; 0 for none.
func median(xs []int) float64 {
	if len(xs) == 0 {
		return 0
	}
	xs = slices.Clone(xs)
	slices.Sort(xs)
	m := len(xs) / 2
	if len(xs)%2 == 1 {
		return float64(xs[m])
	}
	return float64(xs[m-1]+xs[m]) / 2
}
