//go:build !linux

package vault

// watchTree has no watcher to offer outside Linux: there, git's own
// monitor (core.fsmonitor) is the way to spare scans.
func watchTree(root string) (Watcher, error) { return nil, nil }
