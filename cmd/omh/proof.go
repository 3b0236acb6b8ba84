package main

import (
	"errors"
	"strings"

	"github.com/omh-notes/omh/store"
)

// ProofCmd is `omh proof`: claim and evidence records.
type ProofCmd struct {
	Find    ProofFindCmd    `cmd:"" help:"Find the claim and evidence records that answer a question, with where each stands."`
	Show    ProofShowCmd    `cmd:"" help:"Print a record, where it stands and why, and its typed links both ways."`
	Retract ProofRetractCmd `cmd:"" help:"Withdraw a record: set retracted and retracted_reason in its frontmatter."`
}

// ProofFindCmd is `omh proof find`.
type ProofFindCmd struct {
	QuestionFlags `embed:""`
	Type          string `name:"type" enum:"${proof_types}," default:"" placeholder:"T" help:"Only ranked records of this type: ${proof_types_or}."`
	AsOf          string `name:"as-of" placeholder:"DATE|COMMIT" help:"A date (YYYY-MM-DD) or a commit (an id, branch or tag): answer from the records as they stood then: the team layer at that commit (for a date, the last commit on or before it), private records recorded by then."`
	Retracted     string `name:"retracted" enum:"exclude,include,only" default:"exclude" placeholder:"exclude|include|only" help:"Records withdrawn by then: left out (exclude, the default), shown marked (include), or alone (only)."`
}

func (c *ProofFindCmd) Run(e *env) error {
	q, err := e.question(c.QuestionFlags, c.Type, "default")
	if err != nil {
		return err
	}
	if q.Retracted, err = store.ParseRetraction(c.Retracted); err != nil {
		return err
	}
	q.AsOf, q.Cards, q.Records = c.AsOf, true, true
	if err := q.Check(); err != nil {
		return err
	}
	return e.withStore(func(s *store.Store) error {
		ans, err := s.Ask(q)
		if err != nil {
			return err
		}
		return e.printAnswer(ans, true)
	})
}

// ProofShowCmd is `omh proof show`.
type ProofShowCmd struct {
	Key    string    `arg:"" complete:"key" help:"The record's key: its path under the notes root without .md."`
	Layer  string    `name:"layer" enum:"team,local," default:"" placeholder:"team|local" help:"Only the record of this layer."`
	AsOf   string    `name:"as-of" placeholder:"DATE|COMMIT" help:"A date (YYYY-MM-DD) or a commit (an id, branch or tag): the record as it stood then, with the verdicts made by then."`
	Stores StoreFlag `embed:""`
}

func (c *ProofShowCmd) Run(e *env) error {
	sc, err := c.Stores.scope(c.Layer)
	if err != nil {
		return err
	}
	return e.withStore(func(s *store.Store) error {
		recs, err := s.ProofShow(c.Key, sc, c.AsOf)
		if err != nil {
			return err
		}
		if recs.Absent != nil { // no store to read at that moment
			return e.printAnswer(*recs.Absent, false)
		}
		return e.print(recs)
	})
}

// ProofRetractCmd is `omh proof retract`.
type ProofRetractCmd struct {
	Key    string `arg:"" complete:"key" help:"The record's key."`
	Reason string `name:"reason" required:"" placeholder:"TEXT" help:"Why the record is withdrawn; kept in retracted_reason."`
	Team   bool   `name:"team" help:"Also edit a record git tracks (the team layer); the edit then shows in git diff, for review."`
}

func (c *ProofRetractCmd) Run(e *env) error {
	if strings.TrimSpace(c.Reason) == "" {
		return usage(errors.New("--reason must say why"))
	}
	return e.withStore(func(s *store.Store) error {
		rep, err := s.Retract(c.Key, c.Reason, c.Team)
		if err != nil {
			return err
		}
		return e.print(rep)
	})
}
