package journal

import (
	"crypto/sha1"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/omh-notes/omh/vault/disk"
)

// state is where one op stands.
type state int

const (
	stateBefore state = iota // not done yet
	stateAfter               // done
	stateOther               // neither: something else changed the path
)

// contentID is the blob id of what path holds: "" for nothing, "?" for
// something that is not a regular file or cannot be read.
func contentID(path string) string {
	fi, err := os.Lstat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return ""
	}
	if err != nil || !fi.Mode().IsRegular() {
		return "?"
	}
	id, err := hashFile(path)
	if err != nil {
		return "?"
	}
	return id.String()
}

// hashFile is the git blob id of a file, read a piece at a time.
func hashFile(path string) (plumbing.Hash, error) {
	f, err := os.Open(path)
	if err != nil {
		return plumbing.ZeroHash, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return plumbing.ZeroHash, err
	}
	h := sha1.New()
	fmt.Fprintf(h, "blob %d\x00", fi.Size())
	if n, err := io.Copy(h, f); err != nil || n != fi.Size() {
		return plumbing.ZeroHash, fmt.Errorf("%s changed while it was read", path)
	}
	var id plumbing.Hash
	copy(id[:], h.Sum(nil))
	return id, nil
}

func exists(path string) bool {
	_, err := os.Lstat(path)
	return err == nil
}

func (o op) state(dir string) state {
	switch o.Kind {
	case opPut:
		switch now := contentID(o.Path); {
		case now == o.After:
			return stateAfter
		case now == o.Before && exists(filepath.Join(dir, o.Payload)):
			return stateBefore
		}
	case opRemove:
		switch now := contentID(o.Path); {
		case now == "":
			return stateAfter
		case now == o.Before:
			return stateBefore
		}
	case opMove:
		from, errFrom := os.Lstat(o.From)
		to, errTo := os.Lstat(o.Path)
		switch {
		case errFrom == nil && (errTo != nil || os.SameFile(from, to)): // linked in place, not yet removed
			return stateBefore
		case errFrom != nil && errTo == nil:
			return stateAfter
		}
	case opMkdir:
		fi, err := os.Lstat(o.Path)
		switch {
		case err == nil && fi.IsDir():
			return stateAfter
		case errors.Is(err, fs.ErrNotExist):
			return stateBefore
		}
	case opRmdir:
		entries, err := os.ReadDir(o.Path)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			return stateAfter
		case err == nil && len(entries) == 0:
			return stateBefore
		}
	}
	return stateOther
}

// apply makes the op's change unless it is made already. done is false when
// the path holds something else than either side of the change.
func (o op) apply(dir string) (done bool, err error) {
	if o.Kind == opPut && o.Payload != "" {
		defer os.Remove(o.tempPath())
	}
	switch o.state(dir) {
	case stateAfter:
		if o.Payload != "" {
			os.Remove(filepath.Join(dir, o.Payload))
		}
		if o.Prune != "" { // the process that removed the file may have died before this
			disk.RemoveEmptyParents(filepath.Dir(o.vacated()), o.Prune)
		}
		return true, nil
	case stateOther:
		return false, nil
	}
	switch o.Kind {
	case opPut:
		err = o.put(filepath.Join(dir, o.Payload))
	case opRemove:
		if err = os.Remove(o.Path); err == nil {
			if o.Prune != "" {
				disk.RemoveEmptyParents(filepath.Dir(o.Path), o.Prune)
			}
		}
	case opMove:
		err = o.move()
	case opMkdir:
		err = os.MkdirAll(o.Path, 0o755)
	case opRmdir:
		err = os.Remove(o.Path)
	}
	if errors.Is(err, fs.ErrExist) {
		return false, nil // taken meanwhile
	}
	return err == nil, err
}

// vacated is the file an op takes away: the one removed, or moved from.
func (o op) vacated() string {
	if o.Kind == opMove {
		return o.From
	}
	return o.Path
}

// move links the file in place under its new name, so an existing file is
// never replaced, then removes the old name and the folders that leaves
// empty up to Prune. Finishing it again after a crash between the two finds
// both names on one file and removes the old one. A symbolic link (which
// some systems' link follows), or a file system that cannot link, is
// renamed once the new name is seen to be free.
func (o op) move() error {
	if _, err := disk.MakeDirs(filepath.Dir(o.Path)); err != nil {
		return err
	}
	if fi, err := os.Lstat(o.From); err == nil && !fi.Mode().IsRegular() && !exists(o.Path) {
		return o.renamed(os.Rename(o.From, o.Path))
	}
	if !exists(o.Path) {
		err := os.Link(o.From, o.Path)
		if errors.Is(err, fs.ErrExist) {
			return err
		}
		if err != nil {
			if exists(o.Path) {
				return fs.ErrExist
			}
			return o.renamed(os.Rename(o.From, o.Path))
		}
		crash.Step() // both names on the file
	}
	return o.renamed(os.Remove(o.From))
}

