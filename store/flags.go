package store

import (
	"errors"

	"github.com/omh-notes/omh/find"
	"github.com/omh-notes/omh/proof"
	"github.com/omh-notes/omh/reply"
	"github.com/omh-notes/omh/retrieve"
	"github.com/omh-notes/omh/vault"
)

// Defaults of a question's flags and tool arguments, from the packages
// that rank and cut the reply.
const (
	DefaultRoots    = retrieve.DefaultRoots
	DefaultMaxChars = find.DefaultMaxChars
)

// ConfigPath is where a repository's omh configuration lives.
const ConfigPath = vault.ConfigPath

// Usage is a request that cannot be run as written: a malformed flag or
// tool argument. Its code is usage, as for a command line the parser
// refused.
func Usage(err error) error { return invalid(err) }

// Code is err's stable code: internal for a failure omh did not foresee.
func Code(err error) string {
	var se *Error
	if errors.As(err, &se) {
		return se.Code
	}
	return reply.Internal
}

// QuestionArgs is a question as a front end's flags or tool arguments
// give it, unchecked.
type QuestionArgs struct {
	Text     string
	Also     []string // other phrasings of it
	Roots    int
	Layer    string // team, local, or "" for both layers
	Type     string // only ranked notes of this type; "" for any
	Ranker   string // a name omh find --ranker takes
	MaxChars int
}

// NewQuestion is the question a front end was asked, its arguments
// checked.
func NewQuestion(a QuestionArgs) (Question, error) {
	r, err := ParseRanker(a.Ranker)
	if err != nil {
		return Question{}, err
	}
	q := Question{Phrasings: append([]string{a.Text}, a.Also...), Roots: a.Roots, Type: a.Type, Ranker: r, MaxChars: a.MaxChars}
	if q.Layer, err = ParseLayer(a.Layer); err != nil {
		return q, err
	}
	return q, nil
}

// ParseLayer reads a layer flag or argument: "" is both layers.
func ParseLayer(s string) (vault.Layer, error) {
	if s == "" {
		return 0, nil
	}
	l, err := vault.ParseLayer(s)
	if err != nil {
		return 0, invalid(err)
	}
	return l, nil
}

// ParseRanker reads omh find --ranker.
func ParseRanker(s string) (retrieve.Ranker, error) {
	r, err := retrieve.ParseRanker(s)
	if err != nil {
		return r, invalid(err)
	}
	return r, nil
}

// ParseRetraction reads omh proof find --retracted: what to do with
// records withdrawn by then.
func ParseRetraction(s string) (proof.Retraction, error) {
	r, err := proof.ParseRetraction(s)
	if err != nil {
		return r, invalid(err)
	}
	return r, nil
}
