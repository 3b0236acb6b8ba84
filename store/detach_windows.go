package store

import (
	"syscall"

	"golang.org/x/sys/windows"
)

// detached starts a process with no console, in a process group of its
// own, so no console signal reaches it.
func detached() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{CreationFlags: windows.CREATE_NEW_PROCESS_GROUP | windows.DETACHED_PROCESS}
}
