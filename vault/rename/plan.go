// Package rename plans the rename of a note: which links of the store reach
// it, how each is rewritten so that it still reaches it, by the smallest
// change its dialect allows, and a check of the result as a whole. It reads
// what it is given and touches nothing; omh mv (store/move.go) gathers the
// files and makes the changes.
package rename

import (
	"fmt"
	"io"
	"path"
	"slices"
	"sort"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/omh-notes/omh/vault"
	"github.com/omh-notes/omh/vault/gitrepo"
)

// Note is a note of the store as a rename sees it: links resolve against
// every note's key and aliases, and a new key may not differ from another
// note's only in letter case.
type Note struct {
	Key     string
	Path    string // where it is, for messages
	Aliases []string
}

// File is one file of the store that may hold links, as it is on disk.
type File struct {
	Key    string        // its key before the rename
	Shown  string        // its path, as messages give it
	Parsed vault.Parsed  // what the index read of it
	Blob   plumbing.Hash // the content the index read
	// Read returns the file's content now. PlanRename reads only the files
	// whose links it rewrites.
	Read func() ([]byte, error)
	// Open opens the file's content now, for the files parsed only in part,
	// which PlanRename reads in pieces (they may be of any size).
	Open func() (io.ReadCloser, error)
}

// Rewritten is what a rename does to one file.
type Rewritten struct {
	Content []byte // the file as PlanRename read it; nil when it was not read
	Out     []byte // the file once its links are rewritten; nil when it stays as it is
	Links   int    // how many of its links are rewritten
}

// Plan is a rename's rewrites, worked out in full before anything is
// touched.
type Plan struct {
	Files   []Rewritten // one for each file given, in their order
	Notices []string    // links whose meaning changes although no rewrite touches them
}

// Refusal is a rename refused for what the store holds. Code says why, as
// omh reports it: key_taken, unrewritable or changed.
type Refusal struct {
	Code string
	Err  error
}

func (r *Refusal) Error() string { return r.Err.Error() }
func (r *Refusal) Unwrap() error { return r.Err }

func refuse(code string, err error) error { return &Refusal{Code: code, Err: err} }

// CheckCase refuses a new key that differs only in letter case from
// another note's key, or that puts the note in a folder differing only in
// letter case from one that holds notes: on macOS and Windows both would be
// one file, or one folder.
func CheckCase(notes []Note, oldKey, newKey string) error {
	folders := map[string]string{} // lower-cased → as the notes spell it
	for _, n := range notes {
		if n.Key == oldKey {
			continue
		}
		if n.Key != newKey && strings.EqualFold(n.Key, newKey) { // an equal key is taken, not a case clash
			return refuse("key_taken", fmt.Errorf("nothing was renamed: %s differs only in letter case from %s (%s), and on macOS and Windows both would be one file", newKey, n.Key, n.Path))
		}
		for dir := path.Dir(n.Key); dir != "."; dir = path.Dir(dir) {
			folders[strings.ToLower(dir)] = dir
		}
	}
	for dir := path.Dir(newKey); dir != "."; dir = path.Dir(dir) {
		if have, ok := folders[strings.ToLower(dir)]; ok && have != dir {
			return refuse("key_taken", fmt.Errorf("nothing was renamed: the folder %s of %s differs only in letter case from the folder %s that holds notes, and on macOS and Windows both would be one folder", dir, newKey, have))
		}
	}
	return nil
}

// planned is one file as the plan works it out.
type planned struct {
	File
	after   string // its key after the rename
	content []byte
	edits   []Edit
	out     []byte         // content with the edits made
	wants   map[int]string // links to rewrite: the key each must reach
	was     []string       // the key each link reached before the rename
}

// planner holds what a rename's plan is checked against.
type planner struct {
	oldKey, newKey string
	dialect        vault.Dialect
	before, after  vault.MemNames // the names links resolve against, before and after
	files          []*planned
	notices        []string
	// relink: oldKey is no note's any more (renamed in another clone);
	// only the links that reach nothing, and would reach it, are
	// rewritten. before holds it as a note with no file.
	relink bool
}

// PlanRename works out the rename of the note oldKey to newKey in a store
// of notes, whose files (those on disk) may hold links, under dialect d:
// every link to rewrite and each file's new content, checked as a whole
// (verify). Every link that cannot be rewritten is listed, and nothing is
// planned. It changes nothing; the caller checks the new key is free (and
// CheckCase) first, and makes the changes.
func PlanRename(notes []Note, files []File, oldKey, newKey string, d vault.Dialect) (Plan, error) {
	p := &planner{oldKey: oldKey, newKey: newKey, dialect: d, before: vault.MemNames{}, after: vault.MemNames{}}
	for _, n := range notes {
		p.before.Add(n.Key, n.Aliases)
		k := n.Key
		if k == oldKey {
			k = newKey
		}
		p.after.Add(k, n.Aliases)
	}
	return p.plan(files)
}

