package main

import (
	"errors"
	"fmt"
	"time"

	"github.com/omh-notes/omh/index"
	"github.com/omh-notes/omh/retrieve"
	"github.com/omh-notes/omh/vault"
)

// store is a repository with its cache brought up to date.
type store struct {
	repo  *vault.Repo
	cache *index.Cache
	snap  *index.Snapshot
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
	r, err := e.openRepo()
	if err != nil {
		return err
	}
	defer r.Close()
	c, err := e.openCache(r)
	if err != nil {
		return err
	}
	defer func() { c.Close() }()
	for attempt := 0; ; attempt++ {
		err := e.answer(r, c, opt, fn)
		if err == nil || attempt > 0 || !index.IsDamaged(err) {
			return classify(err)
		}
		e.warn("the cache %s was damaged (%v); rebuilding it from the notes", c.Path, err)
		if c, err = c.Replace(); err != nil {
			return err
		}
	}
}

func (e *env) answer(r *vault.Repo, c *index.Cache, opt index.Options, fn func(*store) error) error {
	snap, rep, err := c.Fresh(r, opt)
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
	return fn(&store{repo: r, cache: c, snap: snap})
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
