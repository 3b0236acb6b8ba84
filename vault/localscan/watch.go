package localscan

import (
	"github.com/omh-notes/omh/vault/gitrepo"
)

// Watching is for a process that lives long and reads the store many times
// (omh mcp): instead of a stat of every note per read, it asks a watcher it
// started which paths changed since the last read. Every answer stays what
// a full scan gives: a watcher that cannot say (events dropped, a watch it
// could not add, a token it did not hand out) answers "everything".

// Watch starts watching the working tree for a process that reads the
// store many times, and makes the repository's scans ask it before they
// ask git's core.fsmonitor. Where the platform has no watcher omh can use,
// or starting one fails, it returns nil and scans stat every file as
// usual.
func Watch(r *gitrepo.Repo) gitrepo.Watcher {
	w, err := watchTree(r.Root)
	if err != nil || w == nil {
		return nil
	}
	r.Watcher = w
	return w
}
