// The repository a cache folder was made for.

package index

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/omh-notes/omh/internal/safefile"
	"github.com/omh-notes/omh/vault/disk"
	"github.com/omh-notes/omh/vault/gitrepo"
)

// madeForName is the file in the cache's folder that names the repository
// the folder was made for: its common git directory and the first commit
// of HEAD's history. Without it a folder copied in from another repository
// was trusted: the notes root detected there made every answer empty, and
// a rebuild kept it.
const madeForName = "made-for.json"

type madeFor struct {
	GitDir string `json:"git_dir"`
	Root   string `json:"root"` // "" before the first commit
}

// OpenRepo opens the cache of the repository r as Open does, having made
// sure its folder was made for r. A folder made for another repository,
// or by an omh that did not say, is emptied first (Notices says so of
// another repository's); one moved or copied with its repository (the
// same first commit) is kept, and the record moves with it.
func OpenRepo(r *gitrepo.Repo) (*Cache, error) {
	return openFor(r.CommonDir, r)
}

// claim makes sure the cache folder dir was made for r, emptying it when
// it was not (emptied), with a notice for people when it was another
// repository's. Where the record cannot be written the folder is checked
// again by the next command.
func claim(dir string, r *gitrepo.Repo) (notice string, emptied bool, err error) {
	if rec, ok, _ := readMadeFor(dir); ok && rec.GitDir == r.CommonDir {
		return "", false, nil
	}
	unlock, err := lockGenerations(dir)
	if err != nil {
		return "", false, err
	}
	defer unlock()
	rec, ok, damaged := readMadeFor(dir) // another process may have claimed it meanwhile
	if ok && rec.GitDir == r.CommonDir {
		return "", false, nil
	}
	root, err := firstCommit(r)
	if err != nil {
		return "", false, err
	}
	if emptied = !ok || rec.Root == "" || rec.Root != root; emptied {
		emptyFolder(dir)
		switch {
		case ok:
			notice = fmt.Sprintf("the cache folder %s was made for another repository (%s); it was emptied and is built anew for this one", dir, rec.GitDir)
		case damaged:
			notice = fmt.Sprintf("the cache folder %s cannot say which repository it was made for (its %s is damaged); it was emptied and is built anew", dir, madeForName)
		}
	}
	b, err := json.Marshal(madeFor{GitDir: r.CommonDir, Root: root})
	if err == nil {
		disk.WriteFile(filepath.Join(dir, madeForName), append(b, '\n'), 0o644)
	}
	return notice, emptied, nil
}

// readMadeFor reads the folder's record; ok is false when there is none
// or it cannot be read, damaged says it is there but unreadable.
func readMadeFor(dir string) (rec madeFor, ok, damaged bool) {
	b, err := safefile.ReadInside(dir, madeForName, 1<<12)
	if errors.Is(err, fs.ErrNotExist) {
		return rec, false, false
	}
	ok = err == nil && json.Unmarshal(b, &rec) == nil && rec.GitDir != ""
	return rec, ok, !ok
}

// firstCommit is the first commit of HEAD's first-parent history (or the
// boundary of a shallow clone), "" before the first commit.
func firstCommit(r *gitrepo.Repo) (string, error) {
	head, err := r.Head()
	if err != nil || head.IsZero() {
		return "", err
	}
	list, err := r.Shallow()
	if err != nil {
		return "", err
	}
	shallow := map[plumbing.Hash]bool{}
	for _, h := range list {
		shallow[h] = true
	}
	root, err := r.RootOf(head, shallow)
	if err != nil {
		return "", fmt.Errorf("finding the first commit: %w", err)
	}
	return root.String(), nil
}

// emptyFolder removes what the cache folder holds but its locks: cache
// generations no process uses, and whatever else was kept there (the
// settings detected for a repository without a config).
func emptyFolder(dir string) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range entries {
		switch name := e.Name(); {
		case name == "generation.lock" || name == "refresh.lock":
		case isCacheFile(name):
			removeIfUnused(filepath.Join(dir, name))
		case isCompanion(entries, name):
			// removed with its database, when no process uses it
		default:
			os.RemoveAll(filepath.Join(dir, name))
		}
	}
}

// isCompanion reports whether name is a file SQLite or omh keeps beside a
// cache database listed in entries.
func isCompanion(entries []os.DirEntry, name string) bool {
	for _, e := range entries {
		if db := e.Name(); isCacheFile(db) && name != db && len(name) > len(db) && name[:len(db)] == db {
			return true
		}
	}
	return false
}
