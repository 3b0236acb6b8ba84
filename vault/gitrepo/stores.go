package gitrepo

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/go-git/go-git/v5/config"

	"github.com/omh-notes/omh/vault"
)

// PersonalStore is a store of the user's own, from git config
// omh.store.NAME, or why the setting cannot be used.
type PersonalStore struct {
	vault.StoreRef
	Problem string // why the setting names no usable folder; "" when it does
}

// PersonalStores are the stores a person adds for themself, never
// committed: `git config omh.store.NAME PATH` in the repository (this
// clone only; a relative path is from its working tree) or with --global
// (every repository; the path absolute, or from the home folder as
// ~/notes). The repository's own setting of a name wins. Path is absolute
// in what it returns.
func (r *Repo) PersonalStores() []PersonalStore {
	byName := map[string]PersonalStore{}
	read := func(cfg *config.Config, global bool) {
		for _, o := range cfg.Raw.Section("omh").Subsection("store").Options {
			name := strings.ToLower(o.Key)
			if _, taken := byName[name]; taken {
				continue
			}
			p := PersonalStore{StoreRef: vault.StoreRef{Name: name, Path: o.Value}}
			if err := vault.CheckStoreName(name); err != nil {
				p.Problem = fmt.Sprintf("git config omh.store.%s: %v", o.Key, err)
			} else if p.Path, p.Problem = personalPath(o.Value, r.Root, global); p.Problem != "" {
				p.Problem = fmt.Sprintf("git config omh.store.%s: %s", name, p.Problem)
			}
			byName[name] = p
		}
	}
	if cfg, err := r.Objects.Config(); err == nil {
		read(cfg, false)
	}
	if cfg, err := config.LoadConfig(config.GlobalScope); err == nil {
		read(cfg, true)
	}
	out := make([]PersonalStore, 0, len(byName))
	for _, p := range byName {
		out = append(out, p)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// personalPath makes a personal store's path absolute: ~/ is the home
// folder; a relative path is from the working tree in the repository's own
// config, and refused in the global one (it would name another folder from
// each repository).
func personalPath(p, root string, global bool) (string, string) {
	p = strings.TrimSpace(p)
	switch {
	case p == "":
		return "", "names no folder"
	case p == "~" || strings.HasPrefix(p, "~/"):
		home, err := os.UserHomeDir()
		if err != nil {
			return "", fmt.Sprintf("%s: %v", p, err)
		}
		return filepath.Join(home, p[1:]), ""
	case filepath.IsAbs(p):
		return filepath.Clean(p), ""
	case global:
		return "", fmt.Sprintf("%s is a relative path, which would name another folder from each repository; write it absolute, or from ~/", p)
	}
	return filepath.Join(root, p), ""
}
