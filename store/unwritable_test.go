//go:build unix

package store_test

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/omh-notes/omh/journal"
	"github.com/omh-notes/omh/vault/vaulttest"
)

// nobody is the user another user's omh runs as when the tests run as
// root, for whom permission bits mean nothing.
const nobody = 65534

// asAnotherUser returns what runs the helper omh (see runHelper) on r as a
// user who may read the repository and its private folder but write
// neither: as root, the user nobody, with the folders on the way opened to
// reading; otherwise this user, the test having taken away its write
// permission where it must.
func asAnotherUser(t *testing.T, r *vaulttest.Repo) func(args ...string) result {
	t.Helper()
	home := t.TempDir()
	env := []string{"HOME=" + home, "XDG_CACHE_HOME=" + filepath.Join(home, ".cache"), "XDG_DATA_HOME=" + filepath.Join(home, ".local", "share"),
		// git refuses a repository another user owns unless told.
		"GIT_CONFIG_COUNT=1", "GIT_CONFIG_KEY_0=safe.directory", "GIT_CONFIG_VALUE_0=*"}
	if os.Geteuid() != 0 {
		return func(args ...string) result { return omhProc(t, r.Dir, env, args...) }
	}
	bin := filepath.Join(t.TempDir(), "omh") // started under that name, the test binary runs as omh
	copyExecutable(t, bin)
	for _, d := range []string{r.Dir, r.Private, home, filepath.Dir(bin)} {
		for p := d; p != "/" && p != os.TempDir(); p = filepath.Dir(p) {
			mode := fs.FileMode(0o755)
			if p == home {
				mode = 0o777
			}
			if err := os.Chmod(p, mode); err != nil {
				t.Fatal(err)
			}
		}
	}
	return func(args ...string) result {
		t.Helper()
		var stdout, stderr strings.Builder
		var err error
		// A process another test forks while the copy was being written
		// holds it open for writing until it execs, and the kernel then
		// refuses to run it (text file busy): it lets go in a moment.
		for try := 0; ; try++ {
			cmd := exec.Command(bin, append([]string{"-C", r.Dir}, args...)...)
			cmd.Env = append(os.Environ(), env...)
			cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: nobody, Gid: nobody}}
			stdout.Reset()
			stderr.Reset()
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			if err = cmd.Run(); !errors.Is(err, syscall.ETXTBSY) || try == 100 {
				break
			}
			time.Sleep(10 * time.Millisecond)
		}
		res := result{stdout.String(), stderr.String(), 0}
		if exit, ok := err.(*exec.ExitError); ok {
			res.status = exit.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		return res
	}
}

// copyExecutable copies this test binary to to, where another user may
// run it (the build folder is the building user's alone).
func copyExecutable(t *testing.T, to string) {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	src, err := os.Open(self)
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	dst, err := os.OpenFile(to, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o755)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(dst, src); err != nil {
		t.Fatal(err)
	}
	if err := dst.Close(); err != nil {
		t.Fatal(err)
	}
}

// crashLeavingManifest runs the change args names with a crash at the
// first journal step that leaves its manifest behind: a change half done.
func crashLeavingManifest(t *testing.T, r *vaulttest.Repo, args ...string) {
	t.Helper()
	manifest := filepath.Join(r.Dir, ".git", "omh-journal", "manifest.json")
	saved := filepath.Join(t.TempDir(), "repo")
	vaulttest.CopyTree(t, r.Dir, saved)
	for k := 1; k < 100; k++ {
		res := omhProc(t, r.Dir, []string{fmt.Sprintf("%s=%d", journal.CrashEnv, k)}, args...)
		if _, err := os.Stat(manifest); err == nil && res.status == crashStatus {
			return
		}
		if err := os.RemoveAll(r.Dir); err != nil {
			t.Fatal(err)
		}
		vaulttest.CopyTree(t, saved, r.Dir)
	}
	t.Fatalf("no crash of omh %s left its manifest", strings.Join(args, " "))
}

// hubRepo is a store with a note four others link to.
func hubRepo(t *testing.T) *vaulttest.Repo {
	r := vaulttest.New(t)
	r.Write(".omh/config.yaml", "notes: notes\n")
	r.Write("notes/hub.md", "# Hub\n\nThe hub.\n")
	for i := 1; i <= 4; i++ {
		r.Write(fmt.Sprintf("notes/spoke-%d.md", i), fmt.Sprintf("# Spoke %d\n\nSee [[hub]] and [[notes/hub|the hub]].\n", i))
	}
	r.Commit("2026-01-02T10:00:00Z", "notes")
	if err := os.MkdirAll(r.Private, 0o755); err != nil {
		t.Fatal(err)
	}
	refresh(t, r.Dir)
	return r
}

