package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/omh-notes/omh/vault/gitcli"
	"github.com/omh-notes/omh/vault/vaulttest"
)

// What the README tells a team about a second clone holds: its first step
// is omh init, which installs the hooks (git never clones them) and, the
// config being committed, writes nothing into the working tree; and the
// private notes are per repository and user, so a note written in one
// clone is a local note of the other. Catches: a README silent on both
// (a team's second clone ran without hooks, and was surprised to share
// private notes), and the behaviour drifting from what it says.
func TestACloneStartsWithOmhInitAndSharesThePrivateNotes(t *testing.T) {
	// Serial: the private folder is the default one, under XDG_DATA_HOME.
	readme := vaulttest.Read(t, filepath.Join("..", "..", "README.md"))
	for _, said := range []string{"A fresh clone has no hooks (git never clones them): run `omh init` in it first",
		"two clones of one repository on one machine share their private notes"} {
		if !strings.Contains(strings.Join(strings.Fields(readme), " "), said) {
			t.Errorf("the README does not say %q", said)
		}
	}
	t.Setenv("OMH_LOCAL_DIR", "")
	t.Setenv("XDG_DATA_HOME", t.TempDir())
	r := vaulttest.New(t)
	r.Git("config", "--unset", "omh.local")
	r.Write("topic/credentials.md", "# Credentials\n\nWhere tokens live.\n")
	r.Commit("2026-01-02T10:00:00Z", "notes")
	ok(t, r.Dir, "init")
	r.Commit("2026-01-03T10:00:00Z", "omh's config")
	clone := filepath.Join(t.TempDir(), "clone")
	r.Git("clone", "-q", r.Dir, clone)
	if out := ok(t, clone, "hooks", "status"); strings.Contains(out, "installed") {
		t.Fatalf("a fresh clone has omh's hooks already:\n%s", out)
	}
	ok(t, clone, "init")
	if out := ok(t, clone, "hooks", "status"); strings.Count(out, "installed") != 4 {
		t.Errorf("after omh init in the clone:\n%s", out)
	}
	if status, _ := gitcli.Git(clone, "", "status", "--porcelain"); status != "" {
		t.Errorf("omh init wrote into the clone's working tree: %q", status)
	}
	written := newJSON(t, r.Dir, "note", "An idea of mine")
	if out := ok(t, clone, "show", written.Key); !strings.Contains(out, written.Key+"  local · ") {
		t.Errorf("the clone does not see the private note:\n%s", out)
	}
}
