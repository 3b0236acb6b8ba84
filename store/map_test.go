package store

import (
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// docs/architecture.md's package map names every package go list finds,
// and no package that is gone. Catches: a package added, moved or removed
// without the map a newcomer reads (internal/procs and cmd/bench/fts were
// missing from the README's).
func TestThePackageMapNamesEveryPackage(t *testing.T) {
	t.Parallel()
	doc, err := os.ReadFile("../docs/architecture.md")
	if err != nil {
		t.Fatal(err)
	}
	section := regexp.MustCompile("(?s)## The package map\n.*?```\n(.*?)```").FindSubmatch(doc)
	if section == nil {
		t.Fatal("docs/architecture.md has no package map: a fenced block under \"## The package map\"")
	}
	var mapped []string
	for _, line := range strings.Split(string(section[1]), "\n") {
		if line != "" && line[0] != ' ' {
			mapped = append(mapped, strings.Fields(line)[0])
		}
	}
	out, err := exec.Command("go", "list", "github.com/omh-notes/omh/...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	var packages []string
	for _, p := range strings.Fields(string(out)) {
		packages = append(packages, strings.TrimPrefix(p, "github.com/omh-notes/omh/"))
	}
	if len(packages) == 0 || len(mapped) == 0 {
		t.Fatalf("go list found %d packages, the map names %d: the check read nothing", len(packages), len(mapped))
	}
	for _, p := range packages {
		if !slices.Contains(mapped, p) {
			t.Errorf("the package %s is not on docs/architecture.md's map", p)
		}
	}
	for _, m := range mapped {
		if !slices.Contains(packages, m) {
			t.Errorf("docs/architecture.md's map names %s, which is no package", m)
		}
	}
}
