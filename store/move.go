package store

import (
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"golang.org/x/text/unicode/norm"

	"github.com/omh-notes/omh/index"
	"github.com/omh-notes/omh/journal"
	"github.com/omh-notes/omh/reply"
	"github.com/omh-notes/omh/vault"
	"github.com/omh-notes/omh/vault/disk"
	"github.com/omh-notes/omh/vault/gitcli"
	"github.com/omh-notes/omh/vault/gitrepo"
	"github.com/omh-notes/omh/vault/rename"
)

// Move renames a note in its layer (git mv for a note git tracks, a rename
// for a private or untracked one) and rewrites every link in both layers
// that reaches it, keeping labels, headings, block references and the
// embed mark; relative markdown links are recomputed from each linking
// file's folder, and the moved note's own relative links from its new one.
// A link to another note whose meaning the rename would change (a short
// name that becomes ambiguous) is rewritten to keep its target. All or
// nothing: it refuses, changing nothing, when old is missing or ambiguous,
// newKey is taken, or a link cannot be rewritten to reach its target alone.
func (s *Store) Move(old, newKey string) (Moved, error) {
	oldArg := norm.NFC.String(strings.TrimSuffix(strings.TrimSpace(old), vault.NoteExt))
	newKey = norm.NFC.String(strings.TrimSuffix(strings.TrimSpace(newKey), vault.NoteExt))
	if err := vault.CheckKey(oldArg); err != nil {
		return Moved{}, refuse(reply.BadKey, err)
	}
	if err := checkNewKey(newKey); err != nil {
		return Moved{}, err
	}
	t, err := s.begin("omh mv " + oldArg + " " + newKey)
	if err != nil {
		return Moved{}, err
	}
	defer t.Close()
	var rep Moved
	err = s.read("", s.readOptions(false), func(v *view) error {
		p, err := s.planMove(v, oldArg, newKey)
		if err != nil {
			return err
		}
		if err := p.apply(t); err != nil {
			return err
		}
		rep = p.report()
		return nil
	})
	return rep, err
}

// Moved is what omh mv did; one value for people and programs.
type Moved struct {
	SchemaVersion int `json:"schema_version"`

	Old       string    `json:"old"`
	New       string    `json:"new"`
	From      string    `json:"from"`
	To        string    `json:"to"`
	How       string    `json:"how"` // "git mv", "rename", or "links" (no note had the old key: only links to it were rewritten)
	Rewritten []Rewrite `json:"rewritten"`
	Staged    []string  `json:"staged"` // files staged with git add (or git mv)
	// Unstaged are rewritten tracked files with unstaged changes whose
	// staged version links nowhere near the note: the rewrite is among
	// their unstaged changes. One whose staged version has the link has
	// that version rewritten too, and is staged without the user's edits.
	Unstaged []string `json:"unstaged"`
	Notices  []string `json:"notices"` // links whose meaning changes with the rename although no rewrite touched them
}

// Rewrite is one file whose links were rewritten.
type Rewrite struct {
	Path  string `json:"path"`
	Links int    `json:"links"`
}

// moveFile is one file of the store that may hold links, on disk.
type moveFile struct {
	note    index.StoredNote
	abs     string // the file
	shown   string // as reported: relative to the repository root, or absolute for private notes
	before  string // its key now
	moved   bool   // the renamed note itself
	tracked bool   // git's index holds it
	dirty   bool   // it has unstaged changes already
	content []byte // as the plan read it
	out     []byte // content with its links rewritten; nil when it stays as it is
	links   int    // how many of its links are rewritten
	// staged is, for a dirty file, its version in git's index with the same
	// links rewritten, to stage in place of that version; nil when that
	// version has no link to rewrite.
	staged *stagedRewrite
}

// stagedRewrite is a new version of a file's entry in git's index.
type stagedRewrite struct {
	mode    uint32
	content []byte
	blob    plumbing.Hash
}

// movePlan is a rename worked out in full before anything is touched.
type movePlan struct {
	root          string
	oldKey        string
	newKey        string
	from, to      string // absolute files
	fromShown     string
	toShown       string
	how           string // "git mv" or "rename"
	files         []*moveFile
	moved         *moveFile
	notices       []string
	staged        []string
	unstaged      []string
	privateFolder string
	dialect       vault.Dialect
	repo          *gitrepo.Repo
	names         []rename.Note
	relink        bool // no note has oldKey: only links to it are rewritten (PlanRelink)
}

