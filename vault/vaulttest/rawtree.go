package vaulttest

import (
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/go-git/go-billy/v5/osfs"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/cache"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/go-git/go-git/v5/plumbing/storer"
	"github.com/go-git/go-git/v5/storage/filesystem"
)

// CommitPaths commits a tree holding exactly files ({"/"-separated path:
// content}) at date (RFC 3339), written as git objects directly, as git's
// plumbing (git mktree, git commit-tree) lets anyone do: none of git's
// checks on paths applies (a ".git" part, a depth no file system holds),
// so a test can hold what a hostile or odd repository holds. HEAD's branch
// moves to the commit, whose parent is HEAD's commit when there is one;
// the working tree and git's index stay as they were. It returns the
// commit's id.
func (r *Repo) CommitPaths(date, message string, files map[string]string) string {
	r.t.Helper()
	st := filesystem.NewStorage(osfs.New(filepath.Join(r.Dir, ".git")), cache.NewObjectLRUDefault())
	root := &rawDir{}
	for p, content := range files {
		d, parts := root, strings.Split(p, "/")
		for _, name := range parts[:len(parts)-1] {
			d = d.sub(name)
		}
		d.files = append(d.files, [2]string{parts[len(parts)-1], content})
	}
	tree, err := root.write(st)
	if err != nil {
		r.t.Fatal(err)
	}
	when, err := time.Parse(time.RFC3339, date)
	if err != nil {
		r.t.Fatal(err)
	}
	sig := object.Signature{Name: "Test Author", Email: "author@example.com", When: when}
	c := &object.Commit{Author: sig, Committer: sig, Message: message, TreeHash: tree}
	head, err := st.Reference(plumbing.HEAD)
	if err != nil {
		r.t.Fatal(err)
	}
	if parent, err := storer.ResolveReference(st, plumbing.HEAD); err == nil {
		c.ParentHashes = []plumbing.Hash{parent.Hash()}
	}
	id, err := store(st, c)
	if err != nil {
		r.t.Fatal(err)
	}
	if err := st.SetReference(plumbing.NewHashReference(head.Target(), id)); err != nil {
		r.t.Fatal(err)
	}
	return id.String()
}

// rawDir is a folder of CommitPaths' tree.
type rawDir struct {
	files [][2]string // name, content
	dirs  []*rawDir
	names []string // of dirs
}

func (d *rawDir) sub(name string) *rawDir {
	if i := slices.Index(d.names, name); i >= 0 {
		return d.dirs[i]
	}
	d.names = append(d.names, name)
	d.dirs = append(d.dirs, &rawDir{})
	return d.dirs[len(d.dirs)-1]
}

// write stores the folder's blobs and trees, deepest first, and returns
// its tree's id. Entries are in git's order: a folder's name sorts as if
// it ended in "/".
func (d *rawDir) write(s storer.EncodedObjectStorer) (plumbing.Hash, error) {
	var t object.Tree
	for _, f := range d.files {
		obj := s.NewEncodedObject()
		obj.SetType(plumbing.BlobObject)
		w, err := obj.Writer()
		if err != nil {
			return plumbing.ZeroHash, err
		}
		if _, err := w.Write([]byte(f[1])); err != nil {
			return plumbing.ZeroHash, err
		}
		if err := w.Close(); err != nil {
			return plumbing.ZeroHash, err
		}
		id, err := s.SetEncodedObject(obj)
		if err != nil {
			return plumbing.ZeroHash, err
		}
		t.Entries = append(t.Entries, object.TreeEntry{Name: f[0], Mode: filemode.Regular, Hash: id})
	}
	for i, sub := range d.dirs {
		id, err := sub.write(s)
		if err != nil {
			return plumbing.ZeroHash, err
		}
		t.Entries = append(t.Entries, object.TreeEntry{Name: d.names[i], Mode: filemode.Dir, Hash: id})
	}
	sortKey := func(e object.TreeEntry) string {
		if e.Mode == filemode.Dir {
			return e.Name + "/"
		}
		return e.Name
	}
	slices.SortFunc(t.Entries, func(a, b object.TreeEntry) int { return strings.Compare(sortKey(a), sortKey(b)) })
	return store(s, &t)
}

// store writes an object and returns its id.
func store(s storer.EncodedObjectStorer, o interface {
	Encode(plumbing.EncodedObject) error
}) (plumbing.Hash, error) {
	obj := s.NewEncodedObject()
	if err := o.Encode(obj); err != nil {
		return plumbing.ZeroHash, err
	}
	return s.SetEncodedObject(obj)
}
