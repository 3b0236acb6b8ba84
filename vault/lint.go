package vault

import (
	"fmt"
	"path"
	"regexp"
	"slices"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/text"
	"golang.org/x/text/unicode/norm"
)

// Severity says whether a finding fails lint (error) or only informs
// (warning; --strict makes it fail too).
type Severity string

const (
	SevError   Severity = "error"
	SevWarning Severity = "warning"
)

// LintRule is one check of omh lint. IDs are stable: scripts and
// suppressions may name them.
type LintRule struct {
	ID       string
	Severity Severity // team-links-local is an error for verdict links, a warning otherwise
	What     string
}

// LintRules is every check, in the order findings about one note are
// listed.
var LintRules = []LintRule{
	{"frontmatter", SevError, "the frontmatter is not valid YAML, is not closed, is not a map, or a field has the wrong shape"},
	{"invalid-date", SevError, "recorded, date, created or retracted is not a real calendar date"},
	{"key-mismatch", SevError, "a key: field disagrees with the key the note's path gives"},
	{"name-not-utf8", SevWarning, "the file's name is not valid UTF-8; its key writes each byte that is not as %XX"},
	{"duplicate-key", SevError, "two notes of one layer share a key (a private note and an uncommitted file, or two spellings of one name)"},
	{"unknown-type", SevWarning, "type: is not one of the types omh knows"},
	{"missing-section", SevError, "a section the note's type requires is missing"},
	{"prose-in-list", SevError, "a list-only section (Answers) holds text that is not a list item, which is not read as an answer"},
	{"dangling-link", SevError, "a link reaches no note"},
	{"ambiguous-link", SevError, "a link could mean several notes and so reaches none; every candidate is named"},
	{"unknown-verb", SevError, "a list item reads \"word [[link]]\" where word looks like a link verb but is none (snake_case, a verb's near miss, or a verb in capitals)"},
	{"verb-type", SevError, "a typed link joins types the verb makes no sense between: resolves needs an issue, rejects a decision on both ends, supersedes one type on both ends, attaches a blob, mitigates an issue or surprise, invalidates a finding, decision, citation or surprise"},
	{"team-links-local", SevError, "a team note (or a working copy under the notes root) links to a note that exists only on this machine; an error for verdict links, a warning for others"},
	{"links-only-local", SevWarning, "every note a team note links to is local only"},
	{"orphan", SevWarning, "no note links to this one and it links to none"},
	{"markdown-too-costly", SevWarning, "part of the note is too costly to parse as markdown (thousands of unclosed brackets or emphasis marks in one paragraph), so links there are read as plain text"},
}

// Finding is one problem lint reports.
type Finding struct {
	Rule     string   `json:"rule"`
	Severity Severity `json:"severity"`
	Key      string   `json:"key"`
	Layer    string   `json:"layer"`
	Path     string   `json:"path"`
	Line     int      `json:"line"` // 1-based; 0 when the problem is not on one line
	Message  string   `json:"message"`
	Fix      string   `json:"fix"`
}

// LintNote is a note as lint sees it.
type LintNote struct {
	Key      string
	Layer    Layer
	Worktree bool // an uncommitted working copy under the notes root
	Private  bool // a note of the private folder
	Path     string
	Parsed   Parsed
	// Shadowed marks a committed note whose working copy differs: the
	// working copy is what will be committed, so only it is reported on.
	Shadowed bool
	// Content reads the note's bytes. Lint calls it only for notes with a
	// list-only section.
	Content func() ([]byte, error)
}

// LintOptions tune a lint run.
type LintOptions struct {
	// Report says which notes findings are wanted for; nil means all. The
	// whole store is read regardless, since links and duplicates are
	// properties of the store.
	Report func(n *LintNote) bool
	// NotANote reports whether a markdown link that reaches no note names
	// a file that exists but is not a note (an excluded README, a
	// picture), which is not a dangling link.
	NotANote func(n *LintNote, l Link) bool
}

// keyInfo is what the store holds under one key.
type keyInfo struct {
	team, worktree, private bool
	types                   []string
}

