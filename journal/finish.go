// Finishing a change, or undoing what it did when a step fails.

package journal

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/omh-notes/omh/vault/disk"
)

// finishOrUndo finishes m; when a step fails, it undoes what was done
// (through a manifest of its own, so a crash while undoing is finished the
// same way) and returns the failure. recovering says another process began
// the change: a git command it started may still hold the index.
func finishOrUndo(dir string, m manifest, recovering bool, warn func(string)) error {
	err := finishOrUndoLocked(dir, m, recovering, warn)
	// A change left to finish later must not keep git from changing its
	// index meanwhile: the process that finishes it takes the lock again.
	releaseIndex(dir)
	return err
}

func finishOrUndoLocked(dir string, m manifest, recovering bool, warn func(string)) error {
	done, err := finish(dir, m, recovering, warn)
	if err == nil || m.Undoing || errors.Is(err, errNeedsLock) || errors.Is(err, ErrNotDurable) {
		return err
	}
	if recovering {
		// The process that began the change may have made git steps
		// this one could not: put back all the entries.
		done = staged{index: true, add: true}
	}
	undo := m.inverse(done)
	if werr := writeManifest(dir, undo); werr != nil {
		return fmt.Errorf("%w; undoing it failed too: %v", err, werr)
	}
	if _, uerr := finish(dir, undo, recovering, warn); uerr != nil {
		return fmt.Errorf("%w; undoing it failed too: %v", err, uerr)
	}
	return undoneError{err}
}

// ErrNotDurable is a step made whose folder the disk would not sync: the
// change stands, and is finished rather than undone (undoing needs the
// same disk to keep its writes). While its manifest is there, the next
// command (or omh recover) finishes it; once it is gone, the change is
// made and only its durability is in doubt.
var ErrNotDurable = errors.New("the disk did not confirm it keeps the change")

// notDurable marks err, a failure to sync what a step made, as
// ErrNotDurable.
func notDurable(err error) error { return fmt.Errorf("%w: %w", ErrNotDurable, err) }

// undoneError is a change that failed and was undone: the store is as
// before it.
type undoneError struct{ err error }

func (e undoneError) Error() string { return e.err.Error() }
func (e undoneError) Unwrap() error { return e.err }

// IsUndone reports whether err is a change that failed and was undone.
func IsUndone(err error) bool {
	var u undoneError
	return errors.As(err, &u)
}

// staged says which of a change's git steps were made: each is one git
// command, made whole or not at all.
type staged struct{ index, add bool }

// finish makes every change of m that is not made yet, then removes the
// manifest and the payloads.
func finish(dir string, m manifest, recovering bool, warn func(string)) (staged, error) {
	var done staged
	left := map[string]bool{} // paths left as someone else changed them
	for _, o := range m.Ops {
		crash.Step()
		ok, err := o.apply(dir)
		if err != nil {
			return done, fmt.Errorf("%s: %w", m.Command, err)
		}
		if !ok {
			left[o.Path] = true
			if warn != nil {
				warn(fmt.Sprintf("%s: %s was changed by something else meanwhile; it was left as it is", m.Command, o.shown()))
			}
		}
	}
	var add []string
	for _, p := range m.Add {
		if !left[filepath.Join(m.Root, filepath.FromSlash(p))] {
			add = append(add, p)
		}
	}
	if m.Index != "" || len(add) > 0 {
		var err error
		if done, err = stageIndex(dir, m, add, recovering); err != nil {
			return done, err
		}
	}
	// The changed folders' entries (and git's index, beside the journal's
	// folder) are on disk before the manifest goes.
	folders := []string{dir}
	for _, o := range m.Ops {
		folders = append(folders, filepath.Dir(o.Path))
	}
	if err := flush(folders); err != nil {
		return done, fmt.Errorf("%s: %w", m.Command, notDurable(err))
	}
	crash.Step()
	if err := os.Remove(filepath.Join(dir, manifestName)); err != nil {
		return done, fmt.Errorf("%s: %w", m.Command, err)
	}
	clearPayloads(dir)
	if err := disk.SyncDir(dir); err != nil {
		return done, fmt.Errorf("%s: %w", m.Command, notDurable(err))
	}
	return done, nil
}

// inverse is the change that undoes m: its ops reversed, each turned
// around, and the index entries of the git steps made put back.
func (m manifest) inverse(made staged) manifest {
	u := manifest{Command: "undoing " + m.Command, Root: m.Root, Undoing: true}
	if made.add {
		u.Index += m.UndoAdd
	}
	if made.index {
		u.Index += m.UndoIndex
	}
	for i := len(m.Ops) - 1; i >= 0; i-- {
		o := m.Ops[i]
		switch {
		case o.Kind == opPut && o.Before == "":
			u.Ops = append(u.Ops, op{Kind: opRemove, Path: o.Path, Before: o.After, Prune: o.Within})
		case o.Kind == opPut || o.Kind == opRemove:
			u.Ops = append(u.Ops, op{Kind: opPut, Path: o.Path, Before: o.After, After: o.Before, Payload: o.Backup, Mode: o.BackupMode})
		case o.Kind == opMove:
			u.Ops = append(u.Ops, op{Kind: opMove, From: o.Path, Path: o.From, Prune: o.Within})
		case o.Kind == opMkdir:
			u.Ops = append(u.Ops, op{Kind: opRmdir, Path: o.Path})
		}
	}
	return u
}

// gitError is a failure of git itself.
type gitError struct{ err error }

func (e gitError) Error() string { return e.err.Error() }
func (e gitError) Unwrap() error { return e.err }

// IsGit reports whether err is git failing.
func IsGit(err error) bool {
	var g gitError
	return errors.As(err, &g)
}

// clearPayloads removes what a change prepared, once it is finished or
// was never committed.
func clearPayloads(dir string) {
	releaseIndex(dir)
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if name := e.Name(); prepared(name) {
			os.Remove(filepath.Join(dir, name))
		}
	}
}

func idOf(h plumbing.Hash) string {
	if h.IsZero() {
		return ""
	}
	return h.String()
}

func (o op) shown() string {
	if o.Kind == opMove {
		return o.From
	}
	return o.Path
}
