package store

import (
	"strings"

	"github.com/omh-notes/omh/find/eval"
	"github.com/omh-notes/omh/index"
	"github.com/omh-notes/omh/retrieve"
	"github.com/omh-notes/omh/vault/token"
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
}

// metricDepth is how many ranked notes the metrics look at, whatever the
// reply's budget: nDCG@10 and MRR@10 need ten.
const metricDepth = 10

// Eval asks every question of golds in the split and scores the answers.
// Each reply it scores is the one Ask gives for the same question and
// flags with cards, which omh find --cards prints: proof records carry
// their standing there too. The ranking the metrics read goes ten notes
// deep, whatever the reply's budget.
func (s *Store) Eval(golds []eval.Gold, o EvalOptions) (eval.Report, error) {
	var report eval.Report
	err := s.read("", s.readOptions(false), func(v *view) error {
		fp, err := v.snap.Fingerprint()
		if err != nil {
			return err
		}
		report = eval.Report{
			SchemaVersion: retrieve.SchemaVersion,
			Store: eval.Store{Commit: v.snap.Commit(), Schema: index.SchemaVersion, Tokenizer: token.TokenizerVersion,
				Fingerprint: fp, Notes: v.snap.Count()},
			Ranker: string(o.Ranker), Also: o.Also, Split: o.Split, Roots: o.Roots, MaxChars: o.MaxChars, Questions: []eval.Question{},
		}
		withAlso := o.Also != eval.WithoutAlso
		bare := o.Also == eval.WithoutAlso
		if o.Also == eval.BothAlso {
			for _, g := range golds {
				bare = bare || len(g.Also) > 0 && eval.InSplit(g.ID, o.Split)
			}
		}
		for _, g := range golds {
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
	return report, err
}

// evalOne asks one gold question with the extra phrasings given and
// scores the reply.
func (v *view) evalOne(g eval.Gold, also []string, o EvalOptions) (eval.Question, error) {
	q := Question{Phrasings: append([]string{g.Question}, also...), Roots: max(o.Roots, metricDepth), Ranker: o.Ranker,
		MaxChars: o.MaxChars}
	ranked, err := v.ask(q)
	if err != nil {
		return eval.Question{}, err
	}
	q.Roots, q.Cards = o.Roots, true
	ans, err := v.ask(q)
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