// Lint checks notes against LintRules and returns the findings in note
// order, each note's in rule order then line order.
func Lint(notes []LintNote, opt LintOptions) ([]Finding, error) {
	names := MemNames{}
	keys := map[string]*keyInfo{}
	layerKeys := map[string][]int{} // "layer\x00key" → notes
	for i := range notes {
		n := &notes[i]
		names.Add(n.Key, n.Parsed.Aliases)
		ki := keys[n.Key]
		if ki == nil {
			ki = &keyInfo{}
			keys[n.Key] = ki
		}
		switch {
		case n.Layer == Team:
			ki.team = true
		case n.Private:
			ki.private = true
		default:
			ki.worktree = true
		}
		ki.types = append(ki.types, typeOf(n.Parsed))
		layerKeys[n.Layer.String()+"\x00"+n.Key] = append(layerKeys[n.Layer.String()+"\x00"+n.Key], i)
	}
	resolved := make([][]Resolution, len(notes))
	inbound := map[string]int{}
	for i := range notes {
		n := &notes[i]
		resolved[i] = make([]Resolution, len(n.Parsed.Links))
		counted := map[string]bool{}
		for j, l := range n.Parsed.Links {
			res, err := Resolve(l, n.Key, names)
			if err != nil {
				return nil, err
			}
			resolved[i][j] = res
			if res.Key != "" && res.Key != n.Key && !counted[res.Key] {
				counted[res.Key] = true
				inbound[res.Key]++
			}
		}
	}
	var out []Finding
	for i := range notes {
		n := &notes[i]
		if n.Shadowed || (opt.Report != nil && !opt.Report(n)) {
			continue
		}
		l := linter{n: n, keys: keys, resolved: resolved[i], opt: opt}
		l.frontmatter()
		l.keyMismatch()
		if !utf8.ValidString(n.Path) {
			l.add("name-not-utf8", SevWarning, 0, fmt.Sprintf("the file's name is not valid UTF-8, so its key is %s", n.Key),
				"rename the file to a UTF-8 name with git mv")
		}
		if others := layerKeys[n.Layer.String()+"\x00"+n.Key]; len(others) > 1 {
			var paths []string
			for _, o := range others {
				if o != i {
					paths = append(paths, notes[o].Path)
				}
			}
			l.add("duplicate-key", SevError, 0, fmt.Sprintf("the %s layer holds this key twice: also at %s", n.Layer, strings.Join(paths, ", ")),
				"rename one of them with omh mv, or delete the one you do not need")
		}
		l.sections()
		if err := l.proseInLists(); err != nil {
			return nil, err
		}
		l.links()
		if inbound[n.Key] == 0 && !l.linksOut {
			l.add("orphan", SevWarning, 0, "no note links here and it links to no note",
				"link it from a topic or a related note, or link it to the notes it builds on")
		}
		sort.SliceStable(l.found, func(a, b int) bool {
			ra, rb := ruleOrder(l.found[a].Rule), ruleOrder(l.found[b].Rule)
			if ra != rb {
				return ra < rb
			}
			return l.found[a].Line < l.found[b].Line
		})
		out = append(out, l.found...)
	}
	return out, nil
}

func ruleOrder(id string) int {
	return slices.IndexFunc(LintRules, func(r LintRule) bool { return r.ID == id })
}

func typeOf(p Parsed) string {
	if p.Type == "" {
		return "note"
	}
	return p.Type
}

// linter gathers the findings about one note.
type linter struct {
	n        *LintNote
	keys     map[string]*keyInfo
	resolved []Resolution
	opt      LintOptions
	found    []Finding
	linksOut bool // some link reaches another note
}

func (l *linter) add(rule string, sev Severity, line int, msg, fix string) {
	l.found = append(l.found, Finding{Rule: rule, Severity: sev, Key: l.n.Key, Layer: l.n.Layer.String(),
		Path: l.n.Path, Line: line, Message: msg, Fix: fix})
}

