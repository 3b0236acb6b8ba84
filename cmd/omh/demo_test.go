package main

import (
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// demoDir is testdata/demo, the demo store's notes.
var demoDir, _ = filepath.Abs(filepath.Join("..", "..", "testdata", "demo"))

// layDemo lays the demo store out as testdata/demo/run.sh does: team/
// committed in dir under .omh/notes, worktree/ copied over it uncommitted,
// private/ as the private folder. Git runs without the user's identity.
func layDemo(dir, private string) error {
	git := func(date string, args ...string) error {
		cmd := exec.Command("git", append([]string{"-c", "user.name=demo", "-c", "user.email=demo@example.invalid",
			"-c", "commit.gpgsign=false"}, args...)...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_DATE="+date, "GIT_COMMITTER_DATE="+date)
		if out, err := cmd.CombinedOutput(); err != nil {
			return fmt.Errorf("git %v: %w\n%s", args, err, out)
		}
		return nil
	}
	notes := filepath.Join(dir, ".omh", "notes")
	for _, step := range []func() error{
		func() error { return overlay(filepath.Join(demoDir, "team"), notes) },
		func() error { return git("2026-01-10T09:00:00Z", "init", "-q", "-b", "main") },
		func() error {
			return git("2026-01-10T09:00:00Z", "commit", "-q", "--allow-empty", "-m", "start the notes store")
		},
		func() error { return git("2026-03-21T09:00:00Z", "add", "-A") },
		func() error { return git("2026-03-21T09:00:00Z", "commit", "-q", "-m", "demo notes") },
		func() error { return overlay(filepath.Join(demoDir, "worktree"), notes) },
		func() error { return overlay(filepath.Join(demoDir, "private"), private) },
	} {
		if err := step(); err != nil {
			return err
		}
	}
	return nil
}

// overlay copies the files under from into to, replacing files there.
func overlay(from, to string) error {
	return filepath.WalkDir(from, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(from, path)
		if err != nil {
			return err
		}
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(to, rel), 0o755)
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(to, rel), b, 0o644)
	})
}

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
