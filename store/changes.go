package store

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/omh-notes/omh/find"
	"github.com/omh-notes/omh/index"
	"github.com/omh-notes/omh/internal/exclude"
	"github.com/omh-notes/omh/reply"
	"github.com/omh-notes/omh/retrieve"
	"github.com/omh-notes/omh/vault"
	"github.com/omh-notes/omh/vault/gitcli"
)

// ChangeKind is what happened to a note.
type ChangeKind string

// The kinds of change.
const (
	Added   ChangeKind = "added"
	Changed ChangeKind = "changed"
	Renamed ChangeKind = "renamed"
	Removed ChangeKind = "removed"
)

// Change is one note a commit, or the working tree, added, changed,
// renamed or removed.
type Change struct {
	Key string `json:"key"`
	// Store is the store of a change of another store (whose Key and
	// OldKey it qualifies); absent for the one omh runs in.
	Store  string     `json:"store,omitempty"`
	Kind   ChangeKind `json:"change"`
	OldKey string     `json:"old_key,omitempty"` // renamed: the key it had
	// Commit made the change; null for an uncommitted one, which is also
	// marked uncommitted.
	Commit      *string `json:"commit"`
	Uncommitted bool    `json:"uncommitted,omitempty"`
	Author      string  `json:"author,omitempty"` // the commit's author's name
	// Date is the commit's author date; for an uncommitted change, the
	// file's modification time in UTC ("" for a removal).
	Date string `json:"date"`
	Path string `json:"path"` // repository-relative
	// Excerpt is the note's first lines as the change left them (a removed
	// note's last); "" on a change whose note's newer change in the same
	// reply shows the same lines.
	Excerpt string `json:"excerpt,omitempty"`
	// blob is the content the change left (a removal: the content it
	// removed); zero for a working tree's file, read from the file.
	blob plumbing.Hash
	from *Store // the store it is of
}

// Changes is what omh changes lists: the notes' changes since a moment,
// newest first, a page of them.
type Changes struct {
	SchemaVersion int `json:"schema_version"`
	// Commit is HEAD, up to which changes count; null before the first
	// commit.
	Commit *string `json:"commit"`
	Since  string  `json:"since"` // the moment asked for, or the default's day
	// From is the commit changes count from (git log From..Commit); null
	// when they count from the first commit.
	From *string `json:"since_commit"`
	// Default: no moment was asked for, and Since is the day
	// DefaultChangesDays before the last commit's.
	Default bool     `json:"default_since,omitempty"`
	List    []Change `json:"changes"`
	Offset  int      `json:"offset"`
	Limit   int      `json:"limit"` // 0: every change
	More    int      `json:"more"`  // changes past the page
	// Stores are the other stores listed, as an answer's are (their
	// changes are in List with their keys qualified); absent when only
	// the store omh runs in was.
	Stores []reply.Source `json:"stores,omitempty"`
}

// DefaultChangesDays is the history omh changes lists when asked for no
// moment: the week up to the last commit's day, a working week of the
// team's notes. Counted from the last commit rather than today, so that a
// store nobody has written to for a month still shows its last week of
// work rather than nothing.
const DefaultChangesDays = 7

// DefaultChangesLimit is how many changes a reply lists at a time, as omh
// links lists links; the reply counts the rest.
const DefaultChangesLimit = 30

// Excerpts are a note's first lines: at most excerptLines lines of its
// body and excerptChars characters, read from its first excerptBytes.
const (
	excerptLines = 3
	excerptChars = 240
	excerptBytes = 16 << 10
)

