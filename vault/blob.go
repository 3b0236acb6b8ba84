package vault

import (
	"crypto/sha1"
	"errors"
	"fmt"
	"io"

	"github.com/go-git/go-git/v5/plumbing"
)

// HashBytes returns the git blob id of content.
func HashBytes(content []byte) plumbing.Hash {
	h := sha1.New()
	fmt.Fprintf(h, "blob %d\x00", len(content))
	h.Write(content)
	var id plumbing.Hash
	copy(id[:], h.Sum(nil))
	return id
}

// ReadFile reads a local note: its git blob id computed over the whole file,
// and at most limit bytes of its content, so a huge file is cut rather than
// held in memory.
func ReadFile(abs string, limit int64) (plumbing.Hash, []byte, int64, error) {
	id, head, size, err := readFile(abs, limit)
	if errors.Is(err, errChanged) { // once more: an editor writes in more than one go
		id, head, size, err = readFile(abs, limit)
	}
	return id, head, size, err
}

// errChanged: a file changed size while being read.
var errChanged = errors.New("changed while being read")

func readFile(abs string, limit int64) (plumbing.Hash, []byte, int64, error) {
	f, err := OpenRegular(abs)
	if err != nil {
		return plumbing.ZeroHash, nil, 0, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return plumbing.ZeroHash, nil, 0, fmt.Errorf("stat %s: %w", abs, err)
	}
	head := make([]byte, min(fi.Size(), limit))
	if _, err := io.ReadFull(f, head); err != nil {
		return plumbing.ZeroHash, nil, 0, fmt.Errorf("reading %s: %w", abs, err)
	}
	h := sha1.New()
	fmt.Fprintf(h, "blob %d\x00", fi.Size())
	h.Write(head)
	n, err := io.Copy(h, f)
	if err != nil {
		return plumbing.ZeroHash, nil, 0, fmt.Errorf("reading %s: %w", abs, err)
	}
	if int64(len(head))+n != fi.Size() {
		return plumbing.ZeroHash, nil, 0, fmt.Errorf("%s %w", abs, errChanged)
	}
	var id plumbing.Hash
	copy(id[:], h.Sum(nil))
	return id, head, fi.Size(), nil
}
