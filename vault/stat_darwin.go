package vault

import (
	"os"
	"syscall"
)

func statOf(fi os.FileInfo) FileStat {
	st := FileStat{Size: fi.Size(), Mtime: fi.ModTime().UnixNano()}
	if sys, ok := fi.Sys().(*syscall.Stat_t); ok {
		st.Ctime = sys.Ctimespec.Nano()
		st.Ino = sys.Ino
	}
	return st
}