// renamed finishes a move once the file has its new name alone (err nil).
func (o op) renamed(err error) error {
	if err != nil {
		return err
	}
	if err := disk.SyncDir(filepath.Dir(o.Path)); err != nil {
		return notDurable(err)
	}
	if o.Prune != "" {
		disk.RemoveEmptyParents(filepath.Dir(o.From), o.Prune)
	}
	return nil
}

// put moves the payload into place: linked when the path must be new, so an
// existing file is never replaced, renamed over the old file otherwise. A
// file system that cannot link, or a path on another device than the
// journal, gets a copy written beside it under tempPath, then linked or
// renamed into place.
func (o op) put(payload string) error {
	if _, err := disk.MakeDirs(filepath.Dir(o.Path)); err != nil {
		return err
	}
	var err error
	if o.Before == "" {
		if err = os.Link(payload, o.Path); err == nil {
			os.Remove(payload)
		}
	} else {
		err = os.Rename(payload, o.Path)
	}
	if err == nil || errors.Is(err, fs.ErrExist) {
		return err
	}
	content, err := os.ReadFile(payload)
	if err != nil {
		return fmt.Errorf("reading the journal's copy of %s: %w", o.Path, err)
	}
	tmp := o.tempPath()
	os.Remove(tmp) // one a killed process left
	if err := writeNew(tmp, content, o.Mode, true); err != nil {
		return fmt.Errorf("writing %s: %w", o.Path, err)
	}
	if o.Before == "" {
		err = os.Link(tmp, o.Path)
	} else {
		err = os.Rename(tmp, o.Path)
	}
	crash.Step() // a new note linked in place, its temporary file not yet removed
	os.Remove(tmp)
	if err != nil {
		return err
	}
	// The payload is the only other copy: it goes once the disk keeps
	// the file in place.
	if err := disk.SyncDir(filepath.Dir(o.Path)); err != nil {
		return notDurable(err)
	}
	os.Remove(payload)
	return nil
}

// tempPath is the file beside a put's path that holds its content on the
// way in when the payload cannot be moved there (another device). Its name
// follows from the manifest (omh's pattern, .NAME.md.payload-N.tmp), so
// finishing the change removes one a killed process left, and nothing
// else: git add -A never finds one to commit.
func (o op) tempPath() string {
	return filepath.Join(filepath.Dir(o.Path), "."+filepath.Base(o.Path)+"."+o.Payload+".tmp")
}

// writeNew writes a new file, synced to disk when sync says so (else a
// flush covers it later).
func writeNew(path string, content []byte, mode fs.FileMode, sync bool) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600)
	if err != nil {
		return err
	}
	_, err = f.Write(content)
	if err == nil {
		err = f.Chmod(mode) // whatever the umask
	}
	if err == nil && sync {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(path)
	}
	return err
}

var errBusy = errors.New("another omh process is changing the store")

// busyGrace is how long a lock taken without waiting is tried again
// before it is called busy.
const busyGrace = 100 * time.Millisecond

// lockDir takes the journal's lock, held until the process closes the file
// or exits, however it exits.
func lockDir(dir string, wait bool) (*os.File, error) {
	f, err := os.OpenFile(filepath.Join(dir, "lock"), os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, fmt.Errorf("opening the journal's lock: %w", err)
	}
	err = disk.LockFile(f, true, wait)
	// A lock just let go can still be held for a moment by a child this
	// process is starting (between fork and exec it holds every open file,
	// the lock's too), so "busy" is said only after a short retry: a test
	// that let the lock go and recovered at once found it busy and left a
	// dead change's files in place.
	for deadline := time.Now().Add(busyGrace); errors.Is(err, disk.ErrLocked) && time.Now().Before(deadline); {
		time.Sleep(5 * time.Millisecond)
		err = disk.LockFile(f, true, false)
	}
	if errors.Is(err, disk.ErrLocked) {
		f.Close()
		return nil, errBusy
	}
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("locking the journal: %w", err)
	}
	return f, nil
}
