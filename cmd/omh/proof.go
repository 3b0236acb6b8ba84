package main

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/omh-notes/omh/find"
	"github.com/omh-notes/omh/retrieve"
	"github.com/omh-notes/omh/store"
	"github.com/omh-notes/omh/vault"
)

// ProofCmd is `omh proof`: claim and evidence records.
type ProofCmd struct {
	Find    ProofFindCmd    `cmd:"" help:"Find the claim and evidence records that answer a question, with where each stands."`
	Show    ProofShowCmd    `cmd:"" help:"Print a record, where it stands and why, and its typed links both ways."`
	Retract ProofRetractCmd `cmd:"" help:"Withdraw a record: set retracted and retracted_reason in its frontmatter."`
}

// ProofFindCmd is `omh proof find`.
type ProofFindCmd struct {
	Question  []string `arg:"" name:"question" help:"The question, in one or more words (no quotes needed); - reads it from standard input."`
	Also      []string `name:"also" sep:"none" placeholder:"Q" help:"Another phrasing of the same question; each is scored alone and a record keeps its best."`
	Roots     int      `name:"roots" default:"8" placeholder:"N" help:"How many ranked records to print (default ${default}); the rest are counted."`
	Layer     string   `name:"layer" enum:"team,local," default:"" placeholder:"team|local" help:"Only records of this layer (default both)."`
	Type      string   `name:"type" enum:"${proof_types}," default:"" placeholder:"T" help:"Only ranked records of this type: ${proof_types_or}."`
	MaxChars  int      `name:"max-chars" default:"6000" placeholder:"N" help:"Size in characters the reply aims at (default ${default}); passages that do not fit are counted."`
	AsOf      string   `name:"as-of" placeholder:"DATE|COMMIT" help:"A date (YYYY-MM-DD) or a commit (an id, branch or tag): answer from the records as they stood then: the team layer at that commit (for a date, the last commit on or before it), private records recorded by then."`
	Retracted string   `name:"retracted" enum:"exclude,include,only" default:"exclude" placeholder:"exclude|include|only" help:"Records withdrawn by then: left out (exclude, the default), shown marked (include), or alone (only)."`
}

func (c *ProofFindCmd) Run(e *env) error {
	q, err := e.question(c.Question, c.Also, c.Roots, c.Layer, c.Type, "default", c.MaxChars)
	if err != nil {
		return err
	}
	if q.Retracted, err = find.ParseRetraction(c.Retracted); err != nil {
		return usage(err)
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
	Key   string `arg:"" complete:"key" help:"The record's key: its path under the notes root without .md."`
	Layer string `name:"layer" enum:"team,local," default:"" placeholder:"team|local" help:"Only the record of this layer."`
	AsOf  string `name:"as-of" placeholder:"DATE|COMMIT" help:"A date (YYYY-MM-DD) or a commit (an id, branch or tag): the record as it stood then, with the verdicts made by then."`
}

func (c *ProofShowCmd) Run(e *env) error {
	return e.withStore(func(s *store.Store) error {
		recs, err := s.ProofShow(c.Key, layerFlag(c.Layer), c.AsOf)
		if err != nil {
			return err
		}
		if recs.Absent != nil { // no store to read at that moment
			return e.printAnswer(*recs.Absent, false)
		}
		if e.cli.JSON {
			return writeJSON(e.stdout, recs)
		}
		printRecords(e.stdout, recs)
		return nil
	})
}

// printRecords prints omh proof show's reply for people, then the commit
// and the day asked for.
func printRecords(w io.Writer, recs store.Records) {
	commit := store.CommitID(recs.Commit)
	for i, r := range recs.Records {
		if i > 0 {
			fmt.Fprintln(w)
		}
		printRecord(w, r, commit)
	}
	io.WriteString(w, retrieve.Footer(commit, vault.Date(recs.AsOf)))
}

// printRecord prints a record for people: its provenance and standing,
// then what omh show prints.
func printRecord(w io.Writer, r store.ShownRecord, commit string) {
	state := r.State
	if r.Retracted != "" {
		state = "retracted " + r.Retracted
		if r.RetractedReason != "" {
			state += ": " + r.RetractedReason
		}
	}
	fmt.Fprintf(w, "%s  %s · %s\n", r.Key, r.Layer, r.Date)
	fmt.Fprintf(w, "%-8s %s\n", "state", oneLine(state))
	for _, by := range r.By {
		fmt.Fprintf(w, "%-8s %s %s  %s · %s\n", "", by.Key, by.Verb, by.Layer, by.Date)
	}
	if r.Issue != "" {
		fmt.Fprintf(w, "%-8s %s\n", "issue", r.Issue)
		for _, by := range r.ResolvedBy {
			fmt.Fprintf(w, "%-8s %s %s  %s · %s\n", "", by.Key, by.Verb, by.Layer, by.Date)
		}
	}
	printShownFields(w, r.ShownNote, commit)
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
		if e.cli.JSON {
			return writeJSON(e.stdout, rep)
		}
		printRetraction(e.stdout, rep)
		return nil
	})
}

func printRetraction(w io.Writer, rep store.Retraction) {
	fmt.Fprintf(w, "retracted %s on %s\npath: %s\n", rep.Key, rep.Day, rep.Path)
	if rep.Tracked {
		fmt.Fprintf(w, "The edit is in the working tree: review it with git diff, then commit it.\n")
	}
}
