package vault

import (
	"bufio"
	"crypto/sha1"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/format/index"
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

// seenFile is a file as the last scan left it.
type seenFile struct {
	FileStat
	Blob    plumbing.Hash
	Checked int64 // when the blob id was computed, nanoseconds
}

// seenDir is a folder as the last scan listed it.
type seenDir struct {
	FileStat
	Notes []string // names of note files in it that git does not ignore
	Dirs  []string // names of subfolders worth descending into
}

// ScanState is what scans remember between commands: persisted by the cache
// as an opaque value (see MarshalBinary).
type ScanState struct {
	files   map[string]seenFile
	dirs    map[string]seenDir
	ignores map[string]FileStat // ignore files consulted; Size -1 when absent
	dirty   bool
}

// NewScanState is the state of a scan that has never run.
func NewScanState() *ScanState {
	return &ScanState{files: map[string]seenFile{}, dirs: map[string]seenDir{}, ignores: map[string]FileStat{}}
}

// Changed reports whether a scan altered the state, so it is worth saving.
func (s *ScanState) Changed() bool { return s.dirty }

// LocalFile is a note of the local layer.
type LocalFile struct {
	Path    string // relative to the repository root for uncommitted files; absolute for private notes
	Key     string
	Private bool
	Blob    plumbing.Hash
	Mtime   int64 // nanoseconds
}

// LocalScan says where to look for local notes.
type LocalScan struct {
	Repo     *Repo
	NotesDir string        // notes root relative to the repository root
	Exclude  []string      // config globs
	Tracked  []TrackedFile // HEAD's note files, sorted by path
	Private  string        // the private folder; "" for none
}

// Run finds the local notes: the private folder's, remembered in private,
// and, when worktree is not nil, the working copies under the notes root
// that differ from HEAD, remembered in worktree. It updates the states in
// place and never writes to the file system.
func (ls LocalScan) Run(private, worktree *ScanState, now time.Time) ([]LocalFile, []Skip, error) {
	if worktree != nil && worktree.ignoresChanged() {
		worktree.forgetFolders()
	}
	warm := worktree != nil && len(worktree.dirs) > 0
	sc := ls.newScanner(private, worktree, now)
	if err := sc.run(); err != nil {
		return nil, nil, err
	}
	if warm && sc.rulesChanged {
		// An ignore file appeared or changed under folders listed by earlier
		// scans: their listings followed the old rules, so list everything again.
		worktree.forgetFolders()
		sc = ls.newScanner(private, worktree, now)
		if err := sc.run(); err != nil {
			return nil, nil, err
		}
	}
	private.forgetUnvisited(sc.visited)
	if worktree != nil {
		worktree.forgetUnvisited(sc.visited)
	}
	sort.Slice(sc.found, func(i, j int) bool { return sc.found[i].Path < sc.found[j].Path })
	return sc.found, sc.skips, nil
}

// size is how many files and folders the state remembers.
func (s *ScanState) size() int {
	if s == nil {
		return 0
	}
	return len(s.files) + len(s.dirs)
}

func (s *ScanState) forgetFolders() {
	s.dirs = map[string]seenDir{}
	s.ignores = map[string]FileStat{}
	s.dirty = true
}

// forgetUnvisited drops files and folders a scan no longer reached, so the
// state does not grow with everything that ever existed.
func (s *ScanState) forgetUnvisited(visited map[*ScanState]map[string]bool) {
	seen := visited[s]
	for k := range s.files {
		if !seen[k] {
			delete(s.files, k)
			s.dirty = true
		}
	}
	for k := range s.dirs {
		if !seen["dir:"+k] {
			delete(s.dirs, k)
			s.dirty = true
		}
	}
}

type scanner struct {
	LocalScan
	private, worktree *ScanState
	now               int64
	visited           map[*ScanState]map[string]bool
	found             []LocalFile
	skips             []Skip
	patterns          map[string]*ignoreRules // by folder, this run only
	rulesChanged      bool                    // an ignore file differs from what the state recorded
	gitIndex          map[string]index.Entry  // git's index, read at most once per scan
	indexTime         int64                   // its modification time
	indexRead         bool
}

func (ls LocalScan) newScanner(private, worktree *ScanState, now time.Time) *scanner {
	return &scanner{LocalScan: ls, private: private, worktree: worktree, now: now.UnixNano(),
		visited:  map[*ScanState]map[string]bool{private: make(map[string]bool, private.size()), worktree: make(map[string]bool, worktree.size())},
		patterns: map[string]*ignoreRules{}}
}

func (sc *scanner) run() error {
	if sc.Private != "" {
		if err := sc.walk(sc.private, sc.Private, ""); err != nil {
			return err
		}
	}
	if sc.worktree == nil || sc.Repo == nil {
		return nil
	}
	// Files HEAD holds: a working copy that differs is a local note, whatever
	// git's ignore rules say (git never ignores a tracked file). Their stats
	// are taken in parallel, since one system call per note is most of what
	// an unchanged store costs.
	stats := statAll(sc.Repo.Root, sc.Tracked)
	for i, f := range sc.Tracked {
		if !stats[i].ok {
			continue
		}
		blob, ok, err := sc.checkStat(sc.worktree, f.Path, sc.Repo.Root, stats[i].FileStat)
		if err != nil {
			return err
		}
		if ok && blob != f.Blob {
			sc.addWorktree(f.Path, blob)
		}
	}
	root := filepath.Join(sc.Repo.Root, filepath.FromSlash(sc.NotesDir))
	return sc.walk(sc.worktree, root, "")
}

// statAll lstats files under root on every core. A file that is gone or
// not a regular file gets ok false.
func statAll(root string, files []TrackedFile) []statResult {
	out := make([]statResult, len(files))
	workers := runtime.GOMAXPROCS(0)
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			for i := w; i < len(files); i += workers {
				out[i].FileStat, out[i].ok = lstatRegular(filepath.Join(root, filepath.FromSlash(files[i].Path)))
			}
		}(w)
	}
	wg.Wait()
	return out
}