func (l *linter) frontmatter() {
	for _, p := range l.n.Parsed.Problems {
		switch {
		case p.Rule == "invalid-date":
			l.add("invalid-date", SevError, p.Line, p.Message, "write a real date as YYYY-MM-DD, or remove the field")
		case p.Rule == "frontmatter-unclosed":
			l.add("frontmatter", SevError, p.Line, p.Message, `end the frontmatter with a line holding only "---"`)
		case p.Rule == "frontmatter-too-large":
			l.add("frontmatter", SevError, p.Line, p.Message, "keep data out of the frontmatter: a few fields, the rest in the body or another file")
		case p.Rule == "field-type":
			l.add("frontmatter", SevError, p.Line, p.Message, "write the field as a string, or a list of strings where a list is allowed")
		case p.Rule == "markdown-too-costly":
			l.add(p.Rule, SevWarning, p.Line, p.Message, "break the paragraph or table with blank lines, or split the note")
		default:
			l.add("frontmatter", SevError, p.Line, p.Message, "fix the YAML between the --- lines: one \"name: value\" per line, lists as [a, b]")
		}
	}
	if t := l.n.Parsed.Type; t != "" && !KnownType(t) {
		fix := "use one of " + strings.Join(TypeNames(false), ", ") + ", or drop type: for a plain note"
		if near := nearest(t, TypeNames(false)); near != "" {
			fix = fmt.Sprintf("did you mean %q? ", near) + fix
		}
		l.add("unknown-type", SevWarning, 0, fmt.Sprintf("type %q is not a type omh knows", t), fix)
	}
}

func (l *linter) keyMismatch() {
	declared := l.n.Parsed.DeclaredKey
	if declared == "" || norm.NFC.String(declared) == l.n.Key {
		return
	}
	l.add("key-mismatch", SevError, 0, fmt.Sprintf("the frontmatter says key %q but the note's path gives %q", declared, l.n.Key),
		fmt.Sprintf("set key: %s, drop the key field, or move the note with omh mv %s %s", l.n.Key, l.n.Key, declared))
}

func (l *linter) sections() {
	p := l.n.Parsed
	for _, want := range RequiredSections(typeOf(p)) {
		has := slices.ContainsFunc(p.Headings, func(h Heading) bool { return SameHeading(h.Text, want) })
		if !has && want == "Answers" && len(p.Answers) > 0 {
			has = true // declared in the frontmatter's answers field
		}
		if has {
			continue
		}
		fix := fmt.Sprintf("add a %q heading", "## "+want)
		if want == "Answers" {
			fix = `add "## Answers" with one "- question" item per question the note answers`
		}
		l.add("missing-section", SevError, 0, fmt.Sprintf("%s needs the section %q", withArticle(typeOf(p)), "## "+want), fix)
	}
}

// listOnlySections are the sections whose content is read only from list
// items.
var listOnlySections = []string{"Answers"}

func (l *linter) proseInLists() error {
	p := l.n.Parsed
	if l.n.Content == nil || !slices.ContainsFunc(p.Headings, func(h Heading) bool {
		return slices.ContainsFunc(listOnlySections, func(s string) bool { return SameHeading(h.Text, s) })
	}) {
		return nil
	}
	content, err := l.n.Content()
	if err != nil {
		return err
	}
	for _, pr := range ProseInLists(content, p.BodyStart) {
		l.add("prose-in-list", SevError, pr.Line, fmt.Sprintf("the %s section holds text that is not a list item, so it is not read as an answer", pr.Section),
			`write each question as a "- " list item, or move the text out of the section`)
	}
	return nil
}

// ListProse is text found in a list-only section.
type ListProse struct {
	Section string
	Line    int
}

