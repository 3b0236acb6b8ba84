//go:build linux || darwin

package localscan

import "golang.org/x/sys/unix"

// dirStatter stats files one folder at a time, relative to a handle on the
// open folder: the kernel then resolves one name per file rather than every
// component of its path. 10,000 notes in 36 folders: 17 -> 14 ms of lstat.
type dirStatter struct {
	base string // the tree's top
	dir  string // the folder open, relative to base
	fd   int    // -1 when none is open
}

func newDirStatter(base string) *dirStatter { return &dirStatter{base: base, fd: -1} }

// lstat is lstatRegular of base/dir/name.
func (d *dirStatter) lstat(dir []byte, name string) (FileStat, bool) {
	if d.fd < 0 || string(dir) != d.dir {
		d.close()
		path := d.base
		if len(dir) > 0 {
			path += "/" + string(dir)
		}
		fd, err := openDir(path)
		if err != nil {
			return FileStat{}, false // a folder gone holds no files
		}
		d.fd, d.dir = fd, string(dir)
	}
	var s unix.Stat_t
	for {
		err := unix.Fstatat(d.fd, name, &s, unix.AT_SYMLINK_NOFOLLOW)
		if err == unix.EINTR {
			continue
		}
		if err != nil || s.Mode&unix.S_IFMT != unix.S_IFREG {
			return FileStat{}, false
		}
		return FileStat{Size: s.Size, Mtime: s.Mtim.Nano(), Ctime: s.Ctim.Nano(), Ino: s.Ino}, true
	}
}

func (d *dirStatter) close() {
	if d.fd >= 0 {
		unix.Close(d.fd)
		d.fd = -1
	}
}
