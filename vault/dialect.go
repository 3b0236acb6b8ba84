package vault

import (
	"fmt"
	"path"
	"slices"
	"strings"
	"time"
)

// Dialect is how one vault's notes write links and how the tool they were
// written with resolves them. Parse reads every form of every dialect, so a
// blob is parsed once whatever the vault; a dialect decides, at resolution,
// which part of a link names the note and where that name leads. The zero
// value is omh's own rules.
type Dialect struct {
	Name string // one of DialectNames; "" is omh's own rules
	// Vaults maps the names of Dendron vaults to their folders under the
	// notes root ("." for the notes root itself), for links written
	// dendron://name/note. When it is empty the name is not checked: the
	// note is looked for as if the link named no vault.
	Vaults map[string]string
	// Site is the URL path a markdown site is published under
	// ("/office/vba/"): a site-absolute link under it starts at the notes
	// root, and one outside it leaves the vault, as a URL does. "": a link
	// starting with "/" starts at the notes root.
	Site string
}

// The dialects.
const (
	DialectOmh      = "omh"
	DialectObsidian = "obsidian"
	DialectDendron  = "dendron"
	DialectFoam     = "foam"
	DialectLogseq   = "logseq"
	DialectZk       = "zk"
	DialectMarkdown = "markdown"
)

// DialectInfo says what one dialect reads, for people.
type DialectInfo struct {
	Name string
	What string
}

// Dialects lists every dialect, omh's own first.
var Dialects = []DialectInfo{
	{DialectOmh, "[[target#heading|label]] and relative markdown links; a name reaches the note with that key, else the one note whose key ends with it on a \"/\", else the one note with that alias"},
	{DialectObsidian, "as omh, except that aliases do not resolve links, a markdown link may name a note as a wiki link does, and of several notes with one name the one in the linking note's folder is meant"},
	{DialectDendron, "[[label|target]] with the label first, dendron://vault/note, note references ![[note#anchor]], and #tag (or tags: [tag] in the frontmatter) for the note tags.tag; aliases do not resolve links"},
	{DialectFoam, "as omh; the link reference definitions Foam writes at a note's end ([x]: path \"Title\") are the wiki link [[x]] again, which omh mv keeps in step with it"},
	{DialectLogseq, "[[page]] and #tag for the page pages/tag, or the page whose title:: or alias:: property names it, namespaces a/b in files a___b.md, journal pages [[Jan 5th, 2024]] in journals/2024_01_05.md; ((block references)) are left alone"},
	{DialectZk, "as omh, and [[part]] reaches the one note whose file name starts or ends with those whole words (an ID before or after a title)"},
	{DialectMarkdown, "a markdown site (DocFX and the like): relative and URL-encoded links, site-absolute /x/y links under site:, ~/ for the notes root, [!include[...](path)]; [[...]] is text"},
}

// DialectNames lists the dialects' names.
func DialectNames() []string {
	out := make([]string, len(Dialects))
	for i, d := range Dialects {
		out[i] = d.Name
	}
	return out
}

// KnownDialect reports whether name is a dialect.
func KnownDialect(name string) bool { return slices.Contains(DialectNames(), name) }

// String is the dialect's name.
func (d Dialect) String() string {
	if d.Name == "" {
		return DialectOmh
	}
	return d.Name
}

// Reading is a link as a dialect reads it.
type Reading struct {
	Kind  LinkKind
	Name  string // what names the note, as written: a key, a trailing part of one, a path
	Vault string // the vault a dendron://vault/note link names
	// HasVault: the link named a vault.
	HasVault bool
}

