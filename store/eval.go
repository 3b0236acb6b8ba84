package store

import (
	"strings"

	"github.com/omh-notes/omh/find/eval"
	"github.com/omh-notes/omh/index"
	"github.com/omh-notes/omh/retrieve"
	"github.com/omh-notes/omh/store/reply"
	"github.com/omh-notes/omh/vault/token"
)

// EvalOptions say how omh eval asks each question: as omh find --cards
// would with the same flags.
type EvalOptions struct {
	Split    string // tune, holdout or all
	Roots    int
	MaxChars int
	Ranker   retrieve.Ranker
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
			SchemaVersion: reply.SchemaVersion,
			Store: eval.Store{Commit: v.snap.Commit(), Schema: index.SchemaVersion, Tokenizer: token.TokenizerVersion,
				Fingerprint: fp, Notes: v.snap.Count()},
			Ranker: string(o.Ranker), Split: o.Split, Roots: o.Roots, MaxChars: o.MaxChars, Questions: []eval.Question{},
		}
		for _, g := range golds {
			if !eval.InSplit(g.ID, o.Split) {
				continue
			}
			g = underNotesRoot(g, v.snap.NotesDir())
			q := Question{Phrasings: append([]string{g.Question}, g.Also...), Roots: max(o.Roots, metricDepth), Ranker: o.Ranker,
				MaxChars: o.MaxChars}
			ranked, err := v.ask(q)
			if err != nil {
				return err
			}
			q.Roots, q.Cards = o.Roots, true
			ans, err := v.ask(q)
			if err != nil {
				return err
			}
			report.Questions = append(report.Questions, eval.Score(g, eval.Answer{Ranked: eval.RankedKeys(ranked.Result), Reply: *ans.Reply}))
		}
		report.Total = eval.Total(report.Questions)
		return nil
	})
	return report, err
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
