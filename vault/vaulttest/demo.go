package vaulttest

import (
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
)

// LayDemo lays the demo store at demo (testdata/demo) out as
// testdata/demo/run.sh does: team/ committed in dir under .omh/notes, worktree/ copied over it uncommitted,
// private/ as the private folder. Git runs without the user's identity.
func LayDemo(demo, dir, private string) error {
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
		func() error { return overlay(filepath.Join(demo, "team"), notes) },
		func() error { return git("2026-01-10T09:00:00Z", "init", "-q", "-b", "main") },
		func() error {
			return git("2026-01-10T09:00:00Z", "commit", "-q", "--allow-empty", "-m", "start the notes store")
		},
		func() error { return git("2026-03-21T09:00:00Z", "add", "-A") },
		func() error { return git("2026-03-21T09:00:00Z", "commit", "-q", "-m", "demo notes") },
		func() error { return overlay(filepath.Join(demo, "worktree"), notes) },
		func() error { return overlay(filepath.Join(demo, "private"), private) },
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
