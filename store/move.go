package store

import (
	"fmt"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"golang.org/x/text/unicode/norm"

	"github.com/omh-notes/omh/index"
	"github.com/omh-notes/omh/journal"
	"github.com/omh-notes/omh/retrieve"
	"github.com/omh-notes/omh/vault"
	"github.com/omh-notes/omh/vault/disk"
	"github.com/omh-notes/omh/vault/gitcli"
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
		return Moved{}, refuse("bad_key", err)
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
	How       string    `json:"how"` // "git mv" or "rename"
	Rewritten []Rewrite `json:"rewritten"`
	Staged    []string  `json:"staged"`   // files staged with git add (or git mv)
	Unstaged  []string  `json:"unstaged"` // rewritten tracked files left unstaged: they had other unstaged changes
	Notices   []string  `json:"notices"`  // links whose meaning changes with the rename although no rewrite touched them
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
	after   string // its key after the rename
	moved   bool   // the renamed note itself
	tracked bool   // git's index holds it
	dirty   bool   // it has unstaged changes already
	content []byte
	edits   []vault.Edit
	out     []byte         // content with the edits made
	wants   map[int]string // links to rewrite: the key each must reach
	was     []string       // the key each link reached before the rename
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
	before, after vault.MemNames // the names links resolve against, before and after
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
	p := &movePlan{root: root, newKey: newKey, privateFolder: private, dialect: cfg.Dialect}

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
		return nil, refuse("ambiguous", fmt.Errorf("nothing was renamed: %s could mean %s", oldArg, strings.Join(res.Candidates, ", ")))
	case res.Key == "":
		return nil, refuse("not_found", fmt.Errorf("nothing was renamed: no note has the key %s", oldArg))
	}
	p.oldKey = res.Key
	if p.oldKey == newKey {
		return nil, refuse("bad_key", fmt.Errorf("nothing was renamed: %s already has that key", newKey))
	}
	if err := p.checkCase(notes); err != nil {
		return nil, err
	}
	var inPrivate, inTree bool
	for _, n := range notes {
		switch {
		case n.Note.Key == newKey:
			return nil, refuse("key_taken", fmt.Errorf("nothing was renamed: the key %s is taken by %s (%s)", newKey, n.Note.Path, n.Note.Layer))
		case n.Note.Key != p.oldKey:
		case n.Private:
			inPrivate = true
		default:
			inTree = true
		}
	}
	if inPrivate && inTree {
		return nil, refuse("ambiguous", fmt.Errorf("nothing was renamed: %s is both a private note and a note under the notes root; rename one of them by hand first", p.oldKey))
	}
	rel := func(key string) string { return path.Join(notesDir, key+vault.NoteExt) }
	if inPrivate {
		p.from = filepath.Join(private, filepath.FromSlash(p.oldKey)+vault.NoteExt)
		p.to = filepath.Join(private, filepath.FromSlash(newKey)+vault.NoteExt)
		p.fromShown, p.toShown, p.how = p.from, p.to, "rename"
	} else {
		if vault.Excluded(cfg.Exclude, newKey+vault.NoteExt) {
			return nil, refuse("excluded", fmt.Errorf("nothing was renamed: %s would be excluded from the store by %s", rel(newKey), vault.ConfigPath))
		}
		p.fromShown, p.toShown = rel(p.oldKey), rel(newKey)
		p.from = filepath.Join(root, filepath.FromSlash(p.fromShown))
		p.to = filepath.Join(root, filepath.FromSlash(p.toShown))
		if fi, err := os.Lstat(p.from); err != nil || !fi.Mode().IsRegular() {
			return nil, refuse("not_found", fmt.Errorf("nothing was renamed: %s is not in the working tree (deleted, or not a regular file)", p.fromShown))
		}
		held, err := gitcli.Tracked(root, p.fromShown, p.toShown)
		if err != nil {
			return nil, refuse("git_failed", err)
		}
		p.how = "rename"
		for _, f := range held {
			switch f {
			case p.toShown:
				return nil, refuse("key_taken", fmt.Errorf("nothing was renamed: git's index holds %s already", p.toShown))
			case p.fromShown:
				p.how = "git mv"
			}
		}
	}
	if _, err := os.Lstat(p.to); err == nil {
		return nil, refuse("key_taken", fmt.Errorf("nothing was renamed: %s exists already", p.toShown))
	}
	if err := p.checkTarget(inPrivate); err != nil {
		return nil, err
	}

	if err := p.gatherFiles(notes); err != nil {
		return nil, err
	}
	if err := p.planRewrites(notes); err != nil {
		return nil, err
	}
	return p, nil
}