// ProseInLists finds the blocks inside list-only sections (Answers) that
// are neither lists nor headings nor HTML comments: paragraphs, quotes,
// code. bodyStart is where the markdown starts, after the frontmatter.
func ProseInLists(content []byte, bodyStart int) []ListProse {
	bodyStart = min(max(bodyStart, 0), len(content))
	src := content[bodyStart:min(len(content), bodyStart+MaxMarkdownBytes)]
	doc := goldmark.DefaultParser().Parse(text.NewReader(src))
	lines := newLineStarts(content)
	var out []ListProse
	section, level := "", 0
	for n := doc.FirstChild(); n != nil; n = n.NextSibling() {
		switch n := n.(type) {
		case *ast.Heading:
			if level > 0 && n.Level <= level {
				section, level = "", 0
			}
			if level == 0 {
				t := plainText(n, src)
				for _, s := range listOnlySections {
					if SameHeading(t, s) {
						section, level = s, n.Level
					}
				}
			}
		case *ast.List, *ast.HTMLBlock, *ast.ThematicBreak:
		default:
			if level > 0 {
				at := n.Pos()
				if ls := n.Lines(); ls.Len() > 0 {
					at = ls.At(0).Start
				}
				out = append(out, ListProse{Section: section, Line: lines.line(bodyStart + max(at, 0))})
			}
		}
	}
	return out
}

func (l *linter) links() {
	n := l.n
	src := typeOf(n.Parsed)
	headed := n.Layer == Team || n.Worktree // notes that are or will be team knowledge
	reached, localOnly := 0, 0
	for j, link := range n.Parsed.Links {
		res := l.resolved[j]
		if link.Lead != "" {
			l.unknownVerb(link)
		}
		switch {
		case len(res.Candidates) > 1:
			l.add("ambiguous-link", SevError, link.Line,
				fmt.Sprintf("%s could mean %s, so it reaches none of them", showLink(link), strings.Join(res.Candidates, ", ")),
				fmt.Sprintf("write the full key, e.g. [[%s]]", res.Candidates[0]))
			continue
		case res.Key == "":
			if !l.dangles(link) {
				continue
			}
			l.add("dangling-link", SevError, link.Line, fmt.Sprintf("%s reaches no note", showLink(link)),
				"correct the link, or write the note it names")
			continue
		case res.Key == n.Key:
			continue
		}
		l.linksOut = true
		target := l.keys[res.Key]
		if link.Verb != "" {
			l.verbType(link, src, res.Key, target.types)
		}
		if !headed {
			continue
		}
		reached++
		only := !target.team && (n.Layer == Team || !target.worktree)
		if !only {
			continue
		}
		localOnly++
		sev, what := SevWarning, "links to"
		if v, _ := LookupVerb(link.Verb); v.Verdict {
			sev, what = SevError, "says it "+link.Verb
		}
		where := "an uncommitted file"
		if !target.worktree {
			where = "a private note"
		}
		l.add("team-links-local", sev, link.Line,
			fmt.Sprintf("%s %s, which is only on this machine (%s)", what, res.Key, where),
			fmt.Sprintf("promote it (omh promote %s) or commit it first, or drop the link", res.Key))
	}
	if headed && reached > 0 && reached == localOnly {
		l.add("links-only-local", SevWarning, 0, "every note it links to exists only on this machine",
			"promote or commit the notes it links to, so the team can follow them")
	}
}

// dangles reports whether a link that reaches no note is a broken link
// rather than a link to something that is not a note: a markdown link
// climbing out of the notes root, a wiki link to an attachment
// ("diagram.png"), or a markdown link to an existing file that is not a
// note.
func (l *linter) dangles(link Link) bool {
	if len(LinkNames(link, l.n.Key)) == 0 {
		return false
	}
	if link.Kind != MarkdownLink {
		return !attachment.MatchString(path.Base(link.Target))
	}
	return l.opt.NotANote == nil || !l.opt.NotANote(l.n, link)
}

// attachment matches a file name with an extension other than .md, which
// a wiki link names when it embeds a picture or a document.
var attachment = regexp.MustCompile(`\.[A-Za-z0-9]{1,5}$`)

func showLink(l Link) string {
	switch l.Kind {
	case MarkdownLink:
		return fmt.Sprintf("the link to %q", l.Target)
	case EmbedLink:
		return "![[" + l.Target + "]]"
	}
	return "[[" + l.Target + "]]"
}

