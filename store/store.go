// Package store is omh's application layer. It opens a store (a git
// repository of notes, its configuration and its cache) and offers what
// omh does with one as methods: ask a question, show a note, list its
// links, lint, write a new note, promote, move, retract, keep the hooks,
// measure answers. Every front end (the command line, the MCP server, the
// tests) calls these methods; none opens a cache or assembles an answer of
// its own. A method returns a value the front end renders (a tree, cards,
// JSON) or an *Error the front end turns into an exit status.
//
// A Store may serve many calls: each read brings the cache up to date
// first, which costs one ref read and a stat per note when nothing changed.
package store

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/omh-notes/omh/index"
	"github.com/omh-notes/omh/internal/procs"
	"github.com/omh-notes/omh/reply"
	"github.com/omh-notes/omh/retrieve"
	"github.com/omh-notes/omh/vault"
	"github.com/omh-notes/omh/vault/gitrepo"
	"github.com/omh-notes/omh/vault/localscan"
)

// Options are what a front end hands a store: where notes for people go,
// and how long work is shown.
type Options struct {
	// Warn hears notes for people, one sentence each: a file skipped, a
	// cache rebuilt, another process refreshing. nil drops them.
	Warn func(msg string)
	// Progress hears how many changed notes a long refresh has read of how
	// many, and whether it is the store's first build. nil shows nothing.
	Progress func(done, total int, first bool)
	// Background starts omh detached from this process with these
	// arguments (a hook's long refresh). nil starts this executable.
	Background func(args ...string) error
	// Watch is for a store that serves many reads (a server): it watches
	// the working tree, so each read stats only the files that changed
	// since the last instead of every note, with the same answers.
	Watch bool
}

// Store is an opened store. Close it when done.
type Store struct {
	Repo  *gitrepo.Repo
	dir   string // the folder it was opened from, as given
	opt   Options
	cache *index.Cache // opened on first use
	// configChecked: the config was there, or what a missing one would
	// say was detected (Repo.Detected).
	configChecked bool
	watcher       gitrepo.Watcher // with Options.Watch, where the platform has one
}

// lockWait is how long a command waits for another process's refresh
// before answering from the last snapshot.
const lockWait = 2 * time.Second

// HoldOneProcessor runs this process on one processor until a step with
// work to spread over the cores asks for them (see internal/procs): for a
// command, whose answer takes milliseconds, not for a server or a test.
func HoldOneProcessor() { procs.HoldOne() }

// Open opens the store whose working tree holds dir ("" is the current
// folder). The cache is opened when first needed.
func Open(dir string, opt Options) (*Store, error) {
	if dir == "" {
		dir = "."
	}
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		what := "does not exist"
		if err == nil {
			what = "is a file, not a folder"
		}
		return nil, refuse(reply.NoSuchFolder, fmt.Errorf("the folder %s %s", dir, what))
	}
	r, err := gitrepo.Open(dir)
	if err != nil {
		return nil, classifyOpen(dir, err)
	}
	s := &Store{Repo: r, dir: dir, opt: opt}
	if opt.Watch {
		s.watcher = localscan.Watch(r)
	}
	s.finishInterrupted()
	return s, nil
}

// classifyOpen gives a failure to open the repository at dir its kind.
func classifyOpen(dir string, err error) error {
	switch {
	case errors.Is(err, gitrepo.ErrNotRepository):
		return refuse(reply.NotARepository, fmt.Errorf("%s: %w", dir, err))
	case errors.Is(err, gitrepo.ErrNoWorktree):
		return refuse(reply.NoWorktree, err)
	}
	return err
}

// Close releases the cache and the repository.
func (s *Store) Close() error {
	if s.watcher != nil {
		s.watcher.Close()
	}
	if s.cache != nil {
		s.cache.Close()
	}
	return s.Repo.Close()
}

func (s *Store) warn(format string, args ...any) {
	if s.opt.Warn != nil {
		s.opt.Warn(fmt.Sprintf(format, args...))
	}
}

// config reads the repository's config, detecting one first when there is
// none (ensureConfig).
func (s *Store) config() (vault.Config, error) {
	s.ensureConfig()
	cfg, err := s.Repo.LoadConfig()
	return cfg, classify(err)
}

// openCache opens the cache, once.
func (s *Store) openCache() (*index.Cache, error) {
	if s.cache != nil {
		return s.cache, nil
	}
	c, err := index.OpenRepo(s.Repo)
	if errors.Is(err, index.ErrNoCachePlace) {
		return nil, &Error{Kind: Broken, Code: reply.NoCachePlace, Err: err}
	}
	if err != nil {
		return nil, err
	}
	for _, n := range c.Notices {
		s.warn("%s", n)
	}
	s.cache = c
	// Whatever the cache is opened for (a status, a rebuild, a hook's
	// refresh), the notes are read by the config a missing one would
	// hold, or the cache's snapshot would not match the answers' reading.
	s.ensureConfig()
	return c, nil
}

