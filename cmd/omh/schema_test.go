package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/alecthomas/kong"

	"github.com/omh-notes/omh/reply"
)

// jsonRun is a command (its path in the command tree) and arguments that
// run it successfully.
type jsonRun struct {
	path string
	args []string
}

// Every command that prints JSON names the schema version at the top of
// its reply, and the list below covers every command (walked from kong's
// model), so a new command cannot print JSON without it. Catches: a reply
// type that forgot the field (links, new, init, version and hooks status
// once did).
func TestEveryJSONReplyCarriesTheSchemaVersion(t *testing.T) {
	t.Parallel()
	dir := demoStore(t)
	gold := filepath.Join(t.TempDir(), "gold.jsonl")
	if err := os.WriteFile(gold, []byte(`{"id":"q1","question":"why does the mount fail","expect":["surprise/credential-file-mount-returns-ebusy"]}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	// A run of each command that succeeds, in an order that lets each
	// find what it needs (promote what new wrote).
	runs := []jsonRun{
		{"find", []string{"find", "mount"}},
		{"show", []string{"show", "topic/sandbox"}},
		{"links", []string{"links", "topic/sandbox"}},
		{"changes", []string{"changes"}},
		{"lint", []string{"lint", "topic/sandbox"}},
		{"index", []string{"index"}},
		{"status", []string{"status"}},
		{"version", []string{"version"}},
		{"eval", []string{"eval", "--split", "all", gold}},
		{"new", []string{"new", "finding", "Mounts fail on Tuesdays"}},
		{"promote", []string{"promote", "finding/mounts-fail-on-tuesdays"}},
		{"mv", []string{"mv", "topic/sandbox", "topic/the-sandbox"}},
		{"proof find", []string{"proof", "find", "harness"}},
		{"proof show", []string{"proof", "show", "finding/sandbox-user-is-uid-1000"}},
		{"proof retract", []string{"proof", "retract", "finding/sandbox-user-is-uid-1000", "--team", "--reason", "it is 1001 now"}},
		{"init", []string{"init"}},
		{"hooks install", []string{"hooks", "install"}},
		{"hooks status", []string{"hooks", "status"}},
		{"hooks uninstall", []string{"hooks", "uninstall"}},
		{"recover", []string{"recover"}},
	}
	noJSON := map[string]bool{ // commands whose output is not a reply
		"mcp": true, "completion": true, "__complete": true, "hooks run": true, "proof": true, "hooks": true,
	}
	parser, err := kong.New(&CLI{}, kong.Name("omh"), vocabulary())
	if err != nil {
		t.Fatal(err)
	}
	var walk func(n *kong.Node)
	walk = func(n *kong.Node) {
		for _, c := range n.Children {
			path := strings.TrimPrefix(c.Path(), "omh ")
			if !slices.ContainsFunc(runs, func(r jsonRun) bool { return r.path == path }) && !noJSON[path] {
				t.Errorf("omh %s: no run in this test, so nothing checks its JSON", path)
			}
			walk(c)
		}
	}
	walk(parser.Model.Node)
	for _, run := range runs {
		args := run.args
		res := omh(t, dir, append([]string{"--json"}, args...)...)
		var got map[string]any
		if err := json.Unmarshal([]byte(res.stdout), &got); err != nil {
			t.Errorf("omh --json %s: exit %d, not one JSON object: %v\n%s%s", strings.Join(args, " "), res.status, err, res.stdout, res.stderr)
			continue
		}
		if v, ok := got["schema_version"].(float64); !ok || int(v) != reply.SchemaVersion {
			t.Errorf("omh --json %s: schema_version %v", strings.Join(args, " "), got["schema_version"])
		}
	}
}
