package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/omh-notes/omh/vault/vaulttest"
)

// A linked worktree has its own HEAD and its own snapshot, in the cache the
// clone shares.
func TestALinkedWorktreeAnswersFromItsOwnHead(t *testing.T) {
	r := vaulttest.New(t)
	r.Write("plan.md", "# Plan\n\nShip the walrus feature.\n")
	r.Commit("2026-01-01T10:00:00Z", "plan")
	wt := filepath.Join(t.TempDir(), "wt")
	r.Git("worktree", "add", "-q", "-b", "other", wt)
	vaulttest.WriteFile(t, filepath.Join(wt, "plan.md"), "# Plan\n\nShip the narwhal feature instead.\n")
	r.GitAt("2026-02-01T10:00:00Z", "-C", wt, "commit", "-q", "-am", "other plan")

	if out := ok(t, wt, "find", "narwhal"); !strings.HasPrefix(out, "plan  team · 2026-02-01") {
		t.Errorf("worktree: %q", out)
	}
	if out := ok(t, r.Dir, "find", "narwhal"); !strings.HasPrefix(out, "No note contains") {
		t.Errorf("main saw the worktree's commit: %q", out)
	}
	if out := ok(t, wt, "find", "walrus"); !strings.HasPrefix(out, "No note contains") {
		t.Errorf("worktree saw main's text: %q", out)
	}
	if _, err := os.Stat(filepath.Join(r.Dir, ".git", "omh")); err != nil {
		t.Errorf("the cache is not in the common git directory: %v", err)
	}
	if entries, _ := os.ReadDir(filepath.Join(r.Dir, ".git", "worktrees", "wt")); hasOmh(entries) {
		t.Error("the worktree made a cache of its own")
	}
}

func hasOmh(entries []os.DirEntry) bool {
	for _, e := range entries {
		if e.Name() == "omh" {
			return true
		}
	}
	return false
}

// A submodule's notes belong to the submodule, not to this store.
func TestASubmoduleIsNotPartOfTheStore(t *testing.T) {
	sub := vaulttest.New(t)
	sub.Write("theirs.md", "# Their note about penguins\n")
	sub.Commit("2026-01-01T10:00:00Z", "theirs")
	r := vaulttest.New(t)
	r.Write("ours.md", "# Our note about penguins\n")
	r.Commit("2026-01-02T10:00:00Z", "ours")
	r.Git("-c", "protocol.file.allow=always", "submodule", "add", "-q", sub.Dir, "vendor/sub")
	r.Commit("2026-01-03T10:00:00Z", "submodule")
	reply := findJSON(t, r.Dir, "penguins")
	if len(reply.Hits) != 1 || reply.Hits[0].Key != "ours" {
		t.Errorf("got %+v", reply.Hits)
	}
}
