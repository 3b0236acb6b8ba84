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
	AsOf       string   `name:"as-of" placeholder:"DATE|COMMIT" help:"Answer from the store as it stood then: the team layer at that commit (for a date, the last commit on or before it), private notes recorded by then, no uncommitted edits."`
}

func (c *FindCmd) Run(e *env) error {
	q, err := newQuery(e, c.Question, c.Also, c.Roots, c.Layer, c.Type, c.Ranker, c.MaxChars)
	if err != nil {
		return err
	}
	err = e.withStoreAt(c.AsOf, index.Options{NoWorktree: c.NoWorktree, LockWait: lockWait, Progress: e.progress()}, func(s *store) error {
		res, err := s.search(q)
		if err != nil {
			return err
		}
		if !e.cli.JSON && !c.Cards {
			_, err = io.WriteString(e.stdout, retrieve.RenderTree(res, s.snap.Commit()))
			return err
		}
		// Proof records among the hits show where they stand; a plain find
		// hides nothing, retracted records are marked.
		proof := s.proof(find.IncludeRetracted)
		return e.writeCards(s, res, c.MaxChars, proof)
	})
	return e.absent(err, q.Phrasings, c.AsOf)
}

// newQuery checks the flags a question is asked with.
func newQuery(e *env, words, also []string, roots int, layer, typ, rankerName string, maxChars int) (retrieve.Query, error) {
	question, err := readQuestion(words, e.stdin)
	if err != nil {
		return retrieve.Query{}, err
	}
	if roots < 0 {
		return retrieve.Query{}, &cmdError{exitUsage, "usage", errors.New("--roots must not be negative")}
	}
	if maxChars <= 0 {
		return retrieve.Query{}, &cmdError{exitUsage, "usage", errors.New("--max-chars must be positive")}
	}
	ranker, err := retrieve.ParseRanker(rankerName)
	if err != nil {
		return retrieve.Query{}, &cmdError{exitUsage, "usage", err}
	}
	q := retrieve.Query{Phrasings: append([]string{question}, also...), Roots: roots, Type: typ, Ranker: ranker}
	if layer != "" {
		if q.Layer, err = vault.ParseLayer(layer); err != nil {
			return q, &cmdError{exitUsage, "usage", err}
		}
	}
	return q, nil
}

// search answers q from the store, stating the moment it was asked for.
func (s *store) search(q retrieve.Query) (retrieve.Result, error) {
	res, err := retrieve.Search(s.snap, q)
	res.AsOf = s.asOf()
	return res, err
}

// writeCards prints res as cards, or as JSON with --json.
func (e *env) writeCards(s *store, res retrieve.Result, maxChars int, proof *find.Proof) error {
	reply, err := find.Build(res, s.snap.Commit(), s.snap, maxChars, proof)
	if err != nil {
		return err
	}
	if e.cli.JSON {
		return writeJSON(e.stdout, reply.JSON())
	}
	_, err = io.WriteString(e.stdout, reply.Text())
	return err
}

// absent answers a moment with no store to search: before the first
// commit, or past a shallow clone's boundary. Both are answers (exit 0),
// not failures; any other error passes through.
func (e *env) absent(err error, question []string, asOf string) error {
	var note string
	incomplete := false
	switch {
	case errors.Is(err, vault.ErrBeforeHistory):
		note = "the store did not exist yet on " + asOf
	case errors.Is(err, vault.ErrPastShallow):
		note = "the history of " + asOf + " is not in this clone: it is shallow"
		incomplete = true
	default:
		return err
	}
	if e.cli.JSON {
		reply := retrieve.ToJSON(retrieve.Result{Question: question, StoreEmpty: true}, "")
		reply.Note, reply.Incomplete = note, incomplete
		if day := vault.Date(asOf); day.Valid() {
			reply.AsOf = asOf
		}
		return writeJSON(e.stdout, reply)
	}
	_, err = fmt.Fprintf(e.stdout, "%s%s.\n", strings.ToUpper(note[:1]), note[1:])
	return err
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
