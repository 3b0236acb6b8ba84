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
	Question []string   `arg:"" name:"question" help:"The question, in one or more words (no quotes needed); - reads it from standard input."`
	Also     []string   `name:"also" sep:"none" placeholder:"Q" help:"Another phrasing of the question (repeatable): a rewording in the words the notes likely use, a short keyword query, or a guess at the answer's sentence. Each adds to the question's own score, which counts most."`
	Layer    string     `name:"layer" enum:"team,local," default:"" placeholder:"team|local" help:"Only notes of this layer (default both; a team-only answer is safe to paste into a pull request)."`
	Stores   StoreFlag  `embed:""`
	Reply    ReplyShape `embed:""`
}

// StoreFlag narrows a request to some of the stores a repository answers
// with, the same flag wherever omh reads notes.
type StoreFlag struct {
	Stores []string `name:"store" sep:"none" placeholder:"NAME" help:"Only this store's notes (repeatable): a name the config's stores: list or git config omh.store.NAME gives, or . for this repository (default every store; a team-only answer leaves your own out unless named)."`
}

// question reads the question (from standard input for "-") and checks
// its flags into the store's terms.
func (e *env) question(f QuestionFlags, typ, rankerName string) (store.Question, error) {
	text, err := readQuestion(f.Question, e.stdin)
	if err != nil {
		return store.Question{}, err
	}
	q, err := store.NewQuestion(text, f.Also, f.Reply.Roots, f.Layer, typ, rankerName, f.Reply.MaxChars)
	if err != nil {
		return q, err
	}
	q.Stores, err = store.ParseStores(f.Stores.Stores)
	return q, err
}

// scope is the stores a request reads and the layer it keeps.
func (f StoreFlag) scope(layer string) (store.Scope, error) {
	l, err := store.ParseLayer(layer)
	if err != nil {
		return store.Scope{}, err
	}
	names, err := store.ParseStores(f.Stores)
	return store.Scope{Stores: names, Layer: l}, err
}
