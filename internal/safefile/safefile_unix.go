//go:build unix

package safefile

import (
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strings"
	"syscall"

	"golang.org/x/sys/unix"
)

// Open opens path for reading when it is a regular file, without
// following a symbolic link at its last part and without blocking on a
// FIFO or a device.
func Open(path string) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0)
	if errors.Is(err, syscall.ELOOP) {
		return nil, fmt.Errorf("%s is a symbolic link: %w", path, ErrNotRegular)
	}
	if err != nil {
		return nil, err
	}
	return regular(f, path)
}

// OpenFollowing opens path for reading when it is a regular file, following
// symbolic links (for files outside the store that a user links on
// purpose, such as a global git excludes file) but never blocking on a FIFO
// or a device.
func OpenFollowing(path string) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	return regular(f, path)
}

// OpenInside opens rel under root as ReadInside reads it: folder by folder
// from root, none of them followed if it is a link.
func OpenInside(root, rel string) (*os.File, error) {
	parts := strings.Split(path.Clean(rel), "/")
	fd, err := unix.Open(root, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, &os.PathError{Op: "open", Path: root, Err: err}
	}
	for i, p := range parts {
		flags := unix.O_RDONLY | unix.O_NOFOLLOW | unix.O_CLOEXEC | unix.O_NONBLOCK
		if i < len(parts)-1 {
			flags |= unix.O_DIRECTORY
		}
		next, err := unix.Openat(fd, p, flags, 0)
		unix.Close(fd)
		shown := path.Join(parts[:i+1]...)
		switch {
		case errors.Is(err, unix.ELOOP), errors.Is(err, unix.ENOTDIR) && i < len(parts)-1 && isLink(filepath.Join(root, shown)):
			return nil, fmt.Errorf("%s is a symbolic link: %w", shown, ErrNotRegular)
		case err != nil:
			return nil, &os.PathError{Op: "open", Path: filepath.Join(root, filepath.FromSlash(shown)), Err: err}
		}
		fd = next
	}
	return regular(os.NewFile(uintptr(fd), filepath.Join(root, filepath.FromSlash(rel))), rel)
}

// isLink reports whether path is a symbolic link.
func isLink(path string) bool {
	fi, err := os.Lstat(path)
	return err == nil && fi.Mode()&os.ModeSymlink != 0
}
