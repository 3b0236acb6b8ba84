package main

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden help files")

// The help text is part of the contract: a change to it must be a change
// to these files, seen in review.
func TestHelpTextIsTheDocumentedContract(t *testing.T) {
	t.Setenv("COLUMNS", "80") // kong wraps help to the terminal's width
	for _, args := range [][]string{{"--help"}, {"find", "--help"}, {"show", "--help"}, {"index", "--help"}, {"status", "--help"}, {"version", "--help"}, {"eval", "--help"}} {
		res := omh(t, t.TempDir(), args...)
		if res.status != 0 {
			t.Errorf("omh %v: exit %d %s", args, res.status, res.stderr)
		}
		golden := filepath.Join("testdata", "help", strings.Join(append([]string{"omh"}, args[:len(args)-1]...), "-")+".txt")
		if *update {
			if err := os.MkdirAll(filepath.Dir(golden), 0o755); err != nil {
				t.Fatal(err)
			}
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
			t.Errorf("omh %v help differs from %s:\n%s", args, golden, res.stdout)
		}
	}
}

func TestVersionNamesTheBuild(t *testing.T) {
	out := ok(t, t.TempDir(), "version")
	if !strings.HasPrefix(out, "omh ") || !strings.Contains(out, "revision") {
		t.Errorf("got %q", out)
	}
}
