// Package journal makes omh's writes to a store all or nothing across
// crashes. A command that changes files (mv, promote, new, proof retract,
// init, hooks install) describes every change first: the new contents go
// to files in the journal's folder inside the git directory, never beside
// the notes, and then one manifest naming every change is renamed into
// place. That rename is the point of no return. Before it the store is
// untouched and the journal's files are thrown away; after it, the changes
// are made one by one, and whatever process opens the store next (or omh
// recover) finishes them from the manifest if this one died on the way.
// Every step is idempotent, so finishing twice is the same as once.
package journal

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/omh-notes/omh/vault"
	"github.com/omh-notes/omh/vault/disk"
	"github.com/omh-notes/omh/vault/gitcli"
	"github.com/omh-notes/omh/vault/gitrepo"
)

// manifestName is the file whose presence means a change must be finished.
const manifestName = "manifest.json"

// ErrChanged means a file was not as the change expected it when the change
// was about to start: another process or the user touched it. Nothing was
// changed.
var ErrChanged = errors.New("changed since it was read")

// opKind is what an op does to its path.
type opKind string

const (
	opPut    opKind = "put"    // write After's content (Payload) over Before
	opRemove opKind = "remove" // remove the file holding Before
	opMove   opKind = "move"   // move From to Path
	opMkdir  opKind = "mkdir"
	opRmdir  opKind = "rmdir" // remove an empty folder
)

// op is one change to one path. Its Before and After say what the path
// holds on either side of the change ("" for nothing, else a git blob id),
// so finishing a change can tell a step done from one not yet done, and
// both from a file someone else changed meanwhile.
type op struct {
	Kind    opKind      `json:"kind"`
	Path    string      `json:"path"` // absolute; stored relative to the working tree when in it
	From    string      `json:"from,omitempty"`
	Before  string      `json:"before,omitempty"`
	After   string      `json:"after,omitempty"`
	Payload string      `json:"payload,omitempty"` // put: the file in the journal folder holding After
	Mode    fs.FileMode `json:"mode,omitempty"`
	Prune   string      `json:"prune,omitempty"` // remove: emptied parents are removed up to this folder
	// Backup is the file in the journal folder holding Before, with its
	// mode, for undoing a put over a file or a remove.
	Backup     string      `json:"backup,omitempty"`
	BackupMode fs.FileMode `json:"backup_mode,omitempty"`
	// Within is, for a put that creates folders, the deepest one that
	// existed: undoing the put removes the folders it made up to there.
	Within string `json:"within,omitempty"`
}

// manifest is a change as written to disk.
type manifest struct {
	Command string   `json:"command"` // what the user ran, for messages
	Root    string   `json:"root"`    // the working tree git runs in; stored relative to the common git directory
	Ops     []op     `json:"ops"`
	Index   string   `json:"index,omitempty"` // input of git update-index -z --index-info
	Add     []string `json:"add,omitempty"`   // paths relative to Root to git add
	// UndoIndex and UndoAdd put back the index entries Index and Add
	// replace, in the form Index has.
	UndoIndex string `json:"undo_index,omitempty"`
	UndoAdd   string `json:"undo_add,omitempty"`
	// Undoing says the manifest undoes a change that failed: it is never
	// undone in turn.
	Undoing bool `json:"undoing,omitempty"`
}

// Txn is a change being prepared. Its methods record what to do; Commit
// does it. Close releases the journal whether or not Commit ran.
type Txn struct {
	dir   string
	lock  *os.File
	m     manifest
	n     int         // payloads written
	moves [][2]string // index entries to move, read once git's index is locked
	warn  func(string)
}

// Dir is where the journal of the clone whose common git directory is
// commonDir lives: omh-journal inside it. A journal that cannot be written
// there is an *UnwritableError: it is never moved elsewhere, since a change
// left half done in it would then go unseen and the next change be made
// over it.
func Dir(commonDir string) (string, error) {
	dir := filepath.Join(commonDir, "omh-journal")
	err := os.MkdirAll(dir, 0o755)
	if err == nil && !disk.Writable(dir) {
		err = fs.ErrPermission
	}
	if err != nil {
		u := &UnwritableError{Dir: dir, Err: err}
		if m, found, rerr := readManifest(dir); found && rerr == nil {
			u.Pending = m.Command
		} else if _, serr := os.Lstat(filepath.Join(dir, manifestName)); serr == nil {
			u.Pending = "a change"
		}
		return dir, u
	}
	return dir, nil
}

