//go:build linux || darwin

package localscan

import (
	"os"
	"syscall"
)

func statOf(fi os.FileInfo) FileStat {
	if sys, ok := fi.Sys().(*syscall.Stat_t); ok {
		return statOfSys(sys)
	}
	return FileStat{Size: fi.Size(), Mtime: fi.ModTime().UnixNano()}
}

// lstatRegular is os.Lstat and statOf for a regular file, without the
// allocations of an os.FileInfo: a scan makes one call per note.
func lstatRegular(path string) (FileStat, bool) {
	var s syscall.Stat_t
	for {
		err := syscall.Lstat(path, &s)
		if err == syscall.EINTR {
			continue
		}
		if err != nil || s.Mode&syscall.S_IFMT != syscall.S_IFREG {
			return FileStat{}, false
		}
		return statOfSys(&s), true
	}
}
