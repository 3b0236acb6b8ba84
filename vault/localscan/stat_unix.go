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
