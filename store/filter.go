package store

import (
	"fmt"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"golang.org/x/text/unicode/norm"

	"github.com/omh-notes/omh/internal/exclude"
	"github.com/omh-notes/omh/reply"
	"github.com/omh-notes/omh/vault"
	"github.com/omh-notes/omh/vault/corpus"
)

// Filter narrows which notes an answer ranks, as --type does; the notes
// linked under them are shown wherever they are. Rarity stays the whole
// store's: a filter changes which notes are shown, never a score. The zero
// Filter admits every note.
type Filter struct {
	// Tags: a note must carry every one, or a tag nested under it (a/b,
	// Dendron's a.b, under a), in any letter case.
	Tags []string
	// Path is a folder under the notes root: a note's key must be it or
	// lie under it (Dendron's hierarchy a.b lies under a too).
	Path string
	// Since is a date (YYYY-MM-DD) or a commit: only notes added or changed
	// since, by git's history, uncommitted edits included.
	Since string
}

// Empty reports whether the filter admits every note.
func (f Filter) Empty() bool { return len(f.Tags) == 0 && f.Path == "" && f.Since == "" }

// selection is a filter read against one snapshot: the notes it admits,
// and, when it admits none, the sentence that says which part of it
// matched nothing.
type selection struct {
	admit []bool // by document; nil admits every note
	// none names what no note matched ("no note is tagged `x`"); "" when
	// some note is admitted.
	none string
	// echo is the filter as the JSON answer names it, with the count of
	// notes admitted; nil without a filter.
	echo *reply.Filter
}

// only is the selection as a ranking filter; nil when it admits every note.
func (sel selection) only() func(uint32) bool {
	if sel.admit == nil {
		return nil
	}
	return func(doc uint32) bool { return int(doc) < len(sel.admit) && sel.admit[doc] }
}

// filterPart is one condition of a filter: what it says of a note and the
// notes it admits.
type filterPart struct {
	says string // "tagged `x`"
	docs []uint32
}

// selectNotes reads f against every store answering, each by its own
// settings (a tag's nesting, a folder's form, its own history for --since,
// where a commit only this repository holds is the day it was made): each
// part's notes in all of them, then the notes all parts admit among those
// of the question's layer and type.
func (a *across) selectNotes(f Filter, layer vault.Layer, typ string) (selection, error) {
	if f.Empty() {
		return selection{}, nil
	}
	var parts []filterPart
	for i, v := range a.views {
		mine := f
		since, err := a.home.store.sinceIn(v.store, f.Since)
		if err != nil {
			return selection{}, err
		}
		mine.Since = since
		own, err := v.store.filterParts(v, mine)
		if err != nil {
			return selection{}, a.storeSaid(i, err)
		}
		if parts == nil {
			parts = make([]filterPart, len(own))
			for k, p := range own {
				parts[k].says = p.says
			}
		}
		for k, p := range own {
			for _, d := range p.docs {
				parts[k].docs = append(parts[k].docs, a.union.Doc(i, d))
			}
		}
	}
	if len(parts) == 0 {
		return selection{}, nil
	}
	span := a.union.Span()
	counts := make([]int, span)
	var empty []string
	for _, p := range parts {
		n := 0
		for _, d := range p.docs {
			if inLayer(a.union.Info(d), layer) {
				counts[d]++
				n++
			}
		}
		if n == 0 {
			empty = append(empty, p.says)
		}
	}
	noun := "note"
	if layer != 0 {
		noun = layer.String() + " note"
	}
	sel := selection{admit: make([]bool, span), echo: &reply.Filter{Tags: f.Tags, Path: f.Path, Since: f.Since}}
	if len(empty) > 0 {
		// Name the parts that matched nothing at all: "no note is tagged
		// `x` or under `y`" is true of each.
		sel.none = "no " + noun + " is " + vault.OrList(empty)
		return sel, nil
	}
	admitted := 0
	for d, n := range counts {
		if n == len(parts) {
			sel.admit[d] = true
			if typ == "" || a.union.Info(uint32(d)).Type == typ {
				admitted++
			}
		}
	}
	sel.echo.Notes = admitted
	if admitted == 0 {
		says := make([]string, len(parts))
		for i, p := range parts {
			says[i] = p.says
		}
		if typ != "" {
			noun += " of type `" + typ + "`"
		}
		sel.none = "no " + noun + " is " + vault.AndList(says)
	}
	return sel, nil
}

