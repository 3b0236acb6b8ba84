package store

import (
	"path/filepath"

	"github.com/omh-notes/omh/index"
	"github.com/omh-notes/omh/reply"
)

// Status is what the cache holds and whether it is current.
type Status struct {
	SchemaVersion int `json:"schema_version"`

	Indexed     *string    `json:"indexed"` // commit the snapshot holds; null with no snapshot or no commits
	Head        *string    `json:"head"`    // HEAD's commit; null before the first commit
	Fresh       bool       `json:"fresh"`   // the snapshot equals the store on disk
	Notes       NoteCounts `json:"notes"`
	Uncommitted []string   `json:"uncommitted"` // keys of working copies that differ from HEAD
	Deleted     []string   `json:"deleted"`     // keys of committed notes the working tree lacks (deleted or moved, not committed)
	Skipped     []string   `json:"skipped"`     // notes left out: their content could not be read
	Parsed      int        `json:"parsed"`      // blobs the last refresh parsed
	NotesRoot   string     `json:"notes_root"`
	PrivateDir  string     `json:"private_dir"`
	Shallow     bool       `json:"shallow"`
	Cache       CacheFile  `json:"cache"`
}

// NoteCounts are the notes of each layer.
type NoteCounts struct {
	Team  int `json:"team"`
	Local int `json:"local"`
}

// CacheFile is the cache's file and its size in bytes.
type CacheFile struct {
	Path string `json:"path"`
	Size int64  `json:"size"`
}

// Indexed is what omh index brought the cache to: the status, printed as
// one line.
type Indexed struct{ Status }

// Status says what the cache holds and whether it is up to date, without
// changing anything.
func (s *Store) Status() (Status, error) {
	c, err := s.openCache()
	if index.CannotSave(err) {
		c, err = s.inMemory(nil, err)
	}
	if err != nil {
		return Status{}, err
	}
	st, err := s.status(c)
	if index.CannotSave(err) && !c.Unsaved() && !c.Unusable() {
		if c, err = s.inMemory(c, err); err != nil {
			return Status{}, err
		}
		st, err = s.status(c)
	}
	return st, classify(err)
}

// Index brings the cache up to date, waiting for any refresh in progress
// (a hook's background refresh included), and says what it holds. With
// rebuild the cache is thrown away and built again from the notes.
func (s *Store) Index(rebuild bool) (Indexed, error) {
	opt := index.Options{Progress: s.opt.Progress, Waiting: s.sayWaiting}
	if !rebuild {
		err := s.readCache("", opt, false, func(*view) error { return nil })
		if err != nil {
			return Indexed{}, err
		}
		st, err := s.status(s.cache)
		return Indexed{st}, err
	}
	c, err := s.openCache()
	if err != nil {
		return Indexed{}, err
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
		return Indexed{}, err
	}
	for _, w := range rep.Warnings {
		s.warn("%s", w)
	}
	st, err := s.status(c)
	return Indexed{st}, err
}

// status is what c holds, stamped with the output contract's version.
func (s *Store) status(c *index.Cache) (Status, error) {
	size := c.Size()
	st, err := c.Status(s.Repo)
	return Status{SchemaVersion: reply.SchemaVersion, Indexed: orNull(st.Indexed), Head: orNull(st.Head), Fresh: st.Fresh,
		Notes: NoteCounts{Team: st.Team, Local: st.Local}, Uncommitted: orEmpty(st.Uncommitted), Deleted: orEmpty(st.Deleted), Skipped: orEmpty(st.Skipped),
		Parsed: st.Parsed, NotesRoot: st.NotesRoot, PrivateDir: st.PrivateDir, Shallow: st.Shallow,
		Cache: CacheFile{Path: c.Path, Size: size}}, err
}

// orEmpty is a list as replies give it: [] rather than null.
func orEmpty(list []string) []string {
	if list == nil {
		return []string{}
	}
	return list
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