// Read says how the dialect reads l, or false when l is no link to a note
// in this dialect (a hashtag where tags are not pages, [[...]] on a markdown
// site, a wildcard note reference).
func (d Dialect) Read(l Link) (Reading, bool) {
	r := Reading{Kind: l.Kind, Name: l.Target}
	if l.Kind == WikiReference && d.String() != DialectMarkdown {
		return r, false // the wiki link around it is the link
	}
	switch d.String() {
	case DialectMarkdown:
		if l.Kind == WikiReference {
			r.Kind = MarkdownLink // [[x]] is text; its [x] is a reference link
		}
		if r.Kind != MarkdownLink {
			return r, false
		}
	case DialectDendron:
		switch {
		case l.Kind == TagLink:
			r.Name = "tags." + l.Target
		case l.Kind != MarkdownLink && l.Label != "":
			// Dendron writes the label first: [[label|note#anchor]].
			r.Name, _, _ = splitWikiInner(l.Label)
		}
		if rest, ok := cutPrefixFold(r.Name, "dendron://"); ok && l.Kind != MarkdownLink {
			vault, note, found := strings.Cut(rest, "/")
			if !found {
				return r, false
			}
			r.Vault, r.HasVault, r.Name = vault, true, strings.TrimSpace(note)
		}
		// ![[journal.2021.*]] embeds every note under a hierarchy: a
		// pattern, not one note.
		if strings.Contains(r.Name, "*") {
			return r, false
		}
	case DialectLogseq:
		if l.Kind == MarkdownLink && strings.HasPrefix(l.Target, "[[") {
			return r, false // [label]([[page]]): the [[page]] inside is the link
		}
	case DialectObsidian:
		if l.Kind == MarkdownLink && strings.HasPrefix(l.Label, "[") && strings.HasSuffix(l.Label, "]") {
			// [[note]](text): Obsidian reads the wiki link, and what
			// follows in parentheses as text.
			return r, false
		}
		if l.Kind == TagLink {
			return r, false
		}
	default:
		if l.Kind == TagLink {
			return r, false
		}
	}
	return r, r.Name != ""
}

// cutPrefixFold is strings.CutPrefix ignoring ASCII letter case.
func cutPrefixFold(s, prefix string) (string, bool) {
	if len(s) >= len(prefix) && strings.EqualFold(s[:len(prefix)], prefix) {
		return s[len(prefix):], true
	}
	return s, false
}

// attempt is one lookup resolution makes: a name, the kinds of name that
// may answer it in order, and, for Obsidian, the folder whose note wins
// when several share the name.
type attempt struct {
	name  string
	kinds []NameKind
	near  string
}

var (
	keyOnly       = []NameKind{KeyName}
	keyOrSuffix   = []NameKind{KeyName, SuffixName}
	keySuffixOrAs = []NameKind{KeyName, SuffixName, AliasName}
	// zk reaches a note by any part of its file name no other note has.
	keySuffixAliasOrPart = []NameKind{KeyName, SuffixName, AliasName, PartName}
)

// Asks reports whether the dialect's lookups ever ask for a name of this
// kind: only zk reaches a note by a part of its file name, and a cache that
// keeps those names for other dialects keeps more names than notes.
func (d Dialect) Asks(kind NameKind) bool { return kind != PartName || d.String() == DialectZk }

// attempts lists the lookups that resolve l from the note from, in order:
// the first that reaches a note, or finds several, decides.
func (d Dialect) attempts(l Link, from string) []attempt {
	r, ok := d.Read(l)
	if !ok {
		return nil
	}
	return d.attemptsFor(r, from)
}

