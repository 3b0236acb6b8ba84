package localscan

import (
	"strings"

	"github.com/go-git/go-git/v5/plumbing/format/gitignore"
)

// git's ignore rules, matched as go-git's gitignore.Matcher matches them
// (the last pattern that matches decides), but indexed: go-git tries every
// pattern on every path, and a 300,000-line .gitignore on a 5,000-note
// store took 141 s to scan (git status: 0.25 s). Patterns without
// wildcards, and "*.ext" or "name*" ones (what long generated ignore
// files hold), are looked up by name, path, suffix or prefix; the others
// are tried one by one as before.

// ignoreRule is one pattern of an ignore file.
type ignoreRule struct {
	order   int32 // its line's place in the file: a later rule wins
	same    int32 // the rule before it under the same index key; -1 for none
	include bool
	dirOnly bool
	other   gitignore.Pattern // a pattern the indexes do not cover
}

// ignoreFile is one ignore file's patterns, indexed. The maps hold, per
// key, the last rule under it; each rule names the one before.
type ignoreFile struct {
	domain   []string         // the folder the file applies to
	rules    []ignoreRule     // the indexed rules
	names    map[string]int32 // "name": a path part equal to it
	paths    map[string]int32 // "a/b", "/a": the path under domain starting with it
	suffixes map[string]int32 // "*.ext": a path part ending with it
	prefixes map[string]int32 // "name*": a path part starting with it
	lengths  []int            // lengths of the suffixes and prefixes indexed
	other    []ignoreRule     // in order
}

// parseIgnore reads the lines of an ignore file for the folder domain.
func parseIgnore(lines []string, domain []string) *ignoreFile {
	f := &ignoreFile{domain: append([]string(nil), domain...), rules: make([]ignoreRule, 0, len(lines)),
		names: map[string]int32{}, paths: map[string]int32{}, suffixes: map[string]int32{}, prefixes: map[string]int32{}}
	lengths := map[int]bool{}
	index := func(m map[string]int32, key string, r ignoreRule) {
		r.same = -1
		if prev, ok := m[key]; ok {
			r.same = prev
		}
		m[key] = int32(len(f.rules))
		f.rules = append(f.rules, r)
	}
	for order, line := range lines {
		r := ignoreRule{order: int32(order)}
		p := line
		if strings.HasPrefix(p, "!") {
			r.include, p = true, p[1:]
		}
		if !strings.HasSuffix(p, "\\ ") {
			p = strings.TrimRight(p, " ")
		}
		if strings.HasSuffix(p, "/") {
			r.dirOnly, p = true, p[:len(p)-1]
		}
		meta := strings.IndexAny(p, "*?[\\")
		slash := strings.IndexByte(p, '/')
		switch {
		case meta < 0 && slash < 0 && p != "":
			index(f.names, p, r)
		case meta < 0 && slash >= 0 && strings.Trim(p, "/") != "" && !strings.HasSuffix(p, "/") &&
			!strings.Contains(strings.TrimPrefix(p, "/"), "//"):
			index(f.paths, strings.TrimPrefix(p, "/"), r)
		case meta == 0 && p[0] == '*' && slash < 0 && len(p) > 1 && !strings.ContainsAny(p[1:], "*?[\\"):
			index(f.suffixes, p[1:], r)
			lengths[len(p)-1] = true
		case meta == len(p)-1 && slash < 0 && len(p) > 1 && p[meta] == '*':
			index(f.prefixes, p[:len(p)-1], r)
			lengths[len(p)-1] = true
		default:
			r.other = gitignore.ParsePattern(line, domain)
			f.other = append(f.other, r)
		}
	}
	for n := range lengths {
		f.lengths = append(f.lengths, n)
	}
	return f
}

// empty reports whether the file holds no rule.
func (f *ignoreFile) empty() bool { return len(f.rules) == 0 && len(f.other) == 0 }

// match returns whether a rule of the file matches path (a file, or a
// folder when isDir) and, if so, whether the last one that does excludes
// it.
func (f *ignoreFile) match(path []string, isDir bool) (matched, exclude bool) {
	if len(path) <= len(f.domain) {
		return false, false
	}
	for i, d := range f.domain {
		if path[i] != d {
			return false, false
		}
	}
	best := int32(-1)
	var decided ignoreRule
	take := func(m map[string]int32, key string, last bool) {
		i, ok := m[key]
		for ; ok && i >= 0; i = f.rules[i].same {
			if r := f.rules[i]; r.order > best && (!r.dirOnly || isDir || !last) {
				best, decided = r.order, r
			}
		}
	}
	rel := path[len(f.domain):]
	for j, name := range rel {
		last := j == len(rel)-1
		take(f.names, name, last)
		for _, n := range f.lengths {
			if n <= len(name) {
				take(f.suffixes, name[len(name)-n:], last)
				take(f.prefixes, name[:n], last)
			}
		}
	}
	if len(f.paths) > 0 {
		for k := 1; k <= len(rel); k++ {
			take(f.paths, strings.Join(rel[:k], "/"), k == len(rel))
		}
	}
	for i := len(f.other) - 1; i >= 0 && f.other[i].order > best; i-- {
		if m := f.other[i].other.Match(path, isDir); m != gitignore.NoMatch {
			best, decided = f.other[i].order, f.other[i]
			break
		}
	}
	if best < 0 {
		return false, false
	}
	return true, !decided.include
}

// ignoreRules are the ignore files that apply in one folder, the most
// important last: the global ones, then each .gitignore from the
// repository root down.
type ignoreRules struct {
	parent *ignoreRules
	file   *ignoreFile // nil for a folder without rules of its own
}

// with is r and then f, which takes precedence.
func (r *ignoreRules) with(f *ignoreFile) *ignoreRules {
	if f == nil || f.empty() {
		return r
	}
	return &ignoreRules{parent: r, file: f}
}

// ignored reports whether git ignores path ("/"-separated parts from the
// repository root), a folder when isDir.
func (r *ignoreRules) ignored(path []string, isDir bool) bool {
	for ; r != nil; r = r.parent {
		if matched, exclude := r.file.match(path, isDir); matched {
			return exclude
		}
	}
	return false
}
