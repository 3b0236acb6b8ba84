package gitrepo

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"

	"github.com/omh-notes/omh/vault"
)

// LoadConfig reads the repository's config: ConfigPath in the working
// tree, else the settings detected for it (Detected), else the default.
func (r *Repo) LoadConfig() (vault.Config, error) {
	if len(r.Detected) > 0 {
		if _, err := os.Lstat(filepath.Join(r.Root, filepath.FromSlash(vault.ConfigPath))); errors.Is(err, fs.ErrNotExist) {
			return vault.ParseConfig(r.Detected, r.Root)
		}
	}
	return vault.LoadConfig(r.Root)
}

// ConfigAt reads the config as it was committed in commit's tree. A commit
// without one is read with today's config (LoadConfig): the notes root and
// the dialect chosen since (by hand, or detected by omh for a vault without
// a config) read the past as they read the present, so a note has one key
// now and then.
func (r *Repo) ConfigAt(commit plumbing.Hash) (vault.Config, error) {
	if commit.IsZero() {
		return r.LoadConfig()
	}
	c, err := r.Commit(commit)
	if err != nil {
		return vault.Config{}, err
	}
	f, err := c.File(vault.ConfigPath)
	if errors.Is(err, object.ErrFileNotFound) {
		return r.LoadConfig()
	}
	if err != nil {
		return vault.Config{}, fmt.Errorf("reading %s at %s: %w", vault.ConfigPath, commit, err)
	}
	raw, err := f.Contents()
	if err != nil {
		return vault.Config{}, fmt.Errorf("reading %s at %s: %w", vault.ConfigPath, commit, err)
	}
	return vault.ParseConfig([]byte(raw), r.Root)
}