// attemptsFor lists the lookups for a link read as r.
func (d Dialect) attemptsFor(r Reading, from string) []attempt {
	if r.Kind == MarkdownLink {
		return d.markdownAttempts(r.Name, from)
	}
	if r.HasVault && len(d.Vaults) > 0 {
		folder, known := d.Vaults[r.Vault]
		if !known {
			// A vault this store does not hold: a lookup no key answers,
			// so that the link dangles.
			return []attempt{{name: "dendron://" + r.Vault + "/" + r.Name, kinds: keyOnly}}
		}
		return []attempt{{name: path.Join(folder, r.Name), kinds: keyOnly}}
	}
	switch d.String() {
	case DialectObsidian:
		if IsExplicitRelative(r.Name) {
			p, ok := joinKey(path.Dir(from), r.Name)
			if !ok {
				return nil
			}
			return []attempt{{name: p, kinds: keyOnly}}
		}
		return []attempt{{name: r.Name, kinds: keyOrSuffix, near: path.Dir(from)}}
	case DialectDendron:
		return []attempt{{name: r.Name, kinds: keyOrSuffix}}
	case DialectLogseq:
		return logseqAttempts(r.Name)
	case DialectZk:
		return []attempt{{name: r.Name, kinds: keySuffixAliasOrPart}}
	}
	return []attempt{{name: r.Name, kinds: keySuffixOrAs}}
}

// markdownAttempts resolves a markdown link's path: relative to the
// linking note's folder, "/" (or "~/" on a markdown site) from the notes
// root, or under the site's path.
func (d Dialect) markdownAttempts(target, from string) []attempt {
	dialect := d.String()
	var p string
	var ok bool
	switch {
	case dialect == DialectMarkdown && strings.HasPrefix(target, "~/"):
		p, ok = joinKey(".", strings.TrimPrefix(target, "~/"))
	case strings.HasPrefix(target, "/"):
		rest := target
		if d.Site != "" {
			site := "/" + strings.Trim(d.Site, "/") + "/"
			if rest, ok = cutPrefixFold(target, site); !ok {
				return nil // elsewhere on the site, as a URL is
			}
		}
		p, ok = joinKey(".", strings.TrimPrefix(rest, "/"))
	default:
		p, ok = joinKey(path.Dir(from), target)
	}
	var out []attempt
	if ok {
		out = append(out, attempt{name: p, kinds: keyOnly})
	}
	// Obsidian resolves a markdown link's path as it does a wiki link's
	// name when it is no path from the linking note.
	if dialect == DialectObsidian && !IsExplicitRelative(target) && !strings.HasPrefix(target, "/") {
		out = append(out, attempt{name: target, kinds: keyOrSuffix, near: path.Dir(from)})
	}
	return out
}

// IsExplicitRelative reports whether a name starts from the linking note's
// folder (./ or ../).
func IsExplicitRelative(name string) bool {
	return strings.HasPrefix(name, "./") || strings.HasPrefix(name, "../")
}

// joinKey joins a relative path to a folder of keys ("." for the root), or
// reports false when it climbs out of the notes root.
func joinKey(dir, rel string) (string, bool) {
	p := path.Join(dir, rel)
	if p == "." || p == ".." || strings.HasPrefix(p, "../") || p == "/" {
		return "", false
	}
	return p, true
}

// logseqAttempts names the file a Logseq page name is kept in: a namespace
// a/b in a___b.md (a%2Fb.md in older graphs), a journal page "Jan 5th,
// 2024" in journals/2024_01_05.md.
func logseqAttempts(page string) []attempt {
	out := []attempt{{name: page, kinds: keySuffixOrAs}}
	if strings.Contains(page, "/") {
		out = append(out,
			attempt{name: strings.ReplaceAll(page, "/", "___"), kinds: keyOrSuffix},
			attempt{name: strings.ReplaceAll(page, "/", "%2F"), kinds: keyOrSuffix})
	}
	if day, ok := logseqJournalDay(page); ok {
		out = append(out, attempt{name: "journals/" + day, kinds: keyOrSuffix})
	}
	return out
}

// logseqJournalDay reads a journal page's title in Logseq's default format
// ("Jan 5th, 2024") as the file name Logseq gives it ("2024_01_05").
func logseqJournalDay(page string) (string, bool) {
	fields := strings.Fields(strings.ReplaceAll(page, ",", " "))
	if len(fields) != 3 {
		return "", false
	}
	day := strings.TrimRight(fields[1], "stndrh")
	t, err := time.Parse("Jan 2 2006", fields[0]+" "+day+" "+fields[2])
	if err != nil {
		return "", false
	}
	return t.Format("2006_01_02"), true
}

