package exclude

import (
	"fmt"
	"math/rand/v2"
	"path"
	"strings"
	"testing"
)

func mustExcludes(t testing.TB, globs ...string) Globs {
	t.Helper()
	e, err := Compile(globs)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

func TestExcludeGlobs(t *testing.T) {
	t.Parallel()
	e := mustExcludes(t, "README.md", ".github/**", "drafts/*.md", "/CHANGELOG.md", " spaced.md ")
	for path, want := range map[string]bool{
		"README.md":              true,
		"deep/down/README.md":    true,
		".github/ISSUE.md":       true,
		".github/a/b/c.md":       true,
		"drafts/one.md":          true,
		"drafts/deep/one.md":     false,
		"CHANGELOG.md":           true,
		"sub/CHANGELOG.md":       false,
		"notes/readme-notes.md":  false,
		"github/not-excluded.md": false,
		"a/spaced.md":            true,
	} {
		if got := e.Match(path); got != want {
			t.Errorf("Match(%q) = %v, want %v", path, got, want)
		}
	}
}

// excludedOneByOne is the rule read plainly, each glob tried in turn: the
// reference the compiled matcher must agree with.
func excludedOneByOne(globs []string, rel string) bool {
	parts := strings.Split(rel, "/")
	for _, g := range globs {
		g = strings.TrimSpace(g)
		anchored := strings.Contains(g, "/")
		g = strings.TrimPrefix(g, "/")
		switch {
		case g == "":
		case !anchored:
			if ok, _ := path.Match(g, parts[len(parts)-1]); ok {
				return true
			}
		case matchSegmentsByBacktracking(strings.Split(g, "/"), parts):
			return true
		}
	}
	return false
}

// Catches: the compiled matcher filing a glob under the wrong folder, or
// taking a segment with an escape or a class for a literal name.
func TestCompiledExcludesAgreeWithEachGlobTriedInTurn(t *testing.T) {
	t.Parallel()
	segs := []string{"a", "b", "ab", "*", "**", "a*", "?", "[ab]", `\a`, "x.md", "*.md"}
	names := []string{"a", "b", "ab", "x.md", "a.md", "[ab]"}
	r := rand.New(rand.NewPCG(3, 4))
	for n := 0; n < 5000; n++ {
		globs := make([]string, 1+r.IntN(4))
		for i := range globs {
			g := make([]string, 1+r.IntN(4))
			for j := range g {
				g[j] = segs[r.IntN(len(segs))]
			}
			globs[i] = strings.Join(g, "/")
			if r.IntN(4) == 0 {
				globs[i] = "/" + globs[i]
			}
		}
		e := mustExcludes(t, globs...)
		for k := 0; k < 20; k++ {
			p := make([]string, 1+r.IntN(5))
			for j := range p {
				p[j] = names[r.IntN(len(names))]
			}
			rel := strings.Join(p, "/")
			if got, want := e.Match(rel), excludedOneByOne(globs, rel); got != want {
				t.Fatalf("globs %q on %s: %v, want %v", globs, rel, got, want)
			}
		}
	}
}

// A config with 1,000 exclude globs made the first command after it
// changed take 126.7 s on vba-docs against 27.6 s with none: each of the
// 76,000 note paths (HEAD's tree and the working tree) was matched against
// every glob, splitting each glob anew. Catches: a note being tried
// against globs that name other folders, which makes the cost notes ×
// globs again.
func TestThousandsOfExcludeGlobsAreNotEachTriedOnEveryNote(t *testing.T) {
	t.Parallel()
	var globs []string
	for i := range 20000 {
		globs = append(globs, fmt.Sprintf("dir%d/archive/**", i), fmt.Sprintf("dir%d/*/x-%d-*.md", i%50, i), fmt.Sprintf("draft-%d.md", i))
	}
	e := mustExcludes(t, globs...)
	for _, rel := range []string{"dir7/sub/note.md", "other/note.md", "note.md", "dir7/archive/old.md"} {
		tried := 0
		e.anchored.try(strings.Split(rel, "/"), func(anchoredGlob, int) bool { tried++; return false })
		if tried > 20000/50+1 {
			t.Errorf("%s was tried against %d of %d anchored globs", rel, tried, 2*20000)
		}
	}
	if !e.Match("dir7/archive/old.md") || !e.Match("dir7/sub/x-7-a.md") || !e.Match("deep/draft-19999.md") || e.Match("dir7/sub/note.md") {
		t.Fatal("the compiled globs match what they should not, or miss what they should")
	}
}

// A committed exclude glob with many "**" took 22 s per find at seven and
// 133 s at nine, trying every way of spreading the parts among them.
func TestAnExcludeGlobWithManyDoubleStarsDoesNotBacktrack(t *testing.T) {
	t.Parallel()
	e := mustExcludes(t, strings.Repeat("**/", 16)+"never.md")
	if rel := strings.Repeat("d/", 40) + "note.md"; e.Match(rel) {
		t.Fatalf("excluded %s", rel)
	}
	if !e.Match(strings.Repeat("d/", 40) + "never.md") {
		t.Fatal("did not exclude a never.md 40 folders down")
	}
}

func BenchmarkExcludedManyDoubleStars(b *testing.B) {
	e := mustExcludes(b, strings.Repeat("**/", 9)+"never.md")
	rel := strings.Repeat("d/", 12) + "note.md"
	for b.Loop() {
		e.Match(rel)
	}
}

// BenchmarkExcludes1000Globs matches one note path of vba-docs' shape
// against 1,000 globs of the three usual kinds.
func BenchmarkExcludes1000Globs(b *testing.B) {
	var globs []string
	for i := range 1000 {
		d := []string{"api", "word/Concepts", "outlook/How-to/Rules", "excel"}[i%4]
		globs = append(globs, []string{fmt.Sprintf("draft-%d.md", i), fmt.Sprintf("%s/archive-%d/**", d, i), fmt.Sprintf("%s/*/x-%d-*.md", d, i)}[i%3])
	}
	e := mustExcludes(b, globs...)
	for b.Loop() {
		e.Match("word/Concepts/Customizing-Word/some-note.md")
	}
}

// matchSegmentsByBacktracking is the plain recursive reading of a glob's
// parts, kept as the reference MatchSegments must agree with.
func matchSegmentsByBacktracking(pattern, parts []string) bool {
	if len(pattern) == 0 {
		return len(parts) == 0
	}
	if pattern[0] == "**" {
		for i := 0; i <= len(parts); i++ {
			if matchSegmentsByBacktracking(pattern[1:], parts[i:]) {
				return true
			}
		}
		return false
	}
	if len(parts) == 0 {
		return false
	}
	ok, _ := path.Match(pattern[0], parts[0])
	return ok && matchSegmentsByBacktracking(pattern[1:], parts[1:])
}

func TestMatchSegmentsAgreesWithBacktracking(t *testing.T) {
	t.Parallel()
	words := []string{"**", "*", "a", "b", "a*", "?"}
	names := []string{"a", "b", "ab", "c"}
	r := rand.New(rand.NewPCG(1, 2))
	for n := 0; n < 20000; n++ {
		pattern := make([]string, r.IntN(6))
		for i := range pattern {
			pattern[i] = words[r.IntN(len(words))]
		}
		parts := make([]string, r.IntN(7))
		for i := range parts {
			parts[i] = names[r.IntN(len(names))]
		}
		if got, want := MatchSegments(pattern, parts), matchSegmentsByBacktracking(pattern, parts); got != want {
			t.Fatalf("MatchSegments(%q, %q) = %v, want %v", pattern, parts, got, want)
		}
	}
}
