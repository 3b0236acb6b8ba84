package store

import (
	"errors"
	"fmt"
	"io/fs"

	"github.com/omh-notes/omh/journal"
	"github.com/omh-notes/omh/reply"
	"github.com/omh-notes/omh/vault/gitrepo"
)

// begin starts a change of the store, to be described and committed
// through the journal (see package journal): a crash at any point leaves
// the store as it was or as the change makes it.
func (s *Store) begin(command string) (*journal.Txn, error) {
	t, err := journal.Begin(s.Repo.CommonDir, s.Repo.Root, privateArea(s.Repo), command, func(msg string) { s.warn("%s", msg) })
	var u *journal.UnwritableError
	if errors.As(err, &u) {
		return nil, &Error{Kind: Broken, Code: reply.JournalUnwritable, Err: err}
	}
	if err != nil {
		return nil, &Error{Kind: Broken, Code: reply.Journal, Err: err}
	}
	return t, nil
}

// privateArea is where a change found in the journal may write outside the
// repository: the private area, or nowhere when the private folder's
// setting is one omh refuses (a command that writes there says why).
func privateArea(r *gitrepo.Repo) string {
	area, err := r.PrivateArea()
	if err != nil {
		return ""
	}
	return area
}

// commit makes the change t describes. A file found changed before
// anything was written is a refusal: nothing changed, and running the
// command again reads the store afresh.
func commit(t *journal.Txn, nothing string) error {
	err := t.Commit()
	switch {
	case err == nil:
		return nil
	case errors.As(err, new(*journal.IndexLockedError)):
		return refuse(reply.GitBusy, fmt.Errorf("%s: %w; run it again once that git command finishes (remove the lock file only if no git process is running)", nothing, err))
	case errors.Is(err, journal.ErrChanged), errors.Is(err, fs.ErrExist):
		return refuse(reply.Changed, fmt.Errorf("%s: %w; run it again", nothing, err))
	case journal.IsGit(err):
		return refuse(reply.GitFailed, fmt.Errorf("%s: %w", nothing, err))
	case journal.IsUndone(err):
		// Nothing is left to finish: saying omh recover would finish
		// it sends the user to a command with nothing to do.
		return &Error{Kind: Broken, Code: reply.Journal, Err: fmt.Errorf("%w; the change was undone, %s", err, nothing)}
	case t.Pending():
		return &Error{Kind: Broken, Code: reply.Journal, Err: fmt.Errorf("%w; omh recover finishes the change once the cause is fixed", err)}
	case errors.Is(err, journal.ErrNotDurable):
		return &Error{Kind: Broken, Code: reply.Journal, Err: fmt.Errorf("%w; the change was made, but a crash may lose it", err)}
	}
	// Failing before its manifest was in place (a full disk, an error
	// writing the journal), the change never began.
	return &Error{Kind: Broken, Code: reply.Journal, Err: fmt.Errorf("%w; %s", err, nothing)}
}

// finishInterrupted finishes, when opening a store, a change an earlier
// omh process left half done. A change it cannot finish is reported and
// left for omh recover; reading the store goes on.
func (s *Store) finishInterrupted() {
	if !journal.Pending(s.Repo.CommonDir) {
		return
	}
	command, err := journal.Recover(s.Repo.CommonDir, privateArea(s.Repo), false, func(msg string) { s.warn("%s", msg) })
	var u *journal.UnwritableError
	switch {
	case journal.IsUndone(err):
		s.warn("undid %s, which an earlier omh process left half done and which could not be finished (%v)", command, err)
	case errors.As(err, &u):
		s.warn("%s is left half done in omh's journal %s, which cannot be written (%v); answers read the store as it is meanwhile", u.Pending, u.Dir, u.Err)
	case errors.Is(err, journal.ErrOutOfBounds):
		s.warn("%v; answers read the store as it is meanwhile", err)
	case errors.Is(err, journal.ErrNotDurable) && !journal.Pending(s.Repo.CommonDir):
		s.warn("finished %s, which an earlier omh process left half done, but a crash may lose it: %v", command, err)
	case err != nil:
		s.warn("an interrupted change could not be finished: %v; fix the cause and run omh recover", err)
	case command != "":
		s.warn("finished %s, which an earlier omh process left half done", command)
	}
}

// Recovered is what omh recover did.
type Recovered struct {
	SchemaVersion int    `json:"schema_version"`
	Finished      string `json:"finished"` // the command finished; "" when nothing was left half done
	// Undone is the command undone instead, because finishing it failed
	// (Why says how); "" when none was.
	Undone string `json:"undone"`
	Why    string `json:"why,omitempty"`
}

// Recover finishes a change an interrupted omh process left half done in
// the store whose working tree holds dir, waiting for one another process
// is making. It opens no cache and, unlike Open, says what it finished.
func Recover(dir string, opt Options) (Recovered, error) {
	if dir == "" {
		dir = "."
	}
	r, err := gitrepo.Open(dir)
	if err != nil {
		return Recovered{}, classifyOpen(dir, err)
	}
	defer r.Close()
	s := &Store{Repo: r, dir: dir, opt: opt}
	command, err := journal.Recover(r.CommonDir, privateArea(r), true, func(msg string) { s.warn("%s", msg) })
	switch {
	case journal.IsUndone(err):
		return Recovered{SchemaVersion: reply.SchemaVersion, Undone: command, Why: err.Error()}, nil
	case errors.As(err, new(*journal.UnwritableError)):
		return Recovered{}, &Error{Kind: Broken, Code: reply.JournalUnwritable, Err: err}
	case err != nil:
		return Recovered{}, &Error{Kind: Broken, Code: reply.Journal, Err: err}
	}
	return Recovered{SchemaVersion: reply.SchemaVersion, Finished: command}, nil
}
