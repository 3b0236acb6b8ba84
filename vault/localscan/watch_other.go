//go:build !linux

package localscan

import "github.com/omh-notes/omh/vault"

// watchTree has no watcher to offer outside Linux: there, git's own
// monitor (core.fsmonitor) is the way to spare scans.
func watchTree(root string) (vault.Watcher, error) { return nil, nil }
