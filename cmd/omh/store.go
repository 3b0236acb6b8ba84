package main

import (
	"errors"
	"fmt"
	"time"

	"github.com/omh-notes/omh/find"
	"github.com/omh-notes/omh/index"
	"github.com/omh-notes/omh/retrieve"
	"github.com/omh-notes/omh/vault"
)

// store is a repository with its cache brought up to date.
type store struct {
	repo   *vault.Repo
	cache  *index.Cache
	snap   *index.Snapshot
	moment *index.Moment // the past moment answered for; nil for now
}

func (e *env) openRepo() (*vault.Repo, error) {
	dir := e.cli.Dir
	if dir == "" {
		dir = "."
	}
	r, err := vault.OpenRepo(dir)
	if errors.Is(err, vault.ErrNotRepository) {
		return nil, refuse("not_a_repository", fmt.Errorf("%s: %w", dir, err))
	}
	return r, err
}

func (e *env) openCache(r *vault.Repo) (*index.Cache, error) {
	c, err := index.Open(r.CommonDir)
	if errors.Is(err, index.ErrNoCachePlace) {
		return nil, &cmdError{exitInternal, "no_cache_place", err}
	}
	return c, err
}

// openCacheOf opens the repository and its cache without refreshing it.
func (e *env) openCacheOf() (*vault.Repo, *index.Cache, error) {
	r, err := e.openRepo()
	if err != nil {
		return nil, nil, err
	}
	c, err := e.openCache(r)
	if err != nil {
		r.Close()
		return nil, nil, err
	}
	return r, c, nil
}

// withStore opens the store, brings its cache up to date and runs fn. A
// cache found damaged, while refreshing or while answering, is replaced by a
// new one built from the files, and fn runs again: one line on standard
// error, and the same answer a healthy cache gives.
func (e *env) withStore(opt index.Options, fn func(*store) error) error {
	return e.withStoreAt("", opt, fn)
}

// withStoreAt is withStore for the store as it stood at a past moment
// (--as-of DATE or COMMIT); "" is now.
func (e *env) withStoreAt(asOf string, opt index.Options, fn func(*store) error) error {
	r, err := e.openRepo()
	if err != nil {
		return err
	}
	defer r.Close()
	var m *index.Moment
	if asOf != "" {
		moment, err := momentOf(r, asOf)
		if err != nil {
			return err
		}
		m = &moment
	}
	c, err := e.openCache(r)
	if err != nil {
		return err
	}
	defer func() { c.Close() }()
	for attempt := 0; ; attempt++ {
		err := e.answer(r, c, m, opt, fn)
		if err == nil || attempt > 0 || !index.IsDamaged(err) {
			return classify(err)
		}
		e.warn("the cache %s was damaged (%v); rebuilding it from the notes", c.Path, err)
		if c, err = c.Replace(); err != nil {
			return err
		}
	}
}

func (e *env) answer(r *vault.Repo, c *index.Cache, m *index.Moment, opt index.Options, fn func(*store) error) error {
	var snap *index.Snapshot
	var rep index.Report
	var err error
	if m != nil {
		snap, rep, err = c.AsOf(r, *m, opt)
	} else {
		snap, rep, err = c.Fresh(r, opt)
	}
	if err != nil {
		return err
	}
	for _, w := range rep.Warnings {
		e.warn("%s", w)
	}
	defer snap.Close()
	if rep.Stale {
		e.warn("another omh process is updating the cache; answering from the snapshot at %s", retrieve.CommitLabel(snap.Commit()))
	}
	return fn(&store{repo: r, cache: c, snap: snap, moment: m})
}

// momentOf reads --as-of: a date (the last commit of HEAD's first-parent
// history made on or before it) or a commit (a full or abbreviated id, a
// branch or a tag; its day is the day it was committed).
func momentOf(r *vault.Repo, spec string) (index.Moment, error) {
	if day := vault.Date(spec); day.Valid() {
		head, err := r.Head()
		if err != nil {
			return index.Moment{}, err
		}
		if head.IsZero() {
			return index.Moment{Day: day}, vault.ErrBeforeHistory
		}
		commit, err := r.CommitOnDay(head, day)
		return index.Moment{Commit: commit, Day: day}, err
	}
	commit, err := r.ResolveCommit(spec)
	if err != nil {
		return index.Moment{}, refuse("bad_as_of", fmt.Errorf("--as-of %s: %w", spec, err))
	}
	day, err := r.CommittedOn(commit)
	return index.Moment{Commit: commit, Day: day}, err
}

// classify gives errors from the layers below their exit status and code.
func classify(err error) error {
	var ce *cmdError
	switch {
	case err == nil || errors.As(err, &ce):
		return err
	case errors.Is(err, vault.ErrBadConfig):
		return refuse("bad_config", err)
	}
	return err
}

// lockWait is how long a command waits for another process's refresh
// before answering from the last snapshot.
const lockWait = 2 * time.Second

// proof reads proof records as they stand at the store's moment: the day
// asked for with --as-of, else today.
func (s *store) proof(mode find.Retraction) *find.Proof {
	day := s.asOf()
	if day == "" {
		day = vault.DateOf(time.Now())
	}
	return find.NewProof(s.snap, day, mode)
}

// asOf is the day asked for with --as-of; "" for now.
func (s *store) asOf() vault.Date {
	if s.moment == nil {
		return ""
	}
	return s.moment.Day
}

// withKey runs fn on the documents holding a key (of one layer, when layer
// names one) in the store as it stands now, or at asOf; an unknown key is
// refused, naming the note the key would reach as a link.
func (e *env) withKey(key, layer, asOf string, fn func(s *store, docs []uint32) error) error {
	if err := vault.CheckKey(key); err != nil {
		return refuse("bad_key", err)
	}
	var only vault.Layer
	if layer != "" {
		only, _ = vault.ParseLayer(layer)
	}
	return e.withStoreAt(asOf, index.Options{LockWait: lockWait, Progress: e.progress()}, func(s *store) error {
		docs, err := s.snap.Find(key, only)
		if err != nil {
			return err
		}
		if len(docs) == 0 {
			return refuseUnknownKey(s, key, only)
		}
		return fn(s, docs)
	})
}

// jsonReply starts a JSON reply about notes: the schema version, the commit
// (null before the first), and the list under its name.
func (s *store) jsonReply(name string, list any) map[string]any {
	reply := map[string]any{"schema_version": retrieve.SchemaVersion, "commit": nil, name: list}
	if commit := s.snap.Commit(); commit != "" {
		reply["commit"] = commit
	}
	return reply
}
