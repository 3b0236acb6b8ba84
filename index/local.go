package index

import (
	"cmp"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/omh-notes/omh/vault"
	"github.com/omh-notes/omh/vault/gitrepo"
	"github.com/omh-notes/omh/vault/localscan"
)

// localChanges finds the private notes and uncommitted working copies and
// records what differs from the snapshot.
func (rf *refresher) localChanges(cfg vault.Config) error {
	st := &rf.snap.state
	private, err := rf.repo.PrivateDir(plumbing.NewHash(st.Root))
	if err != nil {
		return err
	}
	worktree := rf.target.worktree
	var worktreeState *localscan.ScanState
	if worktree {
		worktreeState = rf.snap.worktree
	}
	scan := localscan.LocalScan{Repo: rf.repo, NotesDir: st.NotesDir, Exclude: cfg.Exclude, Private: private}
	found, skips, err := scan.Run(rf.snap.private, worktreeState, rf.opt.now())
	if err != nil {
		return err
	}
	for _, s := range skips {
		rf.warn("%s skipped: %s", s.Path, s.Reason)
		if s.Unreadable() {
			rf.skipped = append(rf.skipped, s.Path)
		}
	}
	stored, err := rf.localDocs()
	if err != nil {
		return err
	}
	byPath := map[string]*doc{}
	for _, d := range stored {
		byPath[d.path] = d
	}
	seen := map[string]bool{}
	if worktree {
		rf.deleted = []string{}
	}
	for _, f := range found {
		if f.Deleted {
			rf.deleted = append(rf.deleted, f.Path)
			continue
		}
		seen[f.Path] = true
		old := byPath[f.Path]
		part, abs := partWorktree, filepath.Join(rf.repo.Root, filepath.FromSlash(f.Path))
		if f.Private {
			part, abs = partBase, f.Path
		}
		if old != nil && old.part == part && old.mtime == f.Mtime && old.oid == f.Blob {
			continue
		}
		oid := f.Blob
		nd, err := rf.newDoc(old, part, vault.Local, f.Path, f.Key, oid, func() ([]byte, int64, error) {
			id, content, size, err := gitrepo.ReadFile(abs, maxNoteBytes)
			if err == nil && id != oid {
				err = fmt.Errorf("%s changed while being indexed", abs)
			}
			return content, size, err
		})
		if err != nil {
			return err
		}
		if nd != nil && rf.target.day != "" {
			// As of a day, a private note exists only if it was recorded
			// by then.
			b, err := rf.blob(nd.blob)
			if err != nil {
				return err
			}
			if b.meta.Recorded == "" || b.meta.Recorded > rf.target.day {
				nd = nil
			}
		}
		if nd != nil {
			nd.mtime = f.Mtime
		}
		if nd != nil || old != nil {
			rf.changes = append(rf.changes, docChange{old: old, new: nd})
		}
	}
	for _, d := range stored {
		if !seen[d.path] && (worktree || d.part == partBase) {
			rf.changes = append(rf.changes, docChange{old: d})
		}
	}
	return nil
}

// markGone marks the team documents of the files the working tree has
// lost as gone, and unmarks those it has again. A refresh that did not
// scan the working tree keeps the last scan's list, marking again the
// documents it rewrote.
func (rf *refresher) markGone() error {
	st := &rf.snap.state
	now := st.Deleted
	if rf.deleted != nil {
		now = rf.deleted
		slices.Sort(now)
	}
	paths := append(slices.Clone(st.Deleted), now...)
	slices.Sort(paths)
	for _, p := range slices.Compact(paths) {
		d, err := rf.teamDocAt(p)
		if err != nil {
			return err
		}
		if d == nil {
			continue
		}
		info := getInfo(rf.snap.info, d.ord)
		if gone := slices.Contains(now, p); info.gone != gone {
			info.gone = gone
			rf.snap.info = putInfo(rf.snap.info, d.ord, info)
		}
	}
	st.Deleted = now
	return nil
}

// Local documents are read through the index that holds only them
// (doc_local), named outright: without table statistics SQLite otherwise
// prefers the primary key's order and reads every document of the snapshot,
// on every command. The layer is written out, not a parameter, as a partial
// index requires.
const (
	localDocs = "d.layer = " + string(rune('0'+vault.Local))
	docLocal  = "doc d INDEXED BY doc_local"
)

// localDocs loads the local documents, in order of their numbers.
func (rf *refresher) localDocs() ([]*doc, error) {
	out, err := rf.queryDocs(`SELECT `+strings.Replace(docColumns, "doc d", docLocal, 1)+` WHERE d.snap = ? AND `+localDocs, rf.snap.id)
	slices.SortFunc(out, func(a, b *doc) int { return cmp.Compare(a.ord, b.ord) })
	return out, err
}
