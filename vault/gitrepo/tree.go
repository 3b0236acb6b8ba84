package gitrepo

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"path"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"

	"github.com/omh-notes/omh/internal/exclude"
	"github.com/omh-notes/omh/vault"
)

// TeamFile is a note file in a commit's tree.
type TeamFile struct {
	Path string // relative to the repository root, "/"-separated
	Key  string
	Blob plumbing.Hash // zero on the side of a change where the file is absent
}

// Skip is a file that looks like a note but is not read, and why.
type Skip struct {
	Path   string
	Reason string
}

// unreadableReason starts the reason of a note that could not be read this
// time (a permission, a file that kept changing): it is tried again.
const unreadableReason = "cannot be read: "

// SkipUnreadable is the skip of a note at path that could not be read this
// time.
func SkipUnreadable(path string, err error) Skip { return Skip{path, unreadableReason + err.Error()} }

// Unreadable reports whether s is a note that could not be read this time.
func (s Skip) Unreadable() bool { return strings.HasPrefix(s.Reason, unreadableReason) }

// NotesTree returns the id of the tree at dir ("" for the repository root)
// in commit's tree, or the zero hash when the commit has no such folder.
// A dir reached through a symbolic link the commit holds is an error
// (vault.ErrBadConfig) naming the link: omh never follows one, and read as no
// folder it gave a store of 0 notes without a word.
func (r *Repo) NotesTree(commit plumbing.Hash, dir string) (plumbing.Hash, error) {
	c, err := r.Commit(commit)
	if err != nil {
		return plumbing.ZeroHash, err
	}
	id := c.TreeHash
	if dir == "" {
		return id, nil
	}
	parts := strings.Split(dir, "/")
	for i, name := range parts {
		tree, err := object.GetTree(r.Objects, id)
		if err != nil {
			return plumbing.ZeroHash, fmt.Errorf("reading the tree of %s in %s: %w", path.Join(parts[:i]...), commit, err)
		}
		entry, err := tree.FindEntry(name)
		if errors.Is(err, object.ErrEntryNotFound) || errors.Is(err, object.ErrDirectoryNotFound) {
			return plumbing.ZeroHash, nil
		}
		if err != nil {
			return plumbing.ZeroHash, fmt.Errorf("finding %s in %s: %w", dir, commit, err)
		}
		switch entry.Mode {
		case filemode.Dir:
			id = entry.Hash
		case filemode.Symlink:
			return plumbing.ZeroHash, r.notesRootLink(dir, path.Join(parts[:i+1]...), entry.Hash, commit)
		default:
			return plumbing.ZeroHash, nil
		}
	}
	return id, nil
}

// notesRootLink is the error for a notes root dir reached through the
// symbolic link at link (its blob, the target, is read to be named).
func (r *Repo) notesRootLink(dir, link string, blob, commit plumbing.Hash) error {
	target := "?"
	if b, _, err := r.ReadBlob(blob, 4096); err == nil {
		target = string(b)
	}
	how := "is reached through " + link + ", a symbolic link"
	if link == dir {
		how = "is a symbolic link"
	}
	return fmt.Errorf("%w: the notes root %s %s to %s in commit %.12s; omh never follows links: name the folder itself in %s (notes:)",
		vault.ErrBadConfig, dir, how, target, commit, vault.ConfigPath)
}

// NoteChange is one note file that differs between two trees.
type NoteChange struct {
	Old, New TeamFile // Old.Blob is zero for an added file, New.Blob for a removed one
}

// DiffNotes compares two notes-root trees (either may be the zero hash for
// an empty tree) and reports every note that was added, removed or changed.
// Only subtrees whose ids differ are read, so the cost follows the size of
// the change, not of the store. dir is the notes root relative to the
// repository root; exclude holds the config's globs.
//
// The trees it reads are kept for the next StepOf, as a step's are: a
// refresh's diff and the history step of the commit it came to read the
// same folder trees.
func (r *Repo) DiffNotes(old, new plumbing.Hash, dir string, exclude exclude.Globs) ([]NoteChange, []Skip, error) {
	r.stepMu.Lock()
	defer r.stepMu.Unlock()
	w := treeDiff{repo: r, dir: dir, exclude: exclude, known: r.stepTrees, read: map[plumbing.Hash][]byte{}}
	err := w.diff(old, new, "", 0)
	r.stepTrees = w.read
	return w.changes, w.skips, err
}