// checkCase refuses a new key that differs only in letter case from
// another note's key, or that puts the note in a folder differing only in
// letter case from one that holds notes: on macOS and Windows both would be
// one file, or one folder.
func (p *movePlan) checkCase(notes []index.StoredNote) error {
	folders := map[string]string{} // lower-cased → as the notes spell it
	for _, n := range notes {
		if n.Note.Key == p.oldKey {
			continue
		}
		if strings.EqualFold(n.Note.Key, p.newKey) {
			return refuse("key_taken", fmt.Errorf("nothing was renamed: %s differs only in letter case from %s (%s), and on macOS and Windows both would be one file", p.newKey, n.Note.Key, n.Note.Path))
		}
		for dir := path.Dir(n.Note.Key); dir != "."; dir = path.Dir(dir) {
			folders[strings.ToLower(dir)] = dir
		}
	}
	for dir := path.Dir(p.newKey); dir != "."; dir = path.Dir(dir) {
		if have, ok := folders[strings.ToLower(dir)]; ok && have != dir {
			return refuse("key_taken", fmt.Errorf("nothing was renamed: the folder %s of %s differs only in letter case from the folder %s that holds notes, and on macOS and Windows both would be one folder", dir, p.newKey, have))
		}
	}
	return nil
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
		f := &moveFile{note: n, shown: n.Note.Path, before: n.Note.Key, after: n.Note.Key}
		f.abs = n.Note.Path
		if !n.Private {
			f.abs = filepath.Join(p.root, filepath.FromSlash(n.Note.Path))
			if _, err := os.Lstat(f.abs); err != nil {
				continue
			}
			tracked = append(tracked, n.Note.Path)
		}
		if f.before == p.oldKey {
			f.after, f.moved = p.newKey, true
			p.moved = f
		}
		p.files = append(p.files, f)
	}
	if p.moved == nil {
		return refuse("not_found", fmt.Errorf("nothing was renamed: %s is not on disk", p.fromShown))
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

// planRewrites finds every link to rewrite and computes each file's new
// content, then checks the result as a whole (verify). Every link that
// cannot be rewritten is listed, and nothing is changed.
func (p *movePlan) planRewrites(notes []index.StoredNote) error {
	before, after := vault.MemNames{}, vault.MemNames{}
	for _, n := range notes {
		before.Add(n.Note.Key, n.Parsed.Aliases)
		k := n.Note.Key
		if k == p.oldKey {
			k = p.newKey
		}
		after.Add(k, n.Parsed.Aliases)
	}
	p.before, p.after = before, after
	d := p.dialect
	var problems []string
	for _, f := range p.files {
		if err := p.checkUnparsed(f); err != nil {
			return err
		}
		links := f.note.Parsed.Links
		f.wants = map[int]string{}
		f.was = make([]string, len(links))
		for i, l := range links {
			was, err := d.Resolve(l, f.before, before)
			if err != nil {
				return err
			}
			now, err := d.Resolve(l, f.after, after)
			if err != nil {
				return err
			}
			f.was[i] = was.Key
			want := was.Key
			if want == p.oldKey {
				want = p.newKey
			}
			switch {
			case want == "" && (now.Key != "" || strings.Join(now.Candidates, ",") != strings.Join(was.Candidates, ",")):
				what := "reaches " + now.Key
				if now.Key == "" {
					what = "could mean " + strings.Join(now.Candidates, ", ")
				}
				p.notices = append(p.notices, fmt.Sprintf("%s:%d: %s %s after the rename (it reached no note before)", f.shown, l.Line, p.dialect.Show(l), what))
			case want != "" && now.Key != want:
				f.wants[i] = want
			}
		}
		if len(f.wants) == 0 {
			continue
		}
		content, err := os.ReadFile(f.abs)
		if err != nil {
			return fmt.Errorf("reading %s: %w", f.shown, err)
		}
		if vault.HashBytes(content) != f.note.Note.Blob {
			return refuse("changed", fmt.Errorf("nothing was renamed: %s changed while omh mv read the store; run it again", f.shown))
		}
		f.content = content
		for _, i := range sortedLinks(f.wants) {
			ed, err := d.RewriteLink(content, links[i], f.was[i], vault.LinkEnds{From: f.after, Names: after}, f.wants[i])
			if err != nil {
				problems = append(problems, fmt.Sprintf("%s:%d: %s: %v", f.shown, links[i].Line, p.dialect.Show(links[i]), err))
				continue
			}
			f.edits = append(f.edits, ed)
		}
		out, err := vault.ApplyEdits(content, f.edits)
		if err != nil {
			problems = append(problems, fmt.Sprintf("%s: %v", f.shown, err))
			continue
		}
		f.out = out
	}
	if len(problems) == 0 {
		problems = p.verify()
	}
	if len(problems) > 0 {
		return refuse("unrewritable", fmt.Errorf("nothing was renamed: %s; fix %s by hand first:\n  %s",
			countLinks(len(problems)), itOrThem(len(problems)), strings.Join(problems, "\n  ")))
	}
	return nil
}

// checkUnparsed refuses a rename when a file read only in part
// (markdown-too-costly) names the note where it was not parsed: a link
// there would be left reaching nothing.
func (p *movePlan) checkUnparsed(f *moveFile) error {
	if !slices.ContainsFunc(f.note.Parsed.Problems, func(pr vault.Problem) bool { return pr.Rule == "markdown-too-costly" }) {
		return nil
	}
	content, err := os.ReadFile(f.abs)
	if err != nil {
		return fmt.Errorf("reading %s: %w", f.shown, err)
	}
	name := path.Base(p.oldKey)
	if line := vault.UnparsedMention(content, f.note.Parsed, name); line > 0 {
		return refuse("unrewritable", fmt.Errorf("nothing was renamed: %s is parsed as markdown only up to line %d (markdown-too-costly) and names %s after it, where a link could not be rewritten; split the note or edit it by hand first", f.shown, line, name))
	}
	return nil
}

// verify reads every file as the rename would leave it and resolves each
// of its links with the dialect that planned the rewrite: a link that
// reached the old key must reach the new one, every rewritten link its
// target, and no link the old key. It returns what is wrong, one line a
// link.
func (p *movePlan) verify() []string {
	var stale []string
	for _, f := range p.files {
		if f.out == nil {
			continue
		}
		links := f.note.Parsed.Links
		reparsed := vault.Parse(f.out)
		byStart := make(map[int]int, len(reparsed.Links))
		for j, l := range reparsed.Links {
			byStart[l.Start] = j
		}
		matched := make([]bool, len(reparsed.Links))
		for i, l := range links {
			want := f.wants[i]
			if f.was[i] == p.oldKey {
				want = p.newKey
			}
			j, ok := byStart[shifted(l.Start, f.edits)]
			if ok {
				matched[j] = true
			}
			if want == "" {
				continue
			}
			if !ok {
				stale = append(stale, fmt.Sprintf("%s:%d: %s would no longer be read as a link", f.shown, l.Line, p.dialect.Show(l)))
				continue
			}
			got, err := p.dialect.Resolve(reparsed.Links[j], f.after, p.after)
			if err != nil || got.Key != want {
				stale = append(stale, fmt.Sprintf("%s:%d: %s would not reach %s alone", f.shown, l.Line, p.dialect.Show(l), want))
			}
		}
		// Links the index did not know (past what it parses of a long
		// note) must not reach the old key either.
		for j, l := range reparsed.Links {
			if matched[j] {
				continue
			}
			if got, err := p.dialect.Resolve(l, f.after, p.before); err == nil && got.Key == p.oldKey {
				stale = append(stale, fmt.Sprintf("%s:%d: %s still reaches %s", f.shown, l.Line, p.dialect.Show(l), p.oldKey))
			}
		}
	}
	return stale
}

// shifted is where an offset of a file lands once edits are made.
func shifted(at int, edits []vault.Edit) int {
	out := at
	for _, ed := range edits {
		if ed.End <= at {
			out += len(ed.Text) - (ed.End - ed.Start)
		}
	}
	return out
}

func sortedLinks(wants map[int]string) []int {
	out := make([]int, 0, len(wants))
	for i := range wants {
		out = append(out, i)
	}
	sort.Ints(out)
	return out
}

func countLinks(n int) string {
	if n == 1 {
		return "1 link cannot be rewritten"
	}
	return fmt.Sprintf("%d links cannot be rewritten", n)
}

func itOrThem(n int) string {
	if n == 1 {
		return "it"
	}
	return "them"
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
		if err := t.Put(f.abs, vault.HashBytes(f.content), f.out, fi.Mode().Perm()); err != nil {
			return fmt.Errorf("%s: %w", nothing, err)
		}
	}
	content, id, mode, err := fileID(p.from)
	if err != nil {
		return fmt.Errorf("%s: %w", nothing, err)
	}
	if p.moved.out != nil {
		if id != vault.HashBytes(p.moved.content) {
			return refuse("changed", fmt.Errorf("%s: %s changed while omh mv read the store; run it again", nothing, p.fromShown))
		}
		content = p.moved.out
	}
	if err := t.Put(p.to, plumbing.ZeroHash, content, mode); err != nil {
		return fmt.Errorf("%s: %w", nothing, err)
	}
	prune := ""
	if p.moved.note.Private {
		prune = p.privateFolder
	}
	t.Remove(p.from, id, prune)
	if p.how == "git mv" {
		entry, err := gitcli.IndexEntry(p.root, p.fromShown)
		if err != nil {
			return refuse("git_failed", fmt.Errorf("%s: %w", nothing, err))
		}
		t.IndexEntry(p.toShown, entry.Mode, entry.Blob)
		t.IndexEntry(p.fromShown, 0, plumbing.ZeroHash)
		p.staged = append(p.staged, p.fromShown, p.toShown)
	}
	var add []string
	for _, f := range p.files {
		if f.out == nil || !f.tracked {
			continue
		}
		shown := f.shown
		if f.moved {
			shown = p.toShown
		}
		if f.dirty {
			p.unstaged = append(p.unstaged, shown)
			continue
		}
		add = append(add, shown)
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
	}
	if err := disk.CheckTarget(root, rel, false); err != nil {
		return refuse("bad_target", fmt.Errorf("nothing was renamed: %w", err))
	}
	return nil
}

func (p *movePlan) report() Moved {
	rep := Moved{SchemaVersion: retrieve.SchemaVersion, Old: p.oldKey, New: p.newKey, From: p.fromShown, To: p.toShown, How: p.how,
		Rewritten: []Rewrite{}, Staged: []string{}, Unstaged: []string{}, Notices: []string{}}
	for _, f := range p.files {
		if f.out == nil {
			continue
		}
		shown := f.shown
		if f.moved {
			shown = p.toShown
		}
		rep.Rewritten = append(rep.Rewritten, Rewrite{Path: shown, Links: len(f.wants)})
	}
	rep.Staged = append(rep.Staged, p.staged...)
	rep.Unstaged = append(rep.Unstaged, p.unstaged...)
	rep.Notices = append(rep.Notices, p.notices...)
	return rep
}
