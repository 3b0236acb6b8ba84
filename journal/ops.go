package journal

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/omh-notes/omh/vault"
	"github.com/omh-notes/omh/vault/disk"
	"github.com/omh-notes/omh/vault/gitcli"
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
	b, err := os.ReadFile(path)
	if err != nil {
		return "?"
	}
	return vault.HashBytes(b).String()
}

func exists(path string) bool {
	_, err := os.Lstat(path)
	return err == nil
}

func (o op) state(dir string) state {
	switch o.Kind {
	case "put":
		switch now := contentID(o.Path); {
		case now == o.After:
			return stateAfter
		case now == o.Before && exists(filepath.Join(dir, o.Payload)):
			return stateBefore
		}
	case "remove":
		switch now := contentID(o.Path); {
		case now == "":
			return stateAfter
		case now == o.Before:
			return stateBefore
		}
	case "move":
		switch from, to := exists(o.From), exists(o.Path); {
		case from && !to:
			return stateBefore
		case !from && to:
			return stateAfter
		}
	case "mkdir":
		fi, err := os.Lstat(o.Path)
		switch {
		case err == nil && fi.IsDir():
			return stateAfter
		case errors.Is(err, fs.ErrNotExist):
			return stateBefore
		}
	case "rmdir":
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
	if o.Kind == "put" && o.Payload != "" {
		defer os.Remove(o.tempPath())
	}
	switch o.state(dir) {
	case stateAfter:
		if o.Payload != "" {
			os.Remove(filepath.Join(dir, o.Payload))
		}
		if o.Prune != "" { // the process that removed the file may have died before this
			disk.RemoveEmptyParents(filepath.Dir(o.Path), o.Prune)
		}
		return true, nil
	case stateOther:
		return false, nil
	}
	switch o.Kind {
	case "put":
		err = o.put(filepath.Join(dir, o.Payload))
	case "remove":
		if err = os.Remove(o.Path); err == nil {
			if o.Prune != "" {
				disk.RemoveEmptyParents(filepath.Dir(o.Path), o.Prune)
			}
		}
	case "move":
		err = os.Rename(o.From, o.Path)
	case "mkdir":
		err = os.MkdirAll(o.Path, 0o755)
	case "rmdir":
		err = os.Remove(o.Path)
	}
	if errors.Is(err, fs.ErrExist) {
		return false, nil // taken meanwhile
	}
	return err == nil, err
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
	if err == nil {
		disk.SyncDir(filepath.Dir(o.Path))
		os.Remove(payload)
	}
	return err
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

// lockDir takes the journal's lock, held until the process closes the file
// or exits, however it exits.
func lockDir(dir string, wait bool) (*os.File, error) {
	f, err := os.OpenFile(filepath.Join(dir, "lock"), os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, fmt.Errorf("opening the journal's lock: %w", err)
	}
	err = disk.LockFile(f, true, wait)
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

// gitRetrying runs git, trying again for a while when another git process
// holds the index's lock: a git command omh started keeps running after omh
// is killed, and the process finishing omh's change must wait for it.
func gitRetrying(root, input string, args ...string) (string, error) {
	for attempt := 0; ; attempt++ {
		out, err := gitcli.Git(root, input, args...)
		if err == nil || attempt == 50 || !strings.Contains(err.Error(), "index.lock") {
			return out, err
		}
		time.Sleep(100 * time.Millisecond)
	}
}
