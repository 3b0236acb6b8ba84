package main

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"github.com/yuin/goldmark/util"
	"golang.org/x/text/unicode/norm"

	"github.com/omh-notes/omh/index"
	"github.com/omh-notes/omh/vault"
)

// MvCmd is `omh mv`.
type MvCmd struct {
	Old string `arg:"" name:"old" help:"The note's key now."`
	New string `arg:"" name:"new" help:"The key to give it."`
}

// Help is the detail under `omh mv --help`.
func (c *MvCmd) Help() string {
	return `The note is renamed in its layer: with git mv when git tracks it, else renamed on disk (a private note stays in the private folder). Every link to it, in both layers, is rewritten: [[old]], [[old|label]], [[old#heading]], [[old^block]], ![[old]] keep their label, heading, block and embed mark and the writer's style (a short name stays as short as it can while still reaching the note alone); relative markdown links are recomputed from each linking file's folder, and the moved note's own relative links from its new folder. A link to another note that the new name would make ambiguous is rewritten to keep its target. Rewritten files git tracks are staged unless they had other unstaged changes.

Nothing changes when OLD is missing or ambiguous, NEW is taken, or a link cannot be rewritten to reach its target alone.`
}

// mvReport is what omh mv did; one value for people and programs.
type mvReport struct {
	Old       string      `json:"old"`
	New       string      `json:"new"`
	From      string      `json:"from"`
	To        string      `json:"to"`
	How       string      `json:"how"` // "git mv" or "rename"
	Rewritten []mvRewrite `json:"rewritten"`
	Staged    []string    `json:"staged"`   // files staged with git add (or git mv)
	Unstaged  []string    `json:"unstaged"` // rewritten tracked files left unstaged: they had other unstaged changes
	Notices   []string    `json:"notices"`  // links whose meaning changes with the rename although no rewrite touched them
}

// mvRewrite is one file whose links were rewritten.
type mvRewrite struct {
	Path  string `json:"path"`
	Links int    `json:"links"`
}

// mvFile is one file of the store that may hold links, on disk.
type mvFile struct {
	note    index.StoredNote
	abs     string // the file
	shown   string // as reported: relative to the repository root, or absolute for private notes
	before  string // its key now
	after   string // its key after the rename
	moved   bool   // the renamed note itself
	tracked bool   // git's index holds it
	dirty   bool   // it has unstaged changes already
	content []byte
	edits   []mvEdit
	out     []byte // content with the edits made
	wants   map[int]string
}

// mvEdit replaces src[start:end] of a file.
type mvEdit struct {
	start, end int
	text       string
	link       int // index of the link in the file's parse
}

// Run renames a note in its layer (git mv for a note git tracks, a rename
// for a private or untracked one) and rewrites every link in both layers
// that reaches it, keeping labels, headings, block references and the
// embed mark; relative markdown links are recomputed from each linking
// file's folder, and the moved note's own relative links from its new one.
// A link to another note whose meaning the rename would change (a short
// name that becomes ambiguous) is rewritten to keep its target. All or
// nothing: it refuses, changing nothing, when OLD is missing or ambiguous,
// NEW is taken, or a link cannot be rewritten to reach its target alone.
func (c *MvCmd) Run(e *env) error {
	oldArg := norm.NFC.String(strings.TrimSuffix(strings.TrimSpace(c.Old), vault.NoteExt))
	newKey := norm.NFC.String(strings.TrimSuffix(strings.TrimSpace(c.New), vault.NoteExt))
	for _, k := range []string{oldArg, newKey} {
		if err := vault.CheckKey(k); err != nil {
			return refuse("bad_key", err)
		}
	}
	if strings.ContainsAny(newKey, "[]|#^") {
		return refuse("bad_key", fmt.Errorf("key %q holds a character a wiki link cannot name ([ ] | # ^)", newKey))
	}
	return e.withStore(index.Options{LockWait: lockWait, Progress: e.progress()}, func(s *store) error {
		p, err := planMove(s, oldArg, newKey)
		if err != nil {
			return err
		}
		if err := p.apply(); err != nil {
			return err
		}
		rep := p.report()
		if e.cli.JSON {
			return writeJSON(e.stdout, rep)
		}
		rep.print(e)
		return nil
	})
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
	files         []*mvFile
	moved         *mvFile
	notices       []string
	staged        []string
	unstaged      []string
	privateFolder string
}

