//go:build !unix

package safefile

import (
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strings"
)

// Where there is no O_NOFOLLOW (Windows), a path is looked at before it is
// opened: a link or a reparse point (a junction) is refused, and what is
// opened must be a regular file. A link swapped in between the look and
// the open is not caught here as it is on unix; Windows has no FIFOs to
// block on.

// Open opens path for reading when it is a regular file, not a
// symbolic link.
func Open(path string) (*os.File, error) {
	fi, err := os.Lstat(path)
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%s: %w", path, ErrNotRegular)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	return regular(f, path)
}

// OpenFollowing opens path for reading when it is a regular file,
// following symbolic links (for files outside the store that a user links
// on purpose, such as a global git excludes file).
func OpenFollowing(path string) (*os.File, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	return regular(f, path)
}

// OpenInside opens rel under root as ReadInside reads it: every folder on
// the way must be a folder, not a link to one.
func OpenInside(root, rel string) (*os.File, error) {
	parts := strings.Split(path.Clean(rel), "/")
	for i := range parts[:len(parts)-1] {
		shown := path.Join(parts[:i+1]...)
		fi, err := os.Lstat(filepath.Join(root, filepath.FromSlash(shown)))
		if err != nil {
			return nil, err
		}
		if fi.Mode().Type() != os.ModeDir {
			return nil, fmt.Errorf("%s is not a folder (a symbolic link or junction is not followed): %w", shown, ErrNotRegular)
		}
	}
	return Open(filepath.Join(root, filepath.FromSlash(rel)))
}
