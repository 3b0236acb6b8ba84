package vault

import (
	"errors"
	"fmt"
	"path"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"
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

// NotesTree returns the id of the tree at dir ("" for the repository root)
// in commit's tree, or the zero hash when the commit has no such folder.
func (r *Repo) NotesTree(commit plumbing.Hash, dir string) (plumbing.Hash, error) {
	c, err := r.Commit(commit)
	if err != nil {
		return plumbing.ZeroHash, err
	}
	if dir == "" {
		return c.TreeHash, nil
	}
	root, err := object.GetTree(r.Objects, c.TreeHash)
	if err != nil {
		return plumbing.ZeroHash, fmt.Errorf("reading the tree of %s: %w", commit, err)
	}
	entry, err := root.FindEntry(dir)
	if errors.Is(err, object.ErrEntryNotFound) || errors.Is(err, object.ErrDirectoryNotFound) {
		return plumbing.ZeroHash, nil
	}
	if err != nil {
		return plumbing.ZeroHash, fmt.Errorf("finding %s in %s: %w", dir, commit, err)
	}
	if entry.Mode != filemode.Dir {
		return plumbing.ZeroHash, nil
	}
	return entry.Hash, nil
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
func (r *Repo) DiffNotes(old, new plumbing.Hash, dir string, exclude []string) ([]NoteChange, []Skip, error) {
	w := treeDiff{repo: r, dir: dir, exclude: exclude}
	err := w.diff(old, new, "")
	return w.changes, w.skips, err
}

type treeDiff struct {
	repo    *Repo
	dir     string
	exclude []string
	keepOmh bool // history walks see every note path, omh's folder included
	changes []NoteChange
	skips   []Skip
}

// entries reads a tree's entries; the zero hash is the empty tree.
func (w *treeDiff) entries(h plumbing.Hash) ([]object.TreeEntry, error) {
	if h.IsZero() {
		return nil, nil
	}
	t, err := object.GetTree(w.repo.Objects, h)
	if err != nil {
		return nil, fmt.Errorf("reading tree %s: %w", h, err)
	}
	return t.Entries, nil
}

// gitOrder is the key git sorts tree entries by: a folder's name sorts as
// if it ended in "/".
func gitOrder(e object.TreeEntry) string {
	if e.Mode == filemode.Dir {
		return e.Name + "/"
	}
	return e.Name
}

// diff walks two trees' entries together, as git stores them sorted, and
// descends only where ids differ.
func (w *treeDiff) diff(old, new plumbing.Hash, rel string) error {
	if old == new {
		return nil
	}
	a, err := w.entries(old)
	if err != nil {
		return err
	}
	b, err := w.entries(new)
	if err != nil {
		return err
	}
	for i, j := 0, 0; i < len(a) || j < len(b); {
		var ea, eb object.TreeEntry
		switch {
		case j == len(b) || (i < len(a) && gitOrder(a[i]) < gitOrder(b[j])):
			ea, i = a[i], i+1
		case i == len(a) || gitOrder(b[j]) < gitOrder(a[i]):
			eb, j = b[j], j+1
		default:
			ea, eb, i, j = a[i], b[j], i+1, j+1
		}
		if err := w.entry(ea, eb, rel); err != nil {
			return err
		}
	}
	return nil
}

// entry compares one name's entry in the old and new tree; a zero entry is
// absent on that side.
func (w *treeDiff) entry(ea, eb object.TreeEntry, rel string) error {
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
	if err := w.diff(dirHash(ea), dirHash(eb), child); err != nil {
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
	if e.Hash.IsZero() || !strings.HasSuffix(rel, NoteExt) {
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
	key, ok := KeyOf(rel)
	if !ok {
		w.skip(report, full, "its name cannot be a key (control character or empty part)")
		return TeamFile{Path: full}
	}
	if Excluded(w.exclude, rel) {
		return TeamFile{Path: full}
	}
	return TeamFile{Path: full, Key: key, Blob: e.Hash}
}

func (w *treeDiff) skip(report bool, path, reason string) {
	if report {
		w.skips = append(w.skips, Skip{path, reason})
	}
}