// Resolve finds the key a link from the note `from` reaches under the
// dialect's rules. Several keys at the first lookup that finds any make the
// link ambiguous: nothing ever resolves to "the first one", and no name is
// guessed from a link's label.
func (d Dialect) Resolve(l Link, from string, names Names) (Resolution, error) {
	return d.resolveAttempts(d.attempts(l, from), names)
}

// ResolveReading resolves a link read as r.
func (d Dialect) ResolveReading(r Reading, from string, names Names) (Resolution, error) {
	return d.resolveAttempts(d.attemptsFor(r, from), names)
}

func (d Dialect) resolveAttempts(attempts []attempt, names Names) (Resolution, error) {
	for _, a := range attempts {
		res, err := resolveName(a.name, names, a.near, a.kinds...)
		if err != nil || res.Key != "" || len(res.Candidates) > 0 {
			return res, err
		}
	}
	return Resolution{}, nil
}

// QualifiedKey is the qualified key (store:key) a wiki link or embed names
// when it is written as one ([[handbook:topic/x]]), or "": the link names
// a note of another store, which only the stores answering together can
// tell apart from a dangling link.
func (d Dialect) QualifiedKey(l Link) string {
	r, ok := d.Read(l)
	if !ok || r.HasVault || r.Kind != WikiLink && r.Kind != EmbedLink {
		return ""
	}
	store, key, ok := SplitQualified(strings.TrimSpace(r.Name))
	if !ok {
		return ""
	}
	return Qualify(store, key)
}

// LinkNames are the lower-cased names a link's resolution depends on: when
// a note gains or loses one of these names, the link must be resolved again.
func (d Dialect) LinkNames(l Link, from string) []string {
	var out []string
	for _, a := range d.attempts(l, from) {
		if n := nameOf(a.name); !slices.Contains(out, n) {
			out = append(out, n)
		}
	}
	return out
}

// MarkdownPath is the path, from the notes root, that a markdown link names
// (whether a note has it or not); false when it names none in the vault.
func (d Dialect) MarkdownPath(l Link, from string) (string, bool) {
	r, ok := d.Read(l)
	if !ok || r.Kind != MarkdownLink {
		return "", false
	}
	for _, a := range d.markdownAttempts(r.Name, from) {
		if len(a.kinds) == 1 && a.kinds[0] == KeyName {
			return a.name, true
		}
	}
	return "", false
}

// IsLink reports whether l links to a note at all in this dialect, whether
// or not the note exists.
func (d Dialect) IsLink(l Link, from string) bool { return len(d.attempts(l, from)) > 0 }

// Written is the part of a link that names its note, as the dialect reads
// it and the file has it (for a markdown link, URL-decoded): lint matches
// its ignore patterns against this.
func (d Dialect) Written(l Link) string {
	r, ok := d.Read(l)
	if !ok {
		return ""
	}
	if r.HasVault {
		return "dendron://" + r.Vault + "/" + r.Name
	}
	return r.Name
}

// Show is a link as its note writes it, for messages: [[name]], ![[name]],
// #tag, or the link to "path".
func (d Dialect) Show(l Link) string {
	name := d.Written(l)
	if name == "" {
		name = l.Target
	}
	switch l.Kind {
	case MarkdownLink:
		return fmt.Sprintf("the link to %q", name)
	case EmbedLink:
		return "![[" + name + "]]"
	case TagLink:
		return "#" + l.Target
	}
	return "[[" + name + "]]"
}

// Describe says what a dialect reads, for people.
func (d Dialect) Describe() string {
	for _, info := range Dialects {
		if info.Name == d.String() {
			return info.What
		}
	}
	return fmt.Sprintf("unknown dialect %q", d.Name)
}
