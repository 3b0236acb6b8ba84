package gitrepo

import (
	"crypto/sha1"
	"errors"
	"fmt"
	"io"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/omh-notes/omh/internal/safefile"
	"github.com/omh-notes/omh/vault"
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

// hugeFile is the size above which a file that looks binary is not read
// whole: hashing an 8 GB sparse .md took 72 s after every stat change, only
// for the file to be skipped as binary.
const hugeFile = 64 << 20

// sniffBytes is how much of a file LooksBinary reads.
const sniffBytes = 8000

// HugeBinaryID names a file over hugeFile whose first bytes look binary by
// its size and the bytes at both ends rather than a hash of it all: such a
// file is never indexed, so all omh needs is to notice that it changed.
// ok is false for every other file, which is named by its git blob id.
func HugeBinaryID(f io.ReaderAt, size int64) (id plumbing.Hash, ok bool, err error) {
	if size <= hugeFile {
		return plumbing.ZeroHash, false, nil
	}
	head, tail := make([]byte, sniffBytes), make([]byte, sniffBytes)
	if _, err := f.ReadAt(head, 0); err != nil {
		return plumbing.ZeroHash, false, err
	}
	if !vault.LooksBinary(head) {
		return plumbing.ZeroHash, false, nil
	}
	if _, err := f.ReadAt(tail, size-sniffBytes); err != nil {
		return plumbing.ZeroHash, false, err
	}
	h := sha1.New()
	fmt.Fprintf(h, "omh huge binary %d\x00", size)
	h.Write(head)
	h.Write(tail)
	copy(id[:], h.Sum(nil))
	return id, true, nil
}

// errChanged: a file changed size while being read.
var errChanged = errors.New("changed while being read")

func readFile(abs string, limit int64) (plumbing.Hash, []byte, int64, error) {
	f, err := safefile.Open(abs)
	if err != nil {
		return plumbing.ZeroHash, nil, 0, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return plumbing.ZeroHash, nil, 0, fmt.Errorf("stat %s: %w", abs, err)
	}
	if id, ok, err := HugeBinaryID(f, fi.Size()); err != nil || ok {
		if err != nil {
			return plumbing.ZeroHash, nil, 0, fmt.Errorf("reading %s: %w", abs, err)
		}
		head := make([]byte, sniffBytes)
		_, err := f.ReadAt(head, 0)
		if err != nil {
			return plumbing.ZeroHash, nil, 0, fmt.Errorf("reading %s: %w", abs, err)
		}
		return id, head, fi.Size(), nil
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