// UnwritableError is a journal this process cannot write (another user's,
// or on a read-only file system): omh changes nothing in the repository,
// and a change left half done in it (Pending, "" for none) waits for
// someone who can write it.
type UnwritableError struct {
	Dir     string
	Pending string // the command left half done there; "" for none
	Err     error
}

func (e *UnwritableError) Error() string {
	msg := fmt.Sprintf("omh's journal %s cannot be written (%v), so omh changes nothing in this repository", e.Dir, e.Err)
	if e.Pending != "" {
		msg += fmt.Sprintf("; it holds %s, left half done, which omh recover finishes once the folder can be written", e.Pending)
	}
	return msg + "; make the folder writable for you (it is the repository owner's), or work in a clone of your own"
}

func (e *UnwritableError) Unwrap() error { return e.Err }

// Begin starts a change to the working tree root of the clone whose common
// git directory is commonDir. It waits while another omh process changes
// the same clone, then finishes any change a dead process left, if it
// writes nowhere but a working tree of the clone, its hooks and the
// private area (see check). command names the change in messages; warn
// hears what finishing said.
func Begin(commonDir, root, private, command string, warn func(string)) (*Txn, error) {
	dir, err := Dir(commonDir)
	if err != nil {
		return nil, err
	}
	lock, err := lockDir(dir, true)
	if err != nil {
		return nil, err
	}
	t := &Txn{dir: dir, lock: lock, m: manifest{Command: command, Root: root}, warn: warn}
	if err := finishLeft(dir, commonDir, private, warn); err != nil {
		t.Close()
		return nil, err
	}
	return t, nil
}

// Close releases the journal, throwing away what a change that was not
// committed prepared.
func (t *Txn) Close() {
	if t.lock == nil {
		return
	}
	if _, err := os.Stat(filepath.Join(t.dir, manifestName)); err != nil {
		clearPayloads(t.dir)
	}
	t.lock.Close()
	t.lock = nil
}

// Pending reports whether the change waits in the journal to be finished:
// after Commit failed, whether the next command (or omh recover) finishes
// it, or nothing is left to do.
func (t *Txn) Pending() bool {
	_, err := os.Lstat(filepath.Join(t.dir, manifestName))
	return err == nil
}

// Put makes path hold content with mode. before is the blob id of what it
// holds now: the zero hash for nothing, in which case an existing file is
// never replaced.
func (t *Txn) Put(path string, before plumbing.Hash, content []byte, mode fs.FileMode) error {
	crash.Step()
	t.n++
	name := fmt.Sprintf("payload-%d", t.n)
	if err := writeNew(filepath.Join(t.dir, name), content, mode, false); err != nil {
		return fmt.Errorf("preparing %s: %w", path, err)
	}
	t.m.Ops = append(t.m.Ops, op{Kind: opPut, Path: path, Before: idOf(before), After: gitrepo.HashBytes(content).String(), Payload: name, Mode: mode})
	return nil
}

// Remove deletes path, which holds the blob before now, then the folders
// it leaves empty up to prune (kept), when prune is not "".
func (t *Txn) Remove(path string, before plumbing.Hash, prune string) {
	t.m.Ops = append(t.m.Ops, op{Kind: opRemove, Path: path, Before: idOf(before), Prune: prune})
}

// Move renames from to path as Rename does, leaving from's folders.
func (t *Txn) Move(from, path string) { t.Rename(from, path, "") }

// Rename renames the file from to path, which must be free (an existing
// file is never replaced), creating path's folders; then the folders from
// leaves empty are removed up to prune (kept), when prune is not "". The
// file is renamed as it is (a link stays a link), whatever it holds and
// however large: nothing of it is read or copied.
func (t *Txn) Rename(from, path, prune string) {
	t.m.Ops = append(t.m.Ops, op{Kind: opMove, From: from, Path: path, Prune: prune})
}

