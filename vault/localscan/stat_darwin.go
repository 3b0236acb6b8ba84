package localscan

import "syscall"

func statOfSys(s *syscall.Stat_t) FileStat {
	return FileStat{Size: s.Size, Mtime: s.Mtimespec.Nano(), Ctime: s.Ctimespec.Nano(), Ino: s.Ino}
}