type treeDiff struct {
	repo    *Repo
	dir     string
	exclude exclude.Globs
	keepOmh bool // history walks see every note path, omh's folder included
	changes []NoteChange
	skips   []Skip
	known   map[plumbing.Hash][]byte // trees read before, by id; may be nil
	read    map[plumbing.Hash][]byte // trees this diff read, when not nil
}

// rawTree reads a tree object's bytes; the zero hash is the empty tree.
// A diff walks the bytes rather than go-git's decoded entries: a history
// walk diffs a folder's tree once per commit that touched it, most entries
// are the same on both sides, and decoding them allocated a name each (at
// 30,000 notes in 35 folders, a quarter of a cold index).
func (w *treeDiff) rawTree(h plumbing.Hash) ([]byte, error) {
	if h.IsZero() {
		return nil, nil
	}
	if b, ok := w.known[h]; ok {
		if w.read != nil {
			w.read[h] = b
		}
		return b, nil
	}
	if b, ok, err := w.repo.Objects.looseTree(h); ok {
		if err == nil && w.read != nil {
			w.read[h] = b
		}
		return b, err
	}
	obj, err := w.repo.Objects.EncodedObject(plumbing.TreeObject, h)
	if err != nil {
		return nil, fmt.Errorf("reading tree %s: %w", h, err)
	}
	rd, err := obj.Reader()
	if err != nil {
		return nil, fmt.Errorf("reading tree %s: %w", h, err)
	}
	defer rd.Close()
	b := make([]byte, obj.Size())
	if _, err := io.ReadFull(rd, b); err != nil {
		return nil, fmt.Errorf("reading tree %s: %w", h, err)
	}
	if w.read != nil {
		w.read[h] = b
	}
	return b, nil
}

// rawEntry is one entry of a tree object: "<octal mode> <name>\x00<id>".
// raw is the whole entry, so equal entries compare as equal bytes.
type rawEntry struct {
	raw  []byte
	mode filemode.FileMode
	name []byte
	id   plumbing.Hash
}

var errBadTree = errors.New("malformed tree object")

// nextEntry splits the first entry off b.
func nextEntry(b []byte) (rawEntry, []byte, error) {
	sp := bytes.IndexByte(b, ' ')
	nul := bytes.IndexByte(b, 0)
	if sp <= 0 || nul <= sp+1 || len(b) < nul+1+len(plumbing.ZeroHash) {
		return rawEntry{}, nil, errBadTree
	}
	var mode uint32
	for _, c := range b[:sp] {
		if c < '0' || c > '7' {
			return rawEntry{}, nil, errBadTree
		}
		mode = mode<<3 | uint32(c-'0')
	}
	end := nul + 1 + len(plumbing.ZeroHash)
	e := rawEntry{raw: b[:end], mode: filemode.FileMode(mode), name: b[sp+1 : nul]}
	copy(e.id[:], b[nul+1:end])
	return e, b[end:], nil
}

// gitOrder compares two entries the way git sorts a tree: a folder's name
// sorts as if it ended in "/".
func gitOrder(a, b rawEntry) int {
	n := min(len(a.name), len(b.name))
	if c := bytes.Compare(a.name[:n], b.name[:n]); c != 0 {
		return c
	}
	return int(after(a, n)) - int(after(b, n))
}

// after is the byte git compares at position n of e's name.
func after(e rawEntry, n int) byte {
	switch {
	case n < len(e.name):
		return e.name[n]
	case e.mode == filemode.Dir:
		return '/'
	}
	return 0
}

// treeEntry is e as go-git's type, the zero entry for an absent side.
func (e rawEntry) treeEntry() object.TreeEntry {
	if e.raw == nil {
		return object.TreeEntry{}
	}
	return object.TreeEntry{Name: string(e.name), Mode: e.mode, Hash: e.id}
}

