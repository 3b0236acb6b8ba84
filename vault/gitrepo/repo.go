// Package gitrepo is omh's access to a git repository: opening a working
// tree and the repository behind it, reading objects (loose, and packs
// read by omh itself), the notes root's tree and its differences between
// commits, first-parent history and the commit of a day (--as-of), blob
// ids of files as git computes them, and where the repository's private
// notes live. It reads through go-git's storage layer and omh's own pack
// reader; running the git command line is package gitcli's.
package gitrepo

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/go-git/go-billy/v5/osfs"
	"github.com/go-git/go-git/v5/config"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/cache"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/go-git/go-git/v5/plumbing/storer"
	"github.com/go-git/go-git/v5/storage/filesystem"
	"github.com/go-git/go-git/v5/storage/filesystem/dotgit"
	"github.com/omh-notes/omh/internal/safefile"
	"github.com/omh-notes/omh/vault"
)

// largeObject is the size past which go-git streams an object instead of
// reading it into memory: the most of a note that is indexed (4 MiB).
const largeObject = 4 << 20

// ErrNotRepository is returned when no git repository contains the folder.
var ErrNotRepository = errors.New("not a git repository (or any parent up to the filesystem root)")

// Repo is a git working tree and the repository behind it. Objects are read
// through go-git's storage layer directly: omh needs no remotes, transports
// or signatures, and leaving them out of the binary halves its start-up time.
type Repo struct {
	Objects   *Objects
	Root      string // the working tree's top folder
	GitDir    string // this working tree's git directory (differs per linked worktree)
	CommonDir string // the directory every worktree of the clone shares

	// Detected is the config a command detected for a repository that has
	// none (kept in the cache folder, never in the working tree): what
	// LoadConfig reads while ConfigPath is absent.
	Detected []byte

	// Watcher, when a long-lived process started one (localscan.Watch),
	// answers which paths changed before git's core.fsmonitor is asked.
	Watcher Watcher

	// stepTrees are the trees the last StepOf or DiffNotes read: walking
	// history back, a commit's parent tree is the next step's own, so each
	// is read once.
	stepMu    sync.Mutex
	stepTrees map[plumbing.Hash][]byte
}

// Watcher tells which paths of a working tree changed since a token it
// handed out. The repository carries it so that every scan of the working
// tree, wherever it starts, asks it first. Close it when done.
type Watcher interface {
	// Query returns the paths (relative to the repository root) changed
	// since token, and the token to ask with next time; everything is
	// true when the watcher cannot say (an unknown or empty token,
	// events dropped): every file must be checked.
	Query(token string) (next string, paths []string, everything bool, err error)
	Close() error
}

// objectCache bounds go-git's cache of decoded objects (96 MB by default).
// omh reads each note's blob once, and walks long histories through git log
// (see gitcli.LogHistory), so a large cache only held blobs nobody reads
// again: a cold index of 100,000 notes peaked at 1,053 MiB with the default.
const objectCache = 16 * cache.MiByte

// Open finds the working tree containing dir and opens it. Linked
// worktrees, whose .git is a file pointing into the main repository, open
// too.
func Open(dir string) (*Repo, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("resolving %s: %w", dir, err)
	}
	root, gitDir, err := findGitDir(abs)
	if err != nil {
		return nil, err
	}
	common := gitDir
	if b, err := os.ReadFile(filepath.Join(gitDir, "commondir")); err == nil {
		common = strings.TrimSpace(string(b))
		if !filepath.IsAbs(common) {
			common = filepath.Join(gitDir, common)
		}
		common = filepath.Clean(common)
	}
	if _, err := os.Stat(filepath.Join(common, "objects")); err != nil {
		return nil, fmt.Errorf("%s is not a usable git directory: %w", common, err)
	}
	fs := dotgit.NewRepositoryFilesystem(osfs.New(gitDir), osfs.New(common))
	// Packfiles stay open between object reads; go-git otherwise reopens
	// and re-reads a pack's index for every object. An object larger than
	// a note is indexed from is read as a stream, never whole: go-git
	// otherwise holds it in memory, and a 500 MB note took 1.9 GB.
	storage := filesystem.NewStorageWithOptions(fs, cache.NewObjectLRU(objectCache),
		filesystem.Options{KeepDescriptors: true, LargeObjectThreshold: largeObject})
	return &Repo{Objects: newObjects(storage, common), Root: root, GitDir: gitDir, CommonDir: common}, nil
}

