// Package localscan finds the notes of the local layer (the private
// folder's, and the working copies under the notes root that differ from
// HEAD) and remembers between commands what it saw, so a command on an
// unchanged tree reads no file: the scanner, its stored state, git's ignore
// rules, and the file system monitors that spare it a stat of every file.
package localscan

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/format/index"

	"github.com/omh-notes/omh/internal/exclude"
	"github.com/omh-notes/omh/vault"
	"github.com/omh-notes/omh/vault/gitrepo"
)

// The local layer is found the way git finds a dirty working tree: by
// comparing what the file system says about each file (size, times, inode)
// with what it said last time, and reading only files whose stat changed.
// New files are found by listing only the folders whose modification time
// changed. Nothing is re-hashed on a command where nothing changed.

// FileStat is the part of a file's stat that changes when its content does.
type FileStat struct {
	Size  int64
	Mtime int64 // nanoseconds
	Ctime int64 // nanoseconds; 0 where the platform does not say
	Ino   uint64
}

// racyWindow: a file modified this close to the moment it was hashed may
// change again within the same timestamp tick without its stat changing, so
// it is hashed again until it has been quiet this long (git's "racy" files).
const racyWindow = int64(2 * time.Second)

// LocalFile is a note of the local layer, or (Deleted) a committed note
// whose file is gone from the working tree.
type LocalFile struct {
	Path    string // relative to the repository root for uncommitted files; absolute for private notes
	Key     string
	Private bool
	Blob    plumbing.Hash
	Mtime   int64 // nanoseconds
	// Deleted marks a file HEAD holds that the working tree does not:
	// deleted, or moved, and not yet committed. It has no blob or time.
	Deleted bool
}

// LocalScan says where to look for local notes.
type LocalScan struct {
	Repo     *gitrepo.Repo
	NotesDir string        // notes root relative to the repository root
	Exclude  exclude.Globs // config globs
	Private  string        // the private folder; "" for none
}

// Run finds the local notes: the private folder's, remembered in private,
// and, when worktree is not nil, the working copies under the notes root
// that differ from HEAD (the files worktree tracks) or that HEAD does not
// hold, remembered in worktree. It updates the states in place and never
// writes to the file system. Where git has a file system monitor
// (core.fsmonitor), only what it reports changed is looked at.
func (ls LocalScan) Run(private, worktree *ScanState, now time.Time) ([]LocalFile, []gitrepo.Skip, error) {
	sc, err := ls.run(private, worktree, now)
	if err != nil {
		return nil, nil, err
	}
	return sc.found, sc.skips, nil
}

// run is Run, returning the scanner itself so that a test can see what it
// read.
func (ls LocalScan) run(private, worktree *ScanState, now time.Time) (*scanner, error) {
	sc := &scanner{LocalScan: ls, now: now.UnixNano(), patterns: map[string]*ignoreRules{}}
	if ls.Private != "" {
		if err := sc.scanTree(private, ls.Private, false); err != nil {
			return nil, err
		}
	} else {
		private.dropDir("")
		private.sweep()
	}
	if worktree != nil && ls.Repo != nil {
		if err := sc.scanWorktree(worktree); err != nil {
			return nil, err
		}
		sc.collect(worktree, ls.Repo.Root, true)
	}
	if ls.Private != "" {
		sc.collect(private, ls.Private, false)
	}
	sort.Slice(sc.found, func(i, j int) bool { return sc.found[i].Path < sc.found[j].Path })
	return sc, nil
}

type scanner struct {
	LocalScan
	now          int64
	found        []LocalFile
	skips        []gitrepo.Skip
	patterns     map[string]*ignoreRules // by folder, this run only
	rulesChanged bool                    // an ignore file differs from what the state recorded
	gitIndex     map[string]index.Entry  // git's index, read at most once per scan
	indexTime    int64                   // its modification time
	indexRead    sync.Once               // check's workers ask for it at once
	// read counts the files whose content was looked at (hashed, or their
	// blob id taken from git's index) and listed the folders listed: a scan
	// of an unchanged tree does neither.
	read, listed int
}

