package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/omh-notes/omh/find"
	"github.com/omh-notes/omh/index"
	"github.com/omh-notes/omh/retrieve"
	"github.com/omh-notes/omh/vault"
)

// FindCmd is `omh find`.
type FindCmd struct {
	Question   []string `arg:"" name:"question" help:"The question, in one or more words (no quotes needed); - reads it from standard input."`
	Also       []string `name:"also" sep:"none" placeholder:"Q" help:"Another phrasing of the same question; each is scored alone and a note keeps its best."`
	Roots      int      `name:"roots" default:"8" placeholder:"N" help:"How many ranked notes to print; the rest are counted."`
	Layer      string   `name:"layer" enum:"team,local," default:"" placeholder:"team|local" help:"Only notes of this layer (a team-only answer is safe to paste into a pull request)."`
	Type       string   `name:"type" placeholder:"T" help:"Only ranked notes of this type."`
	NoWorktree bool     `name:"no-worktree" help:"Leave out uncommitted working copies, for the fastest answer."`
	Cards      bool     `name:"cards" help:"One card per note, for agents: passages, matched words, links in and out."`
	MaxChars   int      `name:"max-chars" default:"6000" placeholder:"N" help:"Size the cards (and JSON) reply aims at; passages that do not fit are counted."`
	Ranker     string   `name:"ranker" enum:"default,baseline,tuned" default:"default" help:"Scoring function: the default, or baseline (SPEC §5's rarity) to compare."`
}

func (c *FindCmd) Run(e *env) error {
	question, err := readQuestion(c.Question, e.stdin)
	if err != nil {
		return err
	}
	if c.Roots < 0 {
		return &cmdError{exitUsage, "usage", errors.New("--roots must not be negative")}
	}
	ranker, err := retrieve.ParseRanker(c.Ranker)
	if err != nil {
		return &cmdError{exitUsage, "usage", err}
	}
	q := retrieve.Query{Phrasings: append([]string{question}, c.Also...), Roots: c.Roots, Type: c.Type, Ranker: ranker}
	if c.Layer != "" {
		if q.Layer, err = vault.ParseLayer(c.Layer); err != nil {
			return &cmdError{exitUsage, "usage", err}
		}
	}
	if c.MaxChars <= 0 {
		return &cmdError{exitUsage, "usage", errors.New("--max-chars must be positive")}
	}
	return e.withStore(index.Options{NoWorktree: c.NoWorktree, LockWait: lockWait, Progress: e.progress()}, func(s *store) error {
		res, err := retrieve.Search(s.snap, q)
		if err != nil {
			return err
		}
		if !e.cli.JSON && !c.Cards {
			_, err = io.WriteString(e.stdout, retrieve.RenderTree(res, s.snap.Commit()))
			return err
		}
		reply, err := find.Build(res, s.snap.Commit(), s.snap, c.MaxChars)
		if err != nil {
			return err
		}
		if e.cli.JSON {
			return writeJSON(e.stdout, reply.JSON())
		}
		_, err = io.WriteString(e.stdout, reply.Text())
		return err
	})
}

// readQuestion joins the words of the question; a lone "-" reads it from
// standard input.
func readQuestion(words []string, stdin io.Reader) (string, error) {
	q := strings.Join(words, " ")
	if len(words) == 1 && words[0] == "-" {
		b, err := io.ReadAll(stdin)
		if err != nil {
			return "", fmt.Errorf("reading the question from standard input: %w", err)
		}
		q = string(b)
	}
	q = strings.TrimSpace(q)
	if q == "" {
		return "", &cmdError{exitUsage, "usage", errors.New("the question is empty")}
	}
	return q, nil
}

func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}