type statResult struct {
	FileStat
	ok bool
}

func (sc *scanner) addWorktree(p string, blob plumbing.Hash) {
	rel := strings.TrimPrefix(p, sc.NotesDir+"/")
	if sc.NotesDir == "" {
		rel = p
	}
	key, ok := KeyOf(rel)
	if !ok {
		sc.skips = append(sc.skips, Skip{p, "its name cannot be a key (control character or empty part)"})
		return
	}
	sc.found = append(sc.found, LocalFile{Path: p, Key: key, Blob: blob, Mtime: sc.worktree.files[p].Mtime})
}

// walk descends from root/rel, listing a folder again only when its stat
// changed. In the working tree, git's ignore rules apply.
func (sc *scanner) walk(state *ScanState, root, rel string) error {
	abs := filepath.Join(root, filepath.FromSlash(rel))
	fi, err := os.Lstat(abs)
	if err != nil || !fi.IsDir() {
		return nil // a missing notes root or private folder holds no notes
	}
	inWorktree := state == sc.worktree
	sc.visited[state]["dir:"+rel] = true
	st := statOf(fi)
	d, ok := state.dirs[rel]
	if !ok || d.FileStat != st {
		if d, err = sc.list(abs, rel, inWorktree); err != nil {
			sc.skips = append(sc.skips, unreadable(abs, err)) // a folder, not the store
			return nil
		}
		d.FileStat = st
		state.dirs[rel] = d
		state.dirty = true
	}
	for _, name := range d.Notes {
		fileRel := path.Join(rel, name)
		if !inWorktree {
			if err := sc.privateNote(root, fileRel); err != nil {
				return err
			}
			continue
		}
		repoRel := path.Join(sc.NotesDir, fileRel)
		if sc.isTracked(repoRel) || Excluded(sc.Exclude, fileRel) {
			continue
		}
		blob, ok, err := sc.check(state, repoRel, sc.Repo.Root)
		if err != nil {
			return err
		}
		if ok {
			sc.addWorktree(repoRel, blob)
		}
	}
	for _, name := range d.Dirs {
		if err := sc.walk(state, root, path.Join(rel, name)); err != nil {
			return err
		}
	}
	return nil
}

func (sc *scanner) isTracked(p string) bool {
	_, found := slices.BinarySearchFunc(sc.Tracked, p, func(f TrackedFile, p string) int { return strings.Compare(f.Path, p) })
	return found
}

func (sc *scanner) privateNote(root, rel string) error {
	abs := filepath.Join(root, filepath.FromSlash(rel))
	blob, ok, err := sc.check(sc.private, rel, root)
	if err != nil || !ok {
		return err
	}
	key, valid := KeyOf(rel)
	if !valid {
		sc.skips = append(sc.skips, Skip{abs, "its name cannot be a key (control character or empty part)"})
		return nil
	}
	sc.found = append(sc.found, LocalFile{Path: abs, Key: key, Private: true, Blob: blob, Mtime: sc.private.files[rel].Mtime})
	return nil
}

