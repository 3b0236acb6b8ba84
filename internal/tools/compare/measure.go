package main

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"time"

	"github.com/omh-notes/omh/internal/tools/fts5"
)

// The rankers, in the order they are printed.
const (
	rankDefault  = "default"
	rankBaseline = "baseline"
	rankFTS      = "fts5"
)

// depth is how many ranked notes every ranker returns: Recall@100 needs them.
const depth = 100

type rankerResult struct {
	Name string `json:"name"`
	// Is names the scoring function omh's default resolved to, from omh eval.
	Is     string `json:"is,omitempty"`
	Totals totals `json:"totals"`
	// ProcessMS is the median wall time of one process answering one
	// question: omh find --json (8 roots, its default) for omh's rankers,
	// `fts5peer query -bare` for FTS5. Timed one at a time, on Timed questions.
	ProcessMS float64 `json:"process_ms_median"`
	// InProcessMS is FTS5's median query time inside this process, over
	// every question (query and reading the 100 rows).
	InProcessMS float64 `json:"in_process_ms_median,omitempty"`
	Timed       int     `json:"timed"`
	// RankSeconds is the wall time of ranking every question (omh: with -j
	// processes at once).
	RankSeconds float64 `json:"rank_seconds"`
	// SameAs names the ranker whose lists these are, when omh resolved both
	// names to one scoring function and ranked once.
	SameAs string `json:"same_as,omitempty"`
	// FromEval: the figures are omh eval's (-fast), not computed here.
	FromEval  bool     `json:"from_omh_eval,omitempty"`
	Questions []scores `json:"questions"`
}

type crossCheck struct {
	Ranker   string   `json:"ranker"`
	Agree    int      `json:"agree"`
	Compared int      `json:"compared"`
	Differ   []string `json:"differ"`
}

type figure struct {
	Value     float64 `json:"value"`
	Questions int     `json:"questions"` // what the mean is over: one question is worth 1/Questions
}

type comparison struct {
	Gained []change `json:"gained"`
	Lost   []change `json:"lost"`
}

type setResult struct {
	Name       string `json:"name"`
	Split      string `json:"split"`
	Source     string `json:"source"`
	Questions  int    `json:"questions"`
	Answerable int    `json:"answerable"`
	Negatives  int    `json:"negatives"`
	// IDs are the measured answerable questions, in order.
	IDs          []string       `json:"ids"`
	NotesOmh     int            `json:"notes_omh"`
	NotesFTS     int            `json:"notes_fts5"`
	Rankers      []rankerResult `json:"rankers"`
	VsFTS        comparison     `json:"default_vs_fts5"`
	VsBaseline   comparison     `json:"default_vs_baseline"`
	CrossChecks  []crossCheck   `json:"cross_checks"`
	AnswerOnCard *figure        `json:"answer_on_card,omitempty"` // omh eval, default ranker, default reply
	// NegativesDoubted is the share of negative questions whose reply's
	// verdict was weak or none (omh eval, default ranker); nil without
	// negatives. AnswerableAnswered is the share of answerable questions
	// whose verdict was answered: the rest were wrongly doubted.
	NegativesDoubted   *figure `json:"negatives_doubted,omitempty"`
	AnswerableAnswered *figure `json:"answerable_answered"`
	// Keywords is -keywords' check of the default ranker.
	Keywords     *keywordCheck `json:"keywords,omitempty"`
	ExampleMatch string        `json:"example_match"`
	Reference    *reference    `json:"reference,omitempty"`
	PrepareSec   float64       `json:"prepare_seconds"`
	FTSBuildSec  float64       `json:"fts5_build_seconds"`
	Seconds      float64       `json:"seconds"`
}

// reference holds the data README's figures for a report split (nDCG@10).
type reference struct {
	BM25   float64 `json:"bm25"`
	Rarity float64 `json:"rarity_baseline"`
}

var references = map[string]reference{
	"scifact":   {BM25: 0.671, Rarity: 0.655},
	"cranfield": {BM25: 0.489, Rarity: 0.490},
	"cisi":      {BM25: 0.247, Rarity: 0.237},
}

func (r setResult) ranker(name string) rankerResult {
	for _, x := range r.Rankers {
		if x.Name == name {
			return x
		}
	}
	return rankerResult{}
}