func (s *Store) planMove(v *view, oldArg, newKey string) (*movePlan, error) {
	notes, err := v.snap.Notes()
	if err != nil {
		return nil, err
	}
	cfg, err := s.config()
	if err != nil {
		return nil, err
	}
	private, err := v.snap.PrivateDir()
	if err != nil {
		return nil, err
	}
	root := s.Repo.Root
	notesDir := v.snap.NotesDir()
	p := &movePlan{root: root, newKey: newKey, privateFolder: private, dialect: cfg.Dialect, repo: s.Repo}

	// Which note: its exact key, else a unique name as a link would say it.
	keyNames := vault.MemNames{}
	for _, n := range notes {
		keyNames.Add(n.Note.Key, nil)
	}
	res, err := vault.Resolve(vault.Link{Kind: vault.WikiLink, Target: oldArg}, "", keyNames)
	switch {
	case err != nil:
		return nil, err
	case len(res.Candidates) > 1:
		return nil, refuse(reply.Ambiguous, fmt.Errorf("nothing was renamed: %s could mean %s", oldArg, strings.Join(res.Candidates, ", ")))
	case res.Key == "":
		return s.planRelink(v, p, notes, oldArg, newKey)
	}
	p.oldKey = res.Key
	if p.oldKey == newKey {
		return nil, refuse(reply.BadKey, fmt.Errorf("nothing was renamed: %s already has that key", newKey))
	}
	// A key is taken by a note on disk: a committed note renamed or
	// deleted in the working tree leaves its key free, so a rename is
	// undone before the commit by renaming back.
	notes = onDisk(root, notes)
	for _, n := range notes {
		if n.Note.Key == newKey {
			return nil, refuse(reply.KeyTaken, fmt.Errorf("nothing was renamed: the key %s is taken by %s (%s)", newKey, n.Note.Path, n.Note.Layer))
		}
	}
	inPrivate, inTree := filesOf(notes, p.oldKey, true), filesOf(notes, p.oldKey, false)
	names := renameNotes(notes)
	if err := rename.CheckCase(names, p.oldKey, newKey); err != nil {
		return nil, fromRename(err)
	}
	switch {
	case len(inPrivate) > 0 && len(inTree) > 0:
		return nil, refuse(reply.Ambiguous, fmt.Errorf("nothing was renamed: %s is both a private note and a note under the notes root; rename one of them by hand first", p.oldKey))
	case len(inPrivate) > 1 || len(inTree) > 1:
		return nil, refuse(reply.Ambiguous, fmt.Errorf("nothing was renamed: %s", normalisationTwins(p.oldKey, append(inPrivate, inTree...))))
	}
	rel := func(key string) string { return path.Join(notesDir, key+vault.NoteExt) }
	if len(inPrivate) > 0 {
		p.from = inPrivate[0]
		p.to = filepath.Join(private, filepath.FromSlash(newKey)+vault.NoteExt)
		p.fromShown, p.toShown, p.how = p.from, p.to, "rename"
	} else {
		if cfg.Exclude.Match(newKey + vault.NoteExt) {
			return nil, refuse(reply.Excluded, fmt.Errorf("nothing was renamed: %s would be excluded from the store by %s", rel(newKey), vault.ConfigPath))
		}
		p.fromShown, p.toShown = rel(p.oldKey), rel(newKey)
		if len(inTree) > 0 {
			p.fromShown = inTree[0] // its own name, which may be spelt decomposed
		}
		p.from = filepath.Join(root, filepath.FromSlash(p.fromShown))
		p.to = filepath.Join(root, filepath.FromSlash(p.toShown))
		if fi, err := os.Lstat(p.from); err != nil || !fi.Mode().IsRegular() {
			return nil, refuse(reply.NotFound, fmt.Errorf("nothing was renamed: %s is not in the working tree (deleted, or not a regular file)", p.fromShown))
		}
		held, err := gitcli.Tracked(root, p.fromShown, p.toShown)
		if err != nil {
			return nil, refuse(reply.GitFailed, err)
		}
		p.how = "rename"
		for _, f := range held {
			switch f {
			case p.toShown:
				return nil, refuse(reply.KeyTaken, fmt.Errorf("nothing was renamed: git's index holds %s already", p.toShown))
			case p.fromShown:
				p.how = "git mv"
			}
		}
	}
	if _, err := os.Lstat(p.to); err == nil {
		return nil, refuse(reply.KeyTaken, fmt.Errorf("nothing was renamed: %s exists already", p.toShown))
	}
	if err := p.checkTarget(len(inPrivate) > 0); err != nil {
		return nil, err
	}

	p.names = names
	if err := p.gatherFiles(notes); err != nil {
		return nil, err
	}
	if err := p.planRewrites(); err != nil {
		return nil, err
	}
	return p, nil
}