// Changes lists the notes added, changed, renamed and removed since a
// moment (a date or a commit, as --since reads them; "" is the last week
// of commits), newest first, in every store the scope reads: in each,
// uncommitted changes (the working tree against HEAD, as git status says;
// none for the team's other stores, which answer with their commits)
// before the commits, which come in git log's order, each commit's notes
// in path order; the stores' lists are merged by day, this repository's
// first on a day they share. Notes are each store's under its notes root;
// the private notes, which git never sees, are not listed. A commit as
// --since is read in each store that holds it, and as the day it was made
// in the others. It reads git alone, never the cache.
func (s *Store) Changes(sinceSpec string, sc Scope, page Page) (Changes, error) {
	out := Changes{SchemaVersion: reply.SchemaVersion, List: []Change{}, Offset: page.Offset, Limit: page.Limit}
	members, err := s.members(sc)
	if err != nil {
		return out, err
	}
	var lists [][]Change
	if sc.answersHome() {
		home, err := s.changeList(sinceSpec, true)
		if err != nil {
			return out, err
		}
		out.Commit, out.Since, out.From, out.Default = home.head, home.since, home.from, home.byDefault
		lists = append(lists, home.changes)
	} else if head, err := s.Repo.Head(); err == nil && !head.IsZero() {
		out.Commit = orNull(head.String())
	}
	for _, m := range members {
		src := m.source("")
		if m.problem == "" {
			spec, err := s.sinceIn(m.store, sinceSpec)
			var list changeList
			if err == nil {
				list, err = m.store.changeList(spec, m.personal)
			}
			if err != nil {
				src.Problem, src.Code = memberProblem(m, err, sinceSpec), Code(err)
			} else {
				src.Commit = CommitID(list.head)
				for i := range list.changes {
					list.changes[i].Store = m.Name
					list.changes[i].Key = vault.Qualify(m.Name, list.changes[i].Key)
					if list.changes[i].OldKey != "" {
						list.changes[i].OldKey = vault.Qualify(m.Name, list.changes[i].OldKey)
					}
				}
				lists = append(lists, list.changes)
			}
		}
		out.Stores = append(out.Stores, find.SourcesJSON([]retrieve.Source{src})...)
	}
	all := mergeChanges(lists)
	first, end := min(page.Offset, len(all)), len(all)
	if page.Limit > 0 {
		end = min(end, first+page.Limit)
	}
	out.List, out.More = all[first:end:end], len(all)-end
	// A note changed in many commits shows the same first lines each time:
	// they are given once, on its newest change in the page.
	shown := map[string]string{}
	for i, ch := range out.List {
		excerpt := ch.excerpt()
		if before, ok := shown[ch.Key]; !ok || before != excerpt {
			out.List[i].Excerpt = excerpt
			shown[ch.Key] = excerpt
		}
	}
	return out, nil
}

// sinceIn is --since as another store reads it: a date as it is, a commit
// that store holds as it is, and a commit only this repository holds as
// the day it was made.
func (s *Store) sinceIn(other *Store, spec string) (string, error) {
	if spec == "" || vault.Date(spec).Valid() {
		return spec, nil
	}
	if _, err := other.Repo.ResolveCommit(spec); err == nil {
		return spec, nil
	}
	c, err := s.Repo.ResolveCommit(spec)
	if err != nil {
		return spec, nil // neither holds it: the other store says so
	}
	day, err := s.Repo.CommittedOn(c)
	return string(day), err
}

// changeList is one store's changes since a moment, newest first, and
// what it read them against.
type changeList struct {
	changes   []Change
	head      *string // HEAD; nil before the first commit
	since     string  // the moment, as asked or the default's day
	from      *string // the commit changes count from; nil for the first
	byDefault bool
}

// changeList lists the store's changes since a moment: its working tree's
// uncommitted ones with worktree, then its commits'.
func (s *Store) changeList(sinceSpec string, worktree bool) (changeList, error) {
	var out changeList
	// git answers this, not the cache: nothing is refreshed.
	cfg, err := s.config()
	if err != nil {
		return out, err
	}
	head, err := s.Repo.Head()
	if err != nil {
		return out, err
	}
	if !head.IsZero() {
		out.head = orNull(head.String())
	}
	dir, err := index.NotesRoot(s.Repo, cfg, head)
	if err != nil {
		return out, err
	}
	if sinceSpec == "" && !head.IsZero() {
		day, err := s.Repo.CommittedOn(head)
		if err != nil {
			return out, err
		}
		t, _ := time.Parse(time.DateOnly, string(day))
		sinceSpec, out.byDefault = string(vault.DateOf(t.AddDate(0, 0, 1-DefaultChangesDays))), true
	}
	out.since = sinceSpec
	notes := noteFiles{dir: dir, exclude: cfg.Exclude}
	// git status and git log read apart: they run side by side (on
	// vba-docs, 38,187 notes in one commit, each took about a second of
	// the reply's 4 s on a busy machine).
	type worktreeChanges struct {
		changes []Change
		err     error
	}
	wt := make(chan worktreeChanges, 1)
	go func() {
		if !worktree {
			wt <- worktreeChanges{}
			return
		}
		changes, err := s.uncommitted(notes)
		wt <- worktreeChanges{changes, err}
	}()
	committed, since, err := s.committed(notes, sinceSpec, head)
	w := <-wt
	if err != nil {
		return out, err
	}
	if w.err != nil {
		return out, w.err
	}
	out.from, out.changes = since, append(w.changes, committed...)
	for i := range out.changes {
		out.changes[i].from = s
	}
	return out, nil
}

