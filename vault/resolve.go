package vault

import (
	"path"
	"slices"
	"sort"
	"strings"

	"golang.org/x/text/unicode/norm"
)

// NameKind says how a name leads to a key.
type NameKind uint8

const (
	KeyName    NameKind = iota + 1 // the key itself
	SuffixName                     // a trailing part of the key on a "/" boundary
	AliasName                      // a frontmatter alias
	// PartName is a run of whole words that starts or ends the key's file
	// name ("i4w0" and "planet" of "i4w0 planet"): zk reaches a note by any
	// part of its file name that no other note's has.
	PartName
)

// Name is one way of writing a link to Key. Names are looked up lower-cased.
type Name struct {
	Key  string
	Kind NameKind
}

// Names answers which keys a lower-cased name may mean.
type Names interface {
	Lookup(lower string) ([]Name, error)
}

// NamesOf lists every name under which a note with this key and these
// aliases can be linked to, lower-cased, with its kind.
func NamesOf(key string, aliases []string) map[string]NameKind {
	out := map[string]NameKind{}
	eachName(key, aliases, func(name string, kind NameKind) { out[name] = kind })
	return out
}

// eachName calls fn once for each name of NamesOf: the key, each trailing
// part on a "/" boundary, each alias that is none of those, then each part
// of the file name that is none of those.
func eachName(key string, aliases []string, fn func(string, NameKind)) {
	lower := strings.ToLower(key)
	fn(lower, KeyName)
	for i := 0; i < len(lower); i++ {
		if lower[i] == '/' {
			fn(lower[i+1:], SuffixName)
		}
	}
	taken := func(name string) bool { return name == lower || strings.HasSuffix(lower, "/"+name) }
	var seen []string
	for _, a := range aliases {
		a = nameOf(a)
		if a == "" || taken(a) || slices.Contains(seen, a) {
			continue
		}
		seen = append(seen, a)
		fn(a, AliasName)
	}
	for _, part := range fileNameParts(lower[strings.LastIndexByte(lower, '/')+1:]) {
		if !taken(part) && !slices.Contains(seen, part) {
			seen = append(seen, part)
			fn(part, PartName)
		}
	}
}

// fileNameParts are the runs of whole words (parted by " ", "-" or "_")
// that start or end a file name, the name itself left out: an ID zk puts
// before or after a title, and the title.
func fileNameParts(name string) []string {
	var out []string
	for i := 0; i < len(name); i++ {
		if !strings.ContainsRune(" -_", rune(name[i])) {
			continue
		}
		if head := strings.TrimRight(name[:i], " -_"); head != "" && !slices.Contains(out, head) {
			out = append(out, head)
		}
		if tail := strings.TrimLeft(name[i+1:], " -_"); tail != "" && !slices.Contains(out, tail) {
			out = append(out, tail)
		}
	}
	return out
}

// MemNames is an in-memory Names.
type MemNames map[string][]Name

// Add registers a note's key and aliases.
func (m MemNames) Add(key string, aliases []string) {
	eachName(key, aliases, func(name string, kind NameKind) {
		m[name] = append(m[name], Name{Key: key, Kind: kind})
	})
}

func (m MemNames) Lookup(lower string) ([]Name, error) { return m[lower], nil }

// Resolution is where one link leads.
type Resolution struct {
	Key        string   // the key the link reaches; "" when it reaches none
	Candidates []string // the keys an ambiguous link could mean, sorted
}

// Resolve finds the key a link from the note `from` reaches by omh's own
// rules. Wiki targets try, in order: the exact key, the key ignoring case, a
// unique trailing part of a key on a "/" boundary ([[refactoring]] finds
// projects/foam/refactoring, never refactoring-notes), a unique alias.
// Markdown links are paths relative to the linking note's folder ("/"
// starts at the notes root). A vault written for another tool resolves by
// its Dialect.
func Resolve(l Link, from string, names Names) (Resolution, error) {
	return Dialect{}.Resolve(l, from, names)
}

// resolveName looks target up, trying the kinds of name in order. near, when
// not "", is a folder whose note wins among several with the same trailing
// part (Obsidian's rule for notes of one name in several folders).
func resolveName(target string, names Names, near string, kinds ...NameKind) (Resolution, error) {
	target = norm.NFC.String(strings.TrimSpace(target))
	found, err := names.Lookup(nameOf(target))
	if err != nil || len(found) == 0 {
		return Resolution{}, err
	}
	for _, n := range found {
		if n.Kind == KeyName && n.Key == target {
			return Resolution{Key: n.Key}, nil
		}
	}
	for _, kind := range kinds {
		var keys []string
		for _, n := range found {
			if n.Kind == kind {
				keys = append(keys, n.Key)
			}
		}
		keys = distinctSorted(keys)
		if len(keys) > 1 && kind == SuffixName && near != "" {
			if here := inFolder(keys, near); len(here) == 1 {
				keys = here
			}
		}
		switch len(keys) {
		case 0:
			continue
		case 1:
			return Resolution{Key: keys[0]}, nil
		default:
			return Resolution{Candidates: keys}, nil
		}
	}
	return Resolution{}, nil
}

func distinctSorted(keys []string) []string {
	sort.Strings(keys)
	out := keys[:0]
	for i, k := range keys {
		if i == 0 || k != keys[i-1] {
			out = append(out, k)
		}
	}
	return out
}

// inFolder keeps the keys directly inside folder dir ("." for the root).
func inFolder(keys []string, dir string) []string {
	var out []string
	for _, k := range keys {
		if path.Dir(k) == dir {
			out = append(out, k)
		}
	}
	return out
}

// nameOf is the form names are compared in: trimmed, NFC, lower-cased.
func nameOf(s string) string {
	return strings.ToLower(norm.NFC.String(strings.TrimSpace(s)))
}
