//go:build !windows

package index

import (
	"errors"
	"syscall"
)

// alive reports whether a process numbered pid exists. A process this one
// may not signal exists too.
func alive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}
