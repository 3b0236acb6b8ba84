package store

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/omh-notes/omh/eval"
	"github.com/omh-notes/omh/index"
	"github.com/omh-notes/omh/reply"
	"github.com/omh-notes/omh/retrieve"
	"github.com/omh-notes/omh/token"
)

// EvalOptions say how omh eval asks each question: as omh find --cards
// would with the same flags.
type EvalOptions struct {
	Split    string // tune, holdout or all
	Roots    int
	MaxChars int
	Ranker   retrieve.Ranker
	// Also says which phrasings each question is asked with: eval.WithAlso
	// (the question and its gold extras), eval.WithoutAlso (the question
	// alone) or eval.BothAlso (both, the bare figures beside).
	Also string
	// Baseline is an earlier result to compare with: the questions gained
	// and lost; nil for none.
	Baseline *EvalBaseline
}

// GoldQuestions are questions with known answers, as omh eval reads them.
type GoldQuestions struct{ golds []eval.Gold }

// ReadGold reads the questions of the file at path, one JSON object a line.
func ReadGold(path string) (GoldQuestions, error) {
	f, err := os.Open(path)
	if err != nil {
		return GoldQuestions{}, refuse(reply.BadGold, err)
	}
	defer f.Close()
	golds, err := eval.ReadGold(f)
	if err != nil {
		return GoldQuestions{}, refuse(reply.BadGold, fmt.Errorf("%s: %w", path, err))
	}
	return GoldQuestions{golds}, nil
}

// EvalBaseline is an earlier omh eval --json result.
type EvalBaseline struct{ report eval.Report }

// ReadBaseline reads the omh eval --json result in the file at path.
func ReadBaseline(path string) (*EvalBaseline, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, refuse(reply.BadBaseline, err)
	}
	base := &EvalBaseline{}
	if err := json.Unmarshal(b, &base.report); err != nil {
		return nil, refuse(reply.BadBaseline, fmt.Errorf("%s is not an omh eval --json result: %w", path, err))
	}
	return base, nil
}

// EvalReport is omh eval's result and, against a baseline, the questions
// gained and lost; its JSON is the result alone, which a later run reads
// as its baseline.
type EvalReport struct {
	eval.Report
	compared     bool
	gained, lost []eval.Change
}

// metricDepth is how many ranked notes the metrics look at, whatever the
// reply's budget: nDCG@10 and MRR@10 need ten.
const metricDepth = 10

// Eval asks every question of golds in the split and scores the answers.
// Each reply it scores is the one Ask gives for the same question and
// flags with cards, which omh find --cards prints: proof records carry
// their standing there too. The ranking the metrics read goes ten notes
// deep, whatever the reply's budget.
func (s *Store) Eval(gold GoldQuestions, o EvalOptions) (EvalReport, error) {
	var report eval.Report
	err := s.read("", s.readOptions(false), func(v *view) error {
		fp, err := v.snap.Fingerprint()
		if err != nil {
			return err
		}
		report = eval.Report{
			SchemaVersion: reply.SchemaVersion,
			Store: eval.Store{Commit: v.snap.Commit(), Schema: index.SchemaVersion, Tokenizer: token.TokenizerVersion,
				Fingerprint: fp, Notes: v.snap.Count()},
			Ranker: string(o.Ranker), Also: o.Also, Split: o.Split, Roots: o.Roots, MaxChars: o.MaxChars, Questions: []eval.Question{},
		}
		withAlso := o.Also != eval.WithoutAlso
		bare := o.Also == eval.WithoutAlso
		if o.Also == eval.BothAlso {
			for _, g := range gold.golds {
				bare = bare || len(g.Also) > 0 && eval.InSplit(g.ID, o.Split)
			}
		}
		for _, g := range gold.golds {
			if !eval.InSplit(g.ID, o.Split) {
				continue
			}
			g = underNotesRoot(g, v.snap.NotesDir())
			if withAlso {
				q, err := v.evalOne(g, g.Also, o)
				if err != nil {
					return err
				}
				report.Questions = append(report.Questions, q)
			}
			if bare && (len(g.Also) > 0 || !withAlso) {
				q, err := v.evalOne(g, nil, o)
				if err != nil {
					return err
				}
				report.BareQuestions = append(report.BareQuestions, q)
			} else if bare {
				report.BareQuestions = append(report.BareQuestions, report.Questions[len(report.Questions)-1])
			}
		}
		if !withAlso {
			report.Questions, report.BareQuestions = report.BareQuestions, nil
		}
		if report.BareQuestions != nil {
			t := eval.Total(report.BareQuestions)
			report.Bare = &t
		}
		report.Total = eval.Total(report.Questions)
		return nil
	})
	if err != nil {
		return EvalReport{}, err
	}
	out := EvalReport{Report: report}
	if o.Baseline != nil {
		out.compared = true
		if out.gained, out.lost, err = eval.Compare(o.Baseline.report, report); err != nil {
			return EvalReport{}, refuse(reply.StoreMismatch, err)
		}
	}
	return out, nil
}

