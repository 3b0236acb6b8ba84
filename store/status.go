package store

import (
	"path/filepath"

	"github.com/omh-notes/omh/index"
	"github.com/omh-notes/omh/store/reply"
)

// Status says what the cache holds and whether it is up to date, without
// changing anything.
func (s *Store) Status() (index.Status, error) {
	c, err := s.openCache()
	if err != nil {
		return index.Status{}, err
	}
	st, err := s.status(c)
	return st, classify(err)
}

// Index brings the cache up to date, waiting for any refresh in progress
// (a hook's background refresh included), and says what it holds. With
// rebuild the cache is thrown away and built again from the notes.
func (s *Store) Index(rebuild bool) (index.Status, error) {
	opt := index.Options{Progress: s.opt.Progress, Waiting: s.sayWaiting}
	if !rebuild {
		err := s.read("", opt, func(*view) error { return nil })
		if err != nil {
			return index.Status{}, err
		}
		return s.status(s.cache)
	}
	c, err := s.openCache()
	if err != nil {
		return index.Status{}, err
	}
	c, rep, err := c.Rebuild(s.Repo, opt)
	if index.IsDamaged(err) {
		// Damaged by another process while it was built (a file cut
		// short): once more, in a new file.
		s.warn("the cache %s was damaged while it was rebuilt (%v); building it again", c.Path, err)
		c, rep, err = c.Rebuild(s.Repo, opt)
	}
	s.cache = c
	if err != nil {
		return index.Status{}, err
	}
	for _, w := range rep.Warnings {
		s.warn("%s", w)
	}
	return s.status(c)
}

// status is what c holds, stamped with the output contract's version.
func (s *Store) status(c *index.Cache) (index.Status, error) {
	st, err := c.Status(s.Repo)
	st.SchemaVersion = reply.SchemaVersion
	return st, err
}

// Keys lists the note keys starting with prefix as the cache last saw them,
// refreshing nothing: what a shell's completion offers, at once. None
// where omh was never used.
func (s *Store) Keys(prefix string) ([]string, error) {
	if !isFolder(filepath.Join(s.Repo.CommonDir, "omh")) {
		return nil, nil // no cache, and completing a key is no reason to start one
	}
	c, err := s.openCache()
	if err != nil {
		return nil, err
	}
	keys, err := c.Keys(s.Repo, prefix)
	return keys, classify(err)
}