// mergeChanges merges stores' lists, each newest first, into one:
// uncommitted changes first, then by day, newest first, the earlier list
// first on a day they share; each list keeps its own order.
func mergeChanges(lists [][]Change) []Change {
	if len(lists) == 1 {
		return lists[0]
	}
	var out []Change
	next := make([]int, len(lists))
	later := func(a, b Change) bool {
		if a.Uncommitted != b.Uncommitted {
			return a.Uncommitted
		}
		return a.Date > b.Date
	}
	for {
		best := -1
		for i, l := range lists {
			if next[i] < len(l) && (best < 0 || later(l[next[i]], lists[best][next[best]])) {
				best = i
			}
		}
		if best < 0 {
			return out
		}
		out = append(out, lists[best][next[best]])
		next[best]++
	}
}

// committed lists the notes' changes of the commits since the moment spec
// names up to head, in git log's order, and the commit they count from
// (nil: the first).
func (s *Store) committed(notes noteFiles, spec string, head plumbing.Hash) ([]Change, *string, error) {
	if head.IsZero() {
		return nil, nil, nil
	}
	from, err := s.sinceOf(spec, head)
	if err != nil {
		return nil, nil, err
	}
	var since *string
	if !from.commit.IsZero() {
		since = orNull(from.commit.String())
	}
	if from.commit == head {
		return nil, since, nil
	}
	commits, err := gitcli.Log(s.Repo, from.commit, head, notes.dir)
	if err != nil {
		return nil, nil, refuse(reply.GitFailed, err)
	}
	var out []Change
	for _, c := range commits {
		for _, f := range c.Files {
			if ch, ok := notes.change(f); ok {
				ch.Commit, ch.Author, ch.Date = orNull(c.ID.String()), c.Author, string(c.Date)
				out = append(out, ch)
			}
		}
	}
	return out, since, nil
}

// uncommitted lists the working tree's changes to notes against HEAD, by
// key, each dated by its file's modification time.
func (s *Store) uncommitted(notes noteFiles) ([]Change, error) {
	files, err := gitcli.Status(s.Repo.Root, notes.dir)
	if err != nil {
		return nil, refuse(reply.GitFailed, err)
	}
	var out []Change
	for _, f := range files {
		if f.Status == 'A' && f.NewMode == "" {
			// Untracked: git status gives no mode; a symbolic link is no
			// note, as a scan of the working tree finds.
			if fi, err := os.Lstat(filepath.Join(s.Repo.Root, filepath.FromSlash(f.Path))); err != nil || !fi.Mode().IsRegular() {
				continue
			}
			f.NewMode = "100644"
		}
		ch, ok := notes.change(f)
		if !ok {
			continue
		}
		ch.Uncommitted = true
		if ch.Kind != Removed {
			if fi, err := os.Lstat(filepath.Join(s.Repo.Root, filepath.FromSlash(ch.Path))); err == nil {
				ch.Date = string(vault.DateOf(fi.ModTime().UTC()))
			}
		}
		out = append(out, ch)
	}
	slices.SortFunc(out, func(a, b Change) int { return strings.Compare(a.Key, b.Key) })
	return out, nil
}

// noteFiles says which files are the store's notes: *.md regular files
// under the notes root, named as keys can be, that the config does not
// exclude; omh's own folder holds none unless it holds the notes root.
type noteFiles struct {
	dir     string
	exclude exclude.Globs
}

// key is the key of the note at a repository-relative path in a tree
// entry of mode, or false when it is no note.
func (n noteFiles) key(p, mode string) (string, bool) {
	switch mode {
	case "100644", "100755", "100664":
	default:
		return "", false
	}
	rel := p
	if n.dir != "" {
		var ok bool
		if rel, ok = strings.CutPrefix(p, n.dir+"/"); !ok {
			return "", false
		}
	} else if strings.HasPrefix(p, ".omh/") {
		return "", false
	}
	if !strings.HasSuffix(rel, vault.NoteExt) || n.exclude.Match(rel) {
		return "", false
	}
	return vault.KeyOf(rel)
}

