package disk

import (
	"errors"
	"os"

	"golang.org/x/sys/windows"
)

// LockFile takes a lock on f's first byte, shared or exclusive, waiting
// for it or not (ErrLocked when another process holds it). Closing f
// releases it.
func LockFile(f *os.File, exclusive, wait bool) error {
	var flags uint32
	if exclusive {
		flags |= windows.LOCKFILE_EXCLUSIVE_LOCK
	}
	if !wait {
		flags |= windows.LOCKFILE_FAIL_IMMEDIATELY
	}
	err := windows.LockFileEx(windows.Handle(f.Fd()), flags, 0, 1, 0, new(windows.Overlapped))
	if errors.Is(err, windows.ERROR_LOCK_VIOLATION) {
		return ErrLocked
	}
	return err
}

// Writable reports whether a file can be created in dir; Windows has no
// access(2) to ask.
func Writable(dir string) bool {
	f, err := os.CreateTemp(dir, "writable-*")
	if err != nil {
		return false
	}
	f.Close()
	os.Remove(f.Name())
	return true
}
