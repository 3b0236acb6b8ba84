//go:build !windows

package disk

import (
	"errors"
	"os"
	"syscall"
)

// LockFile takes an advisory lock on f, shared or exclusive, waiting for
// it or not (ErrLocked when another process holds it). Closing f releases
// it, however the process ends.
func LockFile(f *os.File, exclusive, wait bool) error {
	how := syscall.LOCK_SH
	if exclusive {
		how = syscall.LOCK_EX
	}
	if !wait {
		how |= syscall.LOCK_NB
	}
	for {
		err := syscall.Flock(int(f.Fd()), how)
		switch {
		case errors.Is(err, syscall.EINTR):
			continue // a signal arrived while waiting
		case errors.Is(err, syscall.EWOULDBLOCK):
			return ErrLocked
		}
		return err
	}
}

// Writable reports whether this process may create files in dir.
func Writable(dir string) bool {
	return syscall.Access(dir, 2 /* W_OK */) == nil
}