// Text prints the result: the store and flags measured, a line per
// question, the totals, and what changed against the baseline.
func (r EvalReport) Text(w io.Writer) {
	fmt.Fprintf(w, "store  %s · schema %d · tokenizer %d · %d notes · fingerprint %.16s\n",
		retrieve.CommitLabel(r.Store.Commit), r.Store.Schema, r.Store.Tokenizer, r.Store.Notes, r.Store.Fingerprint)
	fmt.Fprintf(w, "ranker %s\n", r.Ranker)
	fmt.Fprintf(w, "split  %s: %d questions (%d answerable, %d negative); %d roots, %d characters aimed at\n\n",
		r.Split, r.Total.Questions, r.Total.Answerable, r.Total.Negatives, r.Roots, r.MaxChars)
	fmt.Fprintf(w, "%-24s %5s %6s %6s %6s %6s %8s %6s\n", "question", "rank", "R@5", "nDCG", "card", "at", "verdict", "chars")
	for _, q := range r.Questions {
		card := "-"
		switch {
		case q.Negative && q.Empty:
			card = "empty"
		case q.Negative:
			card = "hits"
		case q.HasAnswer && q.AnswerOnCard:
			card = "yes"
		case q.HasAnswer:
			card = "no"
		}
		at := "-"
		if q.AnswerAt > 0 {
			at = fmt.Sprint(q.AnswerAt)
		}
		fmt.Fprintf(w, "%-24s %5d %6.2f %6.3f %6s %6s %8s %6d\n", q.ID, q.Rank, q.Recall5, q.NDCG10, card, at, q.Verdict, q.ReplyChars)
	}
	t := r.Total
	fmt.Fprintf(w, "\ntotal  hit@1 %.3f  R@1 %.3f  R@5 %.3f  MRR@10 %.3f  nDCG@10 %.3f\n", t.Hit1, t.Recall1, t.Recall5, t.MRR10, t.NDCG10)
	fmt.Fprintf(w, "       answer on a card %.3f (when the note is in the reply %.3f)  honest empty %.3f  reply %.0f characters median, %.0f mean\n",
		t.AnswerOnCard, t.AnswerWhenFound, t.HonestEmpty, t.MedianReplyChars, t.MeanReplyChars)
	fmt.Fprintf(w, "       the whole answer within the reply's first 1,000 characters %.3f, 1,500 %.3f\n", t.AnswerWithin1000, t.AnswerWithin1500)
	fmt.Fprintf(w, "       answer on a card by the expected note's card:")
	for _, b := range t.AnswerByRank {
		fmt.Fprintf(w, "  %s %.3f (%d)", b.Ranks, b.AnswerOnCard, b.Found)
	}
	fmt.Fprintln(w)
	fmt.Fprintf(w, "       verdict weak or none: %.3f of negatives, %.3f of answerable questions (wrongly)\n", t.NegativesDoubted, t.AnswerableDoubted)
	if b := r.Bare; b != nil {
		fmt.Fprintf(w, "bare   without the extra phrasings: hit@1 %.3f  R@5 %.3f  MRR@10 %.3f  answer on a card %.3f (when the note is in the reply %.3f)  within 1,000 %.3f, 1,500 %.3f  reply median %.0f  weak or none %.3f of negatives, %.3f of answerable\n",
			b.Hit1, b.Recall5, b.MRR10, b.AnswerOnCard, b.AnswerWhenFound, b.AnswerWithin1000, b.AnswerWithin1500, b.MedianReplyChars, b.NegativesDoubted, b.AnswerableDoubted)
	}
	if r.compared {
		fmt.Fprintf(w, "\nagainst the baseline: %d gained, %d lost\n", len(r.gained), len(r.lost))
		for _, c := range r.gained {
			fmt.Fprintf(w, "  + %s (%s)\n", c.ID, c.Metric)
		}
		for _, c := range r.lost {
			fmt.Fprintf(w, "  - %s (%s)\n", c.ID, c.Metric)
		}
	}
}

// evalOne asks one gold question with the extra phrasings given and
// scores the reply.
func (v *view) evalOne(g eval.Gold, also []string, o EvalOptions) (eval.Question, error) {
	q := Question{Phrasings: append([]string{g.Question}, also...), Roots: max(o.Roots, metricDepth), Ranker: o.Ranker,
		MaxChars: o.MaxChars}
	ranked, err := v.alone().ask(q, selection{})
	if err != nil {
		return eval.Question{}, err
	}
	q.Roots, q.Cards = o.Roots, true
	ans, err := v.alone().ask(q, selection{})
	if err != nil {
		return eval.Question{}, err
	}
	return eval.Score(g, eval.Answer{Ranked: eval.RankedKeys(ranked.Result), Reply: *ans.Reply}), nil
}

// underNotesRoot turns the notes a gold question expects, named by their
// paths from the repository root (without .md), into keys under the notes
// root: with notes: en, en/Home is the note Home.
func underNotesRoot(g eval.Gold, notesDir string) eval.Gold {
	if notesDir == "" {
		return g
	}
	key := func(p string) string {
		if k, ok := strings.CutPrefix(p, notesDir+"/"); ok {
			return k
		}
		return p
	}
	expect := make([]string, len(g.Expect))
	for i, p := range g.Expect {
		expect[i] = key(p)
	}
	g.Expect = expect
	if g.Gains != nil {
		gains := make(map[string]float64, len(g.Gains))
		for p, v := range g.Gains {
			gains[key(p)] = v
		}
		g.Gains = gains
	}
	return g
}
