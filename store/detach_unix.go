//go:build !windows

package store

import "syscall"

// detached starts a process in a session of its own, so no terminal or
// process group signal reaches it.
func detached() *syscall.SysProcAttr { return &syscall.SysProcAttr{Setsid: true} }