// A change left half done in a journal another user owns is reported, by
// reads and by omh recover, and no write is made over it: each refusal
// names the journal's folder and what to do. Once its owner runs a
// command, the change is finished. Catches: the journal falling back to a
// folder in the user's cache, omh recover saying nothing was left half
// done, and the next mv succeeding on the half-done store.
func TestAHalfDoneChangeInAJournalAnotherUserOwnsIsReportedAndNoWriteIsMade(t *testing.T) {
	t.Parallel()
	r := hubRepo(t)
	crashLeavingManifest(t, r, "mv", "hub", "centre/hub")
	other := asAnotherUser(t, r)
	journalDir := filepath.Join(r.Dir, ".git", "omh-journal")
	if os.Geteuid() != 0 {
		// Not root: the same user, without the right to write it.
		if err := os.Chmod(journalDir, 0o500); err != nil {
			t.Fatal(err)
		}
	}
	before := storeState(t, r)
	res := other("status")
	if res.status != 0 || !strings.Contains(res.stderr, "omh mv hub centre/hub is left half done") || !strings.Contains(res.stderr, journalDir) {
		t.Errorf("status as another user: exit %d\n%s", res.status, res.stderr)
	}
	for _, args := range [][]string{{"recover"}, {"mv", "spoke-1", "moved/spoke-1"}, {"new", "finding", "another user's"}} {
		res := other(args...)
		if res.status == 0 || !strings.Contains(res.stderr, journalDir+" cannot be written") || !strings.Contains(res.stderr, "omh mv hub centre/hub, left half done") ||
			!strings.Contains(res.stderr, "make the folder writable") {
			t.Errorf("omh %s as another user: exit %d\n%s%s", strings.Join(args, " "), res.status, res.stdout, res.stderr)
		}
	}
	if after := storeState(t, r); after != before {
		t.Errorf("another user's commands changed the store:\n%s\n--- before:\n%s", after, before)
	}
	if err := os.Chmod(journalDir, 0o755); err != nil {
		t.Fatal(err)
	}
	if res := omhProc(t, r.Dir, nil, "recover"); res.status != 0 || !strings.Contains(res.stdout, `finished "omh mv hub centre/hub"`) {
		t.Errorf("recover by the owner: exit %d\n%s%s", res.status, res.stdout, res.stderr)
	}
	if _, err := os.Stat(filepath.Join(r.Dir, "notes", "centre", "hub.md")); err != nil {
		t.Errorf("the owner's recover did not finish the move: %v", err)
	}
}

// In a repository whose git folder cannot be written (a read-only file
// system, another user's clone) and where nothing is pending, a write is
// refused up front with the journal's folder named, nothing is written
// anywhere, omh recover says truthfully that nothing was left half done,
// and reads answer. Catches: the journal moved to the user's cache, so a
// later change could be made over one half done in the repository; a
// failed mv saying "omh recover finishes the change" when nothing was
// pending.
func TestAWriteInARepositoryWhoseJournalCannotBeWrittenIsRefusedUpFront(t *testing.T) {
	t.Parallel()
	r := hubRepo(t)
	other := asAnotherUser(t, r)
	gitDir := filepath.Join(r.Dir, ".git")
	if err := os.RemoveAll(filepath.Join(gitDir, "omh-journal")); err != nil {
		t.Fatal(err)
	}
	if os.Geteuid() != 0 {
		for _, d := range []string{gitDir, filepath.Join(r.Dir, "notes"), r.Private} {
			if err := os.Chmod(d, 0o555); err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { os.Chmod(d, 0o755) })
		}
	}
	before := storeState(t, r)
	for _, args := range [][]string{{"mv", "hub", "centre/hub"}, {"new", "finding", "read only"}} {
		res := other(args...)
		if res.status == 0 || !strings.Contains(res.stderr, filepath.Join(gitDir, "omh-journal")+" cannot be written") ||
			strings.Contains(res.stderr, "left half done") || strings.Contains(res.stderr, "omh recover finishes") {
			t.Errorf("omh %s in a read-only repository: exit %d\n%s", strings.Join(args, " "), res.status, res.stderr)
		}
	}
	if res := other("recover"); res.status != 0 || res.stdout != "finished \"\" undone \"\"\n" {
		t.Errorf("recover in a read-only repository: exit %d\n%s%s", res.status, res.stdout, res.stderr)
	}
	if res := other("index"); res.status != 0 {
		t.Errorf("a read in a read-only repository: exit %d\n%s", res.status, res.stderr)
	}
	if after := storeState(t, r); after != before {
		t.Errorf("commands in a read-only repository changed the store:\n%s\n--- before:\n%s", after, before)
	}
}

// An mv in a working tree the user cannot write, with a journal the user
// can, fails at its first note and is undone: the error says so, and does
// not send the user to omh recover, which has nothing to finish. Catches:
// "omh recover finishes the change once the cause is fixed" when nothing
// was pending.
func TestAFailedMvThatWasUndoneSaysSoNotThatRecoverFinishesIt(t *testing.T) {
	t.Parallel()
	r := hubRepo(t)
	other := asAnotherUser(t, r)
	journalDir := filepath.Join(r.Dir, ".git", "omh-journal")
	if err := os.MkdirAll(journalDir, 0o777); err != nil {
		t.Fatal(err)
	}
	vaulttest.WriteFile(t, filepath.Join(journalDir, "lock"), "")
	// git's folder too, so that the mv may take git's index lock.
	for path, mode := range map[string]fs.FileMode{journalDir: 0o777, filepath.Join(journalDir, "lock"): 0o666, filepath.Join(r.Dir, ".git"): 0o777} {
		if err := os.Chmod(path, mode); err != nil {
			t.Fatal(err)
		}
	}
	if os.Geteuid() != 0 {
		for _, d := range []string{r.Dir, filepath.Join(r.Dir, "notes")} {
			if err := os.Chmod(d, 0o555); err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { os.Chmod(d, 0o755) })
		}
	}
	before := storeState(t, r)
	res := other("mv", "hub", "centre/hub")
	if res.status == 0 || !strings.Contains(res.stderr, "permission denied") || !strings.Contains(res.stderr, "the change was undone, nothing was renamed") ||
		strings.Contains(res.stderr, "omh recover") {
		t.Errorf("mv in a working tree the user cannot write: exit %d\n%s", res.status, res.stderr)
	}
	if res := other("recover"); res.status != 0 || res.stdout != "finished \"\" undone \"\"\n" {
		t.Errorf("recover after the undone mv: exit %d\n%s%s", res.status, res.stdout, res.stderr)
	}
	if after := storeState(t, r); after != before {
		t.Errorf("the failed mv changed the store:\n%s\n--- before:\n%s", after, before)
	}
}
