package gitrepo

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/omh-notes/omh/vault"
)

// PrivateDir is where this machine keeps the repository's private notes:
// $OMH_LOCAL_DIR, else git config omh.local, else
// $XDG_DATA_HOME/omh/<root commit>/. Keyed by the root commit, the folder is
// the same for every clone and worktree of one project; before the first
// commit there is no root, and the folder is keyed by the git directory.
//
// OMH_LOCAL_DIR must be absolute: a relative one would name another folder
// from each folder omh runs in (and from -C), so notes written from one
// would be missing from another. A relative XDG_DATA_HOME is ignored, as
// the XDG base directory specification says. omh.local, kept in the
// repository's own config, may be relative to the working tree.
func (r *Repo) PrivateDir(root plumbing.Hash) (string, error) {
	area, keyed, from, err := r.privateArea()
	if err != nil || !keyed {
		return area, err
	}
	early := filepath.Join(area, noCommitsName(r.CommonDir))
	if err := r.checkPrivateDir(early, from); err != nil {
		return "", err
	}
	if root.IsZero() {
		return early, nil
	}
	dir := filepath.Join(area, root.String())
	if err := carryOver(early, dir); err != nil {
		return "", fmt.Errorf("moving the private notes written before the first commit from %s to %s: %w", early, dir, err)
	}
	return dir, nil
}

// PrivateArea is the folder the private folder lies in whatever the root
// commit: the private folder itself when set (OMH_LOCAL_DIR, omh.local),
// else omh's folder of XDG_DATA_HOME, which holds one per root commit. It
// is where a change may write outside the repository, found without the
// root commit.
func (r *Repo) PrivateArea() (string, error) {
	area, _, _, err := r.privateArea()
	return area, err
}

// privateArea is PrivateArea, whether the private folder is the one keyed
// by the root commit inside it, and the setting it comes from.
func (r *Repo) privateArea() (area string, keyed bool, from string, err error) {
	if dir := os.Getenv("OMH_LOCAL_DIR"); dir != "" {
		if !filepath.IsAbs(dir) {
			return "", false, "", fmt.Errorf("%w: OMH_LOCAL_DIR is %s, a relative path; set it to an absolute one (outside the repository), or unset it for the default folder", ErrBadPrivateDir, dir)
		}
		dir = filepath.Clean(dir)
		return dir, false, "", r.checkPrivateDir(dir, "OMH_LOCAL_DIR")
	}
	if dir := r.ConfigValue("omh", "local"); dir != "" {
		if !filepath.IsAbs(dir) {
			dir = filepath.Join(r.Root, dir)
		}
		dir = filepath.Clean(dir)
		return dir, false, "", r.checkPrivateDir(dir, "git config omh.local")
	}
	base, from := os.Getenv("XDG_DATA_HOME"), "XDG_DATA_HOME"
	if !filepath.IsAbs(base) {
		home, err := os.UserHomeDir()
		if err != nil {
			return "", false, "", fmt.Errorf("finding the private notes folder: %w", err)
		}
		if !filepath.IsAbs(home) {
			return "", false, "", fmt.Errorf("%w: HOME is %s, a relative path, and XDG_DATA_HOME is not set to an absolute one; set either, or OMH_LOCAL_DIR", ErrBadPrivateDir, home)
		}
		base, from = filepath.Join(home, ".local", "share"), "HOME"
	}
	return filepath.Join(base, "omh"), true, from, nil
}

// noCommitsName names the private folder of a repository without commits,
// which has no root commit to be keyed by.
func noCommitsName(commonDir string) string {
	sum := sha256.Sum256([]byte(commonDir))
	return "no-commits-" + hex.EncodeToString(sum[:8])
}

