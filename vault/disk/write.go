// Package disk writes files so that a reader, git included, sees the old
// file or the new one and never part of one; refuses new names that a
// symbolic link, git's folder or a twin spelling would turn into another
// file; and takes the advisory locks omh's writers and readers share.
// Reading files safely is the note model's own (safefile.ReadInside and
// safefile.Open), since it reads its config and templates through it.
package disk

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"syscall"

	"github.com/omh-notes/omh/internal/crashpoint"
)

// The commands whose job is writing (new, mv, promote, proof retract, init,
// hooks) write every file the same way: the content goes to a temporary
// file beside the target, is synced to disk, and is renamed (or linked)
// into place, then the folder is synced. A reader, git included, sees the
// old file or the new one, never part of one.

// WriteFile replaces path with content, with mode.
func WriteFile(path string, content []byte, mode fs.FileMode) error {
	tmp, err := writeTemp(path, content, mode)
	if err == nil {
		if err = os.Rename(tmp, path); err != nil {
			os.Remove(tmp)
		}
	}
	if err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	return SyncDir(filepath.Dir(path))
}

// CreateFile writes content to path without ever replacing a file: the
// synced temporary file is linked under its name, which fails when the name
// exists (fs.ErrExist). Where the file system has no hard links, the
// temporary file is renamed instead, after a check that the name is free.
// It returns the folders it had to create, outermost first, so a caller
// undoing the write can remove them too (RemoveDirs).
func CreateFile(path string, content []byte, mode fs.FileMode) ([]string, error) {
	dir := filepath.Dir(path)
	created, err := MakeDirs(dir)
	if err != nil {
		return nil, err
	}
	tmp, err := writeTemp(path, content, mode)
	if err == nil {
		err = os.Link(tmp, path)
		if err != nil && !errors.Is(err, fs.ErrExist) {
			if _, serr := os.Lstat(path); serr == nil {
				err = fs.ErrExist
			} else {
				err = os.Rename(tmp, path)
			}
		}
		os.Remove(tmp)
	}
	if err != nil {
		RemoveDirs(created)
		if errors.Is(err, fs.ErrExist) {
			return nil, fmt.Errorf("%s: %w", path, fs.ErrExist)
		}
		return nil, fmt.Errorf("writing %s: %w", path, err)
	}
	return created, SyncDir(dir)
}

// writeTemp writes content, synced to disk and with mode, to a new
// temporary file beside path, and returns its name; on failure nothing is
// left behind.
func writeTemp(path string, content []byte, mode fs.FileMode) (string, error) {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return "", err
	}
	_, err = tmp.Write(content)
	if err == nil {
		err = tmp.Chmod(mode) // whatever the umask
	}
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(tmp.Name())
		return "", err
	}
	return tmp.Name(), nil
}

// SyncDir makes a folder's new entries durable, and says when it could
// not: a caller that goes on as if they were (removing the only other copy,
// reporting a change made) may lose them in a crash. Where the system has
// no way to sync a folder (Windows; a file system answering EINVAL) there
// is nothing more to do.
func SyncDir(dir string) error {
	if runtime.GOOS == "windows" {
		return nil
	}
	f, err := os.Open(dir)
	if err == nil {
		if err = syncFault.Fail(); err == nil {
			err = f.Sync()
		}
		f.Close()
	}
	if err != nil && !errors.Is(err, syscall.EINVAL) {
		return fmt.Errorf("syncing the folder %s: %w", dir, err)
	}
	return nil
}

// SyncFaultEnv names the environment variable that makes the k-th
// SyncDir of a process fail with EIO, as a failing disk would: how the
// tests see what each caller does with the error. Only a build that turns
// the switches on reads it (see package crashpoint).
const SyncFaultEnv = "OMH_FAIL_FOLDER_SYNC"

var syncFault = crashpoint.NewFault(SyncFaultEnv)

// MakeDirs creates dir and its missing parents, returning those it
// created, outermost first.
func MakeDirs(dir string) ([]string, error) {
	var missing []string
	for d := dir; ; d = filepath.Dir(d) {
		if _, err := os.Lstat(d); err == nil {
			break
		}
		missing = append(missing, d)
		if filepath.Dir(d) == d {
			break
		}
	}
	slices.Reverse(missing)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("creating %s: %w", dir, err)
	}
	return missing, nil
}

// RemoveDirs removes folders CreateFile created, innermost first, as long
// as they are empty.
func RemoveDirs(dirs []string) {
	for i := len(dirs) - 1; i >= 0; i-- {
		os.Remove(dirs[i])
	}
}

// RemoveEmptyParents removes dir and its parents while they are empty,
// stopping at top, which is kept.
func RemoveEmptyParents(dir, top string) {
	top = filepath.Clean(top)
	for d := filepath.Clean(dir); d != top && strings.HasPrefix(d, top+string(filepath.Separator)); d = filepath.Dir(d) {
		if os.Remove(d) != nil {
			return
		}
	}
}

// ErrLocked is a lock another process holds, asked for without waiting.
var ErrLocked = errors.New("another process holds the lock")
