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

// Frontmatter larger than what omh reads is reported as that, not as
// never closed. Catches: 200,000 keys of frontmatter called "frontmatter
// opened on line 1 is never closed".
func TestOversizedFrontmatterIsNotCalledUnclosed(t *testing.T) {
	r := vaulttest.New(t)
	var b strings.Builder
	b.WriteString("---\n")
	for i := 0; b.Len() < 1<<20; i++ {
		fmt.Fprintf(&b, "k%d: v\n", i)
	}
	b.WriteString("---\n# Big\n")
	r.Write("big.md", b.String())
	r.Commit("2026-01-02T10:00:00Z", "notes")
	var rules []string
	for _, f := range lintFindings(t, r.Dir) {
		rules = append(rules, f.Rule+": "+f.Message)
	}
	got := strings.Join(rules, "\n")
	if !strings.Contains(got, "larger than") || strings.Contains(got, "never closed") {
		t.Errorf("lint says:\n%s", got)
	}
}

// A cache file that is a folder or a link to /dev/null is replaced by a
// working one, with one line, and the answer is the same. Catches: every
// command exiting 3 with "unable to open database file" or "disk I/O
// error" until the user deleted .git/omh by hand.
func TestACachePathThatIsNotAFileIsHealed(t *testing.T) {
	for _, kind := range []string{"a folder", "a link to /dev/null"} {
		t.Run(kind, func(t *testing.T) {
			r := vaulttest.New(t)
			r.Write("walrus.md", "# Walrus\n\nThe walrus swims.\n")
			r.Commit("2026-01-02T10:00:00Z", "notes")
			want := ok(t, r.Dir, "find", "walrus")
			files, _ := filepath.Glob(filepath.Join(r.Dir, ".git", "omh", "cache-*.db"))
			if len(files) != 1 {
				t.Fatalf("cache files %v", files)
			}
			for _, suffix := range []string{"", "-wal", "-shm"} {
				os.Remove(files[0] + suffix)
			}
			var err error
			if kind == "a folder" {
				err = os.Mkdir(files[0], 0o755)
			} else {
				err = os.Symlink(os.DevNull, files[0])
			}
			if err != nil {
				t.Fatal(err)
			}
			res := omh(t, r.Dir, "find", "walrus")
			if res.status != 0 || res.stdout != want || strings.Count(res.stderr, "\n") != 1 {
				t.Errorf("exit %d\n%s%s", res.status, res.stdout, res.stderr)
			}
			if res := omh(t, r.Dir, "find", "walrus"); res.status != 0 || res.stderr != "" {
				t.Errorf("the next command: exit %d %s", res.status, res.stderr)
			}
		})
	}
}
