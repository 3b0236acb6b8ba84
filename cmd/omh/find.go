package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/omh-notes/omh/reply"
	"github.com/omh-notes/omh/store"
)

// FindCmd is `omh find`.
type FindCmd struct {
	QuestionFlags `embed:""`
	Type          string `name:"type" placeholder:"T" complete:"type" help:"Only ranked notes of this type."`
	NoWorktree    bool   `name:"no-worktree" help:"Leave out uncommitted working copies, for the fastest answer."`
	Cards         bool   `name:"cards" help:"Cards for agents, sized by the verdict: a leading note's card and a line per runner-up, or full cards to compare; passages first, then the file, links in and out."`
	Ranker        string `name:"ranker" enum:"default,baseline,tuned" default:"default" help:"Scoring function: default (BM25 over fields), or baseline (the summed rarity ln((n+1)/df) of the question's words, doubled in a key or title) to compare."`
	AsOf          string `name:"as-of" placeholder:"DATE|COMMIT" help:"A date (YYYY-MM-DD) or a commit (an id, branch or tag): answer from the store as it stood then: the team layer at that commit (for a date, the last commit on or before it), private notes recorded by then, no uncommitted edits."`
	Explain       bool   `name:"explain" help:"Say why each note is there: a ranked note's score word by word (where the note holds it, how often, its share), a linked note's origin."`
}

// Help is the detail under `omh find --help`.
func (c *FindCmd) Help() string {
	return `Ranks the notes by the question's words (in a note's key, title, headings, Answers section and text) and prints the best with the notes they link to, each with its layer and date. Each --also is another phrasing of the question, scored alone and added to the question's own score (scaled so the question counts most), so a note written in other words than the question can still be found. Agents should pass two or three: the question in the words the notes would use, a keyword query, and a guess at the sentence that answers it. The first line is the verdict: answered (the first note leads clearly, or several score close), weak (naming the question's words the notes lack) or none (no note holds a meaningful word); weak and none mean the notes likely do not hold the answer.`
}

func (c *FindCmd) Run(e *env) error {
	q, err := e.question(c.QuestionFlags, c.Type, c.Ranker)
	if err != nil {
		return err
	}
	q.NoWorktree, q.AsOf, q.Cards, q.Explain = c.NoWorktree, c.AsOf, c.Cards || e.cli.JSON, c.Explain
	if err := q.Check(); err != nil {
		return err
	}
	return e.withStore(func(s *store.Store) error {
		ans, err := s.Ask(q)
		if err != nil {
			return err
		}
		return e.printAnswer(ans, c.Cards)
	})
}

// printAnswer prints an answer as JSON (--json), cards or a tree.
func (e *env) printAnswer(ans store.Answer, cards bool) error {
	var err error
	switch {
	case e.cli.JSON:
		err = reply.JSON(e.stdout, ans.JSON())
	case cards:
		_, err = io.WriteString(e.stdout, ans.Cards())
	default:
		_, err = io.WriteString(e.stdout, ans.Tree())
	}
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
	return strings.TrimSpace(q), nil
}
