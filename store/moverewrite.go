package store

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"path/filepath"

	"github.com/omh-notes/omh/index"
	"github.com/omh-notes/omh/reply"
	"github.com/omh-notes/omh/vault"
	"github.com/omh-notes/omh/vault/gitcli"
	"github.com/omh-notes/omh/vault/gitrepo"
	"github.com/omh-notes/omh/vault/rename"
)

// What an mv rewrites besides the note: the files linking to it, found on
// disk as they stand, their links planned by package rename, and the
// version git's index holds of a file with unstaged edits.

// onDisk leaves out the committed notes whose file is gone from the working
// tree (renamed or deleted, not yet committed).
func onDisk(root string, notes []index.StoredNote) []index.StoredNote {
	out := notes[:0:0]
	for _, n := range notes {
		if n.Note.Layer == vault.Team {
			if _, err := os.Lstat(filepath.Join(root, filepath.FromSlash(n.Note.Path))); errors.Is(err, fs.ErrNotExist) {
				continue
			}
		}
		out = append(out, n)
	}
	return out
}

// renameNotes are the store's notes as a rename sees them.
func renameNotes(notes []index.StoredNote) []rename.Note {
	out := make([]rename.Note, len(notes))
	for i, n := range notes {
		out[i] = rename.Note{Key: n.Note.Key, Path: n.Note.Path, Aliases: n.Parsed.Aliases}
	}
	return out
}

// fromRename gives a rename's refusal the code omh reports it with.
func fromRename(err error) error {
	var r *rename.Refusal
	if errors.As(err, &r) {
		return refuse(r.Code, r.Err)
	}
	return err
}

// gatherFiles lists the store's files as they are on disk: a committed
// note counts through its working copy when that differs, a committed note
// deleted from the working tree not at all.
func (p *movePlan) gatherFiles(notes []index.StoredNote) error {
	edited := map[string]bool{}
	for _, n := range notes {
		if n.Worktree {
			edited[n.Note.Path] = true
		}
	}
	var tracked []string
	for _, n := range notes {
		if n.Note.Layer == vault.Team && edited[n.Note.Path] {
			continue
		}
		f := &moveFile{note: n, shown: n.Note.Path, before: n.Note.Key}
		f.abs = n.Note.Path
		if !n.Private {
			f.abs = filepath.Join(p.root, filepath.FromSlash(n.Note.Path))
			if _, err := os.Lstat(f.abs); err != nil {
				continue
			}
			tracked = append(tracked, n.Note.Path)
		}
		if f.before == p.oldKey {
			f.moved = true
			p.moved = f
		}
		p.files = append(p.files, f)
	}
	if p.moved == nil && !p.relink {
		return refuse(reply.NotFound, fmt.Errorf("nothing was renamed: %s is not on disk", p.fromShown))
	}
	if len(tracked) == 0 {
		return nil
	}
	// Which files git tracks and which have unstaged changes: a rewritten
	// file is staged only when the rewrite is its only change.
	inIndex, err := gitcli.Tracked(p.root)
	if err != nil {
		return err
	}
	dirty, err := gitcli.Unstaged(p.root)
	if err != nil {
		return err
	}
	held, changed := setOf(inIndex), setOf(dirty)
	for _, f := range p.files {
		if !f.note.Private {
			f.tracked, f.dirty = held[f.shown], changed[f.shown]
		}
	}
	return nil
}

func setOf(paths []string) map[string]bool {
	set := make(map[string]bool, len(paths))
	for _, p := range paths {
		set[p] = true
	}
	return set
}

// planRewrites works out every link to rewrite and each file's new
// content (rename.PlanRename), reading the files as they are on disk, and
// for a tracked file with unstaged changes the same rewrite of the version
// git's index holds (stagedRewrites).
func (p *movePlan) planRewrites() error {
	files := make([]rename.File, len(p.files))
	for i, f := range p.files {
		files[i] = rename.File{Key: f.before, Shown: f.shown, Parsed: f.note.Parsed, Blob: f.note.Note.Blob,
			Read: func() ([]byte, error) { return os.ReadFile(f.abs) },
			Open: func() (io.ReadCloser, error) { return os.Open(f.abs) }}
	}
	plan, err := p.planFiles(files)
	if err != nil {
		return err
	}
	for i, f := range p.files {
		f.content, f.out, f.links = plan.Files[i].Content, plan.Files[i].Out, plan.Files[i].Links
	}
	p.notices = plan.Notices
	return p.stagedRewrites()
}

// planFiles plans the rewrite of files: a rename, or a relink.
func (p *movePlan) planFiles(files []rename.File) (rename.Plan, error) {
	plan, err := rename.PlanRename(p.names, files, p.oldKey, p.newKey, p.dialect)
	if p.relink {
		plan, err = rename.PlanRelink(p.names, files, p.oldKey, p.newKey, p.dialect)
	}
	return plan, fromRename(err)
}

// stagedRewrites plans, for each rewritten tracked file with unstaged
// changes, the same rewrite of the version git's index holds: staging the
// file would stage the user's edits with the rewrite, and leaving it
// unstaged would leave a plain git commit holding the broken link. A
// version that cannot be rewritten (the user's edits are what make the
// link rewritable, say) refuses the whole change, nothing written.
func (p *movePlan) stagedRewrites() error {
	for _, f := range p.files {
		if f.out == nil || !f.tracked || !f.dirty {
			continue
		}
		entry, err := gitcli.IndexEntry(p.root, f.shown)
		if err != nil {
			return refuse(reply.GitFailed, fmt.Errorf("nothing was renamed: %s has unstaged changes, and %w", f.shown, err))
		}
		content, _, err := p.repo.ReadBlob(entry.Blob, math.MaxInt64)
		if err != nil {
			return fmt.Errorf("nothing was renamed: reading %s as git's index holds it: %w", f.shown, err)
		}
		shown := f.shown + " (as staged)"
		plan, err := p.planFiles([]rename.File{{Key: f.before, Shown: shown, Parsed: vault.ParseNote(content), Blob: entry.Blob,
			Read: func() ([]byte, error) { return content, nil },
			Open: func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(content)), nil }}})
		if err != nil {
			return fmt.Errorf("%w; %s has unstaged changes: stage or stash them, then run omh mv again", err, f.shown)
		}
		if out := plan.Files[0].Out; out != nil {
			f.staged = &stagedRewrite{mode: entry.Mode, content: out, blob: gitrepo.HashBytes(out)}
		}
	}
	return nil
}
