//go:build !linux

package localscan

import (
	"github.com/omh-notes/omh/vault/gitrepo"
)

// watchTree has no watcher to offer outside Linux: there, git's own
// monitor (core.fsmonitor) is the way to spare scans.
func watchTree(root string) (gitrepo.Watcher, error) { return nil, nil }
