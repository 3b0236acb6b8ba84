package main

import (
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/omh-notes/omh/vault/vaulttest"
)

// demoDir is testdata/demo, the demo store's notes.
var demoDir, _ = filepath.Abs(filepath.Join("..", "..", "testdata", "demo"))

// layDemo lays the demo store out as testdata/demo/run.sh does.
func layDemo(dir, private string) error { return vaulttest.LayDemo(demoDir, dir, private) }

// demoStore lays the demo store out in a temporary folder, with a private
// folder of its own (its git config omh.local) holding the demo's private
// notes, and returns the repository.
func demoStore(t *testing.T) string {
	t.Helper()
	private := filepath.Join(t.TempDir(), "private")
	dir := t.TempDir()
	if err := layDemo(dir, private); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("git", "-C", dir, "config", "omh.local", private).CombinedOutput(); err != nil {
		t.Fatalf("git config omh.local: %v\n%s", err, out)
	}
	return dir
}