// PlanRelink works out, as PlanRename does, the rewrite of the links that
// reach no note but would reach oldKey, a key no note has (the note was
// renamed in another clone, and the rename pulled), into links to newKey,
// a note of the store. Links that reach a note, or could mean several, are
// left as they are.
func PlanRelink(notes []Note, files []File, oldKey, newKey string, d vault.Dialect) (Plan, error) {
	p := &planner{oldKey: oldKey, newKey: newKey, dialect: d, before: vault.MemNames{}, after: vault.MemNames{}, relink: true}
	for _, n := range notes {
		p.before.Add(n.Key, n.Aliases)
		p.after.Add(n.Key, n.Aliases)
	}
	p.before.Add(oldKey, nil)
	return p.plan(files)
}

// plan works out each file's rewrites and checks them as a whole.
func (p *planner) plan(files []File) (Plan, error) {
	d, oldKey, newKey := p.dialect, p.oldKey, p.newKey
	var problems []string
	for _, file := range files {
		f := &planned{File: file, after: file.Key}
		if f.Key == oldKey {
			f.after = newKey
		}
		p.files = append(p.files, f)
		if err := p.checkUnparsed(f); err != nil {
			return Plan{}, err
		}
		links := f.Parsed.Links
		f.wants = map[int]string{}
		f.was = make([]string, len(links))
		for i, l := range links {
			ld, l := readAs(d, l)
			was, err := ld.Resolve(l, f.Key, p.before)
			if err != nil {
				return Plan{}, err
			}
			if p.relink {
				// Only a link that reaches nothing now is the old key's.
				real, err := ld.Resolve(l, f.Key, p.after)
				if err != nil {
					return Plan{}, err
				}
				if was.Key != oldKey || real.Key != "" || len(real.Candidates) > 1 {
					was = real
				}
			}
			now, err := ld.Resolve(l, f.after, p.after)
			if err != nil {
				return Plan{}, err
			}
			f.was[i] = was.Key
			want := was.Key
			if want == oldKey {
				want = newKey
			}
			switch {
			case want == "" && (now.Key != "" || strings.Join(now.Candidates, ",") != strings.Join(was.Candidates, ",")):
				what := "reaches " + now.Key
				if now.Key == "" {
					what = "could mean " + strings.Join(now.Candidates, ", ")
				}
				p.notices = append(p.notices, fmt.Sprintf("%s:%d: %s %s after the rename (it reached no note before)", f.Shown, l.Line, d.Show(l), what))
			case want != "" && now.Key != want:
				f.wants[i] = want
			}
		}
		if len(f.wants) == 0 {
			continue
		}
		content, err := f.Read()
		if err != nil {
			return Plan{}, fmt.Errorf("reading %s: %w", f.Shown, err)
		}
		if gitrepo.HashBytes(content) != f.Blob {
			return Plan{}, refuse("changed", fmt.Errorf("nothing was renamed: %s changed while omh mv read the store; run it again", f.Shown))
		}
		f.content = content
		for _, i := range sortedLinks(f.wants) {
			ld, l := readAs(d, links[i])
			ed, err := RewriteLink(ld, content, l, f.was[i], LinkEnds{From: f.after, Names: p.after}, f.wants[i])
			if err != nil {
				problems = append(problems, fmt.Sprintf("%s:%d: %s: %v", f.Shown, links[i].Line, d.Show(links[i]), err))
				continue
			}
			f.edits = append(f.edits, ed)
			if def, ok := relabelDefinition(content, links, i, ed); ok {
				f.edits = append(f.edits, def)
			}
		}
		out, err := ApplyEdits(content, f.edits)
		if err != nil {
			problems = append(problems, fmt.Sprintf("%s: %v", f.Shown, err))
			continue
		}
		f.out = out
	}
	if len(problems) == 0 {
		problems = p.verify()
	}
	if len(problems) > 0 {
		return Plan{}, refuse("unrewritable", fmt.Errorf("nothing was renamed: %s; fix %s by hand first:\n  %s",
			countLinks(len(problems)), itOrThem(len(problems)), strings.Join(problems, "\n  ")))
	}
	plan := Plan{Notices: p.notices}
	for _, f := range p.files {
		plan.Files = append(plan.Files, Rewritten{Content: f.content, Out: f.out, Links: p.counted(f)})
	}
	return plan, nil
}