// change reads a file's change as a note's: a rename or change where only
// one side is a note (a file renamed to .md, a note replaced by a link) is
// the note's addition or removal.
func (n noteFiles) change(f gitcli.FileChange) (Change, bool) {
	oldPath := f.Path
	if f.OldPath != "" {
		oldPath = f.OldPath
	}
	newKey, isNew := n.key(f.Path, f.NewMode)
	oldKey, wasOld := n.key(oldPath, f.OldMode)
	if f.Status == 'A' || f.Status == 'C' {
		wasOld = false // a copy leaves its source as it was
	}
	if f.Status == 'D' {
		isNew = false
	}
	switch {
	case isNew && wasOld && f.Status == 'R':
		return Change{Key: newKey, Kind: Renamed, OldKey: oldKey, Path: f.Path, blob: f.NewBlob}, true
	case isNew && wasOld:
		return Change{Key: newKey, Kind: Changed, Path: f.Path, blob: f.NewBlob}, true
	case isNew:
		return Change{Key: newKey, Kind: Added, Path: f.Path, blob: f.NewBlob}, true
	case wasOld:
		return Change{Key: oldKey, Kind: Removed, Path: oldPath, blob: f.OldBlob}, true
	}
	return Change{}, false
}

// excerpt is a change's note's first lines as the change left them (a
// removal: as they were), from its blob or the working tree's file in its
// store; "" when it cannot be read.
func (c Change) excerpt() string {
	var content []byte
	var err error
	if c.blob.IsZero() {
		content, err = c.from.Repo.ReadNote(vault.Local, c.Path, plumbing.ZeroHash, excerptBytes)
	} else {
		content, _, err = c.from.Repo.ReadBlob(c.blob, excerptBytes)
	}
	if err != nil {
		return ""
	}
	return firstLines(content)
}

// firstLines are a note's first non-blank lines after its frontmatter,
// trimmed, at most excerptLines of them and excerptChars characters, cut
// at a character's end with "…".
func firstLines(content []byte) string {
	_, end, found, _ := vault.SplitFrontmatter(content)
	if found {
		content = content[end:]
	}
	var lines []string
	for _, line := range strings.Split(string(content), "\n") {
		if line = strings.TrimSpace(line); line != "" {
			lines = append(lines, line)
			if len(lines) == excerptLines {
				break
			}
		}
	}
	text := []rune(strings.ToValidUTF8(strings.Join(lines, "\n"), "\uFFFD"))
	if len(text) > excerptChars {
		return string(text[:excerptChars-1]) + "…"
	}
	return string(text)
}

// Text prints omh changes' reply: a line saying since when, one line per
// change (key, what happened, date, author, commit) with its excerpt
// indented under it, how many more, then the commit.
func (c Changes) Text(w io.Writer) {
	since := " since " + c.Since
	switch {
	case c.Since == "": // no commit yet: only the working tree
		since = ""
	case c.Default:
		since += fmt.Sprintf(" (the %d days up to the last commit)", DefaultChangesDays)
	}
	total := c.Offset + len(c.List) + c.More
	switch {
	case total == 0:
		fmt.Fprintf(w, "No note was added, changed, renamed or removed%s.\n", since)
	case len(c.List) == 0:
		fmt.Fprintf(w, "None of the %d changes%s is past the first %d.\n", total, since, c.Offset)
	case c.Offset == 0 && c.More == 0 && total == 1:
		fmt.Fprintf(w, "1 change%s:\n", since)
	case c.Offset == 0 && c.More == 0:
		fmt.Fprintf(w, "%d changes%s, newest first:\n", total, since)
	default:
		fmt.Fprintf(w, "Changes %d-%d of %d%s, newest first:\n", c.Offset+1, c.Offset+len(c.List), total, since)
	}
	for _, ch := range c.List {
		what := string(ch.Kind)
		if ch.Kind == Renamed {
			what += " from " + ch.OldKey
		}
		fields := []string{what}
		if ch.Uncommitted {
			fields = append(fields, "uncommitted")
		}
		if ch.Date != "" {
			fields = append(fields, ch.Date)
		}
		if id := CommitID(ch.Commit); id != "" {
			fields = append(fields, ch.Author, id[:min(len(id), 12)])
		}
		fmt.Fprintf(w, "%s  %s\n", ch.Key, strings.Join(fields, " · "))
		for _, line := range strings.Split(ch.Excerpt, "\n") {
			if line != "" {
				fmt.Fprintf(w, "  > %s\n", line)
			}
		}
	}
	if c.More > 0 {
		noun := "changes"
		if c.More == 1 {
			noun = "change"
		}
		fmt.Fprintf(w, "… %d more %s; --offset %d for the next\n", c.More, noun, c.Offset+len(c.List))
	}
	io.WriteString(w, sourceLines(c.Stores))
	fmt.Fprintf(w, "@ %s\n", retrieve.CommitLabel(CommitID(c.Commit)))
}