// list reads a folder: its note files and the subfolders worth entering.
func (sc *scanner) list(abs, rel string, worktree bool) (seenDir, error) {
	var d seenDir
	entries, err := os.ReadDir(abs)
	if err != nil {
		return d, fmt.Errorf("listing %s: %w", abs, err)
	}
	for _, e := range entries {
		name := e.Name()
		child := path.Join(rel, name)
		switch {
		case e.IsDir():
			if name == ".git" || (worktree && rel == "" && name == ".omh" && sc.NotesDir == "") {
				continue // omh's own folder holds no notes unless it holds the notes root
			}
			if _, err := os.Lstat(filepath.Join(abs, name, ".git")); err == nil {
				continue // another repository (a submodule): its notes are its own
			}
			if worktree && sc.ignored(child, true) {
				continue
			}
			d.Dirs = append(d.Dirs, name)
		case !strings.HasSuffix(name, NoteExt):
		case e.Type()&fs.ModeSymlink != 0:
			where := filepath.Join(abs, name)
			if worktree {
				where = path.Join(sc.NotesDir, child)
			}
			sc.skips = append(sc.skips, Skip{where, "a symbolic link; omh never follows links"})
		case e.Type().IsRegular():
			if worktree && sc.ignored(child, false) {
				continue
			}
			d.Notes = append(d.Notes, name)
		}
	}
	return d, nil
}

// check returns the blob id of the file at abs, hashing it only when its
// stat differs from the last scan's or it was racy then. ok is false when
// the file is gone or not a regular file.
func (sc *scanner) check(state *ScanState, rel, root string) (plumbing.Hash, bool, error) {
	st, ok := lstatRegular(filepath.Join(root, filepath.FromSlash(rel)))
	if !ok {
		return plumbing.ZeroHash, false, nil
	}
	return sc.checkStat(state, rel, root, st)
}

// checkStat is check for a regular file whose stat is st, at rel under
// root.
func (sc *scanner) checkStat(state *ScanState, rel, root string, st FileStat) (plumbing.Hash, bool, error) {
	sc.visited[state][rel] = true
	prev, ok := state.files[rel]
	if ok && prev.FileStat == st && prev.Checked-prev.Mtime >= racyWindow {
		return prev.Blob, true, nil
	}
	if state == sc.worktree && !ok {
		if blob, known := sc.fromIndex(rel, st); known {
			state.files[rel] = seenFile{FileStat: st, Blob: blob, Checked: sc.now}
			state.dirty = true
			return blob, true, nil
		}
	}
	blob, st, err := hashFile(filepath.Join(root, filepath.FromSlash(rel)))
	if errors.Is(err, fs.ErrNotExist) {
		return plumbing.ZeroHash, false, nil
	}
	if err != nil { // one note, not the store: left out, and read again next time
		shown := rel
		if state != sc.worktree {
			shown = filepath.Join(root, filepath.FromSlash(rel))
		}
		sc.skips = append(sc.skips, unreadable(shown, err))
		return plumbing.ZeroHash, false, nil
	}
	state.files[rel] = seenFile{FileStat: st, Blob: blob, Checked: sc.now}
	state.dirty = true
	return blob, true, nil
}

// fromIndex takes a file's blob id from git's index when the index holds an
// entry for it whose stat data match and that git wrote after the file
// last changed, the test git itself uses. It saves hashing every file the
// first time a working tree is scanned. An index go-git cannot read (a split
// or sparse index, a newer format) only means the files are hashed.
func (sc *scanner) fromIndex(rel string, st FileStat) (plumbing.Hash, bool) {
	if !sc.indexRead {
		sc.indexRead = true
		sc.gitIndex, sc.indexTime = readGitIndex(filepath.Join(sc.Repo.GitDir, "index"))
	}
	e, ok := sc.gitIndex[rel]
	// A merged entry is stage 0 as git writes it and go-git decodes it;
	// go-git's index.Merged constant is 1, and comparing with it made every
	// first scan hash every file.
	if !ok || e.Stage != 0 || e.SkipWorktree || e.IntentToAdd {
		return plumbing.ZeroHash, false
	}
	mtime, ctime := e.ModifiedAt.UnixNano(), e.CreatedAt.UnixNano()
	if int64(e.Size) != st.Size || mtime != st.Mtime || (st.Ctime != 0 && ctime != st.Ctime) ||
		(e.Inode != 0 && e.Inode != uint32(st.Ino)) || mtime >= sc.indexTime {
		return plumbing.ZeroHash, false
	}
	return e.Hash, true
}

func readGitIndex(path string) (map[string]index.Entry, int64) {
	f, err := os.Open(path)
	if err != nil {
		return nil, 0
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, 0
	}
	var idx index.Index
	if err := index.NewDecoder(bufio.NewReader(f)).Decode(&idx); err != nil {
		return nil, 0
	}
	entries := make(map[string]index.Entry, len(idx.Entries))
	for _, e := range idx.Entries {
		entries[e.Name] = *e
	}
	return entries, fi.ModTime().UnixNano()
}

// HashBytes returns the git blob id of content.
func HashBytes(content []byte) plumbing.Hash {
	h := sha1.New()
	fmt.Fprintf(h, "blob %d\x00", len(content))
	h.Write(content)
	var id plumbing.Hash
	copy(id[:], h.Sum(nil))
	return id
}