// Mkdir creates the folder path and its parents.
func (t *Txn) Mkdir(path string) {
	t.m.Ops = append(t.m.Ops, op{Kind: opMkdir, Path: path})
}

// IndexEntry makes git's index hold path (relative to the working tree)
// with mode and blob, or not at all when mode is 0: what git mv does to
// the index, written so that doing it again changes nothing.
func (t *Txn) IndexEntry(path string, mode uint32, blob plumbing.Hash) {
	t.m.Index += fmt.Sprintf("%o %s\t%s\x00", mode, blob, path)
}

// MoveIndexEntry moves git's index entry for from to path (both relative
// to the working tree) as git mv does, reading the entry once the change
// holds git's index lock.
func (t *Txn) MoveIndexEntry(from, path string) {
	t.moves = append(t.moves, [2]string{from, path})
}

// Add stages paths (relative to the working tree) with git add once the
// files are in place.
func (t *Txn) Add(paths ...string) {
	t.m.Add = append(t.m.Add, paths...)
}

// Commit checks that every file is still as the change expects, keeps a
// copy of each file it will replace or remove, writes the manifest and
// makes the changes. A file found changed before the manifest is written
// stops everything: nothing changed, and the error wraps ErrChanged
// (fs.ErrExist for a new file whose name was taken). A step that fails
// (git refusing to stage, say) undoes the steps before it, and the error
// says why; IsGit tells a failure of git. A change that stages takes
// git's index lock first, and refuses with *IndexLockedError when a git
// command holds it (see lockIndex).
func (t *Txn) Commit() error {
	if t.m.Index != "" || len(t.m.Add) > 0 || len(t.moves) > 0 {
		if err := lockIndex(t.dir, t.m.Root); err != nil {
			return err
		}
		if err := t.moveEntries(); err != nil {
			return err
		}
	}
	freed := map[string]bool{} // paths an earlier op moves or removes
	for i := range t.m.Ops {
		o := &t.m.Ops[i]
		if freed[o.Path] {
			continue
		}
		freed[o.From] = o.Kind == opMove
		freed[o.Path] = o.Kind == opRemove
		if o.state(t.dir) != stateBefore {
			if (o.Kind == opPut && o.Before == "") || (o.Kind == opMove && exists(o.Path)) {
				return fmt.Errorf("%s: %w", o.Path, fs.ErrExist)
			}
			return fmt.Errorf("%s %w", o.shown(), ErrChanged)
		}
		if err := t.backUp(o); err != nil {
			return err
		}
		if (o.Kind == opPut && o.Before == "") || o.Kind == opMove {
			o.Within = existingFolder(filepath.Dir(o.Path))
		}
	}
	if err := t.recordIndex(); err != nil {
		return err
	}
	if err := writeManifest(t.dir, t.m); err != nil {
		return err
	}
	return finishOrUndo(t.dir, t.m, false, t.warn)
}

// moveEntries turns the index entries to move into the entries to write,
// as git's index holds them now.
func (t *Txn) moveEntries() error {
	for _, mv := range t.moves {
		entry, err := gitcli.IndexEntry(t.m.Root, mv[0])
		if err != nil {
			return gitError{err}
		}
		t.IndexEntry(mv[1], entry.Mode, entry.Blob)
		t.IndexEntry(mv[0], 0, plumbing.ZeroHash)
	}
	t.moves = nil
	return nil
}

// backUp copies what a put replaces or a remove deletes into the journal,
// checking it is still what the change expects.
func (t *Txn) backUp(o *op) error {
	if o.Before == "" || (o.Kind != opPut && o.Kind != opRemove) {
		return nil
	}
	fi, err := os.Lstat(o.Path)
	if err != nil {
		return fmt.Errorf("%s %w", o.Path, ErrChanged)
	}
	b, err := os.ReadFile(o.Path)
	if err != nil || gitrepo.HashBytes(b).String() != o.Before {
		return fmt.Errorf("%s %w", o.Path, ErrChanged)
	}
	crash.Step()
	t.n++
	o.Backup, o.BackupMode = fmt.Sprintf("payload-%d", t.n), fi.Mode().Perm()
	if err := writeNew(filepath.Join(t.dir, o.Backup), b, o.BackupMode, false); err != nil {
		return fmt.Errorf("keeping a copy of %s: %w", o.Path, err)
	}
	return nil
}

