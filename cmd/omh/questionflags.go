package main

import "github.com/omh-notes/omh/store"

// ReplyShape is the size of an answer, the same flags wherever omh answers
// questions (find, proof find, eval), so their defaults and meaning cannot
// drift apart.
type ReplyShape struct {
	Roots    int `name:"roots" default:"${roots}" placeholder:"N" help:"How many ranked notes (records, for proof find) a reply prints (default ${default}); the rest are counted."`
	MaxChars int `name:"max-chars" default:"${max_chars}" placeholder:"N" help:"Size in characters a cards or JSON reply aims at (default ${default}); passages that do not fit are counted."`
}

// QuestionFlags are a question and what shapes its answer, shared by find
// and proof find.
type QuestionFlags struct {
	Question []string    `arg:"" name:"question" help:"The question, in one or more words (no quotes needed); - reads it from standard input."`
	Also     []string    `name:"also" sep:"none" placeholder:"Q" help:"Another phrasing of the question (repeatable): a rewording in the words the notes likely use, a short keyword query, or a guess at the answer's sentence. Each adds to the question's own score, which counts most."`
	Layer    string      `name:"layer" enum:"team,local," default:"" placeholder:"team|local" help:"Only notes of this layer (default both; a team-only answer is safe to paste into a pull request)."`
	Reply    ReplyShape  `embed:""`
	Filter   FilterFlags `embed:""`
}

// FilterFlags narrow which notes an answer ranks, as --type does; the
// notes linked under them are shown wherever they are, and rarity stays
// the whole store's.
type FilterFlags struct {
	Tag   []string `name:"tag" sep:"none" placeholder:"T" help:"Only ranked notes tagged T or a tag nested under it (T/x; Dendron's T.x), in any letter case: frontmatter tags, #tags, Logseq's tags::. Repeated: tagged with every one."`
	Path  string   `name:"path" placeholder:"FOLDER" help:"Only ranked notes whose key is FOLDER or lies under it (a folder under the notes root; a Dendron hierarchy)."`
	Since string   `name:"since" placeholder:"DATE|COMMIT" help:"Only ranked notes added or changed since a date (YYYY-MM-DD: on it or later) or a commit, by git's history; uncommitted edits and private notes modified since count too."`
}

// filter is the store's reading of the flags.
func (f FilterFlags) filter() store.Filter {
	return store.Filter{Tags: f.Tag, Path: f.Path, Since: f.Since}
}

// question reads the question (from standard input for "-") and checks
// its flags into the store's terms.
func (e *env) question(f QuestionFlags, typ, rankerName string) (store.Question, error) {
	text, err := readQuestion(f.Question, e.stdin)
	if err != nil {
		return store.Question{}, err
	}
	q, err := store.NewQuestion(store.QuestionArgs{Text: text, Also: f.Also, Roots: f.Reply.Roots, Layer: f.Layer, Type: typ, Ranker: rankerName,
		MaxChars: f.Reply.MaxChars})
	q.Filter = f.Filter.filter()
	return q, err
}
