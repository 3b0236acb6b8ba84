package vault

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/go-git/go-git/v5/plumbing"
)

// PrivateDir is where this machine keeps the repository's private notes:
// $OMH_LOCAL_DIR, else git config omh.local, else
// $XDG_DATA_HOME/omh/<root commit>/. Keyed by the root commit, the folder is
// the same for every clone and worktree of one project; before the first
// commit there is no root, and the folder is keyed by the git directory.
func (r *Repo) PrivateDir(root plumbing.Hash) (string, error) {
	if dir := os.Getenv("OMH_LOCAL_DIR"); dir != "" {
		abs, err := filepath.Abs(dir)
		if err != nil {
			return "", err
		}
		return abs, r.checkPrivateDir(abs, "OMH_LOCAL_DIR")
	}
	if dir := r.ConfigValue("omh", "local"); dir != "" {
		if !filepath.IsAbs(dir) {
			dir = filepath.Join(r.Root, dir)
		}
		dir = filepath.Clean(dir)
		return dir, r.checkPrivateDir(dir, "git config omh.local")
	}
	base := os.Getenv("XDG_DATA_HOME")
	if base == "" {
		home, err := os.UserHomeDir()
		if err != nil {
			return "", fmt.Errorf("finding the private notes folder: %w", err)
		}
		base = filepath.Join(home, ".local", "share")
	}
	name := root.String()
	if root.IsZero() {
		sum := sha256.Sum256([]byte(r.CommonDir))
		name = "no-commits-" + hex.EncodeToString(sum[:8])
	}
	return filepath.Join(base, "omh", name), nil
}

// ErrBadPrivateDir marks a private folder set to something omh cannot use.
var ErrBadPrivateDir = errors.New("bad private folder")

// checkPrivateDir refuses a private folder, set by the user in from, that
// is a file, the file system's root or holds the working tree: one gives
// no private notes without a word, the others make every file of the
// repository (and of /proc) a private note.
func (r *Repo) checkPrivateDir(dir, from string) error {
	fi, err := os.Stat(dir)
	switch {
	case err == nil && !fi.IsDir():
		return fmt.Errorf("%w: %s (from %s) is a file, not a folder", ErrBadPrivateDir, dir, from)
	case filepath.Dir(dir) == dir:
		return fmt.Errorf("%w: %s (from %s) is the root of the file system", ErrBadPrivateDir, dir, from)
	case Within(dir, r.Root) || Within(evalLinks(dir), evalLinks(r.Root)):
		return fmt.Errorf("%w: %s (from %s) holds the repository %s; private notes live outside it", ErrBadPrivateDir, dir, from, r.Root)
	}
	return nil
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
