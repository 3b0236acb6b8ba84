package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/omh-notes/omh/store"
	"github.com/omh-notes/omh/vault/vaulttest"
)

// omh mv prints what it renamed, how, the links it rewrote per file and
// what it staged; --json gives the same report; a refusal exits 1 with its
// code and changes nothing (package store tests the renaming itself).
// Catches: a report printed for a rename that did not happen; a refusal
// that exits 0 or 3.
func TestMvReportsTheRenameAndRefusesWithACode(t *testing.T) {
	t.Parallel()
	r := vaulttest.New(t)
	r.Write("a.md", "# A\n\nSee [[b]] and [b again](b.md).\n")
	r.Write("b.md", "# B\n")
	r.Commit("2026-01-02T10:00:00Z", "team")
	out := ok(t, r.Dir, "mv", "b", "c/b")
	// [[b]] still reaches c/b alone, so only the markdown link changes.
	want := "renamed b -> c/b (git mv)\n  b.md -> c/b.md\nrewrote 1 link in 1 note:\n  a.md (1)\nstaged: b.md c/b.md a.md\n"
	if out != want {
		t.Errorf("got\n%s\nwant\n%s", out, want)
	}
	var rep store.Moved
	if err := json.Unmarshal([]byte(ok(t, r.Dir, "--json", "mv", "c/b", "d/b")), &rep); err != nil || rep.Old != "c/b" || rep.New != "d/b" || len(rep.Rewritten) != 1 {
		t.Errorf("%+v %v", rep, err)
	}
	res := omh(t, r.Dir, "--json", "mv", "b", "a")
	var reply struct{ Error struct{ Code string } }
	json.Unmarshal([]byte(res.stderr), &reply)
	if res.status != exitRefused || reply.Error.Code != "key_taken" || res.stdout != "" {
		t.Errorf("exit %d %q %q", res.status, res.stdout, res.stderr)
	}
	if res := omh(t, r.Dir, "mv", "b", "a"); res.status != exitRefused || !strings.HasPrefix(res.stderr, "omh: nothing was renamed") {
		t.Errorf("exit %d %q", res.status, res.stderr)
	}
}