// inMemory moves the store to a copy of the cache c in memory (an empty
// one when c is nil), saying once why: the disk would not take the
// cache's writes (cause). Answers are the same; what the copy learns is
// not saved, so the next command looks again.
func (s *Store) inMemory(c *index.Cache, cause error) (*index.Cache, error) {
	s.warn("the cache cannot be saved (%v); answering without saving it", cause)
	var err error
	if c != nil {
		c, err = c.ToMemory()
	} else {
		c, err = index.OpenInMemory(filepath.Join(s.Repo.CommonDir, "omh"))
	}
	s.cache = c
	if err != nil {
		return nil, fmt.Errorf("opening a copy of the cache in memory after %v: %w", cause, err)
	}
	return c, nil
}

// view is the store as one answer reads it: a snapshot, consistent however
// many refreshes commit meanwhile, of now or of a past moment.
type view struct {
	snap   *index.Snapshot
	moment *index.Moment // nil for now
}

// asOf is the day asked for with --as-of; "" for now.
func (v *view) asOf() vault.Date {
	if v.moment == nil {
		return ""
	}
	return v.moment.Day
}

// readOptions are what a read asks of the refresh before it.
func (s *Store) readOptions(noWorktree bool) index.Options {
	return index.Options{NoWorktree: noWorktree, LockWait: lockWait, Progress: s.opt.Progress, Waiting: s.sayWaiting}
}

// sayWaiting tells why a command is blocked on another process.
func (s *Store) sayWaiting(why string) {
	s.warn("%s", why)
}

// read brings the cache up to date (or, with asOf, opens the snapshot of
// the store as it stood then) and runs fn on it. A cache found damaged,
// while refreshing or while answering, is replaced by a new one built from
// the files and fn runs again: one line for people, and the same answer a
// healthy cache gives.
func (s *Store) read(asOf string, opt index.Options, fn func(*view) error) error {
	return s.readCache(asOf, opt, true, fn)
}

// readCache is read; unsaved says that when the disk will not take the
// cache's writes, the answer may come from a copy in memory (see
// index.CannotSave), as it does for every command that only reads.
func (s *Store) readCache(asOf string, opt index.Options, unsaved bool, fn func(*view) error) error {
	s.ensureConfig()
	var m *index.Moment
	if asOf != "" {
		moment, err := s.momentOf(asOf)
		if err != nil {
			return err
		}
		m = &moment
	}
	c, err := s.openCache()
	if unsaved && index.CannotSave(err) {
		c, err = s.inMemory(nil, err)
	}
	if err != nil {
		return err
	}
	for attempt := 0; ; attempt++ {
		err := s.answer(c, m, opt, fn)
		if unsaved && index.CannotSave(err) && !c.Unsaved() && !c.Unusable() {
			if c, err = s.inMemory(c, err); err != nil {
				return err
			}
			attempt--
			continue
		}
		if err == nil || attempt > 0 || !(index.IsDamaged(err) || c.Unusable()) {
			return classify(err)
		}
		s.warn("the cache %s was damaged (%v); rebuilding it from the notes", c.Path, err)
		c, err = c.Replace()
		s.cache = c // the old one is closed either way
		if err != nil {
			return err
		}
	}
}

func (s *Store) answer(c *index.Cache, m *index.Moment, opt index.Options, fn func(*view) error) error {
	var snap *index.Snapshot
	var rep index.Report
	var err error
	if m != nil {
		snap, rep, err = c.AsOf(s.Repo, *m, opt)
	} else {
		snap, rep, err = c.Fresh(s.Repo, opt)
	}
	if err != nil {
		return err
	}
	for _, w := range rep.Warnings {
		s.warn("%s", w)
	}
	defer snap.Close()
	if rep.Stale {
		s.warn("another omh process is updating the cache; answering from the snapshot at %s", retrieve.CommitLabel(snap.Commit()))
	}
	return fn(&view{snap: snap, moment: m})
}

// momentOf reads --as-of: a date (the last commit of HEAD's first-parent
// history made on or before it) or a commit (a full or abbreviated id, a
// branch or a tag; its day is the day it was committed).
func (s *Store) momentOf(spec string) (index.Moment, error) {
	r := s.Repo
	if day := vault.Date(spec); day.Valid() {
		head, err := r.Head()
		if err != nil {
			return index.Moment{}, err
		}
		if head.IsZero() {
			return index.Moment{Day: day}, gitrepo.ErrBeforeHistory
		}
		commit, err := r.CommitOnDay(head, day)
		return index.Moment{Commit: commit, Day: day}, err
	}
	commit, err := r.ResolveCommit(spec)
	if err != nil {
		hint := ""
		if len(spec) > len("YYYY-MM-DD") && vault.Date(spec[:10]).Valid() {
			hint = "; for that day, give --as-of " + spec[:10]
		}
		return index.Moment{}, refuse(reply.BadAsOf, fmt.Errorf("--as-of %s: %w; it takes a date (YYYY-MM-DD) or a commit (an id, branch or tag)%s", spec, err, hint))
	}
	day, err := r.CommittedOn(commit)
	return index.Moment{Commit: commit, Day: day}, err
}

// today is the day "now" means for proof records and new notes.
func today() vault.Date { return vault.DateOf(time.Now()) }

// isFolder reports whether path is a folder (following links).
func isFolder(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && fi.IsDir()
}
