package localscan

import (
	"math/rand"
	"strconv"
	"strings"
	"testing"

	"github.com/go-git/go-git/v5/plumbing/format/gitignore"
)

// The indexed matcher decides exactly as go-git's matcher over the same
// files, for random patterns (names, paths, globs, negations, folder-only,
// anchored, "**") and random paths, files and folders, across nested
// ignore files. Catches: an index that lets an earlier pattern win over a
// later one, a folder-only pattern applied to a file, a path pattern
// matched below another folder, a domain ignored.
func TestIndexedIgnoreRulesDecideAsGoGit(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewSource(1))
	parts := []string{"a", "b", "ab", "a.md", "b.md", "x.txt", "c"}
	pick := func() string { return parts[rng.Intn(len(parts))] }
	pattern := func() string {
		var p string
		switch rng.Intn(8) {
		case 0:
			p = pick()
		case 1:
			p = pick() + "/" + pick()
		case 2:
			p = "/" + pick()
		case 3:
			p = "*" + []string{".md", ".txt", "b", "d"}[rng.Intn(4)]
		case 4:
			p = []string{"a", "x", "b."}[rng.Intn(3)] + "*"
		case 5:
			p = "**/" + pick()
		case 6:
			p = pick() + "/**"
		default:
			p = "?" + pick()[1:]
		}
		if rng.Intn(4) == 0 {
			p += "/"
		}
		if rng.Intn(4) == 0 {
			p = "!" + p
		}
		return p
	}
	for round := 0; round < 300; round++ {
		var chain *ignoreRules
		var all []gitignore.Pattern
		for _, domain := range [][]string{nil, {"a"}, {"a", "b"}} {
			var lines []string
			for i := rng.Intn(6); i >= 0; i-- {
				line := pattern()
				lines = append(lines, line)
				all = append(all, gitignore.ParsePattern(line, domain))
			}
			chain = chain.with(parseIgnore(lines, domain))
		}
		want := gitignore.NewMatcher(all)
		for q := 0; q < 50; q++ {
			path := make([]string, 1+rng.Intn(4))
			for i := range path {
				path[i] = pick()
			}
			isDir := rng.Intn(2) == 0
			if got, w := chain.ignored(path, isDir), want.Match(path, isDir); got != w {
				t.Fatalf("round %d: %s (folder %v): indexed %v, go-git %v", round, strings.Join(path, "/"), isDir, got, w)
			}
		}
	}
}

// A .gitignore of 300,000 generated lines (paths, folder names, "*.ext"
// and "name*" patterns), read and indexed, then asked about the 100 notes
// of one folder: what one omh command pays for it after a new untracked
// note. (scripts/ignorecliff.sh measures the whole command against git
// status.)
func BenchmarkIgnore300kLines(b *testing.B) {
	lines := make([]string, 0, 300000)
	for i := 0; i < 300000; i++ {
		switch i % 4 {
		case 0:
			lines = append(lines, "build/gen"+itoa(i%997)+"/out"+itoa(i)+".o")
		case 1:
			lines = append(lines, "cache"+itoa(i)+"/")
		case 2:
			lines = append(lines, "*.tmp"+itoa(i))
		default:
			lines = append(lines, "scratch"+itoa(i)+"*")
		}
	}
	b.ResetTimer()
	for range b.N {
		rules := (*ignoreRules)(nil).with(parseIgnore(lines, nil))
		for n := 0; n < 100; n++ {
			rules.ignored([]string{"topic01", "note" + itoa(n) + ".md"}, false)
		}
	}
}

func itoa(i int) string { return strconv.Itoa(i) }
