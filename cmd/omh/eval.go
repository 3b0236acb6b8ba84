package main

import (
	"encoding/json"
	"fmt"
	"os"

	"github.com/omh-notes/omh/find/eval"
	"github.com/omh-notes/omh/retrieve"
	"github.com/omh-notes/omh/store"
	"github.com/omh-notes/omh/store/reply"
)

// EvalCmd is `omh eval`.
type EvalCmd struct {
	Gold     string `arg:"" type:"existingfile" help:"Questions with known answers, one JSON object per line: {id, question, expect: [keys], answer (optional: text a card must show), negative (optional: true when no note answers it)}."`
	Split    string `name:"split" enum:"tune,holdout,all" default:"tune" help:"Which questions: tune (tune on these), holdout (look once, when the code is final) or all."`
	Roots    int    `name:"roots" default:"8" placeholder:"N" help:"Ranked notes in each reply, as omh find --roots (default ${default})."`
	MaxChars int    `name:"max-chars" default:"6000" placeholder:"N" help:"Size aim of each reply in characters, as omh find --max-chars (default ${default})."`
	Baseline string `name:"baseline" type:"existingfile" placeholder:"FILE" help:"An earlier omh eval --json result: print the questions gained and lost."`
	Ranker   string `name:"ranker" enum:"default,baseline,tuned" default:"default" help:"Scoring function, as omh find --ranker."`
}

func (c *EvalCmd) Run(e *env) error {
	if c.Roots < 1 || c.MaxChars < 1 {
		return usage(fmt.Errorf("--roots and --max-chars must be positive"))
	}
	ranker, err := retrieve.ParseRanker(c.Ranker)
	if err != nil {
		return usage(err)
	}
	f, err := os.Open(c.Gold)
	if err != nil {
		return refuse(reply.BadGold, err)
	}
	golds, err := eval.ReadGold(f)
	f.Close()
	if err != nil {
		return refuse(reply.BadGold, fmt.Errorf("%s: %w", c.Gold, err))
	}
	var base *eval.Report
	if c.Baseline != "" {
		b, err := os.ReadFile(c.Baseline)
		if err != nil {
			return refuse(reply.BadBaseline, err)
		}
		base = &eval.Report{}
		if err := json.Unmarshal(b, base); err != nil {
			return refuse(reply.BadBaseline, fmt.Errorf("%s is not an omh eval --json result: %w", c.Baseline, err))
		}
	}
	return e.withStore(func(s *store.Store) error {
		report, err := s.Eval(golds, store.EvalOptions{Split: c.Split, Roots: c.Roots, MaxChars: c.MaxChars, Ranker: ranker})
		if err != nil {
			return err
		}
		var gained, lost []eval.Change
		if base != nil {
			if gained, lost, err = eval.Compare(*base, report); err != nil {
				return refuse(reply.StoreMismatch, err)
			}
		}
		if e.cli.JSON {
			return writeJSON(e.stdout, report)
		}
		printReport(e, report, base != nil, gained, lost)
		return nil
	})
}
func printReport(e *env, r eval.Report, compared bool, gained, lost []eval.Change) {
	w := e.stdout
	fmt.Fprintf(w, "store  %s · schema %d · tokenizer %d · %d notes · fingerprint %.16s\n",
		retrieve.CommitLabel(r.Store.Commit), r.Store.Schema, r.Store.Tokenizer, r.Store.Notes, r.Store.Fingerprint)
	fmt.Fprintf(w, "ranker %s\n", r.Ranker)
	fmt.Fprintf(w, "split  %s: %d questions (%d answerable, %d negative); %d roots, %d characters aimed at\n\n",
		r.Split, r.Total.Questions, r.Total.Answerable, r.Total.Negatives, r.Roots, r.MaxChars)
	fmt.Fprintf(w, "%-24s %5s %6s %6s %6s %8s %6s\n", "question", "rank", "R@5", "nDCG", "card", "verdict", "chars")
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
		fmt.Fprintf(w, "%-24s %5d %6.2f %6.3f %6s %8s %6d\n", q.ID, q.Rank, q.Recall5, q.NDCG10, card, q.Verdict, q.ReplyChars)
	}
	t := r.Total
	fmt.Fprintf(w, "\ntotal  hit@1 %.3f  R@1 %.3f  R@5 %.3f  MRR@10 %.3f  nDCG@10 %.3f\n", t.Hit1, t.Recall1, t.Recall5, t.MRR10, t.NDCG10)
	fmt.Fprintf(w, "       answer on a card %.3f (when the note is in the reply %.3f)  honest empty %.3f  mean reply %.0f characters\n",
		t.AnswerOnCard, t.AnswerWhenFound, t.HonestEmpty, t.MeanReplyChars)
	fmt.Fprintf(w, "       answer on a card by the expected note's card:")
	for _, b := range t.AnswerByRank {
		fmt.Fprintf(w, "  %s %.3f (%d)", b.Ranks, b.AnswerOnCard, b.Found)
	}
	fmt.Fprintln(w)
	fmt.Fprintf(w, "       verdict weak or none: %.3f of negatives, %.3f of answerable questions (wrongly)\n", t.NegativesDoubted, t.AnswerableDoubted)
	if compared {
		fmt.Fprintf(w, "\nagainst the baseline: %d gained, %d lost\n", len(gained), len(lost))
		for _, c := range gained {
			fmt.Fprintf(w, "  + %s (%s)\n", c.ID, c.Metric)
		}
		for _, c := range lost {
			fmt.Fprintf(w, "  - %s (%s)\n", c.ID, c.Metric)
		}
	}
}
