package safefile

import (
	"errors"
	"fmt"
	"io"
	"os"
)

// A repository is not trusted: a committed file may be a symbolic link to
// /etc/passwd or a FIFO that blocks whoever opens it. omh reads the files
// that steer it (config, templates, ignore files) and notes only as
// regular files, never through a link, and writes nowhere a link points
// (package vault/disk checks where a new file goes).

// ErrNotRegular marks a path omh refused to read because it is not a
// regular file: a symbolic link, a FIFO, a device, a folder.
var ErrNotRegular = errors.New("not a regular file; omh reads only regular files and never follows symbolic links")

// ErrChangedSince is returned for a note whose file no longer holds the
// blob a snapshot indexed (rewritten or deleted since), when git does not
// hold that blob either: what the snapshot's offsets point into is gone.
var ErrChangedSince = errors.New("changed since the snapshot was taken")

func regular(f *os.File, path string) (*os.File, error) {
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		f.Close()
		return nil, fmt.Errorf("%s: %w", path, ErrNotRegular)
	}
	return f, nil
}

// ReadInside reads the file rel ("/"-separated) under root, at most limit
// bytes, refusing a symbolic link at any part of rel and anything but a
// regular file at its end: a committed .omh/templates that links to /etc
// cannot make omh read outside the repository.
func ReadInside(root, rel string, limit int64) ([]byte, error) {
	f, err := OpenInside(root, rel)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", rel, err)
	}
	if int64(len(b)) > limit {
		return nil, fmt.Errorf("%s is larger than %d bytes", rel, limit)
	}
	return b, nil
}