// diff walks two trees' entries together, as git stores them sorted, and
// descends only where ids differ. The trees are those of folder rel,
// depth folders below the root.
func (w *treeDiff) diff(old, new plumbing.Hash, rel string, depth int) error {
	if old == new {
		return nil
	}
	a, err := w.rawTree(old)
	if err != nil {
		return err
	}
	b, err := w.rawTree(new)
	if err != nil {
		return err
	}
	var ea, eb rawEntry
	for len(a) > 0 || len(b) > 0 || ea.raw != nil || eb.raw != nil {
		if ea.raw == nil && len(a) > 0 {
			if ea, a, err = nextEntry(a); err != nil {
				return fmt.Errorf("tree %s: %w", old, err)
			}
		}
		if eb.raw == nil && len(b) > 0 {
			if eb, b, err = nextEntry(b); err != nil {
				return fmt.Errorf("tree %s: %w", new, err)
			}
		}
		var oldSide, newSide rawEntry
		switch {
		case eb.raw == nil || (ea.raw != nil && gitOrder(ea, eb) < 0):
			oldSide, ea = ea, rawEntry{}
		case ea.raw == nil || gitOrder(eb, ea) < 0:
			newSide, eb = eb, rawEntry{}
		default:
			oldSide, newSide, ea, eb = ea, eb, rawEntry{}, rawEntry{}
			if bytes.Equal(oldSide.raw, newSide.raw) {
				continue
			}
		}
		if err := w.entry(oldSide.treeEntry(), newSide.treeEntry(), rel, depth); err != nil {
			return err
		}
	}
	return nil
}

// entry compares one name's entry in the old and new tree of folder rel,
// depth folders below the root; a zero entry is absent on that side.
func (w *treeDiff) entry(ea, eb object.TreeEntry, rel string, depth int) error {
	if ea.Hash == eb.Hash && ea.Mode == eb.Mode {
		return nil
	}
	name := ea.Name
	if name == "" {
		name = eb.Name
	}
	if rel == "" && w.dir == "" && name == ".omh" && !w.keepOmh {
		return nil // omh's own folder holds no notes unless it holds the notes root
	}
	child := path.Join(rel, name)
	if vault.IsGitFolder(name) {
		// Only git's plumbing makes such a tree, and a checkout would
		// write it into git's own folder: nothing under it is a note.
		w.skip(!eb.Hash.IsZero(), path.Join(w.dir, child), "named as git's own folder; nothing under it is a note")
		return nil
	}
	if depth == vault.MaxFolderDepth && (ea.Mode == filemode.Dir || eb.Mode == filemode.Dir) {
		w.skip(eb.Mode == filemode.Dir, path.Join(w.dir, child), fmt.Sprintf("a folder deeper than %d; nothing under it is a note", vault.MaxFolderDepth))
		return nil
	}
	if err := w.diff(dirHash(ea), dirHash(eb), child, depth+1); err != nil {
		return err
	}
	oldNote, newNote := w.note(ea, child, false), w.note(eb, child, true)
	if oldNote.Blob != newNote.Blob {
		w.changes = append(w.changes, NoteChange{Old: oldNote, New: newNote})
	}
	return nil
}

func dirHash(e object.TreeEntry) plumbing.Hash {
	if e.Mode == filemode.Dir {
		return e.Hash
	}
	return plumbing.ZeroHash
}

// note returns the entry as a note file, or a TeamFile with a zero blob when
// the entry is absent or not a note. Skips are reported for the new side
// only, so a file is reported once.
func (w *treeDiff) note(e object.TreeEntry, rel string, report bool) TeamFile {
	full := path.Join(w.dir, rel)
	if e.Hash.IsZero() || !strings.HasSuffix(rel, vault.NoteExt) {
		return TeamFile{Path: full}
	}
	switch e.Mode {
	case filemode.Regular, filemode.Executable, filemode.Deprecated:
	case filemode.Symlink:
		w.skip(report, full, "a symbolic link; omh never follows links")
		return TeamFile{Path: full}
	default:
		return TeamFile{Path: full}
	}
	key, ok := vault.KeyOf(rel)
	if !ok {
		w.skip(report, full, "its name cannot be a key (control character or empty part)")
		return TeamFile{Path: full}
	}
	if w.exclude.Match(rel) {
		return TeamFile{Path: full}
	}
	return TeamFile{Path: full, Key: key, Blob: e.Hash}
}

func (w *treeDiff) skip(report bool, path, reason string) {
	if report {
		w.skips = append(w.skips, Skip{path, reason})
	}
}