// existingFolder is dir or its deepest ancestor that exists, or "" when
// dir exists.
func existingFolder(dir string) string {
	for d := dir; ; d = filepath.Dir(d) {
		if _, err := os.Lstat(d); err == nil {
			if d == dir {
				return ""
			}
			return d
		}
		if filepath.Dir(d) == d {
			return ""
		}
	}
}

// recordIndex reads the index entries the change will replace, so undoing
// it can put them back.
func (t *Txn) recordIndex() error {
	var paths []string
	for _, line := range strings.Split(t.m.Index, "\x00") {
		if _, p, ok := strings.Cut(line, "\t"); ok {
			paths = append(paths, p)
		}
	}
	var err error
	if t.m.UndoIndex, err = indexEntries(t.m.Root, paths); err == nil {
		t.m.UndoAdd, err = indexEntries(t.m.Root, t.m.Add)
	}
	return err
}

// indexEntries is what git's index holds for paths, as input of git
// update-index --index-info: a mode 0 line for a path it does not hold.
func indexEntries(root string, paths []string) (string, error) {
	if len(paths) == 0 {
		return "", nil
	}
	out, err := gitcli.Git(root, "", append([]string{"ls-files", "--stage", "-z", "--"}, paths...)...)
	if err != nil {
		return "", gitError{err}
	}
	var b strings.Builder
	held := map[string]bool{}
	for _, line := range strings.Split(out, "\x00") {
		info, p, ok := strings.Cut(line, "\t")
		if f := strings.Fields(info); ok && len(f) == 3 && f[2] == "0" && !held[p] {
			held[p] = true
			fmt.Fprintf(&b, "%s %s\t%s\x00", f[0], f[1], p)
		}
	}
	for _, p := range paths {
		if !held[p] {
			held[p] = true
			fmt.Fprintf(&b, "0 %s\t%s\x00", plumbing.ZeroHash, p)
		}
	}
	return b.String(), nil
}

// writeManifest puts m in place atomically: the point from which a change
// is finished (or undone) whatever happens.
func writeManifest(dir string, m manifest) error {
	b, err := json.Marshal(m.stored(filepath.Dir(dir)))
	if err != nil {
		return err
	}
	// The payloads first: a manifest must never name a file not on disk.
	paths := []string{dir}
	for _, o := range m.Ops {
		for _, p := range []string{o.Payload, o.Backup} {
			if p != "" {
				paths = append(paths, filepath.Join(dir, p))
			}
		}
	}
	if err := flush(paths); err != nil {
		return fmt.Errorf("writing the journal: %w", err)
	}
	crash.Step()
	tmp := filepath.Join(dir, "manifest.tmp")
	if err := writeNew(tmp, b, 0o644, true); err != nil {
		return fmt.Errorf("writing the journal: %w", err)
	}
	final := filepath.Join(dir, manifestName)
	if err := os.Rename(tmp, final); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("writing the journal: %w", err)
	}
	// A manifest the disk may not keep is no point of no return: a crash
	// could lose it after the changes it names were made, leaving them
	// half done with nothing to finish them. It goes, and the change with
	// it, before anything is touched.
	if err := disk.SyncDir(dir); err != nil {
		os.Remove(final)
		return fmt.Errorf("writing the journal: %w", err)
	}
	return nil
}

// Recover finishes a change a dead process left in the journal of the clone
// whose common git directory is commonDir, if it writes nowhere but a
// working tree of the clone, its hooks and the private area private (see
// check), and returns the command it finished ("" when there was none). A
// change another live process is making is left to it, unless wait is
// true: then Recover waits for it.
func Recover(commonDir, private string, wait bool, warn func(string)) (string, error) {
	dir, err := Dir(commonDir)
	var u *UnwritableError
	if errors.As(err, &u) && u.Pending == "" {
		return "", nil // nothing to finish, and nothing this process could
	}
	if err != nil {
		return "", err
	}
	if _, err := os.Stat(filepath.Join(dir, manifestName)); err != nil && !wait && !Pending(commonDir) {
		return "", nil
	}
	lock, err := lockDir(dir, wait)
	if errors.Is(err, errBusy) {
		return "", nil
	}
	if err != nil {
		return "", err
	}
	defer lock.Close()
	m, found, err := readManifest(dir)
	if err != nil || !found {
		clearPayloads(dir)
		return "", err
	}
	if err := m.check(dir, commonDir, private); err != nil {
		return "", err
	}
	return m.Command, finishOrUndo(dir, m, true, warn)
}

