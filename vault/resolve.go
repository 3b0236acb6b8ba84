package vault

import (
	"path"
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
	lower := strings.ToLower(key)
	out[lower] = KeyName
	for i := 0; i < len(lower); i++ {
		if lower[i] == '/' {
			if _, taken := out[lower[i+1:]]; !taken {
				out[lower[i+1:]] = SuffixName
			}
		}
	}
	for _, a := range aliases {
		a = nameOf(a)
		if _, taken := out[a]; !taken && a != "" {
			out[a] = AliasName
		}
	}
	return out
}

// MemNames is an in-memory Names.
type MemNames map[string][]Name

// Add registers a note's key and aliases.
func (m MemNames) Add(key string, aliases []string) {
	for name, kind := range NamesOf(key, aliases) {
		m[name] = append(m[name], Name{Key: key, Kind: kind})
	}
}

func (m MemNames) Lookup(lower string) ([]Name, error) { return m[lower], nil }

// Resolution is where one link leads.
type Resolution struct {
	Key        string   // the key the link reaches; "" when it reaches none
	Candidates []string // the keys an ambiguous link could mean, sorted
}

// Resolve finds the key a link from the note `from` reaches. Wiki targets
// try, in order: the exact key, the key ignoring case, a unique trailing
// part of a key on a "/" boundary ([[refactoring]] finds
// projects/foam/refactoring, never refactoring-notes), a unique alias.
// Several keys at the first step that finds any make the link ambiguous:
// nothing ever resolves to "the first one". Markdown links are paths
// relative to the linking note's folder ("/" starts at the notes root).
func Resolve(l Link, from string, names Names) (Resolution, error) {
	if l.Kind == MarkdownLink {
		target, ok := markdownTarget(l.Target, from)
		if !ok {
			return Resolution{}, nil
		}
		return resolveName(target, names, KeyName)
	}
	res, err := resolveName(l.Target, names, KeyName, SuffixName, AliasName)
	if err != nil || res.Key != "" || len(res.Candidates) > 0 || l.Label == "" {
		return res, err
	}
	// Dendron writes [[label|target]], the other way round from Obsidian.
	// When the first part leads nowhere and the second leads to exactly one
	// note, the second is what the author meant.
	alt, err := resolveName(l.Label, names, KeyName, SuffixName, AliasName)
	if err != nil || alt.Key == "" {
		return res, err
	}
	return alt, nil
}

func resolveName(target string, names Names, kinds ...NameKind) (Resolution, error) {
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

// markdownTarget turns a relative link into the key it names, or false when
// it climbs out of the notes root.
func markdownTarget(target, from string) (string, bool) {
	var p string
	if strings.HasPrefix(target, "/") {
		p = path.Clean(strings.TrimPrefix(target, "/"))
	} else {
		p = path.Join(path.Dir(from), target)
	}
	if p == "." || p == ".." || strings.HasPrefix(p, "../") {
		return "", false
	}
	return p, true
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

// LinkNames are the lower-cased names a link's resolution depends on: when
// a note gains or loses one of these names, the link must be resolved again.
func LinkNames(l Link, from string) []string {
	if l.Kind == MarkdownLink {
		if p, ok := markdownTarget(l.Target, from); ok {
			return []string{strings.ToLower(p)}
		}
		return nil
	}
	names := []string{nameOf(l.Target)}
	if l.Label != "" {
		names = append(names, nameOf(l.Label))
	}
	return names
}

// nameOf is the form names are compared in: trimmed, NFC, lower-cased.
func nameOf(s string) string {
	return strings.ToLower(norm.NFC.String(strings.TrimSpace(s)))
}