// scanWorktree brings the working tree's state up to date: from what the
// file system monitor reports when it can, else by a full scan.
func (sc *scanner) scanWorktree(st *ScanState) error {
	st.flush()
	if mon := monitorOf(sc.Repo); mon != nil {
		token, paths, everything, err := mon.Query(st.token)
		if err == nil {
			known := st.token != ""
			st.setToken(token)
			if known && !everything && len(st.dirs) > 0 && !st.ignoresChanged() {
				if done, err := sc.recheck(st, paths); done || err != nil {
					return err
				}
			}
			// The files are about to be checked as of this token: keep
			// it, or the next command would scan everything again.
			st.headDirty = true
		}
	}
	return sc.scanTree(st, sc.Repo.Root, true)
}

// scanTree checks every file a tree's state knows and lists again the
// folders whose stat changed. base is the tree's top; the working tree's
// walk starts at the notes root.
func (sc *scanner) scanTree(st *ScanState, base string, worktree bool) error {
	root := ""
	if worktree {
		root = sc.NotesDir
		if st.ignoresChanged() {
			st.forgetFolders()
		}
	}
	warm := len(st.dirs) > 0
	if err := sc.walk(st, base, root, worktree, true); err != nil {
		return err
	}
	if warm && sc.rulesChanged {
		// An ignore file appeared or changed under folders listed by earlier
		// scans: their listings followed the old rules, so list everything again.
		st.forgetFolders()
		if err := sc.walk(st, base, root, worktree, true); err != nil {
			return err
		}
	}
	st.sweep()
	var all []recRef
	for _, p := range st.pages {
		for i := 0; i < p.count(); i++ {
			if p.rec(i)[recFlags]&(flagTracked|flagListed) != 0 {
				all = append(all, recRef{p, i})
			}
		}
	}
	return sc.check(st, base, worktree, all)
}

// recheck brings the working tree's state up to date from the paths the
// monitor reports changed since the state's token: their folders are
// listed again when their stat changed, they and the files not yet trusted
// are checked. done is false when a full scan is needed after all: an
// ignore file changed.
func (sc *scanner) recheck(st *ScanState, paths []string) (done bool, err error) {
	root := sc.NotesDir
	dirs := map[string]bool{}
	var refs []recRef
	var files []string
	for _, p := range paths {
		p = strings.TrimSuffix(p, "/") // the daemon marks folders with a trailing slash
		if root != "" && (p == root || strings.HasPrefix(root, p+"/")) {
			p = root // the notes root, or a folder above it: look at the root
		}
		if root != "" && !strings.HasPrefix(p, root+"/") {
			continue
		}
		files = append(files, p)
		for d := p; ; d = parentDir(d) {
			if _, known := st.dirs[d]; known {
				dirs[d] = true
			}
			if d == root {
				break
			}
		}
	}
	var reportedDirs []string
	for _, f := range files {
		if _, isDir := st.dirs[f]; isDir {
			reportedDirs = append(reportedDirs, f)
		}
	}
	for _, d := range sortedKeys(dirs) {
		if err := sc.walk(st, sc.Repo.Root, d, true, false); err != nil {
			return false, err
		}
	}
	if sc.rulesChanged {
		return false, nil
	}
	// A folder reported stands for its files (git's daemon may report a
	// folder rather than each file in it): a folder still there, for the
	// files directly in it; one gone, for every file below it.
	reported := map[string]bool{}
	for _, f := range files {
		reported[f] = true
	}
	var in, below []string
	for _, d := range reportedDirs {
		if _, still := st.dirs[d]; still {
			in = append(in, d)
		} else if d == "" {
			below = append(below, "")
		} else {
			below = append(below, d+"/")
		}
	}
	st.flush()
	for _, p := range st.pages {
		for i := 0; i < p.count(); i++ {
			f := p.rec(i)[recFlags]
			if f&(flagTracked|flagListed) == 0 {
				continue
			}
			path, dir := p.path(i), p.dirLen(i)
			if f&(flagRacy|flagUnchecked) != 0 || reported[string(path)] || dirIsOneOf(path[:dir], in) || hasAnyPrefix(path, below) {
				refs = append(refs, recRef{p, i})
			}
		}
	}
	return true, sc.check(st, sc.Repo.Root, true, refs)
}