// inLayer reports whether a note is present in the answer's layer (0: both).
func inLayer(info corpus.DocInfo, layer vault.Layer) bool {
	return info.Present && (layer == 0 || info.Layer == layer)
}

// filterParts reads each condition of f against the view's snapshot.
func (s *Store) filterParts(v *view, f Filter) ([]filterPart, error) {
	cfg, err := s.config()
	if err != nil {
		return nil, err
	}
	var parts []filterPart
	for _, tag := range f.Tags {
		tag = strings.TrimPrefix(strings.TrimSpace(tag), "#")
		if tag == "" {
			return nil, invalid(fmt.Errorf("--tag names no tag"))
		}
		docs, err := v.snap.Tagged(tag, cfg.Dialect.TagNesting())
		if err != nil {
			return nil, err
		}
		parts = append(parts, filterPart{"tagged `" + tag + "`", docs})
	}
	if f.Path != "" {
		// "." or "/" is the notes root, which holds every note.
		if folder := cleanFolder(f.Path, cfg.Dialect); folder != "" {
			docs, err := v.snap.Under(folder, cfg.Dialect.TagNesting())
			if err != nil {
				return nil, err
			}
			// A folder written from the repository's root, as a card's
			// file line shows it (en/Plugins where the notes root is en),
			// is read under the notes root when no key lies under it as
			// written.
			if inRoot, ok := repoFolderInNotesRoot(folder, cfg.Notes); ok && len(docs) == 0 {
				folder = inRoot
				if docs, err = v.snap.Under(folder, cfg.Dialect.TagNesting()); err != nil {
					return nil, err
				}
			}
			if folder != "" {
				parts = append(parts, filterPart{"under `" + folder + "`", docs})
			}
		}
	}
	if f.Since != "" {
		docs, err := s.changedSince(v, f.Since, cfg.Exclude)
		if err != nil {
			return nil, err
		}
		parts = append(parts, filterPart{"new or changed since " + f.Since, docs})
	}
	return parts, nil
}

// cleanFolder reads --path as a key's folder: "./a/b/" is a/b, in NFC as
// keys are.
func cleanFolder(p string, d vault.Dialect) string {
	p = strings.Trim(strings.TrimPrefix(strings.TrimSpace(p), "./"), "/")
	if p == "." {
		return ""
	}
	if d.String() == vault.DialectDendron {
		p = strings.TrimSuffix(p, ".")
	}
	return norm.NFC.String(p)
}

// repoFolderInNotesRoot reads a folder written from the repository's root as one
// under the notes root root: "" when it names the root itself, false when
// it lies outside the root or there is no root.
func repoFolderInNotesRoot(folder, root string) (string, bool) {
	root = strings.Trim(root, "/")
	if root == "" || root == "." {
		return "", false
	}
	if folder == root {
		return "", true
	}
	rest, ok := strings.CutPrefix(folder, root+"/")
	return rest, ok && rest != ""
}

// changedSince lists the notes added or changed since the moment spec
// names: the team notes whose content at the view's commit differs from
// what the moment's commit held (git diff's added, modified and renamed
// files), every uncommitted working copy, and the private notes modified
// since.
func (s *Store) changedSince(v *view, spec string, exclude exclude.Globs) ([]uint32, error) {
	head := plumbing.NewHash(v.snap.Commit())
	if v.snap.Commit() == "" {
		head = plumbing.ZeroHash
	}
	from, err := s.sinceOf(spec, head)
	if err != nil {
		return nil, err
	}
	// Before the first commit, every team note is new.
	all := from.commit.IsZero() && !head.IsZero()
	var keys []string
	if !all && from.commit != head {
		dir := v.snap.NotesDir()
		oldTree, err := s.Repo.NotesTree(from.commit, dir)
		if err != nil {
			return nil, err
		}
		newTree, err := s.Repo.NotesTree(head, dir)
		if err != nil {
			return nil, err
		}
		changes, _, err := s.Repo.DiffNotes(oldTree, newTree, dir, exclude)
		if err != nil {
			return nil, err
		}
		for _, ch := range changes {
			if !ch.New.Blob.IsZero() {
				keys = append(keys, ch.New.Key)
			}
		}
	}
	return v.snap.ChangedSince(keys, all, from.nanos)
}
