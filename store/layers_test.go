package store

import (
	"os/exec"
	"strings"
	"testing"
)

// The layers import one way: no package imports a command but the command
// its own server; the note model (vault) imports only omh's internal
// helpers (internal/*, which import nothing of omh), its rooms (vault/*)
// only vault, each other and those helpers, and the read model
// (vault/corpus) only vault; the tokenizer (token) imports nothing of omh;
// ranking, the proof lifecycle, cards and eval (retrieve, proof, find,
// eval) never import the cache or the application layer, only declare the
// interfaces the cache implements, and each imports only those before it
// in that order; the cache (index) imports none of them, nor the union
// of several stores' snapshots (union), which reads the cache only through
// the interface it declares and imports none of the layers above; the output
// contract (reply) imports nothing of omh, and below the application layer
// only the renderers of answers use it (retrieve's tree, find's cards,
// whose JSON shapes find fills): the other layers return plain data; only
// commands import the application layer. cmd/ holds omh's command and its
// MCP server alone, and they import nothing else but the output contract.
// The programs that measure omh (internal/tools/*) may import what they
// measure, but nothing imports them but another tool.
// Catches: a shortcut that ties the note model to the cache, a command's
// logic creeping back below the command line, a command reaching past the
// door to the layers behind it, or a measuring tool installed beside omh
// by go install ./...
func TestDependenciesPointOneWay(t *testing.T) {
	out, err := exec.Command("go", "list", "-f", `{{.ImportPath}} {{join .Imports " "}}`, "github.com/omh-notes/omh/...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	const mod = "github.com/omh-notes/omh/"
	forbidden := map[string][]string{ // package → what it must not import (prefixes)
		"token":        {""},
		"vault/corpus": {"vault/", "internal/"},
		"reply":        {""},
		"retrieve":     {"index", "store", "proof", "find", "eval", "hooks"},
		"proof":        {"index", "store", "find", "eval", "hooks", "reply"},
		"find":         {"index", "store", "eval", "hooks"},
		"eval":         {"index", "store", "hooks", "reply"},
		"index":        {"store", "hooks", "retrieve", "proof", "find", "eval", "reply", "union"},
		"union":        {"index", "store", "hooks", "retrieve", "proof", "find", "eval", "journal", "reply"},
		"hooks":        {"index", "store", "retrieve", "proof", "find", "eval", "journal", "reply"},
		"journal":      {"index", "store", "retrieve", "proof", "find", "eval", "hooks", "reply"},
	}
	// only: package → the only packages of omh it may import (prefixes).
	only := map[string][]string{
		"vault":             {"internal"},
		"cmd/omh":           {"store", "reply", "cmd/omh/mcpserver"},
		"cmd/omh/mcpserver": {"store", "reply"},
	}
	checked := 0
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		fields := strings.Fields(line)
		pkg, imports := strings.TrimPrefix(fields[0], mod), fields[1:]
		if _, ok := only[pkg]; strings.HasPrefix(pkg, "cmd/") && !ok {
			t.Errorf("%s is a command beside omh's: cmd/ holds omh and its server alone (tools go under internal/tools)", pkg)
		}
		tool := strings.HasPrefix(pkg, "internal/tools/")
		for _, imp := range imports {
			if !strings.HasPrefix(imp, mod) {
				continue
			}
			dep := strings.TrimPrefix(imp, mod)
			checked++
			if strings.HasPrefix(dep, "cmd/") && !strings.HasPrefix(dep, pkg+"/") {
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
			if strings.HasPrefix(dep, "internal/tools/") && !tool {
				t.Errorf("%s imports the measuring tool %s", pkg, dep)
			}
			if strings.HasPrefix(pkg, "internal/") && !tool {
				t.Errorf("%s, an internal helper, imports %s", pkg, dep)
			}
			if strings.HasPrefix(pkg, "vault/") && dep != "vault" && !strings.HasPrefix(dep, "vault/") && !strings.HasPrefix(dep, "internal/") {
				t.Errorf("%s, a room of vault, imports %s", pkg, dep)
			}
			if allowed, ok := only[pkg]; ok && !within(dep, allowed) {
				t.Errorf("%s imports %s, behind the door it may only go through (%s)", pkg, dep, strings.Join(allowed, ", "))
			}
		}
	}
	if checked == 0 {
		t.Fatal("go list reported no imports between omh's packages: the check read nothing")
	}
}

// within reports whether pkg is one of dirs or under one.
func within(pkg string, dirs []string) bool {
	for _, d := range dirs {
		if pkg == d || strings.HasPrefix(pkg, d+"/") {
			return true
		}
	}
	return false
}