func dirIsOneOf(dir []byte, folders []string) bool {
	for _, f := range folders {
		if string(dir) == f {
			return true
		}
	}
	return false
}

func hasAnyPrefix(p []byte, prefixes []string) bool {
	for _, pre := range prefixes {
		if bytes.HasPrefix(p, []byte(pre)) {
			return true
		}
	}
	return false
}

func parentDir(p string) string {
	if i := strings.LastIndexByte(p, '/'); i >= 0 {
		return p[:i]
	}
	return ""
}

// collect adds a tree's local notes to what the scan found: working copies
// that differ from HEAD's blob or that HEAD does not hold, private notes,
// and the files of HEAD's the working tree has lost.
func (sc *scanner) collect(st *ScanState, base string, worktree bool) {
	for _, p := range st.pages {
		for i := 0; i < p.count(); i++ {
			r := p.rec(i)
			flags := r[recFlags]
			if worktree && flags&(flagTracked|flagPresent|flagUnchecked) == flagTracked && sc.deleted(string(p.path(i))) {
				if key, ok := vault.KeyOf(sc.notesRel(string(p.path(i)))); ok {
					sc.found = append(sc.found, LocalFile{Path: string(p.path(i)), Key: key, Deleted: true})
				}
				continue
			}
			if flags&flagPresent == 0 || flags&(flagTracked|flagListed) == 0 {
				continue
			}
			if flags&flagTracked != 0 && bytes.Equal(r[recHead:recHead+20], r[recWork:recWork+20]) {
				continue
			}
			rel := string(p.path(i))
			f := LocalFile{Path: rel, Mtime: recStat(r).Mtime}
			copy(f.Blob[:], r[recWork:])
			keyPath := rel
			if worktree {
				keyPath = sc.notesRel(rel)
			} else {
				f.Path, f.Private = filepath.Join(base, filepath.FromSlash(rel)), true
			}
			key, ok := vault.KeyOf(keyPath)
			if !ok {
				sc.skips = append(sc.skips, gitrepo.Skip{Path: f.Path, Reason: "its name cannot be a key (control character or empty part)"})
				continue
			}
			f.Key = key
			sc.found = append(sc.found, f)
		}
	}
}

// shown is how a skip names the entry child of folder abs: by its path in
// the working tree, absolute in the private folder.
func (sc *scanner) shown(abs, child string, worktree bool) string {
	if worktree {
		return child
	}
	return filepath.Join(abs, path.Base(child))
}

// deleted reports whether a file HEAD holds, found missing from the
// working tree, is deleted there rather than left out by a sparse checkout
// (git's index marks those skip-worktree). git's index is read only in a
// sparse checkout; one go-git cannot read leaves the file unreported.
func (sc *scanner) deleted(rel string) bool {
	sparse := false
	for _, dir := range []string{sc.Repo.GitDir, sc.Repo.CommonDir} {
		if _, err := os.Lstat(filepath.Join(dir, "info", "sparse-checkout")); err == nil {
			sparse = true
		}
	}
	if !sparse {
		return true
	}
	sc.indexRead.Do(func() {
		sc.gitIndex, sc.indexTime = readGitIndex(filepath.Join(sc.Repo.GitDir, "index"))
	})
	e, ok := sc.gitIndex[rel]
	return sc.gitIndex != nil && !(ok && e.SkipWorktree)
}