// unknownVerb reports a list item's leading word that was meant as a
// verb: a verb in capitals, a snake_case word (derived_from), or a near
// miss of a verb (supercedes, resolved). Such a link is read as a plain
// link, so the record's state silently ignores it.
func (l *linter) unknownVerb(link Link) {
	word := link.Lead
	lower := strings.ToLower(word)
	var fix string
	switch {
	case IsVerb(lower):
		fix = fmt.Sprintf("write the verb in lower case: %q", lower)
	case nearVerb(lower) != "":
		fix = fmt.Sprintf("write %q", nearVerb(lower))
	case strings.Contains(strings.Trim(lower, "_"), "_"):
		fix = "use one of the verbs " + strings.Join(VerbNames(), ", ") + ", or reword the item so it does not start with the word"
	default:
		return
	}
	l.add("unknown-verb", SevError, link.Line, fmt.Sprintf("%q is not a link verb, so %s is read as a plain link", word, showLink(link)), fix)
}

// nearVerb returns the verb word is a near miss of: one edit away, or two
// for verbs of seven letters or more, starting with the same letter.
func nearVerb(word string) string {
	best, bestD := "", 3
	for _, v := range VerbNames() {
		if word == "" || word[0] != v[0] {
			continue
		}
		allowed := 1
		if len(v) >= 7 {
			allowed = 2
		}
		if d := editDistance(word, v); d <= allowed && d < bestD {
			best, bestD = v, d
		}
	}
	return best
}

// nearest returns the word of words at most two edits from w, if any.
func nearest(w string, words []string) string {
	best, bestD := "", 3
	for _, c := range words {
		if d := editDistance(w, c); d < bestD {
			best, bestD = c, d
		}
	}
	return best
}

// editDistance counts the insertions, deletions, substitutions and swaps
// of neighbouring letters that turn a into b (optimal string alignment).
func editDistance(a, b string) int {
	x, y := []rune(a), []rune(b)
	d := make([][]int, len(x)+1)
	for i := range d {
		d[i] = make([]int, len(y)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(x); i++ {
		for j := 1; j <= len(y); j++ {
			cost := 1
			if x[i-1] == y[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && x[i-1] == y[j-2] && x[i-2] == y[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(x)][len(y)]
}

func (l *linter) verbType(link Link, from, targetKey string, targetTypes []string) {
	rule, ok := LookupVerb(link.Verb)
	if !ok {
		return
	}
	if rule.From != nil && !slices.Contains(rule.From, from) {
		l.add("verb-type", SevError, link.Line,
			fmt.Sprintf("%q is written on %s, but only %s %s", link.Verb, withArticle(from), articles(rule.From), link.Verb),
			fmt.Sprintf("make it a plain link, or use a verb that fits %s", withArticle(from)))
		return
	}
	fits := slices.ContainsFunc(targetTypes, func(t string) bool {
		switch {
		case rule.Same:
			return t == from
		case rule.To != nil:
			return slices.Contains(rule.To, t)
		}
		return true
	})
	if fits {
		return
	}
	want := articles(rule.To)
	if rule.Same {
		want = "another " + from
	}
	l.add("verb-type", SevError, link.Line,
		fmt.Sprintf("%s %s %s, which is %s; only %s can be %s here", withArticle(from), link.Verb, targetKey,
			articles(distinct(targetTypes)), want, pastTense(link.Verb)),
		"link the record the verb is about, or make it a plain link")
}

// withArticle puts "a" or "an" before a type's name.
func withArticle(t string) string {
	if t != "" && strings.ContainsRune("aeiou", rune(t[0])) {
		return "an " + t
	}
	return "a " + t
}

// articles lists types as "a finding or a decision".
func articles(types []string) string {
	out := make([]string, len(types))
	for i, t := range types {
		out[i] = withArticle(t)
	}
	return strings.Join(out, " or ")
}

// pastTense reads a verb of Verbs as its participle: "resolves"
// becomes "resolved".
func pastTense(verb string) string {
	stem := strings.TrimSuffix(verb, "s")
	if strings.HasSuffix(stem, "e") {
		return stem + "d"
	}
	return stem + "ed"
}

func distinct(ss []string) []string {
	out := slices.Clone(ss)
	slices.Sort(out)
	return slices.Compact(out)
}
