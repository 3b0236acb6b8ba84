// Holding git's index lock for the whole of a change that stages.

package journal

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/omh-notes/omh/vault/gitcli"
)

// A change that stages anything takes git's index lock (index.lock beside
// the index, created exclusively, as git takes it) before it looks at its
// first file, and lets it go once the index is written: a git commit -a
// running meanwhile then sees the working tree and the index either as
// they were or as the change leaves them, never a note renamed on disk
// but not yet in the index (it committed the deletion and the rewritten
// links without the new file). Git refuses to take a lock another process
// holds, so the change stages through a copy of the index (GIT_INDEX_FILE)
// and renames the copy over the index, as git renames its lock.
//
// The lock is recorded in the journal's folder (lockRecord) before it is
// taken, with a token the lock file holds: a process finishing a change a
// dead one left can tell the dead one's lock from a git command's, and
// the next command lets go of one a process killed before its manifest
// left behind.

// lockRecord is the journal's file naming the index lock a change holds.
const lockRecord = "index-lock"

// indexLockWait is how long a change waits for a git command holding the
// index lock before it gives up, unless Options say otherwise: a commit
// takes moments, but one waiting for its message in an editor holds the
// lock until the editor closes.
const indexLockWait = 2 * time.Second

// indexLock is git's index lock as a change holds it.
type indexLock struct {
	Lock  string `json:"lock"` // the lock file; relative to the common git directory when recorded
	Token string `json:"token"`
}

// IndexLockedError is git's index lock held by another process: the
// change was not made.
type IndexLockedError struct {
	Lock string // the lock file
}

func (e *IndexLockedError) Error() string {
	return fmt.Sprintf("git's index is locked: %s exists, another git process (a commit?) is changing the index", e.Lock)
}

// errNeedsLock is a change whose files are changed and whose git steps
// wait for git's index lock: it is finished later, not undone.
var errNeedsLock = errors.New("finishing the change needs git's index lock")

// marker is what the lock file holds while a change holds it, so that a
// person who finds it knows whose it is.
func (l indexLock) marker() string { return "omh journal " + l.Token + "\n" }

// index is the index file the lock guards.
func (l indexLock) index() string { return strings.TrimSuffix(l.Lock, ".lock") }

// copyPath is the copy of the index the change stages through, beside the
// index so that renaming it over the index is one step.
func (l indexLock) copyPath() string { return l.index() + ".omh" }

