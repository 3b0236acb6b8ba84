package localscan

import "syscall"

func statOfSys(s *syscall.Stat_t) FileStat {
	return FileStat{Size: s.Size, Mtime: s.Mtim.Nano(), Ctime: s.Ctim.Nano(), Ino: s.Ino}
}
