package gitrepo

import (
	"bufio"
	"bytes"
	"compress/zlib"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/storage/filesystem"
	"github.com/go-git/go-git/v5/storage/filesystem/dotgit"
)

// Objects is git's object storage, looked through again when the packs
// change under it. go-git lists the packs once, the first time it needs
// one; a `git gc`, or `git repack -ad && git prune-packed`, while omh reads
// deletes the packs and loose objects it listed and writes them into a new
// pack it never looks at: a refresh during one called 3,561 of 6,000 notes
// missing. So an object not found is looked for once more after a new look
// at the pack folder, when the folder's packs differ from the last look.
type Objects struct {
	*filesystem.Storage
	packDir string
	packs   *packs // what it reads itself, before asking go-git

	mu       sync.Mutex
	looked   bool     // the packs were listed at least once
	packList []string // the pack files of the last look
}

func newObjects(s *filesystem.Storage, commonDir string) *Objects {
	dir := filepath.Join(commonDir, "objects", "pack")
	return &Objects{Storage: s, packDir: dir, packs: &packs{dir: dir}}
}

// EncodedObject reads an object, from the packs by omh's own reader when
// it serves it, else by go-git, once more after the packs changed when it
// was not found.
func (o *Objects) EncodedObject(t plumbing.ObjectType, h plumbing.Hash) (plumbing.EncodedObject, error) {
	if p, err := o.packs.read(t, h); err == nil {
		obj := &plumbing.MemoryObject{}
		obj.SetType(p.typ)
		obj.Write(p.content)
		return obj, nil
	}
	obj, err := o.Storage.EncodedObject(t, h)
	if Moved(err) && o.Rescan() {
		obj, err = o.Storage.EncodedObject(t, h)
	}
	return obj, err
}

// Moved reports whether err may come from objects a repack moved: not
// found in the packs and loose objects go-git knows of, a pack it knows of
// deleted, or a large object's file gone between its lookup and its read.
func Moved(err error) bool {
	return errors.Is(err, plumbing.ErrObjectNotFound) || errors.Is(err, dotgit.ErrPackfileNotFound) || errors.Is(err, fs.ErrNotExist)
}

// Rescan makes go-git list the packs again when they changed since the
// last look, and reports whether it did: only then may a missing object be
// looked for again. The first look always rescans, since go-git may have
// listed the packs before any of them changed. The packs go-git kept open
// are closed, so a long-lived process does not hold deleted packs on disk.
// Rescan must not run while an object's reader is open.
func (o *Objects) Rescan() bool {
	packs := o.listPacks()
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.looked && slices.Equal(packs, o.packList) {
		return false
	}
	o.looked, o.packList = true, packs
	o.Storage.Close() // an error closing a pack read from leaves nothing to undo
	o.Storage.Reindex()
	o.packs.close()
	return true
}

// Close closes the pack files both readers keep open.
func (o *Objects) Close() error {
	o.packs.close()
	return o.Storage.Close()
}

// listPacks lists the pack files in the pack folder, sorted; an unreadable
// folder lists none (go-git then says what is wrong when it reads).
func (o *Objects) listPacks() []string {
	entries, err := os.ReadDir(o.packDir)
	if err != nil {
		return nil
	}
	var packs []string
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".pack") {
			packs = append(packs, e.Name())
		}
	}
	return packs
}

// looseTree reads tree h from its loose object file, inflated straight
// into one buffer of the size its header gives. go-git's reader grows a
// buffer as it copies, hashes the content twice (with SHA-1 collision
// detection) and caches a copy: for the 1.9 MB folder tree that a one-note
// commit writes anew in vba-docs, that was half a post-commit hook's time.
// ok is false when h is not a loose object here (packed, or in an
// alternate): go-git reads it then.
func (o *Objects) looseTree(h plumbing.Hash) (b []byte, ok bool, err error) {
	hex := h.String()
	f, err := os.Open(filepath.Join(filepath.Dir(o.packDir), hex[:2], hex[2:]))
	if err != nil {
		return nil, false, nil
	}
	defer f.Close()
	z, err := zlib.NewReader(bufio.NewReader(f))
	if err != nil {
		return nil, true, fmt.Errorf("loose object %s: %w", hex, err)
	}
	defer z.Close()
	br := bufio.NewReaderSize(z, 64)
	header, err := br.ReadSlice(0)
	var size int
	if err == nil {
		_, err = fmt.Sscanf(string(header), "tree %d\x00", &size)
	}
	if err != nil {
		return nil, true, fmt.Errorf("loose object %s: not a tree (%q): %w", hex, header, errBadTree)
	}
	// The header's size is only believed as far as the stream bears it out:
	// a damaged one could name terabytes, and the buffer grows past
	// largeObject only as the bytes arrive.
	var buf bytes.Buffer
	buf.Grow(min(size, largeObject))
	if n, err := io.CopyN(&buf, br, int64(size)); err != nil {
		return nil, true, fmt.Errorf("loose object %s: %d of the %d bytes its header says: %w", hex, n, size, err)
	}
	b = buf.Bytes()
	// Reading on to the end checks the stream's checksum.
	if _, err := br.ReadByte(); err != io.EOF {
		return nil, true, fmt.Errorf("loose object %s: not %d bytes as its header says (%v)", hex, size, err)
	}
	return b, true, nil
}