// filesOf lists the distinct files holding key: the private folder's
// (absolute) or those under the notes root (relative to the repository's
// root). Names differing only in Unicode normalisation share a key, so
// there may be more than one.
func filesOf(notes []index.StoredNote, key string, private bool) []string {
	var out []string
	for _, n := range notes {
		if n.Note.Key == key && n.Private == private && !slices.Contains(out, n.Note.Path) {
			out = append(out, n.Note.Path)
		}
	}
	return out
}

// normalisationTwins says why a change to a key several files hold is
// refused: their names differ only in Unicode normalisation, so on macOS
// they are one file, and which of them was meant is not known. Each name
// is shown with its non-ASCII characters escaped, which tells them apart.
func normalisationTwins(key string, paths []string) string {
	shown := make([]string, len(paths))
	for i, p := range paths {
		shown[i] = fmt.Sprintf("%+q", p)
	}
	return fmt.Sprintf("%s is the key of %d files whose names differ only in Unicode normalisation (%s), one file on macOS; rename all but one by hand first",
		key, len(paths), strings.Join(shown, ", "))
}

// planRelink plans omh mv OLD NEW where no note has OLD but NEW is a note:
// the note was renamed in another clone and the rename pulled, and links
// written here still name OLD. Those links are rewritten to NEW; no file
// moves. It refuses when NEW is no note, or no link reaches OLD.
func (s *Store) planRelink(v *view, p *movePlan, notes []index.StoredNote, oldKey, newKey string) (*movePlan, error) {
	notes = onDisk(p.root, notes)
	if !slices.ContainsFunc(notes, func(n index.StoredNote) bool { return n.Note.Key == newKey }) {
		msg := fmt.Sprintf("nothing was renamed: no note has the key %s", oldKey)
		if r, ok := s.renamedKeys(v.snap.NotesDir())[oldKey]; ok {
			msg += fmt.Sprintf("; git's history renamed it to %s (commit %s): omh mv --fix-links %s rewrites the links to it", r.To, r.Commit, oldKey)
		}
		return nil, refuse(reply.NotFound, errors.New(msg))
	}
	p.oldKey, p.relink, p.how, p.names = oldKey, true, "links", renameNotes(notes)
	if err := p.gatherFiles(notes); err != nil {
		return nil, err
	}
	if err := p.planRewrites(); err != nil {
		return nil, err
	}
	if !slices.ContainsFunc(p.files, func(f *moveFile) bool { return f.out != nil }) {
		return nil, refuse(reply.NotFound, fmt.Errorf("nothing was rewritten: no note has the key %s, and no link reaches it", oldKey))
	}
	return p, nil
}

// FixLinks rewrites the links that still name a note's old key (it was
// renamed in another clone, and the rename pulled) to the key git's
// history says the note has now, as omh mv OLD NEW does.
func (s *Store) FixLinks(old string) (Moved, error) {
	oldKey := norm.NFC.String(strings.TrimSuffix(strings.TrimSpace(old), vault.NoteExt))
	if err := vault.CheckKey(oldKey); err != nil {
		return Moved{}, refuse(reply.BadKey, err)
	}
	var to string
	err := s.read("", s.readOptions(false), func(v *view) error {
		docs, err := v.snap.Find(oldKey, 0)
		if err != nil {
			return err
		}
		if len(docs) > 0 {
			return refuse(reply.KeyTaken, fmt.Errorf("nothing was rewritten: %s is a note; omh mv %s NEW renames it", oldKey, oldKey))
		}
		r, ok := s.renamedKeys(v.snap.NotesDir())[oldKey]
		if !ok {
			return refuse(reply.NotFound, fmt.Errorf("nothing was rewritten: git's history records no rename of %s; name the key it has now: omh mv %s NEW", oldKey, oldKey))
		}
		to = r.To
		return nil
	})
	if err != nil {
		return Moved{}, err
	}
	return s.Move(oldKey, to)
}

