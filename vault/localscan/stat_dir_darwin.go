package localscan

import "golang.org/x/sys/unix"

// openDir opens a folder only to stat files relative to it.
func openDir(path string) (int, error) {
	return unix.Open(path, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
}
