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

// NewQuestion is a question asked with these flags (or tool arguments):
// layer "" is both layers, ranker a name omh find --ranker takes.
func NewQuestion(text string, also []string, roots int, layer, typ, ranker string, maxChars int) (Question, error) {
	r, err := ParseRanker(ranker)
	if err != nil {
		return Question{}, err
	}
	q := Question{Phrasings: append([]string{text}, also...), Roots: roots, Type: typ, Ranker: r, MaxChars: maxChars}
	if q.Layer, err = ParseLayer(layer); err != nil {
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