// hashFile computes a file's git blob id without holding it in memory, and
// the stat of the very file read. A file that changes size while being read
// is read again.
func hashFile(abs string) (plumbing.Hash, FileStat, error) {
	for attempt := 0; ; attempt++ {
		f, err := OpenRegular(abs)
		if err != nil {
			return plumbing.ZeroHash, FileStat{}, err
		}
		fi, err := f.Stat()
		if err != nil {
			f.Close()
			return plumbing.ZeroHash, FileStat{}, fmt.Errorf("stat %s: %w", abs, err)
		}
		h := sha1.New()
		fmt.Fprintf(h, "blob %d\x00", fi.Size())
		n, err := io.Copy(h, f)
		f.Close()
		if err != nil {
			return plumbing.ZeroHash, FileStat{}, fmt.Errorf("reading %s: %w", abs, err)
		}
		if n == fi.Size() {
			var id plumbing.Hash
			copy(id[:], h.Sum(nil))
			return id, statOf(fi), nil
		}
		if attempt == 3 {
			return plumbing.ZeroHash, FileStat{}, fmt.Errorf("%s keeps changing while being read", abs)
		}
	}
}

// ignored applies git's ignore rules to a path relative to the notes root:
// .gitignore files from the repository root down, the repository's
// info/exclude and the user's global excludes file.
func (sc *scanner) ignored(rel string, dir bool) bool {
	full := path.Join(sc.NotesDir, rel)
	parts := strings.Split(full, "/")
	return sc.patternsFor(path.Dir(full)).ignored(parts, dir)
}

func (sc *scanner) patternsFor(dir string) *ignoreRules {
	if dir == "." {
		dir = ""
	}
	if rules, ok := sc.patterns[dir]; ok {
		return rules
	}
	var rules *ignoreRules
	var domain []string
	if dir == "" {
		for _, f := range sc.globalIgnoreFiles() {
			rules = rules.with(sc.readIgnore(f, nil, true))
		}
	} else {
		rules = sc.patternsFor(path.Dir(dir))
		domain = strings.Split(dir, "/")
	}
	rules = rules.with(sc.readIgnore(filepath.Join(sc.Repo.Root, filepath.FromSlash(dir), ".gitignore"), domain, false))
	sc.patterns[dir] = rules
	return rules
}

// globalIgnoreFiles are the ignore files outside the working tree.
func (sc *scanner) globalIgnoreFiles() []string {
	files := []string{filepath.Join(sc.Repo.CommonDir, "info", "exclude")}
	if f := sc.Repo.ConfigValue("core", "excludesfile"); f != "" {
		if home, err := os.UserHomeDir(); err == nil && strings.HasPrefix(f, "~/") {
			f = filepath.Join(home, f[2:])
		}
		return append(files, f)
	}
	base := os.Getenv("XDG_CONFIG_HOME")
	if base == "" {
		home, err := os.UserHomeDir()
		if err != nil {
			return files
		}
		base = filepath.Join(home, ".config")
	}
	return append(files, filepath.Join(base, "git", "ignore"))
}

// readIgnore parses one ignore file and records its stat, so a later edit
// invalidates every folder listing made under its rules. An absent
// .gitignore need not be recorded: creating one changes its folder's
// modification time, which lists the folder again; files outside the working
// tree are recorded absent too, since nothing else would notice them appear.
func (sc *scanner) readIgnore(file string, domain []string, recordAbsent bool) *ignoreFile {
	st := FileStat{Size: -1}
	var ps []string
	open := OpenRegular // git reads no .gitignore through a link either
	if recordAbsent {
		open = OpenFollowing
	}
	if f, err := open(file); err == nil {
		if fi, err := f.Stat(); err == nil {
			st = statOf(fi)
		}
		lines := bufio.NewScanner(f)
		for lines.Scan() {
			line := strings.TrimSuffix(lines.Text(), "\r")
			if strings.TrimSpace(line) == "" || strings.HasPrefix(line, "#") {
				continue
			}
			ps = append(ps, line)
		}
		f.Close()
	}
	if st.Size < 0 && !recordAbsent {
		return nil
	}
	if prev, ok := sc.worktree.ignores[file]; !ok || prev != st {
		sc.worktree.ignores[file] = st
		sc.worktree.dirty = true
		sc.rulesChanged = true
	}
	return parseIgnore(ps, domain)
}

// ignoresChanged reports whether an ignore file read by an earlier scan has
// changed since; folder listings made under the old rules are then stale.
func (s *ScanState) ignoresChanged() bool {
	for file, was := range s.ignores {
		st := FileStat{Size: -1}
		if fi, err := os.Stat(file); err == nil {
			st = statOf(fi)
		}
		if st != was {
			return true
		}
	}
	return false
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