// lockIndex takes git's index lock for the working tree root, waiting up
// to wait for a git command that holds it.
func lockIndex(dir, root string, wait time.Duration) error {
	index, err := gitcli.IndexFile(root)
	if err != nil {
		return gitError{err}
	}
	var token [8]byte
	rand.Read(token[:])
	l := indexLock{Lock: index + ".lock", Token: hex.EncodeToString(token[:])}
	if err := writeRecord(dir, l); err != nil {
		return err
	}
	// The lock appears holding its marker, linked from a file written
	// first: a process killed while taking it never leaves an empty lock
	// that no one would know to be omh's.
	marked := filepath.Join(dir, lockRecord+".new")
	if err := writeNew(marked, []byte(l.marker()), 0o644, false); err != nil {
		return fmt.Errorf("writing the journal: %w", err)
	}
	defer os.Remove(marked)
	for deadline := time.Now().Add(wait); ; {
		err := os.Link(marked, l.Lock)
		if err != nil && !errors.Is(err, fs.ErrExist) {
			err = createMarked(l) // a file system without links, or the index on another one
		}
		if err == nil {
			return nil
		}
		if !errors.Is(err, fs.ErrExist) || time.Now().After(deadline) {
			os.Remove(filepath.Join(dir, lockRecord))
			if errors.Is(err, fs.ErrExist) {
				return &IndexLockedError{Lock: l.Lock}
			}
			// Where omh cannot take the lock, git could not stage either.
			return gitError{fmt.Errorf("taking git's index lock: %w", err)}
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// createMarked creates the lock file exclusively, then writes its marker.
func createMarked(l indexLock) error {
	f, err := os.OpenFile(l.Lock, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return err
	}
	_, err = f.WriteString(l.marker())
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(l.Lock)
	}
	return err
}

func writeRecord(dir string, l indexLock) error {
	if rel, err := filepath.Rel(filepath.Dir(dir), l.Lock); err == nil {
		l.Lock = filepath.ToSlash(rel)
	}
	b, err := json.Marshal(l)
	if err != nil {
		return err
	}
	if err := writeNew(filepath.Join(dir, lockRecord), b, 0o644, false); err != nil {
		return fmt.Errorf("writing the journal: %w", err)
	}
	return nil
}

// heldIndex is the index lock recorded in the journal dir, and whether
// it is still held: its file holds the record's token.
func heldIndex(dir string) (indexLock, bool) {
	var l indexLock
	b, err := os.ReadFile(filepath.Join(dir, lockRecord))
	if err != nil || json.Unmarshal(b, &l) != nil || l.Lock == "" {
		return indexLock{}, false
	}
	if !filepath.IsAbs(l.Lock) {
		l.Lock = filepath.Join(filepath.Dir(dir), filepath.FromSlash(l.Lock))
	}
	held, err := os.ReadFile(l.Lock)
	return l, err == nil && string(held) == l.marker()
}

// releaseIndex lets go of the index lock recorded in the journal dir, if
// it is still held, and forgets it. A lock file that holds anything else
// is another process's, and is left alone.
func releaseIndex(dir string) {
	l, held := heldIndex(dir)
	if held {
		os.Remove(l.copyPath())
		os.Remove(l.Lock)
	}
	os.Remove(filepath.Join(dir, lockRecord))
}

// stageIndex makes m's git steps while holding the index lock, taking it
// first when no process holds it for the change (finishing a change a dead
// process left after it let go): each step is made on a fresh copy of the
// index, and the copy renamed over the index once all are made. The index
// itself cannot change while the lock is held, so making the steps again
// from a fresh copy is the same as once.
func stageIndex(dir string, m manifest, add []string, recovering bool, wait time.Duration) (staged, error) {
	var done staged
	l, held := heldIndex(dir)
	if !held {
		if err := lockIndex(dir, m.Root, wait); err != nil {
			return done, fmt.Errorf("%w: %v", errNeedsLock, err)
		}
		l, _ = heldIndex(dir)
	}
	copied := l.copyPath()
	if recovering {
		waitCopyLock(copied)
	}
	if err := copyIndex(l.index(), copied); err != nil {
		return done, err
	}
	if m.Index != "" {
		crash.Step()
		if _, err := gitcli.GitIndex(m.Root, copied, m.Index, "update-index", "-z", "--index-info"); err != nil {
			return done, gitError{err}
		}
		done.index = true
	}
	if len(add) > 0 {
		crash.Step()
		if _, err := gitcli.GitIndex(m.Root, copied, "", append([]string{"add", "--"}, add...)...); err != nil {
			return done, gitError{err}
		}
		done.add = true
	}
	crash.Step()
	if err := os.Rename(copied, l.index()); err != nil {
		return done, fmt.Errorf("writing git's index: %w", err)
	}
	return done, nil
}

// waitCopyLock waits for a git command a killed omh started on the copy of
// the index (it runs on, holding the copy's lock), so that it cannot write
// the copy once this process has made its own. A lock that outlives the
// wait is a dead command's: only omh's git commands use the copy, and this
// process holds both the journal and git's index lock.
func waitCopyLock(copied string) {
	lock := copied + ".lock"
	for deadline := time.Now().Add(5 * time.Second); exists(lock) && time.Now().Before(deadline); {
		time.Sleep(50 * time.Millisecond)
	}
	os.Remove(lock)
}

// copyIndex copies git's index to the file the steps are made on (a new
// repository has none yet: git makes one).
func copyIndex(index, copied string) error {
	b, err := os.ReadFile(index)
	if errors.Is(err, fs.ErrNotExist) {
		os.Remove(copied)
		return nil
	}
	if err != nil {
		return fmt.Errorf("reading git's index: %w", err)
	}
	mode := fs.FileMode(0o644)
	if fi, err := os.Stat(index); err == nil {
		mode = fi.Mode().Perm()
	}
	if err := writeNew(copied, b, mode, false); err != nil {
		return fmt.Errorf("copying git's index: %w", err)
	}
	return nil
}
