package disk

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// CreateFile never replaces a file and says which folders it made, so an
// undo removes exactly those; WriteFile replaces. Catches: a create that
// overwrites a note written meanwhile, an undo that leaves folders behind.
func TestCreateFileNeverReplacesAndSaysWhatItMade(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	path := filepath.Join(root, "a", "b", "note.md")
	made, err := CreateFile(path, []byte("one\n"), 0o644)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{filepath.Join(root, "a"), filepath.Join(root, "a", "b")}; len(made) != 2 || made[0] != want[0] || made[1] != want[1] {
		t.Errorf("made %q, want %q", made, want)
	}
	if _, err := CreateFile(path, []byte("two\n"), 0o644); !errors.Is(err, fs.ErrExist) {
		t.Errorf("creating over a file: %v", err)
	}
	if err := WriteFile(path, []byte("three\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(path); err != nil || string(b) != "three\n" {
		t.Errorf("after WriteFile: %q %v", b, err)
	}
	if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("mode %v %v", fi.Mode(), err)
	}
	entries, _ := os.ReadDir(filepath.Dir(path))
	if len(entries) != 1 {
		t.Errorf("temporary files left beside the note: %v", entries)
	}
	os.Remove(path)
	RemoveDirs(made)
	if _, err := os.Lstat(filepath.Join(root, "a")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the folders CreateFile made are still there: %v", err)
	}
}

// A lock held through one open file is refused to another without
// waiting, and free once the holder closes. Catches: a lock that does not
// exclude, or a refusal that is not ErrLocked (which callers wait on).
func TestALockHeldIsRefusedUntilClosed(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "lock")
	open := func() *os.File {
		f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
		if err != nil {
			t.Fatal(err)
		}
		return f
	}
	holder, other := open(), open()
	defer other.Close()
	if err := LockFile(holder, true, false); err != nil {
		t.Fatal(err)
	}
	if err := LockFile(other, false, false); !errors.Is(err, ErrLocked) {
		t.Errorf("a shared lock beside an exclusive one: %v", err)
	}
	holder.Close()
	if err := LockFile(other, true, false); err != nil {
		t.Errorf("after the holder closed: %v", err)
	}
}

// SyncDir says when a folder could not be synced, and syncs one that can
// be. Catches: a sync whose failure was dropped, so a caller reported a
// change made that a crash could still lose.
func TestSyncDirSaysWhenAFolderCannotBeSynced(t *testing.T) {
	t.Parallel()
	if runtime.GOOS == "windows" {
		t.Skip("Windows has no call that syncs a folder")
	}
	dir := t.TempDir()
	if err := SyncDir(dir); err != nil {
		t.Errorf("syncing a folder: %v", err)
	}
	if err := SyncDir(filepath.Join(dir, "gone")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("syncing a folder that does not exist: %v, want fs.ErrNotExist", err)
	}
}