// checkUnparsed refuses a rename when a file read only in part
// (markdown-too-costly) names the note where it was not parsed: a link
// there would be left reaching nothing.
func (p *planner) checkUnparsed(f *planned) error {
	if !slices.ContainsFunc(f.Parsed.Problems, func(pr vault.Problem) bool { return pr.Rule == "markdown-too-costly" }) {
		return nil
	}
	r, err := f.Open()
	if err != nil {
		return fmt.Errorf("reading %s: %w", f.Shown, err)
	}
	defer r.Close()
	name := path.Base(p.oldKey)
	line, err := vault.UnparsedMention(r, f.Parsed, name)
	if err != nil {
		return fmt.Errorf("reading %s: %w", f.Shown, err)
	}
	if line > 0 {
		return refuse("unrewritable", fmt.Errorf("nothing was renamed: %s is parsed as markdown only up to line %d (markdown-too-costly) and names %s after it, where a link could not be rewritten; split the note or edit it by hand first", f.Shown, line, name))
	}
	return nil
}

// verify reads every file as the rename would leave it and resolves each
// of its links with the dialect that planned the rewrite: a link that
// reached the old key must reach the new one, every rewritten link its
// target, and no link the old key. It returns what is wrong, one line a
// link.
func (p *planner) verify() []string {
	var stale []string
	for _, f := range p.files {
		if f.out == nil {
			continue
		}
		links := f.Parsed.Links
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
				stale = append(stale, fmt.Sprintf("%s:%d: %s would no longer be read as a link", f.Shown, l.Line, p.dialect.Show(l)))
				continue
			}
			ld, rl := readAs(p.dialect, reparsed.Links[j])
			got, err := ld.Resolve(rl, f.after, p.after)
			if err != nil || got.Key != want {
				stale = append(stale, fmt.Sprintf("%s:%d: %s would not reach %s alone", f.Shown, l.Line, p.dialect.Show(l), want))
			}
		}
		// Links the index did not know (past what it parses of a long
		// note) must not reach the old key either.
		for j, l := range reparsed.Links {
			if matched[j] {
				continue
			}
			ld, l := readAs(p.dialect, l)
			if got, err := ld.Resolve(l, f.after, p.before); err == nil && got.Key == p.oldKey {
				stale = append(stale, fmt.Sprintf("%s:%d: %s still reaches %s", f.Shown, l.Line, p.dialect.Show(l), p.oldKey))
			}
		}
	}
	return stale
}

// counted is how many links of the dialect's f's rewrite changes: a
// definition behind a wiki link is rewritten with it, and not counted again.
func (p *planner) counted(f *planned) int {
	n := 0
	for i := range f.wants {
		if _, ok := p.dialect.Read(f.Parsed.Links[i]); ok {
			n++
		}
	}
	return n
}

// readAs is how a rename reads link l under dialect d. The [x] of [[x]]
// that a note defines ([x]: path, Foam's link reference definitions) is no
// link of the dialect's, the wiki link is; but it is what plain markdown
// reads, so a rename keeps it reaching the note, as a markdown link read
// by omh's own rules.
func readAs(d vault.Dialect, l vault.Link) (vault.Dialect, vault.Link) {
	if l.Kind != vault.WikiReference || d.String() == vault.DialectMarkdown {
		return d, l
	}
	l.Kind = vault.MarkdownLink
	return vault.Dialect{}, l
}

// relabelDefinition is the edit that keeps the definition behind the wiki
// link links[i] (Foam's [x]: path for [[x]]) labelled as the wiki link is
// once ed rewrites it; false when no definition backs it.
func relabelDefinition(src []byte, links []vault.Link, i int, ed Edit) (Edit, bool) {
	wiki := links[i]
	if wiki.Kind != vault.WikiLink && wiki.Kind != vault.EmbedLink {
		return Edit{}, false
	}
	open := wiki.Start + 2 // where the link's inner text starts
	if wiki.Kind == vault.EmbedLink {
		open++
	}
	ref := slices.IndexFunc(links, func(l vault.Link) bool { return l.Kind == vault.WikiReference && l.Start == open-1 })
	if ref < 0 || ed.Start < open || ed.End > wiki.End-2 {
		return Edit{}, false
	}
	inner := string(src[open : wiki.End-2])
	start, end, ok := definitionLabel(src, inner)
	if !ok {
		return Edit{}, false
	}
	relabelled := inner[:ed.Start-open] + ed.Text + inner[ed.End-open:]
	return Edit{Start: start, End: end, Text: relabelled}, true
}

// shifted is where an offset of a file lands once edits are made.
func shifted(at int, edits []Edit) int {
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
