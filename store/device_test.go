//go:build unix

package store_test

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/omh-notes/omh/journal"
	"github.com/omh-notes/omh/vault/vaulttest"
)

// A crash while a change writes notes on another file system than git's
// folder (a worktree on a tmpfs), where each note's content goes through a
// temporary file beside it, leaves no such file once the next command
// finished the change: git add -A finds nothing of omh's to commit.
// Catches: a .NAME.md.NNN.tmp left beside a note after a kill, which omh
// recover left and git add -A committed.
func TestACrashWritingOnAnotherDeviceLeavesNoTemporaryFileBesideANote(t *testing.T) {
	t.Parallel()
	gitDir := filepath.Join(t.TempDir(), "git")
	shm, err := os.MkdirTemp("/dev/shm", "omh-test-")
	if err != nil {
		t.Skipf("no /dev/shm for a worktree on another file system: %v", err)
	}
	t.Cleanup(func() { os.RemoveAll(shm) })
	if sameDevice(t, shm, filepath.Dir(gitDir)) {
		t.Skip("/dev/shm is on the same file system as the temporary folder")
	}
	dir := filepath.Join(shm, "wt")
	git := func(args ...string) string {
		t.Helper()
		res := vaulttest.RunGit(t, dir, "2026-01-02T10:00:00Z", args...)
		if res.Status != 0 {
			t.Fatalf("git %s: %s", strings.Join(args, " "), res.Stderr)
		}
		return res.Stdout
	}
	if res := vaulttest.RunGit(t, shm, "", "init", "-q", "-b", "main", "--separate-git-dir", gitDir, dir); res.Status != 0 {
		t.Fatal(res.Stderr)
	}
	for _, kv := range [][2]string{{"user.name", "Test Author"}, {"user.email", "author@example.com"}, {"commit.gpgsign", "false"}, {"omh.local", filepath.Join(t.TempDir(), "private")}} {
		git("config", kv[0], kv[1])
	}
	// The hub links to itself, so it is written anew (a note renamed
	// unchanged is linked in place, with no temporary file).
	vaulttest.WriteFile(t, filepath.Join(dir, "notes", "hub.md"), "# Hub\n\nThis is [[hub]].\n")
	for i := 1; i <= 3; i++ {
		vaulttest.WriteFile(t, filepath.Join(dir, "notes", fmt.Sprintf("s%d.md", i)), "# S\n\n[[hub]]\n")
	}
	git("add", "-A")
	git("commit", "-q", "-m", "notes")
	temps := func() []string {
		var found []string
		filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
			if err == nil && strings.HasSuffix(path, ".tmp") {
				found = append(found, path)
			}
			return nil
		})
		return found
	}
	leftByCrash := 0
	for k := 1; ; k++ {
		if k > 200 {
			t.Fatal("no run completed in 200 steps")
		}
		res := omhProc(t, dir, []string{fmt.Sprintf("%s=%d", journal.CrashEnv, k)}, "mv", "hub", "centre/core")
		if len(temps()) > 0 {
			leftByCrash++
		}
		if next := omhProc(t, dir, nil, "status"); next.status != 0 {
			t.Fatalf("k=%d: the next command: %s", k, next.stderr)
		}
		if left := temps(); len(left) > 0 {
			t.Errorf("k=%d: temporary files left beside the notes: %q", k, left)
		}
		if added := git("add", "-A", "-n"); strings.Contains(added, ".tmp") {
			t.Errorf("k=%d: git add -A would commit %s", k, added)
		}
		if res.status == 0 {
			break
		}
		git("reset", "-q", "--hard")
		git("clean", "-fdq")
	}
	if leftByCrash == 0 {
		t.Error("no crash left a temporary file for the next command to remove: the crash points were not reached")
	}
}

func sameDevice(t *testing.T, a, b string) bool {
	t.Helper()
	var sa, sb syscall.Stat_t
	if syscall.Stat(a, &sa) != nil || syscall.Stat(b, &sb) != nil {
		return false
	}
	return sa.Dev == sb.Dev
}
