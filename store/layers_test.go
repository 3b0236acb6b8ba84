package store

import (
	"os/exec"
	"strings"
	"testing"
)

// The layers import one way: no package imports a command; the note model
// (vault) imports no other package of omh; ranking and cards (retrieve,
// find) never import the cache or the application layer, only declare the
// interfaces the cache implements; only commands import the application
// layer. Catches: a shortcut that ties the note model to the cache, or a
// command's logic creeping back below the command line.
func TestDependenciesPointOneWay(t *testing.T) {
	out, err := exec.Command("go", "list", "-f", `{{.ImportPath}} {{join .Imports " "}}`, "github.com/omh-notes/omh/...").Output()
	if err != nil {
		t.Skipf("go list: %v", err)
	}
	const mod = "github.com/omh-notes/omh/"
	forbidden := map[string][]string{ // package → what it must not import (prefixes)
		"vault":     {""},
		"retrieve":  {"index", "store", "find", "hooks"},
		"find":      {"index", "store", "hooks"},
		"find/eval": {"index", "store", "hooks"},
		"index":     {"store", "hooks"},
		"hooks":     {"index", "store", "retrieve", "find", "journal"},
		"journal":   {"index", "store", "retrieve", "find", "hooks"},
	}
	checked := 0
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		fields := strings.Fields(line)
		pkg, imports := strings.TrimPrefix(fields[0], mod), fields[1:]
		for _, imp := range imports {
			if !strings.HasPrefix(imp, mod) {
				continue
			}
			dep := strings.TrimPrefix(imp, mod)
			checked++
			if strings.HasPrefix(dep, "cmd/") {
				t.Errorf("%s imports the command %s", pkg, dep)
			}
			if dep == "store" && !strings.HasPrefix(pkg, "cmd/") {
				t.Errorf("%s imports the application layer; only commands may", pkg)
			}
			for _, no := range forbidden[pkg] {
				if strings.HasPrefix(dep, no) { // "" forbids every package of omh
					t.Errorf("%s imports %s", pkg, dep)
				}
			}
		}
	}
	if checked == 0 {
		t.Fatal("go list reported no imports between omh's packages: the check read nothing")
	}
}