// apply makes the planned changes through the journal: every rewritten
// file, the note at its new name, the old name gone, git's index entry
// moved as git mv moves it, and the rewritten files git add-ed; all of it,
// or (when a file changed since it was read) none of it.
func (p *movePlan) apply(t *journal.Txn) error {
	const nothing = "nothing was renamed"
	for _, f := range p.files {
		if f.out == nil || f.moved {
			continue
		}
		fi, err := os.Lstat(f.abs)
		if err != nil {
			return fmt.Errorf("%s: %w", nothing, err)
		}
		if err := t.Put(f.abs, gitrepo.HashBytes(f.content), f.out, fi.Mode().Perm()); err != nil {
			return fmt.Errorf("%s: %w", nothing, err)
		}
	}
	if p.relink {
		return p.stage(t, nothing)
	}
	prune := ""
	if p.moved.note.Private {
		prune = p.privateFolder
	}
	if p.moved.out == nil {
		// The note itself is unchanged: it is renamed, never read or
		// copied, however large (a 500 MB note took 10 s and 1 GB).
		t.Rename(p.from, p.to, prune)
	} else {
		fi, err := os.Lstat(p.from)
		if err != nil {
			return fmt.Errorf("%s: %w", nothing, err)
		}
		if err := t.Put(p.to, plumbing.ZeroHash, p.moved.out, fi.Mode().Perm()); err != nil {
			return fmt.Errorf("%s: %w", nothing, err)
		}
		t.Remove(p.from, gitrepo.HashBytes(p.moved.content), prune)
	}
	if p.how == "git mv" {
		if m := p.moved; m.dirty && m.staged != nil {
			// Its staged version, rewritten, moves with it.
			t.IndexEntry(p.fromShown, 0, plumbing.ZeroHash)
		} else {
			t.MoveIndexEntry(p.fromShown, p.toShown)
		}
		p.staged = append(p.staged, p.fromShown, p.toShown)
	}
	return p.stage(t, nothing)
}

// stage stages the rewritten tracked files and commits the change: a file
// with no other change with git add; one with unstaged changes of its own
// by its staged version rewritten the same way (its blob written to git's
// objects), so the user's edits stay unstaged.
func (p *movePlan) stage(t *journal.Txn, nothing string) error {
	var add []string
	for _, f := range p.files {
		if f.out == nil || !f.tracked {
			continue
		}
		shown := f.shown
		if f.moved {
			shown = p.toShown
		}
		switch {
		case f.dirty && f.staged == nil:
			p.unstaged = append(p.unstaged, shown)
		case f.dirty:
			if _, err := gitcli.Git(p.root, string(f.staged.content), "hash-object", "-w", "--stdin", "--no-filters"); err != nil {
				return refuse(reply.GitFailed, fmt.Errorf("%s: %w", nothing, err))
			}
			t.IndexEntry(shown, f.staged.mode, f.staged.blob)
			if !f.moved {
				p.staged = append(p.staged, shown)
			}
		default:
			add = append(add, shown)
		}
	}
	t.Add(add...)
	if err := commit(t, nothing); err != nil {
		return err
	}
	p.staged = append(p.staged, add...)
	return nil
}

// checkTarget refuses a new name reached through a symbolic link, inside
// git's folder or differing from an existing name only in Unicode
// normalisation.
func (p *movePlan) checkTarget(private bool) error {
	root, rel := p.root, p.toShown
	if private {
		root, rel = p.privateFolder, p.newKey+vault.NoteExt
	} else {
		sub, err := gitcli.Submodule(p.root, p.toShown)
		if err != nil {
			return refuse(reply.GitFailed, err)
		}
		if sub != "" {
			return refuse(reply.BadTarget, fmt.Errorf("nothing was renamed: %s would be inside the submodule %s, another repository", p.toShown, sub))
		}
	}
	if err := disk.CheckTarget(root, rel, false); err != nil {
		return refuse(reply.BadTarget, fmt.Errorf("nothing was renamed: %w", err))
	}
	return nil
}

func (p *movePlan) report() Moved {
	rep := Moved{SchemaVersion: reply.SchemaVersion, Old: p.oldKey, New: p.newKey, From: p.fromShown, To: p.toShown, How: p.how,
		Rewritten: []Rewrite{}, Staged: []string{}, Unstaged: []string{}, Notices: []string{}}
	for _, f := range p.files {
		if f.out == nil {
			continue
		}
		shown := f.shown
		if f.moved {
			shown = p.toShown
		}
		rep.Rewritten = append(rep.Rewritten, Rewrite{Path: shown, Links: f.links})
	}
	rep.Staged = append(rep.Staged, p.staged...)
	rep.Unstaged = append(rep.Unstaged, p.unstaged...)
	rep.Notices = append(rep.Notices, p.notices...)
	return rep
}
