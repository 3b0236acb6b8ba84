package store

import (
	"errors"
	"fmt"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/omh-notes/omh/index"
	"github.com/omh-notes/omh/reply"
	"github.com/omh-notes/omh/vault"
	"github.com/omh-notes/omh/vault/gitrepo"
)

// Kind says how a use case failed; front ends turn it into an exit status
// or a tool error.
type Kind int

const (
	// Refused: the store is fine, but the request cannot be done as asked
	// (an unknown key, a taken key, lint errors, a refused promotion).
	Refused Kind = iota + 1
	// Invalid: the request itself is malformed (an empty question, a
	// negative budget, an unknown type).
	Invalid
	// Broken: the repository or the cache cannot be used.
	Broken
)

// Error is a use case's failure with a stable code scripts and agents may
// rely on (not_found, key_taken, bad_config, ...).
type Error struct {
	Kind Kind
	Code string
	Err  error
}

func (e *Error) Error() string { return e.Err.Error() }
func (e *Error) Unwrap() error { return e.Err }

func refuse(code string, err error) error { return &Error{Kind: Refused, Code: code, Err: err} }

// invalid is a malformed request; its code is "usage", as for a command
// line the parser refused.
func invalid(err error) error { return &Error{Kind: Invalid, Code: reply.Usage, Err: err} }

// classify gives errors from the layers below their kind and code.
func classify(err error) error {
	var se *Error
	switch {
	case err == nil || errors.As(err, &se):
		return err
	case errors.Is(err, vault.ErrBadConfig):
		return refuse(reply.BadConfig, err)
	case errors.Is(err, gitrepo.ErrBadPrivateDir):
		return refuse(reply.BadPrivateDir, err)
	case index.IsDamaged(err):
		// Only a command that changes nothing gets here: the others
		// rebuild the cache and answer.
		return &Error{Kind: Broken, Code: reply.DamagedCache, Err: fmt.Errorf("%w; omh index rebuilds it from the notes", err)}
	case errors.Is(err, plumbing.ErrObjectNotFound):
		// What a note needs is skipped note by note; this is the store
		// itself (the commit's tree) missing.
		return &Error{Kind: Broken, Code: reply.MissingObjects, Err: fmt.Errorf("%w (a partial clone leaves objects out: git fetch, or checking the commit out, brings them)", err)}
	}
	return err
}