// ErrNoWorktree is returned for a bare repository, or a folder inside a
// git directory: there are objects but no working tree to read notes from.
var ErrNoWorktree = errors.New("is a git directory without a working tree (a bare repository, or a folder inside .git); omh reads a checkout: clone it or add a worktree")

// isGitDir reports whether d is a git directory itself: what git checks
// (HEAD, objects and refs) before calling a folder a repository.
func isGitDir(d string) bool {
	for _, name := range []string{"HEAD", "objects", "refs"} {
		if _, err := os.Stat(filepath.Join(d, name)); err != nil {
			return false
		}
	}
	return true
}

func findGitDir(start string) (root, gitDir string, err error) {
	for d := start; ; {
		if isGitDir(d) {
			return "", "", fmt.Errorf("%s %w", d, ErrNoWorktree)
		}
		dotGit := filepath.Join(d, ".git")
		fi, err := os.Stat(dotGit)
		switch {
		case err == nil && fi.IsDir():
			return d, dotGit, nil
		case err == nil:
			b, err := os.ReadFile(dotGit)
			if err != nil {
				return "", "", fmt.Errorf("reading %s: %w", dotGit, err)
			}
			target, ok := strings.CutPrefix(strings.TrimSpace(string(b)), "gitdir:")
			if !ok {
				return "", "", fmt.Errorf("%s is neither a directory nor a gitdir pointer", dotGit)
			}
			target = strings.TrimSpace(target)
			if !filepath.IsAbs(target) {
				target = filepath.Join(d, target)
			}
			return d, filepath.Clean(target), nil
		case !errors.Is(err, fs.ErrNotExist):
			return "", "", fmt.Errorf("looking for %s: %w", dotGit, err)
		}
		parent := filepath.Dir(d)
		if parent == d {
			return "", "", ErrNotRepository
		}
		d = parent
	}
}

// Close releases the files the repository keeps open.
func (r *Repo) Close() error { return r.Objects.Close() }

// Head returns the commit HEAD points at, or the zero hash in a repository
// without commits. A detached HEAD is fine.
func (r *Repo) Head() (plumbing.Hash, error) {
	ref, err := storer.ResolveReference(r.Objects, plumbing.HEAD)
	if errors.Is(err, plumbing.ErrReferenceNotFound) {
		return plumbing.ZeroHash, nil
	}
	if err != nil {
		return plumbing.ZeroHash, fmt.Errorf("reading HEAD: %w", err)
	}
	return ref.Hash(), nil
}

// Shallow lists the commits whose parents this clone does not have.
func (r *Repo) Shallow() ([]plumbing.Hash, error) {
	return r.Objects.Shallow()
}

// Commit reads a commit object.
func (r *Repo) Commit(h plumbing.Hash) (*object.Commit, error) {
	c, err := object.GetCommit(r.Objects, h)
	if err != nil {
		return nil, fmt.Errorf("reading commit %s: %w", h, err)
	}
	return c, nil
}

// ConfigValue reads a git setting, the repository's own first, then the
// user's global one; "" when neither sets it.
func (r *Repo) ConfigValue(section, key string) string {
	if cfg, err := r.Objects.Config(); err == nil {
		if v := cfg.Raw.Section(section).Option(key); v != "" {
			return v
		}
	}
	if cfg, err := config.LoadConfig(config.GlobalScope); err == nil {
		return cfg.Raw.Section(section).Option(key)
	}
	return ""
}

