// Package exclude matches note paths against the config's exclude globs,
// compiled once into one matcher.
package exclude

import (
	"fmt"
	"path"
	"strings"
)

// Globs are the config's exclude globs compiled into one matcher. A glob
// without "/" matches a note file's name at any depth (README.md); one
// with "/" (a leading one included) is anchored at the notes root; "*" and
// "?" stay within a path segment and "**" spans any number of segments
// (.github/**).
//
// Every note is matched against them on the first command after the config
// changes, and with each glob tried in turn that cost notes × globs: on
// vba-docs (38,187 notes, met twice: in HEAD's tree and the working tree)
// 1,000 globs made that command 126.7 s against 27.6 s with none (a busy
// machine). Compiled, a name with no wildcard is one map lookup, and an
// anchored glob is filed under the folders it names before its first
// wildcard, so a note is tried only against the globs filed under its own
// folders (and those that start with a wildcard).
type Globs struct {
	names    map[string]bool // globs without "/" or wildcards: file names
	patterns []string        // globs without "/", with wildcards: for file names
	anchored excludeNode     // globs with "/", by their leading literal folders
}

// excludeNode holds the anchored globs whose literal leading segments lead
// to it: each as the segments after those.
type excludeNode struct {
	next map[string]*excludeNode
	here []anchoredGlob
}

// anchoredGlob is the segments of an anchored glob after its literal
// leading ones, and the literal start of the name its last segment
// matches ("x-" of */x-*.md; "" when it ends in "**"), which most paths
// fail at once.
type anchoredGlob struct {
	segs       []string
	namePrefix string
}

// Compile compiles globs; a glob path.Match cannot read is an
// error naming it.
func Compile(globs []string) (Globs, error) {
	var e Globs
	for _, written := range globs {
		g := strings.TrimSpace(written)
		anchored := strings.Contains(g, "/")
		g = strings.TrimPrefix(g, "/")
		if _, err := path.Match(g, ""); err != nil {
			return Globs{}, fmt.Errorf("%q is not a glob: %w", written, err)
		}
		switch {
		case g == "":
		case !anchored && !hasWildcard(g):
			if e.names == nil {
				e.names = map[string]bool{}
			}
			e.names[g] = true
		case !anchored:
			e.patterns = append(e.patterns, g)
		default:
			e.anchored.add(strings.Split(g, "/"))
		}
	}
	return e, nil
}

// add files a glob's segments under its literal leading ones.
func (n *excludeNode) add(segs []string) {
	for len(segs) > 0 && !hasWildcard(segs[0]) {
		child := n.next[segs[0]]
		if child == nil {
			if n.next == nil {
				n.next = map[string]*excludeNode{}
			}
			child = &excludeNode{}
			n.next[segs[0]] = child
		}
		n, segs = child, segs[1:]
	}
	g := anchoredGlob{segs: segs}
	if len(segs) > 0 && segs[len(segs)-1] != "**" {
		g.namePrefix = literalStart(segs[len(segs)-1])
	}
	n.here = append(n.here, g)
}

// literalStart is a glob segment up to its first special character.
func literalStart(seg string) string {
	if i := strings.IndexAny(seg, wildcards); i >= 0 {
		return seg[:i]
	}
	return seg
}

// wildcards are path.Match's special characters.
const wildcards = `*?[\`

// hasWildcard reports whether a glob (segment) is anything but a literal
// name: it holds one of path.Match's special characters.
func hasWildcard(g string) bool {
	return strings.ContainsAny(g, wildcards)
}

// Match reports whether the note file at rel (relative to the notes root)
// is excluded.
func (e Globs) Match(rel string) bool {
	name := rel[strings.LastIndexByte(rel, '/')+1:]
	if e.names[name] {
		return true
	}
	for _, p := range e.patterns {
		if ok, _ := path.Match(p, name); ok {
			return true
		}
	}
	if e.anchored.next == nil && e.anchored.here == nil {
		return false
	}
	parts := strings.Split(rel, "/")
	return e.anchored.try(parts, func(g anchoredGlob, at int) bool {
		return strings.HasPrefix(name, g.namePrefix) && MatchSegments(g.segs, parts[at:])
	})
}

// try calls match with each anchored glob whose literal leading segments
// are the path's own leading ones (the only globs that can match it), and
// how many of the path's segments those took. It stops at
// the first match reports, and reports whether there was one.
func (n *excludeNode) try(parts []string, match func(g anchoredGlob, at int) bool) bool {
	for at := 0; n != nil; at++ {
		for _, g := range n.here {
			if match(g, at) {
				return true
			}
		}
		if at == len(parts) {
			break
		}
		n = n.next[parts[at]]
	}
	return false
}

// MatchSegments matches the "/"-separated parts of a name against a glob's
// parts: "*" stays within a part, "**" spans any number of them. It fills a
// table of which pattern suffix matches which parts suffix, so a glob with
// many "**" costs len(pattern)×len(parts) rather than backtracking through
// every way of splitting the parts among them.
func MatchSegments(pattern, parts []string) bool {
	// ok[j] reports whether pattern[i:] matches parts[j:], for the i of
	// the previous pass, starting from the empty pattern. A path of a
	// usual depth keeps it on the stack: every note is matched.
	var buf [32]bool
	ok := buf[:0]
	if len(parts)+1 > len(buf) {
		ok = make([]bool, 0, len(parts)+1)
	}
	ok = ok[:len(parts)+1]
	ok[len(parts)] = true
	for i := len(pattern) - 1; i >= 0; i-- {
		if pattern[i] == "**" {
			// "**" matches parts[j:] if what follows matches at j or
			// at any later part.
			for j := len(parts) - 1; j >= 0; j-- {
				ok[j] = ok[j] || ok[j+1]
			}
			continue
		}
		for j := 0; j < len(parts); j++ {
			m, _ := path.Match(pattern[i], parts[j])
			ok[j] = m && ok[j+1]
		}
		ok[len(parts)] = false
	}
	return ok[0]
}