func measureSet(o options, t tools, s set) (setResult, error) {
	start := time.Now()
	res := setResult{Name: s.name, Split: o.split, Source: s.source}
	fmt.Fprintf(os.Stderr, "%s: preparing …\n", s.name)
	p, err := prepare(o, t, s)
	if err != nil {
		return res, err
	}
	res.PrepareSec = time.Since(start).Seconds()
	var answerable []question
	for _, q := range p.questions {
		if q.Negative {
			res.Negatives++
			continue
		}
		answerable = append(answerable, q)
		res.IDs = append(res.IDs, q.ID)
	}
	res.Questions, res.Answerable = len(p.questions), len(answerable)
	if len(answerable) == 0 {
		return res, fmt.Errorf("no answerable questions to measure")
	}
	if ref, ok := references[s.name]; ok && o.split != "tune" && o.limit == 0 {
		res.Reference = &ref
	}

	// omh eval first: it builds omh's cache, cross-checks the metrics and
	// says whether answers are on the cards.
	evals := map[string]evalReport{}
	evalSeconds := map[string]float64{}
	for _, r := range []string{rankDefault, rankBaseline} {
		fmt.Fprintf(os.Stderr, "%s: omh eval --ranker %s …\n", s.name, r)
		began := time.Now()
		ev, err := omhEval(t.omh, p.vault, p.goldFile, r, o.also)
		if err != nil {
			return res, err
		}
		evals[r], evalSeconds[r] = ev, time.Since(began).Seconds()
	}
	res.NotesOmh = evals[rankDefault].Store.Notes

	// When omh resolves its default to the baseline's scoring function, the
	// two lists are the same by construction: rank once.
	same := evals[rankDefault].Ranker != "" && evals[rankDefault].Ranker == evals[rankBaseline].Ranker
	var lists [][]string
	for _, r := range []string{rankDefault, rankBaseline} {
		rr := rankerResult{Name: r}
		if r == rankDefault {
			rr.Is = evals[r].Ranker
		}
		if o.fast {
			if rr.Questions, err = fromEval(answerable, evals[r]); err != nil {
				return res, err
			}
			rr.FromEval, rr.RankSeconds = true, evalSeconds[r]
			rr.Totals = mean(rr.Questions)
			res.Rankers = append(res.Rankers, rr)
			continue
		}
		if r == rankDefault || !same {
			fmt.Fprintf(os.Stderr, "%s: omh find --ranker %s on %d questions …\n", s.name, r, len(answerable))
			began := time.Now()
			if lists, err = rankAll(t.omh, p.vault, r, answerable, depth, o.jobs); err != nil {
				return res, err
			}
			rr.RankSeconds = time.Since(began).Seconds()
		} else {
			rr.SameAs = rankDefault
		}
		for i, q := range answerable {
			rr.Questions = append(rr.Questions, score(q.ID, q.gain(), lists[i]))
		}
		rr.Totals = mean(rr.Questions)
		res.Rankers = append(res.Rankers, rr)
		res.CrossChecks = append(res.CrossChecks, crossCheckEval(r, rr.Questions, evals[r]))
	}

	fmt.Fprintf(os.Stderr, "%s: FTS5 …\n", s.name)
	began := time.Now()
	dbPath := filepath.Join(p.dir, "fts5.db")
	if res.NotesFTS, err = fts5.Build(dbPath, p.vault); err != nil {
		return res, err
	}
	res.FTSBuildSec = time.Since(began).Seconds()
	fts, err := fts5.Open(dbPath, p.vault)
	if err != nil {
		return res, err
	}
	defer fts.Close()
	began = time.Now()
	rr := rankerResult{Name: rankFTS}
	var inProcess []time.Duration
	for i, q := range answerable {
		match := fts5.Match(append([]string{q.Question}, q.Also...)...)
		if i == 0 {
			res.ExampleMatch = match
		}
		keys, took, err := ftsRanked(fts, match)
		if err != nil {
			return res, fmt.Errorf("FTS5 on %s (MATCH %s): %w", q.ID, match, err)
		}
		inProcess = append(inProcess, took)
		rr.Questions = append(rr.Questions, score(q.ID, q.gain(), keys))
	}
	rr.RankSeconds = time.Since(began).Seconds()
	rr.InProcessMS = medianMS(inProcess)
	rr.Totals = mean(rr.Questions)
	res.Rankers = append(res.Rankers, rr)

	if err := timeProcesses(o, t, p.vault, dbPath, answerable, &res); err != nil {
		return res, err
	}

	def := res.ranker(rankDefault).Questions
	if o.keywords {
		deep := depth
		if o.fast {
			deep = 10 // omh eval's ranks go no deeper
		}
		kc, err := checkKeywords(o, t, p.vault, answerable, def, deep)
		if err != nil {
			return res, err
		}
		res.Keywords = &kc
	}
	res.VsFTS.Gained, res.VsFTS.Lost = moved(res.ranker(rankFTS).Questions, def)
	res.VsBaseline.Gained, res.VsBaseline.Lost = moved(res.ranker(rankBaseline).Questions, def)

	var withAnswer, onCard, doubted, answered int
	for _, q := range evals[rankDefault].Questions {
		if q.Negative {
			if q.Verdict == "weak" || q.Verdict == "none" {
				doubted++
			}
			continue
		}
		// A binary from before the verdict says nothing: it answered.
		if q.Verdict == "" || q.Verdict == "answered" {
			answered++
		}
		if q.HasAnswer {
			withAnswer++
			if q.AnswerOnCard {
				onCard++
			}
		}
	}
	if withAnswer > 0 {
		res.AnswerOnCard = &figure{Value: float64(onCard) / float64(withAnswer), Questions: withAnswer}
	}
	if res.Negatives > 0 {
		res.NegativesDoubted = &figure{Value: float64(doubted) / float64(res.Negatives), Questions: res.Negatives}
	}
	res.AnswerableAnswered = &figure{Value: float64(answered) / float64(res.Answerable), Questions: res.Answerable}
	res.Seconds = time.Since(start).Seconds()
	return res, nil
}

