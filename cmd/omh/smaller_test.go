package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/omh-notes/omh/vault/vaulttest"
)

// refusal runs omh and fails unless it exits 1 with a --json error of the
// given code whose message holds says.
func refusal(t *testing.T, dir, code, says string, args ...string) {
	t.Helper()
	res := omh(t, dir, append([]string{"--json"}, args...)...)
	if res.status != 1 || !strings.Contains(res.stderr, `"code":"`+code+`"`) || !strings.Contains(res.stderr, says) {
		t.Errorf("omh %v: exit %d %s; want exit 1, code %s, saying %q", args, res.status, res.stderr, code, says)
	}
}

// A bare repository, or a folder inside .git, is refused as having no
// working tree, not called "not a git repository". Catches: a user told
// their clone is not a repository.
func TestABareRepositoryIsNamedForWhatItIs(t *testing.T) {
	t.Parallel()
	r := vaulttest.New(t)
	r.Write("team.md", "# Team\n")
	r.Commit("2026-01-02T10:00:00Z", "notes")
	bare := filepath.Join(t.TempDir(), "bare.git")
	r.Git("clone", "-q", "--bare", r.Dir, bare)
	refusal(t, bare, "no_worktree", "without a working tree", "find", "team")
	refusal(t, filepath.Join(r.Dir, ".git", "objects"), "no_worktree", "without a working tree", "find", "team")
}

// Config mistakes are config errors (exit 1, bad_config) naming the
// setting: a notes root in .git, a glob that is not one; an absolute
// notes root inside the repository is read relative to it. Catches:
// notes: .git failing as an internal error (exit 3); a bad glob accepted
// and matching nothing; an absolute path inside the repository refused as
// outside it.
func TestConfigMistakesAreConfigErrors(t *testing.T) {
	t.Parallel()
	r := vaulttest.New(t)
	r.Write("notes/walrus.md", "# Walrus\n\nThe walrus.\n")
	r.Commit("2026-01-02T10:00:00Z", "notes")
	for config, says := range map[string]string{
		"notes: .git\n":                  "inside git's own folder",
		"notes: sub/.git/x\n":            "inside git's own folder",
		"exclude: ['[unclosed']\n":       "is not a glob",
		"notes: /somewhere/else/notes\n": "outside the repository",
	} {
		r.Write(".omh/config.yaml", config)
		refusal(t, r.Dir, "bad_config", says, "find", "walrus")
	}
	r.Write(".omh/config.yaml", fmt.Sprintf("notes: %s\n", filepath.Join(r.Dir, "notes")))
	if reply := findJSON(t, r.Dir, "walrus"); len(reply.Hits) != 1 || reply.Hits[0].Key != "walrus" {
		t.Errorf("an absolute notes root inside the repository: %+v", reply.Hits)
	}
	ok(t, r.Dir, "init", "--no-hooks", "--notes", filepath.Join(r.Dir, "notes"))
}

// A private folder that is a file, the file system's root, or a folder
// holding the repository is refused with a line naming where it was set.
// Catches: OMH_LOCAL_DIR=/ failing on /proc (exit 3); a file ignored
// without a word, every private note silently missing.
func TestAPrivateFolderOmhCannotUseIsRefused(t *testing.T) {
	// Serial: it sets OMH_LOCAL_DIR.
	r := vaulttest.New(t)
	r.Write("team.md", "# Team\n")
	r.Commit("2026-01-02T10:00:00Z", "notes")
	file := filepath.Join(t.TempDir(), "a-file")
	vaulttest.WriteFile(t, file, "not a folder\n")
	for dir, says := range map[string]string{file: "is a file", "/": "root of the file system", filepath.Dir(r.Dir): "holds the repository"} {
		t.Setenv("OMH_LOCAL_DIR", dir)
		refusal(t, r.Dir, "bad_private_dir", says, "find", "team")
	}
	os.Unsetenv("OMH_LOCAL_DIR")
	r.Git("config", "omh.local", r.Dir)
	refusal(t, r.Dir, "bad_private_dir", "git config omh.local", "find", "team")
}
