package main

import (
	"fmt"
	"sort"
	"time"

	"github.com/omh-notes/omh/eval"
)

// scores are one question's measures, from eval's MeasureRanking:
// linear gains (the gold's grades, else 1 per expected note), a log2(i+2)
// discount, Recall@k the share of the relevant notes among the first k,
// MRR@10 the reciprocal rank of the first relevant note within ten, hit@1
// 1 when the first note is a relevant one.
type scores struct {
	ID      string  `json:"id"`
	Rank    int     `json:"rank"` // of the first relevant note within the ranked list; 0 when absent
	Hit1    float64 `json:"hit_1"`
	Recall1 float64 `json:"recall_1"`
	NDCG10  float64 `json:"ndcg_10"`
	Recall5 float64 `json:"recall_5"`
	// Recall100 is nil when only the first ten were seen (-fast, omh eval).
	Recall100 *float64 `json:"recall_100,omitempty"`
	MRR10     float64  `json:"mrr_10"`
}

func score(id string, gain map[string]float64, ranked []string) scores {
	m := eval.MeasureRanking(gain, ranked)
	r100 := m.Recall100
	return scores{ID: id, Rank: m.Rank, Hit1: hit1(m.Rank), Recall1: m.Recall1, NDCG10: m.NDCG10, Recall5: m.Recall5, Recall100: &r100, MRR10: m.MRR10}
}

func hit1(rank int) float64 {
	if rank == 1 {
		return 1
	}
	return 0
}

// totals are means over the answerable questions.
type totals struct {
	Hit1      float64  `json:"hit_1"`
	Recall1   float64  `json:"recall_1"`
	NDCG10    float64  `json:"ndcg_10"`
	Recall5   float64  `json:"recall_5"`
	Recall100 *float64 `json:"recall_100,omitempty"` // nil unless every question has it
	MRR10     float64  `json:"mrr_10"`
}

func mean(qs []scores) totals {
	var t totals
	if len(qs) == 0 {
		return t
	}
	var r100 float64
	every := true
	for _, q := range qs {
		t.Hit1 += q.Hit1
		t.Recall1 += q.Recall1
		t.NDCG10 += q.NDCG10
		t.Recall5 += q.Recall5
		t.MRR10 += q.MRR10
		if q.Recall100 == nil {
			every = false
		} else {
			r100 += *q.Recall100
		}
	}
	n := float64(len(qs))
	t.Hit1, t.Recall1, t.NDCG10, t.Recall5, t.MRR10 = t.Hit1/n, t.Recall1/n, t.NDCG10/n, t.Recall5/n, t.MRR10/n
	if every {
		r100 /= n
		t.Recall100 = &r100
	}
	return t
}

// median of durations, in milliseconds; 0 for none.
func medianMS(ds []time.Duration) float64 {
	if len(ds) == 0 {
		return 0
	}
	s := append([]time.Duration(nil), ds...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	m := len(s) / 2
	if len(s)%2 == 1 {
		return ms(s[m])
	}
	return (ms(s[m-1]) + ms(s[m])) / 2
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// change is a question whose nDCG@10 moved by at least movedBy between two
// rankers.
type change struct {
	ID    string  `json:"id"`
	From  float64 `json:"from"`
	To    float64 `json:"to"`
	Delta float64 `json:"delta"`
}

const movedBy = 0.1

// moved lists the questions the default ranker gained and lost against
// another, by nDCG@10; both lists are per question, in the measured order.
func moved(other, def []scores) (gained, lost []change) {
	gained, lost = []change{}, []change{}
	for i := range def {
		d := def[i].NDCG10 - other[i].NDCG10
		c := change{ID: def[i].ID, From: other[i].NDCG10, To: def[i].NDCG10, Delta: d}
		switch {
		case d >= movedBy-1e-9:
			gained = append(gained, c)
		case d <= -movedBy+1e-9:
			lost = append(lost, c)
		}
	}
	return gained, lost
}

// fmtOpt prints an optional figure, "-" when it was not measured.
func fmtOpt(v *float64, width int) string {
	if v == nil {
		return fmt.Sprintf("%*s", width, "-")
	}
	return fmt.Sprintf("%*.3f", width, *v)
}
