//go:build !windows

package index

import (
	"errors"
	"os"
	"syscall"
)

// lock takes an advisory lock on f, shared or exclusive, waiting for it or
// not (errLocked when another process holds it). Closing f releases it.
func lock(f *os.File, exclusive, wait bool) error {
	how := syscall.LOCK_SH
	if exclusive {
		how = syscall.LOCK_EX
	}
	if !wait {
		how |= syscall.LOCK_NB
	}
	err := syscall.Flock(int(f.Fd()), how)
	if errors.Is(err, syscall.EWOULDBLOCK) {
		return errLocked
	}
	return err
}

func writable(dir string) bool {
	return syscall.Access(dir, 2 /* W_OK */) == nil
}

// alive reports whether a process numbered pid exists. A process this one
// may not signal exists too.
func alive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}