// Pending reports whether a change waits to be finished, or files a dead
// process prepared for a change it never began wait to be thrown away, at
// the cost of listing the journal's folder (its lock alone, as a rule):
// what every command checks before it opens the store.
func Pending(commonDir string) bool {
	entries, _ := os.ReadDir(filepath.Join(commonDir, "omh-journal"))
	for _, e := range entries {
		if name := e.Name(); name == manifestName || prepared(name) {
			return true
		}
	}
	return false
}

// prepared reports whether name is a file a change prepares before its
// manifest: a payload, the manifest on its way in, or the record of git's
// index lock.
func prepared(name string) bool {
	return strings.HasPrefix(name, "payload-") || name == "manifest.tmp" || strings.HasPrefix(name, lockRecord)
}

// finishLeft finishes the change a dead process left, if any, while the
// caller holds the lock.
func finishLeft(dir, commonDir, private string, warn func(string)) error {
	m, found, err := readManifest(dir)
	if err != nil {
		return err
	}
	if !found {
		clearPayloads(dir)
		return nil
	}
	if err := m.check(dir, commonDir, private); err != nil {
		return err
	}
	if err := finishOrUndo(dir, m, true, warn); err != nil {
		return err
	}
	if warn != nil {
		warn(fmt.Sprintf("finished %s, which an earlier omh process left half done", m.Command))
	}
	return nil
}

func readManifest(dir string) (manifest, bool, error) {
	var m manifest
	b, err := os.ReadFile(filepath.Join(dir, manifestName))
	if errors.Is(err, fs.ErrNotExist) {
		return m, false, nil
	}
	if err != nil {
		return m, false, fmt.Errorf("reading the journal: %w", err)
	}
	if err := json.Unmarshal(b, &m); err != nil {
		return m, false, fmt.Errorf("the journal %s cannot be read (%v); look at the files it names, then remove it", filepath.Join(dir, manifestName), err)
	}
	return m.resolved(filepath.Dir(dir)), true, nil
}

// stored is m as the manifest holds it: the working tree relative to the
// common git directory the journal is in, and each path in the working
// tree relative to it, so a repository copied or moved with a change half
// done finishes the change where it now is, in the copy that runs omh
// (the original's own journal finishing in the original). A path outside
// the working tree (the private folder) stays absolute: it does not move
// with the repository.
func (m manifest) stored(commonDir string) manifest {
	root := m.Root
	if rel, err := filepath.Rel(commonDir, root); err == nil {
		m.Root = filepath.ToSlash(rel)
	}
	inTree := func(p string) string {
		if p == "" || !vault.Within(root, p) {
			return p
		}
		rel, err := filepath.Rel(root, p)
		if err != nil {
			return p
		}
		return filepath.ToSlash(rel)
	}
	m.Ops = append([]op(nil), m.Ops...)
	for i := range m.Ops {
		o := &m.Ops[i]
		o.Path, o.From, o.Prune, o.Within = inTree(o.Path), inTree(o.From), inTree(o.Prune), inTree(o.Within)
	}
	return m
}

// resolved is the stored manifest m with its paths made absolute again,
// for the journal in commonDir. A path written absolute (by an omh from
// before relative paths) is kept as it is.
func (m manifest) resolved(commonDir string) manifest {
	abs := func(base, p string) string {
		if p == "" || filepath.IsAbs(p) {
			return p
		}
		return filepath.Join(base, filepath.FromSlash(p))
	}
	m.Root = abs(commonDir, m.Root)
	for i := range m.Ops {
		o := &m.Ops[i]
		o.Path, o.From, o.Prune, o.Within = abs(m.Root, o.Path), abs(m.Root, o.From), abs(m.Root, o.Prune), abs(m.Root, o.Within)
	}
	return m
}