func planMove(s *store, oldArg, newKey string) (*movePlan, error) {
	notes, err := s.snap.Notes()
	if err != nil {
		return nil, err
	}
	cfg, err := vault.LoadConfig(s.repo.Root)
	if err != nil {
		return nil, err
	}
	private, err := s.snap.PrivateDir()
	if err != nil {
		return nil, err
	}
	root := s.repo.Root
	notesDir := s.snap.NotesDir()
	p := &movePlan{root: root, newKey: newKey, privateFolder: private}

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
		out, err := gitIn(root, "ls-files", "--cached", "-z", "--", p.fromShown, p.toShown)
		if err != nil {
			return nil, refuse("git_failed", err)
		}
		p.how = "rename"
		for _, f := range strings.Split(out, "\x00") {
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

	if err := p.gatherFiles(s, notes); err != nil {
		return nil, err
	}
	if err := p.planRewrites(notes); err != nil {
		return nil, err
	}
	return p, nil
}

// gatherFiles lists the store's files as they are on disk: a committed
// note counts through its working copy when that differs, a committed note
// deleted from the working tree not at all.
func (p *movePlan) gatherFiles(s *store, notes []index.StoredNote) error {
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
		f := &mvFile{note: n, shown: n.Note.Path, before: n.Note.Key, after: n.Note.Key}
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
	inIndex, err := gitLines(p.root, "ls-files", "--cached", "-z")
	if err != nil {
		return err
	}
	dirty, err := gitLines(p.root, "diff", "--name-only", "-z")
	if err != nil {
		return err
	}
	for _, f := range p.files {
		if !f.note.Private {
			f.tracked, f.dirty = inIndex[f.shown], dirty[f.shown]
		}
	}
	return nil
}

// gitLines runs a git command printing NUL-separated paths and returns
// them as a set.
func gitLines(root string, args ...string) (map[string]bool, error) {
	out, err := gitIn(root, args...)
	if err != nil {
		return nil, refuse("git_failed", err)
	}
	set := map[string]bool{}
	for _, f := range strings.Split(out, "\x00") {
		if f != "" {
			set[f] = true
		}
	}
	return set, nil
}

// planRewrites finds every link to rewrite and computes each file's new
// content, then checks that every rewritten link reaches its target alone.
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
	for _, f := range p.files {
		links := f.note.Parsed.Links
		f.wants = map[int]string{}
		for i, l := range links {
			was, err := vault.Resolve(l, f.before, before)
			if err != nil {
				return err
			}
			now, err := vault.Resolve(l, f.after, after)
			if err != nil {
				return err
			}
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
				p.notices = append(p.notices, fmt.Sprintf("%s:%d: %s %s after the rename (it reached no note before)", f.shown, l.Line, linkShown(l), what))
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
		for i, want := range f.wants {
			ed, err := rewriteLink(content, links[i], linkEnds{f.before, before}, linkEnds{f.after, after}, want)
			if err != nil {
				return refuse("unrewritable", fmt.Errorf("nothing was renamed: the link at %s:%d cannot be rewritten: %v; fix it by hand first", f.shown, links[i].Line, err))
			}
			ed.link = i
			f.edits = append(f.edits, ed)
		}
		out, err := applyEdits(content, f.edits)
		if err != nil {
			return refuse("unrewritable", fmt.Errorf("nothing was renamed: %s: %v", f.shown, err))
		}
		// Every rewritten link must now reach its target, and only it.
		reparsed := vault.Parse(out)
		if len(reparsed.Links) != len(links) {
			return refuse("unrewritable", fmt.Errorf("nothing was renamed: rewriting %s would change how many links it holds", f.shown))
		}
		for i, want := range f.wants {
			got, err := vault.Resolve(reparsed.Links[i], f.after, after)
			if err != nil {
				return err
			}
			if got.Key != want {
				return refuse("unrewritable", fmt.Errorf("nothing was renamed: the link at %s:%d cannot be rewritten to reach %s alone", f.shown, links[i].Line, want))
			}
		}
		f.out = out
	}
	return nil
}

func linkShown(l vault.Link) string {
	if l.Kind == vault.MarkdownLink {
		return fmt.Sprintf("the link to %q", l.Target)
	}
	return "[[" + l.Target + "]]"
}

// linkEnds is the key of a linking file and the names links resolve
// against, before or after the rename.
type linkEnds struct {
	from  string
	names vault.Names
}

// rewriteLink computes the edit that makes link l reach want once the
// rename is done.
func rewriteLink(src []byte, l vault.Link, before, after linkEnds, want string) (mvEdit, error) {
	if l.Kind == vault.MarkdownLink {
		return rewriteMarkdown(src, l, after.from, want)
	}
	// Which part of the link named the note before: its target, or (in
	// Dendron's [[label|target]] order) the part after the pipe.
	part := "target"
	if l.Label != "" {
		alone := l
		alone.Label = ""
		if res, err := vault.Resolve(alone, before.from, before.names); err == nil && res.Key == "" && len(res.Candidates) == 0 {
			if viaLabel, err := vault.Resolve(vault.Link{Kind: vault.WikiLink, Target: l.Label}, before.from, before.names); err == nil && viaLabel.Key != "" {
				part = "label"
			}
		}
	}
	from, names := after.from, after.names
	start, end, err := wikiSpan(src, l, part == "label")
	if err != nil {
		return mvEdit{}, err
	}
	written := string(src[start:end])
	ext := ""
	if len(written) >= 3 && strings.EqualFold(written[len(written)-3:], vault.NoteExt) {
		ext = written[len(written)-3:]
	}
	name := shortestName(want, strings.Contains(strings.TrimSuffix(written, ext), "/"), from, names)
	return mvEdit{start: start, end: end, text: name + ext}, nil
}

// wikiSpan returns where, inside a wiki link or embed, its target (or with
// label, the part after the pipe) is written, spaces around it excluded
// and a ".md" included.
func wikiSpan(src []byte, l vault.Link, label bool) (int, int, error) {
	open := l.Start
	if l.Kind == vault.EmbedLink {
		open++
	}
	if open+2 > l.End-2 || l.End > len(src) || string(src[open:open+2]) != "[[" || string(src[l.End-2:l.End]) != "]]" {
		return 0, 0, errors.New("its brackets are not where the index says")
	}
	innerStart, inner := open+2, string(src[open+2:l.End-2])
	start, end := innerStart, innerStart+len(inner)
	if pipe := strings.IndexByte(inner, '|'); pipe >= 0 {
		if label {
			start = innerStart + pipe + 1
		} else {
			end = innerStart + pipe
			if end > start && src[end-1] == '\\' { // a pipe escaped inside a table
				end--
			}
		}
	} else if label {
		return 0, 0, errors.New("it has no label")
	}
	if !label {
		if i := bytes.IndexAny(src[start:end], "#^"); i >= 0 {
			end = start + i
		}
	}
	for start < end && isSpaceByte(src[start]) {
		start++
	}
	for end > start && isSpaceByte(src[end-1]) {
		end--
	}
	got := string(src[start:end])
	want := l.Target
	if label {
		want = l.Label
	} else if len(got) >= 3 && strings.EqualFold(got[len(got)-3:], vault.NoteExt) {
		got = got[:len(got)-3]
	}
	if strings.TrimSpace(got) != want {
		return 0, 0, fmt.Errorf("its text %q is not the %q the index read", got, want)
	}
	return start, end, nil
}

func isSpaceByte(c byte) bool { return c == ' ' || c == '\t' }

// shortestName is how to write a wiki link to key from the note from: the
// shortest trailing part of the key that reaches it alone, or the whole key
// when the link was written with a folder (keeping the writer's style).
func shortestName(key string, full bool, from string, names vault.Names) string {
	if full {
		return key
	}
	parts := strings.Split(key, "/")
	for i := len(parts) - 1; i > 0; i-- {
		cand := strings.Join(parts[i:], "/")
		if res, err := vault.Resolve(vault.Link{Kind: vault.WikiLink, Target: cand}, from, names); err == nil && res.Key == key {
			return cand
		}
	}
	return key
}

// rewriteMarkdown points a markdown link at want, written relative to the
// folder of from (or from the notes root when the link starts with "/"),
// keeping its fragment, query, ".md" and angle brackets as written. A
// reference link's definition is rewritten instead.
func rewriteMarkdown(src []byte, l vault.Link, from, want string) (mvEdit, error) {
	start, end, err := markdownDestSpan(src, l)
	if err != nil {
		return mvEdit{}, err
	}
	dest := string(src[start:end])
	pathEnd := len(dest)
	if i := strings.IndexAny(dest, "#?"); i >= 0 {
		pathEnd = i
	}
	written := dest[:pathEnd]
	decoded := pathUnescapeLoose(string(util.UnescapePunctuations([]byte(written))))
	ext := ""
	if len(decoded) >= 3 && strings.EqualFold(decoded[len(decoded)-3:], vault.NoteExt) {
		ext = decoded[len(decoded)-3:]
		decoded = decoded[:len(decoded)-3]
	}
	if decoded != l.Target {
		return mvEdit{}, fmt.Errorf("its destination %q is not the %q the index read", written, l.Target)
	}
	var p string
	switch {
	case strings.HasPrefix(written, "/"):
		p = "/" + want
	default:
		p = relativeKey(path.Dir(from), want)
		if strings.HasPrefix(written, "./") && !strings.HasPrefix(p, "../") {
			p = "./" + p
		}
	}
	return mvEdit{start: start, end: start + pathEnd, text: escapeDestination(p + ext)}, nil
}

// markdownDestSpan finds a markdown link's destination: inside the
// parentheses of an inline link, or on the line that defines a reference
// link's label.
func markdownDestSpan(src []byte, l vault.Link) (int, int, error) {
	if l.Start >= len(src) || src[l.Start] != '[' {
		return 0, 0, errors.New("it does not start where the index says")
	}
	closeAt := matchingBracket(src, l.Start, l.End)
	if closeAt < 0 {
		return 0, 0, errors.New("its text is not closed")
	}
	i := closeAt + 1
	if i < l.End && src[i] == '(' {
		i++
		for i < l.End && (src[i] == ' ' || src[i] == '\t' || src[i] == '\n' || src[i] == '\r') {
			i++
		}
		if i < l.End && src[i] == '<' {
			j := i + 1
			for j < l.End && src[j] != '>' && src[j] != '\n' {
				if src[j] == '\\' {
					j++
				}
				j++
			}
			if j >= l.End || src[j] != '>' {
				return 0, 0, errors.New("its destination is not closed")
			}
			return i + 1, j, nil
		}
		j, depth := i, 0
		for ; j < l.End; j++ {
			c := src[j]
			if c == '\\' && j+1 < l.End {
				j++
				continue
			}
			if c == '(' {
				depth++
			} else if c == ')' {
				if depth == 0 {
					break
				}
				depth--
			} else if c == ' ' || c == '\t' || c == '\n' || c == '\r' {
				break
			}
		}
		return i, j, nil
	}
	// A reference link: [text][label], [label][] or [label].
	label := string(src[l.Start+1 : closeAt])
	if i < l.End && src[i] == '[' {
		if c2 := matchingBracket(src, i, l.End); c2 > i+1 {
			label = string(src[i+1 : c2])
		}
	}
	def := regexp.MustCompile(`(?mi)^[ \t]{0,3}\[` + labelPattern(label) + `\]:[ \t]*(?:\r?\n[ \t]*)?(<[^>\n]*>|\S+)`)
	m := def.FindSubmatchIndex(src)
	if m == nil {
		return 0, 0, errors.New("its reference definition was not found")
	}
	s, e := m[2], m[3]
	if src[s] == '<' {
		s, e = s+1, e-1
	}
	return s, e, nil
}

// labelPattern matches a reference label as markdown compares them:
// letter case and runs of white space do not matter.
func labelPattern(label string) string {
	words := strings.Fields(label)
	for i, w := range words {
		words[i] = regexp.QuoteMeta(w)
	}
	return `[ \t]*` + strings.Join(words, `[ \t\r\n]+`) + `[ \t]*`
}

// matchingBracket returns the "]" closing the "[" at open, before limit,
// skipping escaped brackets and code spans; -1 when there is none.
func matchingBracket(src []byte, open, limit int) int {
	depth := 0
	for i := open; i < limit; i++ {
		switch src[i] {
		case '\\':
			i++
		case '`':
			n := 0
			for i+n < limit && src[i+n] == '`' {
				n++
			}
			closeRun := bytes.Index(src[i+n:limit], bytes.Repeat([]byte{'`'}, n))
			if closeRun >= 0 {
				i += n + closeRun + n - 1
			} else {
				i += n - 1
			}
		case '[':
			depth++
		case ']':
			depth--
			if depth == 0 {
				return i
			}
		}
	}
	return -1
}

// pathUnescapeLoose decodes %XX escapes, leaving malformed ones as they are.
func pathUnescapeLoose(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '%' && i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2]) {
			b.WriteByte(unhex(s[i+1])<<4 | unhex(s[i+2]))
			i += 2
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

func unhex(c byte) byte {
	switch {
	case c >= 'a':
		return c - 'a' + 10
	case c >= 'A':
		return c - 'A' + 10
	}
	return c - '0'
}

// escapeDestination writes a path so a markdown destination reads it back
// whole: white space, brackets, parentheses and the characters that would
// start a fragment, a query or an escape are percent-encoded.
func escapeDestination(p string) string {
	var b strings.Builder
	for i := 0; i < len(p); i++ {
		c := p[i]
		if c <= ' ' || c == 0x7f || strings.IndexByte(`()<>[]#?%\`, c) >= 0 {
			fmt.Fprintf(&b, "%%%02X", c)
			continue
		}
		b.WriteByte(c)
	}
	return b.String()
}

// relativeKey is the path from folder dir (of keys, "." for the root) to
// key.
func relativeKey(dir, key string) string {
	var from []string
	if dir != "." && dir != "" {
		from = strings.Split(dir, "/")
	}
	to := strings.Split(key, "/")
	common := 0
	for common < len(from) && common < len(to)-1 && from[common] == to[common] {
		common++
	}
	parts := make([]string, 0, len(from)-common+len(to)-common)
	for range from[common:] {
		parts = append(parts, "..")
	}
	parts = append(parts, to[common:]...)
	return strings.Join(parts, "/")
}

// applyEdits makes non-overlapping edits to src.
func applyEdits(src []byte, edits []mvEdit) ([]byte, error) {
	sort.Slice(edits, func(i, j int) bool { return edits[i].start < edits[j].start })
	var out bytes.Buffer
	at := 0
	for i, ed := range edits {
		if i > 0 && ed.start < edits[i-1].end {
			if ed.start == edits[i-1].start && ed.end == edits[i-1].end && ed.text == edits[i-1].text {
				continue // one reference definition serving two links
			}
			return nil, errors.New("two links to rewrite overlap")
		}
		out.Write(src[at:ed.start])
		out.WriteString(ed.text)
		at = ed.end
	}
	out.Write(src[at:])
	return out.Bytes(), nil
}

// apply makes the planned changes: rewritten files first, then the move,
// then git add. A failing step undoes the steps before it.
func (p *movePlan) apply() error {
	type saved struct {
		abs     string
		content []byte
		mode    fs.FileMode
	}
	var restored []saved
	undoWrites := func() {
		for i := len(restored) - 1; i >= 0; i-- {
			replaceFile(restored[i].abs, restored[i].content, restored[i].mode)
		}
	}
	for _, f := range p.files {
		if f.out == nil || (f.moved && p.how != "git mv") {
			continue
		}
		fi, err := os.Stat(f.abs)
		if err != nil {
			undoWrites()
			return fmt.Errorf("nothing was renamed: %w", err)
		}
		if err := replaceFile(f.abs, f.out, fi.Mode().Perm()); err != nil {
			undoWrites()
			return fmt.Errorf("nothing was renamed: %w", err)
		}
		restored = append(restored, saved{f.abs, f.content, fi.Mode().Perm()})
	}
	undoMove := func() {}
	switch p.how {
	case "git mv":
		created, err := makeDirs(filepath.Dir(p.to))
		if err == nil {
			_, err = gitIn(p.root, "mv", "--", p.fromShown, p.toShown)
		}
		if err != nil {
			removeDirs(created)
			undoWrites()
			return refuse("git_failed", fmt.Errorf("nothing was renamed: %w", err))
		}
		undoMove = func() {
			gitIn(p.root, "mv", "--", p.toShown, p.fromShown)
			removeDirs(created)
		}
		p.staged = append(p.staged, p.fromShown, p.toShown)
	default:
		content := p.moved.out
		if content == nil {
			var err error
			if content, err = os.ReadFile(p.from); err != nil {
				undoWrites()
				return fmt.Errorf("nothing was renamed: %w", err)
			}
		}
		fi, err := os.Stat(p.from)
		if err != nil {
			undoWrites()
			return fmt.Errorf("nothing was renamed: %w", err)
		}
		created, err := writeNewFile(p.to, content)
		if err == nil {
			os.Chmod(p.to, fi.Mode().Perm())
			err = os.Remove(p.from)
			if err != nil {
				os.Remove(p.to)
				removeDirs(created)
			}
		}
		if err != nil {
			undoWrites()
			return fmt.Errorf("nothing was renamed: %w", err)
		}
		if p.moved.note.Private {
			removeEmptyParents(filepath.Dir(p.from), p.privateFolder)
		}
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
	if len(add) > 0 {
		if _, err := gitIn(p.root, append([]string{"add", "--"}, add...)...); err != nil {
			undoMove()
			undoWrites()
			return refuse("git_failed", fmt.Errorf("nothing was renamed: %w", err))
		}
		p.staged = append(p.staged, add...)
	}
	return nil
}

// replaceFile writes content over path through a temporary file in the
// same folder, so a reader sees the old file or the new one, never part.
func replaceFile(path string, content []byte, mode fs.FileMode) error {
	tmp, err := writeTemp(path, content, mode)
	if err == nil {
		if err = os.Rename(tmp, path); err != nil {
			os.Remove(tmp)
		}
	}
	if err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	syncDir(filepath.Dir(path))
	return nil
}

func removeDirs(dirs []string) {
	for i := len(dirs) - 1; i >= 0; i-- {
		os.Remove(dirs[i])
	}
}

func (p *movePlan) report() mvReport {
	rep := mvReport{Old: p.oldKey, New: p.newKey, From: p.fromShown, To: p.toShown, How: p.how,
		Rewritten: []mvRewrite{}, Staged: []string{}, Unstaged: []string{}, Notices: []string{}}
	for _, f := range p.files {
		if f.out == nil {
			continue
		}
		shown := f.shown
		if f.moved {
			shown = p.toShown
		}
		rep.Rewritten = append(rep.Rewritten, mvRewrite{Path: shown, Links: len(f.wants)})
	}
	rep.Staged = append(rep.Staged, p.staged...)
	rep.Unstaged = append(rep.Unstaged, p.unstaged...)
	rep.Notices = append(rep.Notices, p.notices...)
	return rep
}

func (r mvReport) print(e *env) {
	w := e.stdout
	fmt.Fprintf(w, "renamed %s -> %s (%s)\n  %s -> %s\n", r.Old, r.New, r.How, r.From, r.To)
	links := 0
	for _, rw := range r.Rewritten {
		links += rw.Links
	}
	if links == 0 {
		fmt.Fprintln(w, "no link needed rewriting")
	} else {
		fmt.Fprintf(w, "rewrote %s in %s:\n", countOf(links, "link", "links"), countNotes(len(r.Rewritten)))
		for _, rw := range r.Rewritten {
			fmt.Fprintf(w, "  %s (%d)\n", rw.Path, rw.Links)
		}
	}
	if len(r.Staged) > 0 {
		fmt.Fprintf(w, "staged: %s\n", strings.Join(r.Staged, " "))
	}
	for _, u := range r.Unstaged {
		fmt.Fprintf(w, "not staged (it had unstaged changes already): %s\n", u)
	}
	for _, n := range r.Notices {
		e.warn("%s", n)
	}
}