// fromEval takes omh eval's per-question figures (-fast): the same
// definitions, but only the first ten notes, so no Recall@100.
func fromEval(qs []question, ev evalReport) ([]scores, error) {
	byID := map[string]int{}
	for i, q := range ev.Questions {
		byID[q.ID] = i
	}
	var out []scores
	for _, q := range qs {
		i, ok := byID[q.ID]
		if !ok {
			return nil, fmt.Errorf("omh eval did not answer question %s", q.ID)
		}
		e := ev.Questions[i]
		out = append(out, scores{ID: q.ID, Rank: e.Rank, Hit1: hit1(e.Rank), Recall1: e.Recall1, NDCG10: e.NDCG10, Recall5: e.Recall5, MRR10: e.MRR10})
	}
	return out, nil
}

// crossCheckEval compares the figures computed here from omh find's lists
// with omh eval's own, question by question.
func crossCheckEval(ranker string, mine []scores, ev evalReport) crossCheck {
	c := crossCheck{Ranker: ranker, Differ: []string{}}
	theirs := map[string]int{}
	for i, q := range ev.Questions {
		theirs[q.ID] = i
	}
	same := func(a, b float64) bool { return math.Abs(a-b) < 1e-9 }
	for _, m := range mine {
		i, ok := theirs[m.ID]
		c.Compared++
		if ok {
			e := ev.Questions[i]
			if same(e.NDCG10, m.NDCG10) && same(e.Recall5, m.Recall5) && same(e.MRR10, m.MRR10) {
				c.Agree++
				continue
			}
		}
		c.Differ = append(c.Differ, m.ID)
	}
	return c
}

// timeProcesses measures one process per question, one at a time, on the
// first o.latency answerable questions, taking turns between the rankers so
// that the machine's noise falls on all of them alike.
func timeProcesses(o options, t tools, vault, dbPath string, qs []question, res *setResult) error {
	n := min(o.latency, len(qs))
	if n == 0 {
		return nil
	}
	fmt.Fprintf(os.Stderr, "%s: timing %d questions …\n", res.Name, n)
	// One untimed call each, so caches and page cache are warm for all.
	if _, _, err := omhRanked(t.omh, vault, rankDefault, qs[0], 8); err != nil {
		return err
	}
	if _, err := ftsProcess(t.fts5, dbPath, qs[0]); err != nil {
		return err
	}
	times := map[string][]time.Duration{}
	order := []string{rankDefault, rankBaseline, rankFTS}
	for i, q := range qs[:n] {
		for j := range order {
			r := order[(i+j)%len(order)] // each ranker goes first as often as the others
			var took time.Duration
			var err error
			if r == rankFTS {
				took, err = ftsProcess(t.fts5, dbPath, q)
			} else {
				_, took, err = omhRanked(t.omh, vault, r, q, 8)
			}
			if err != nil {
				return err
			}
			times[r] = append(times[r], took)
		}
	}
	for i := range res.Rankers {
		r := &res.Rankers[i]
		r.ProcessMS, r.Timed = medianMS(times[r.Name]), n
	}
	return nil
}
