package main

import (
	"fmt"

	"github.com/omh-notes/omh/store"
)

// EvalCmd is `omh eval`.
type EvalCmd struct {
	Gold     string     `arg:"" type:"existingfile" help:"Questions with known answers, one JSON object per line: {id, question, expect: [keys], answer (optional: text a card must show), negative (optional: true when no note answers it)}."`
	Split    string     `name:"split" enum:"tune,holdout,all" default:"tune" help:"Which questions: tune (tune on these), holdout (look once, when the code is final) or all."`
	Reply    ReplyShape `embed:""`
	Baseline string     `name:"baseline" type:"existingfile" placeholder:"FILE" help:"An earlier omh eval --json result: print the questions gained and lost."`
	Ranker   string     `name:"ranker" enum:"default,baseline,tuned" default:"default" help:"Scoring function, as omh find --ranker."`
	Also     string     `name:"also" enum:"both,with,without" default:"both" help:"Ask each question with its gold also phrasings (with, as omh find --also), alone (without), or both ways, printing the bare figures beside (${default})."`
}

func (c *EvalCmd) Run(e *env) error {
	if c.Reply.Roots < 1 || c.Reply.MaxChars < 1 {
		return usage(fmt.Errorf("--roots and --max-chars must be positive"))
	}
	ranker, err := store.ParseRanker(c.Ranker)
	if err != nil {
		return err
	}
	gold, err := store.ReadGold(c.Gold)
	if err != nil {
		return err
	}
	o := store.EvalOptions{Split: c.Split, Roots: c.Reply.Roots, MaxChars: c.Reply.MaxChars, Ranker: ranker, Also: c.Also}
	if c.Baseline != "" {
		if o.Baseline, err = store.ReadBaseline(c.Baseline); err != nil {
			return err
		}
	}
	return e.withStore(func(s *store.Store) error {
		report, err := s.Eval(gold, o)
		if err != nil {
			return err
		}
		return e.print(report)
	})
}
