package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/omh-notes/omh/store"
	"github.com/omh-notes/omh/vault/vaulttest"
)

// omh promote prints each note it moved and the commit command; --json
// gives the same report; a refusal exits 1 with its code (package store
// tests the promotion itself). Catches: a refusal that exits 0; a commit
// command missing from the text reply.
func TestPromotePrintsWhatMovedAndTheCommit(t *testing.T) {
	t.Parallel()
	r := vaulttest.New(t)
	r.Write("team.md", "# Team\n")
	r.Commit("2026-01-02T10:00:00Z", "team")
	vaulttest.WriteFile(t, filepath.Join(r.Private, "idea/one.md"), "# One\n")
	vaulttest.WriteFile(t, filepath.Join(r.Private, "idea/two.md"), "# Two\n")
	res := omh(t, r.Dir, "--json", "promote", "idea/none")
	var reply struct{ Error struct{ Code string } }
	json.Unmarshal([]byte(res.stderr), &reply)
	if res.status != exitRefused || reply.Error.Code != "not_found" {
		t.Errorf("exit %d %q", res.status, res.stderr)
	}
	out := ok(t, r.Dir, "promote", "idea/one")
	if want := "promoted idea/one -> idea/one.md (staged)\ncommit with:\n  git commit -m 'Promote idea/one' -- idea/one.md\n"; !strings.HasSuffix(out, want) || !strings.HasPrefix(out, "promoted") {
		t.Errorf("got\n%s\nwant\n%s", out, want)
	}
	var rep store.Promoted
	if err := json.Unmarshal([]byte(ok(t, r.Dir, "--json", "promote", "idea/two")), &rep); err != nil || len(rep.Promoted) != 1 || rep.Promoted[0].To != "idea/two.md" {
		t.Errorf("%+v %v", rep, err)
	}
}
