package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The help of the commands that write and check notes is part of the
// contract too: a change to it is a change to these files, seen in review.
// go test ./cmd/omh -run Help -update rewrites them.
func TestWritingCommandsHelpIsTheDocumentedContract(t *testing.T) {
	t.Setenv("COLUMNS", "80") // kong wraps help to the terminal's width
	for _, cmd := range []string{"new", "promote", "lint", "links", "mv", "show"} {
		res := omh(t, t.TempDir(), cmd, "--help")
		if res.status != 0 {
			t.Errorf("omh %s --help: exit %d %s", cmd, res.status, res.stderr)
		}
		golden := filepath.Join("testdata", "help", "omh-"+cmd+".txt")
		if *update {
			if err := os.WriteFile(golden, []byte(res.stdout), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(golden)
		if err != nil {
			t.Fatalf("%v (run go test ./cmd/omh -run Help -update to create it)", err)
		}
		if res.stdout != string(want) {
			t.Errorf("omh %s --help differs from %s:\n%s", cmd, golden, res.stdout)
		}
	}
	if res := omh(t, t.TempDir(), "--help"); !strings.Contains(res.stdout, "promote") {
		t.Errorf("omh --help does not list the new commands:\n%s", res.stdout)
	}
}