// carryOver moves the private notes written before the repository's first
// commit (from) into the folder keyed by its root commit (to), so a note
// written then is still found after the commit: the first command that
// asks for the folder moves them, at the cost of one stat afterwards.
// Where to does not exist the folder is renamed whole; otherwise each file
// is linked into to, under a free name when its own is taken by another
// content, and then removed from from, so whichever process does it and
// wherever one stops, no note is lost or replaced and a second run
// finishes the first.
func carryOver(from, to string) error {
	if _, err := os.Lstat(from); errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
		return err
	}
	if err := os.Rename(from, to); err == nil {
		return nil
	}
	var dirs []string
	err := filepath.WalkDir(from, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			dirs = append(dirs, path)
			return nil
		}
		rel, err := filepath.Rel(from, path)
		if err != nil {
			return err
		}
		return moveFree(path, filepath.Join(to, rel))
	})
	if err != nil {
		return err
	}
	for i := len(dirs) - 1; i >= 0; i-- {
		os.Remove(dirs[i]) // emptied; one that is not stays, with what it holds
	}
	return nil
}

// moveFree moves the file src to dst, or, when dst holds another content,
// to the first of dst-2, dst-3, … (before the extension) that is free or
// holds the same content; src is removed once its content is in place.
func moveFree(src, dst string) error {
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return err
	}
	ext := filepath.Ext(dst)
	stem := strings.TrimSuffix(dst, ext)
	for n := 1; ; n++ {
		name := dst
		if n > 1 {
			name = fmt.Sprintf("%s-%d%s", stem, n, ext)
		}
		err := os.Link(src, name)
		if err == nil || (errors.Is(err, fs.ErrExist) && sameFile(src, name)) {
			return os.Remove(src)
		}
		if !errors.Is(err, fs.ErrExist) {
			return err
		}
	}
}

// sameFile reports whether a and b hold the same bytes.
func sameFile(a, b string) bool {
	x, err := os.ReadFile(a)
	if err != nil {
		return false
	}
	y, err := os.ReadFile(b)
	return err == nil && bytes.Equal(x, y)
}

// ErrBadPrivateDir marks a private folder set to something omh cannot use.
var ErrBadPrivateDir = errors.New("bad private folder")

// checkPrivateDir refuses a private folder, set by the user in from, that
// is a file, the file system's root, holds the working tree or lies in it
// or in git's folder: one gives no private notes without a word, another
// makes every file of the repository (and of /proc) a private note, the
// last two write private notes where git would commit them or where they
// are no notes at all, and list every note twice.
func (r *Repo) checkPrivateDir(dir, from string) error {
	fi, err := os.Stat(dir)
	switch {
	case err == nil && !fi.IsDir():
		return fmt.Errorf("%w: %s (from %s) is a file, not a folder", ErrBadPrivateDir, dir, from)
	case filepath.Dir(dir) == dir:
		return fmt.Errorf("%w: %s (from %s) is the root of the file system", ErrBadPrivateDir, dir, from)
	case within(dir, r.Root):
		return fmt.Errorf("%w: %s (from %s) holds the repository %s; private notes live outside it", ErrBadPrivateDir, dir, from, r.Root)
	}
	for _, inside := range []string{r.Root, r.GitDir, r.CommonDir} {
		if inside != "" && within(inside, dir) {
			return fmt.Errorf("%w: %s (from %s) is inside the repository %s (private notes there would be committed, read twice or mixed with git's own files); set %s to a folder outside it", ErrBadPrivateDir, dir, from, r.Root, from)
		}
	}
	return nil
}

// within is vault.Within, also through symbolic links.
func within(dir, path string) bool {
	_, ok := vault.RelativeTo(dir, path)
	return ok
}

// RootOf follows first parents from commit to the first commit of its
// history, or to the boundary of a shallow clone.
func (r *Repo) RootOf(commit plumbing.Hash, shallow map[plumbing.Hash]bool) (plumbing.Hash, error) {
	for {
		if shallow[commit] {
			return commit, nil
		}
		c, err := r.Commit(commit)
		if err != nil {
			return plumbing.ZeroHash, err
		}
		if len(c.ParentHashes) == 0 {
			return commit, nil
		}
		commit = c.ParentHashes[0]
	}
}