// notesRel is a repository-relative path relative to the notes root.
func (sc *scanner) notesRel(p string) string {
	if sc.NotesDir == "" {
		return p
	}
	return strings.TrimPrefix(p, sc.NotesDir+"/")
}

// walk checks folder rel (relative to base) and lists it again when its
// stat changed; a listing that lost a subfolder forgets it and everything
// below. With recurse it goes on into every subfolder, else only into
// subfolders no scan has listed yet. In the working tree, git's ignore
// rules apply.
func (sc *scanner) walk(st *ScanState, base, rel string, worktree, recurse bool) error {
	abs := filepath.Join(base, filepath.FromSlash(rel))
	fi, err := os.Lstat(abs)
	if err != nil || !fi.IsDir() {
		// A missing notes root or private folder holds no notes.
		if _, known := st.dirs[rel]; known {
			st.dropDir(rel)
		}
		return nil
	}
	stat := statOf(fi)
	d, ok := st.dirs[rel]
	if !ok || d.FileStat != stat {
		listed, names, err := sc.list(st, abs, rel, worktree)
		if err != nil {
			sc.skips = append(sc.skips, gitrepo.SkipUnreadable(abs, err)) // a folder, not the store
			return nil
		}
		listed.FileStat = stat
		for _, old := range d.Dirs {
			if !slices.Contains(listed.Dirs, old) {
				st.dropDir(joinRel(rel, old))
			}
		}
		st.dirs[rel] = listed
		st.headDirty = true
		st.setListed(rel, names)
		d = listed
	}
	for _, name := range d.Dirs {
		child := joinRel(rel, name)
		if _, known := st.dirs[child]; known && !recurse {
			continue
		}
		if err := sc.walk(st, base, child, worktree, recurse); err != nil {
			return err
		}
	}
	return nil
}

func joinRel(dir, name string) string {
	if dir == "" {
		return name
	}
	return dir + "/" + name
}

// list reads a folder: the subfolders worth entering, and the names of its
// note files (not ignored, not excluded), sorted.
func (sc *scanner) list(st *ScanState, abs, rel string, worktree bool) (seenDir, []string, error) {
	var d seenDir
	var names []string
	sc.listed++
	entries, err := os.ReadDir(abs)
	if err != nil {
		return d, nil, fmt.Errorf("listing %s: %w", abs, err)
	}
	for _, e := range entries {
		name := e.Name()
		child := joinRel(rel, name)
		switch {
		case e.IsDir():
			if vault.IsGitFolder(name) || (worktree && rel == "" && name == ".omh" && sc.NotesDir == "") {
				continue // git's folder, by any name git gives it, and omh's own (unless it holds the notes root) hold no notes
			}
			if _, err := os.Lstat(filepath.Join(abs, name, ".git")); err == nil {
				continue // another repository (a submodule): its notes are its own
			}
			if worktree && sc.ignored(st, child, true) {
				continue
			}
			under := child // the folder's path under its layer root
			if worktree {
				under = sc.notesRel(child)
			}
			if strings.Count(under, "/") >= vault.MaxFolderDepth {
				sc.skips = append(sc.skips, gitrepo.Skip{Path: sc.shown(abs, child, worktree),
					Reason: fmt.Sprintf("a folder deeper than %d; nothing under it is a note", vault.MaxFolderDepth)})
				continue
			}
			d.Dirs = append(d.Dirs, name)
		case !strings.HasSuffix(name, vault.NoteExt):
		case e.Type()&fs.ModeSymlink != 0:
			sc.skips = append(sc.skips, gitrepo.Skip{Path: sc.shown(abs, child, worktree), Reason: "a symbolic link; omh never follows links"})
		case e.Type().IsRegular():
			if worktree && (sc.ignored(st, child, false) || sc.Exclude.Match(sc.notesRel(child))) {
				continue
			}
			names = append(names, name)
		}
	}
	return d, names, nil
}