// PartialClone reports whether objects missing here may be fetched from a
// remote: git names such a remote in extensions.partialClone or, before
// 2.44, marks it promisor. Only then is a missing object expected.
func (r *Repo) PartialClone() bool {
	cfg, err := r.Objects.Config()
	if err != nil {
		return false
	}
	if cfg.Raw.Section("extensions").Option("partialclone") != "" {
		return true
	}
	for _, remote := range cfg.Raw.Section("remote").Subsections {
		if remote.Option("promisor") == "true" {
			return true
		}
	}
	return false
}

// ReadBlob returns at most limit bytes of a blob and its full size. go-git
// reads a packed object over 16 KiB, and a loose one over largeObject, by
// its file's path after finding it; a repack in between deletes that file
// (33 notes of vba-docs skipped as "open …pack: no such file"), so the
// blob is read once more after the packs are listed again.
func (r *Repo) ReadBlob(id plumbing.Hash, limit int64) ([]byte, int64, error) {
	head, size, err := r.readBlob(id, limit)
	if Moved(err) && r.Objects.Rescan() {
		head, size, err = r.readBlob(id, limit)
	}
	if err != nil {
		return nil, 0, fmt.Errorf("reading blob %s: %w", id, err)
	}
	return head, size, nil
}

func (r *Repo) readBlob(id plumbing.Hash, limit int64) ([]byte, int64, error) {
	b, err := object.GetBlob(r.Objects, id)
	if err != nil {
		return nil, 0, err
	}
	rd, err := b.Reader()
	if err != nil {
		return nil, 0, err
	}
	defer rd.Close()
	head, err := io.ReadAll(io.LimitReader(rd, limit))
	if err != nil {
		return nil, 0, err
	}
	return head, b.Size, nil
}

// ReadNote returns a note's bytes, up to limit: a team note's blob from
// git's objects (never the working tree, which may differ), a local note's
// file as it is now (path relative to the working tree, or absolute in the
// private folder). Show reads notes this way; what was cut by a
// snapshot's offsets is read by ReadIndexed.
func (r *Repo) ReadNote(layer vault.Layer, path string, blob plumbing.Hash, limit int64) ([]byte, error) {
	if layer == vault.Team {
		content, _, err := r.ReadBlob(blob, limit)
		return content, err
	}
	path = r.localPath(path)
	_, content, _, err := ReadFile(path, limit)
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", path, err)
	}
	return content, nil
}

// ReadIndexed returns, up to limit, the bytes of the blob a snapshot
// indexed for a note: what its offsets (units, headings, body start) point
// into. A local note's file is read and must hash to blob; a file another
// process rewrote or deleted since then is read from git's objects when
// they hold the blob (a staged copy), else the error is safefile.ErrChangedSince.
// Cutting the new text at the old offsets quoted words from the middle of
// other ones under the old blob's id, and a deleted file failed the whole
// answer.
func (r *Repo) ReadIndexed(layer vault.Layer, path string, blob plumbing.Hash, limit int64) ([]byte, error) {
	if layer == vault.Team {
		content, _, err := r.ReadBlob(blob, limit)
		return content, err
	}
	abs := r.localPath(path)
	// The file was read when the snapshot was built: failing to read it
	// now (gone, replaced by a folder, made unreadable) is a change too.
	if id, content, _, err := ReadFile(abs, limit); err == nil && id == blob {
		return content, nil
	}
	if content, _, err := r.ReadBlob(blob, limit); err == nil {
		return content, nil
	}
	return nil, fmt.Errorf("%s %w", path, safefile.ErrChangedSince)
}

// localPath is a local note's file: path is relative to the working tree,
// or absolute in the private folder.
func (r *Repo) localPath(path string) string {
	if filepath.IsAbs(path) {
		return path
	}
	return filepath.Join(r.Root, filepath.FromSlash(path))
}
