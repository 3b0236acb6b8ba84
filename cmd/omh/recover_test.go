package main

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/omh-notes/omh/journal"
	"github.com/omh-notes/omh/vault/vaulttest"
)

// omh recover finishes what a crash left, says so, and then finds nothing
// to do. Catches: a recover that needs the change's own command run again;
// a journal left behind after recovering.
func TestRecoverFinishesAnInterruptedMv(t *testing.T) {
	t.Parallel()
	r := vaulttest.New(t)
	r.Write("team.md", "# Team\n\n[[mine]]\n")
	r.Commit("2026-01-02T10:00:00Z", "notes")
	vaulttest.WriteFile(t, filepath.Join(r.Private, "mine.md"), "# Mine\n")
	ok(t, r.Dir, "index")
	for k := 1; ; k++ {
		if k > 50 {
			t.Fatal("no crash point left a change to finish")
		}
		res := omhProc(t, r.Dir, []string{fmt.Sprintf("%s=%d", journal.CrashEnv, k)}, "mv", "mine", "ours")
		if res.status == 0 {
			t.Fatal("the mv completed before any crash point left a change to finish")
		}
		if _, err := os.Stat(filepath.Join(r.Dir, ".git", "omh-journal", "manifest.json")); err != nil {
			continue // the crash came before the change began
		}
		if out := ok(t, r.Dir, "recover"); out != "finished omh mv mine ours\n" {
			t.Fatalf("omh recover: %q", out)
		}
		if _, err := os.Stat(filepath.Join(r.Private, "ours.md")); err != nil {
			t.Fatalf("k=%d: after omh recover the note is not renamed: %v", k, err)
		}
		if got := vaulttest.Read(t, filepath.Join(r.Dir, "team.md")); got != "# Team\n\n[[ours]]\n" {
			t.Errorf("k=%d: the link is %q", k, got)
		}
		if again := ok(t, r.Dir, "recover"); again != "nothing was left half done\n" {
			t.Errorf("a second omh recover: %q", again)
		}
		return
	}
}
