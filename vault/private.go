package vault

import (
	"crypto/sha256"
	"encoding/hex"
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
		return filepath.Abs(dir)
	}
	if dir := r.ConfigValue("omh", "local"); dir != "" {
		if !filepath.IsAbs(dir) {
			dir = filepath.Join(r.Root, dir)
		}
		return filepath.Clean(dir), nil
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
