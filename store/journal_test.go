package store_test

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/omh-notes/omh/journal"
	"github.com/omh-notes/omh/vault/disk"
	"github.com/omh-notes/omh/vault/vaulttest"
)

// crashStatus is the status journal.CrashEnv makes a change exit with.
const crashStatus = 99

// storeState is everything a writing command may change, as one string to
// compare: every file and folder of the working tree (git's folder left
// out but for its hooks), of the private folder, git's index entries, and
// a change left unfinished.
func storeState(t *testing.T, r *vaulttest.Repo) string {
	t.Helper()
	var lines []string
	walk := func(label, root string, skip func(rel string) bool) {
		filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return nil
			}
			rel, _ := filepath.Rel(root, path)
			if skip(rel) {
				if d.IsDir() {
					return filepath.SkipDir
				}
				return nil
			}
			fi, err := os.Lstat(path)
			if err != nil {
				return nil
			}
			content := ""
			switch {
			case d.IsDir():
			case fi.Mode()&fs.ModeSymlink != 0:
				content, _ = os.Readlink(path)
			default:
				b, _ := os.ReadFile(path)
				content = string(b)
			}
			lines = append(lines, fmt.Sprintf("%s %s %v %q", label, rel, fi.Mode(), content))
			return nil
		})
	}
	walk("tree", r.Dir, func(rel string) bool {
		return rel == ".git/omh" || rel == ".git/objects" || rel == ".git/logs" || rel == ".git/index" ||
			(strings.HasPrefix(rel, ".git/") && !strings.HasPrefix(rel, ".git/hooks")) || strings.HasSuffix(rel, ".sample")
	})
	// No change is left to finish, and nothing a change that never began
	// prepared is left either: the journal holds its lock alone.
	entries, _ := os.ReadDir(filepath.Join(r.Dir, ".git", "omh-journal"))
	for _, e := range entries {
		if e.Name() != "lock" {
			lines = append(lines, "journal "+e.Name())
		}
	}
	// Nor is git kept from its index: no lock, no copy staged through.
	for _, name := range []string{"index.lock", "index.omh", "index.omh.lock"} {
		if _, err := os.Lstat(filepath.Join(r.Dir, ".git", name)); err == nil {
			lines = append(lines, "git "+name)
		}
	}
	walk("private", r.Private, func(string) bool { return false })
	sort.Strings(lines)
	return strings.Join(lines, "\n") + "\nindex:\n" + r.Git("ls-files", "--stage")
}

// killLoop runs the change args names (see runHelper) once, then for k =
// 1, 2, … restores the store as it was before, runs the change in a
// helper process with a crash injected before its k-th journal step, and
// opens the store for its status (the next command, which finishes what
// the crash left): the store must then be exactly as before the change or
// as the change leaves it when nothing crashes, never between, with
// nothing left in the journal. It stops at the first k the change
// completes.
func killLoop(t *testing.T, r *vaulttest.Repo, args ...string) {
	t.Helper()
	restore, before, after := changeOnce(t, r, args...)
	completed, asBefore, asAfter := 0, 0, 0
	for k := 1; completed == 0; k++ {
		if k > 5000 {
			t.Fatal("no run completed in 5000 steps")
		}
		restore()
		res := omhProc(t, r.Dir, []string{fmt.Sprintf("%s=%d", journal.CrashEnv, k)}, args...)
		switch res.status {
		case 0:
			completed = k
		case crashStatus:
		default:
			t.Fatalf("k=%d: omh %s exited %d: %s", k, strings.Join(args, " "), res.status, res.stderr)
		}
		statusOf(t, r.Dir) // the next command; it fails the test when it fails
		switch got := storeState(t, r); got {
		case before:
			asBefore++
		case after:
			asAfter++
		default:
			t.Fatalf("k=%d: after the crash and the next command the store is neither as before nor as after:\n%s\n--- before:\n%s\n--- after:\n%s", k, got, before, after)
		}
	}
	if completed < 3 || asBefore == 0 || asAfter < 2 {
		t.Fatalf("completed at k=%d with %d rounds left as before and %d as after: the crash points were not reached", completed, asBefore, asAfter)
	}
	t.Logf("omh %s: crashed before each of %d steps (%d left the store as before, %d as after), then completed", strings.Join(args, " "), completed-1, asBefore, asAfter-1)
}

// changeOnce keeps a copy of the store, runs the change args names once,
// and returns what puts the store back as it was, and the store's state
// before and after the change, which must change something.
func changeOnce(t *testing.T, r *vaulttest.Repo, args ...string) (restore func(), before, after string) {
	t.Helper()
	restore = saveStore(t, r)
	before = storeState(t, r)
	if res := omhProc(t, r.Dir, nil, args...); res.status != 0 {
		t.Fatalf("omh %s: exit %d: %s", strings.Join(args, " "), res.status, res.stderr)
	}
	after = storeState(t, r)
	if after == before {
		t.Fatalf("omh %s changed nothing", strings.Join(args, " "))
	}
	return restore, before, after
}

// saveStore keeps a copy of the repository and its private folder, and
// returns what puts them back as they are now.
func saveStore(t *testing.T, r *vaulttest.Repo) (restore func()) {
	t.Helper()
	if err := os.MkdirAll(r.Private, 0o755); err != nil {
		t.Fatal(err)
	}
	saved := t.TempDir()
	savedRepo, savedPrivate := filepath.Join(saved, "repo"), filepath.Join(saved, "private")
	vaulttest.CopyTree(t, r.Dir, savedRepo)
	vaulttest.CopyTree(t, r.Private, savedPrivate)
	return func() {
		for _, d := range []string{r.Dir, r.Private} {
			entries, _ := os.ReadDir(d)
			for _, e := range entries {
				if err := os.RemoveAll(filepath.Join(d, e.Name())); err != nil {
					t.Fatal(err)
				}
			}
		}
		vaulttest.CopyTree(t, savedRepo, r.Dir)
		vaulttest.CopyTree(t, savedPrivate, r.Private)
	}
}

// faultLoop runs the change args names once, then for k = 1, 2, …
// restores the store, runs the change with its k-th folder sync failing
// with EIO (as a failing disk's would), and then the next command. The
// change must fail (exit non-zero) saying what is true: that omh recover
// finishes it only while the journal holds it; and once the next command
// ran, the store must be as before or as after, never between. It stops
// at the first k the change completes (it makes fewer syncs).
func faultLoop(t *testing.T, r *vaulttest.Repo, args ...string) {
	t.Helper()
	restore, before, after := changeOnce(t, r, args...)
	failed := 0
	for k := 1; ; k++ {
		if k > 1000 {
			t.Fatal("no run completed in 1000 syncs")
		}
		restore()
		res := omhProc(t, r.Dir, []string{fmt.Sprintf("%s=%d", disk.SyncFaultEnv, k)}, args...)
		if res.status == 0 && k == 1 {
			t.Fatalf("omh %s exited 0 with its first folder sync failing", strings.Join(args, " "))
		}
		if res.status == 0 {
			break
		}
		failed++
		pending := journal.Pending(filepath.Join(r.Dir, ".git"))
		if says := strings.Contains(res.stderr, "omh recover"); says != pending {
			t.Errorf("k=%d: with a change pending %v, omh %s said %q", k, pending, strings.Join(args, " "), res.stderr)
		}
		if !strings.Contains(res.stderr, "input/output error") {
			t.Errorf("k=%d: the failure does not say what failed: %q", k, res.stderr)
		}
		statusOf(t, r.Dir)
		if got := storeState(t, r); got != before && got != after {
			t.Fatalf("k=%d: after the failed sync and the next command the store is neither as before nor as after:\n%s\n--- before:\n%s\n--- after:\n%s", k, got, before, after)
		}
	}
	t.Logf("omh %s: each of its %d folder syncs failed in turn, each run reported it and left the store whole", strings.Join(args, " "), failed)
}

// Every folder sync of omh mv and omh promote that fails (a disk's EIO)
// fails the command, with the store left as before or finished by the
// next command, and the message sends the user to omh recover only when a
// change waits there. Catches: an EIO on the journal folder's fsync that
// left mv exiting 0; "omh recover finishes the change" after a failure
// writing the manifest, when nothing was pending; a payload removed
// before its note was synced in place.
func TestAFailedFolderSyncFailsTheChangeAndSaysWhatIsTrue(t *testing.T) {
	t.Parallel()
	// Each change has a store of its own: the one mv leaves has hub
	// renamed and uncommitted, which promote refuses to link to.
	store := func() *vaulttest.Repo {
		r := vaulttest.New(t)
		r.Write(".omh/config.yaml", "notes: notes\n")
		r.Write("notes/hub.md", "# Hub\n")
		r.Write("notes/spoke.md", "# Spoke\n\nSee [[hub]].\n")
		r.Commit("2026-01-02T10:00:00Z", "notes")
		vaulttest.WriteFile(t, filepath.Join(r.Private, "mine.md"), "# Mine\n\n[[hub]]\n")
		refresh(t, r.Dir)
		return r
	}
	faultLoop(t, store(), "mv", "hub", "centre/hub")
	faultLoop(t, store(), "promote", "mine")
}

// A crash at any step of omh mv of a hub (links from tracked notes, one
// with unstaged changes, an untracked note and a private note) leaves the
// store as before or as after once the next command ran. Catches: links
// rewritten to a note never renamed; a temporary file in the working
// tree that git add -A would commit; an index entry moved for a file that
// was not; a journal that is never finished; the hub, renamed unchanged
// (linked in place, then its old name removed), left under both names;
// git's index lock left held.
func TestACrashDuringMvLeavesTheStoreAsBeforeOrAfter(t *testing.T) {
	t.Parallel()
	r := vaulttest.New(t)
	r.Write(".omh/config.yaml", "notes: notes\n")
	r.Write("notes/topic/hub.md", "# Hub\n\nThe hub, see [[topic/spoke-1]].\n")
	for i := 1; i <= 4; i++ {
		r.Write(fmt.Sprintf("notes/topic/spoke-%d.md", i), fmt.Sprintf("# Spoke %d\n\nSee [[hub]] and [[topic/hub|the hub]].\n", i))
	}
	r.Commit("2026-01-02T10:00:00Z", "notes")
	r.Write("notes/topic/spoke-2.md", "# Spoke 2\n\nEdited, not staged: [[hub]].\n")
	r.Write("notes/untracked.md", "# Untracked\n\n[[topic/hub]]\n")
	vaulttest.WriteFile(t, filepath.Join(r.Private, "mine.md"), "# Mine\n\n[[hub]]\n")
	refresh(t, r.Dir)
	killLoop(t, r, "mv", "topic/hub", "topic/centre/hub")
}

// The same for a private note renamed with its links.
func TestACrashDuringMvOfAPrivateNoteLeavesItAsBeforeOrAfter(t *testing.T) {
	t.Parallel()
	r := vaulttest.New(t)
	r.Write(".omh/config.yaml", "notes: notes\n")
	r.Write("notes/team.md", "# Team\n\n[[mine/draft]]\n")
	r.Commit("2026-01-02T10:00:00Z", "notes")
	vaulttest.WriteFile(t, filepath.Join(r.Private, "mine", "draft.md"), "# Draft\n\n[[team]]\n")
	vaulttest.WriteFile(t, filepath.Join(r.Private, "other.md"), "# Other\n\n[[draft]]\n")
	refresh(t, r.Dir)
	killLoop(t, r, "mv", "mine/draft", "drafts/renamed")
}

// A crash at any step of omh promote of several notes that link to each
// other leaves them all private or all staged under the notes root.
// Catches: a note in both layers (lint's duplicate-key); a promotion that
// re-running then refuses; a private folder emptied but not removed.
func TestACrashDuringPromoteLeavesTheStoreAsBeforeOrAfter(t *testing.T) {
	t.Parallel()
	r := vaulttest.New(t)
	r.Write(".omh/config.yaml", "notes: notes\n")
	r.Write("notes/team.md", "# Team\n")
	r.Commit("2026-01-02T10:00:00Z", "notes")
	var keys []string
	for i := 1; i <= 4; i++ {
		key := fmt.Sprintf("surprise/s%d", i)
		keys = append(keys, key)
		vaulttest.WriteFile(t, filepath.Join(r.Private, "surprise", fmt.Sprintf("s%d.md", i)), fmt.Sprintf("# S%d\n\n[[team]] [[s%d]]\n", i, i%4+1))
	}
	refresh(t, r.Dir)
	killLoop(t, r, append([]string{"promote"}, keys...)...)
}

// A crash at any step of omh proof retract leaves the record as it was or
// retracted, with no temporary file beside it.
func TestACrashDuringRetractLeavesTheRecordAsBeforeOrAfter(t *testing.T) {
	t.Parallel()
	r := vaulttest.New(t)
	r.Write(".omh/config.yaml", "notes: notes\n")
	r.Write("notes/finding/claim.md", "---\ntype: finding\n---\n# Claim\n\n## Claim\nIt holds.\n")
	r.Commit("2026-01-02T10:00:00Z", "notes")
	refresh(t, r.Dir)
	killLoop(t, r, "retract", "finding/claim", "the run was wrong")
}

// A crash at any step of omh new leaves no note or the whole note, and no
// temporary file in the private folder.
func TestACrashDuringNewLeavesNoNoteOrTheWholeNote(t *testing.T) {
	t.Parallel()
	r := vaulttest.New(t)
	r.Write("team.md", "# Team\n")
	r.Commit("2026-01-02T10:00:00Z", "notes")
	refresh(t, r.Dir)
	killLoop(t, r, "new", "surprise", "The mount fails")
}

// A crash at any step of omh init leaves no config and no hook, or both;
// a user's own hook is chained or left in place, never moved aside with
// no shim running it.
func TestACrashDuringInitLeavesTheRepositoryAsBeforeOrAfter(t *testing.T) {
	t.Parallel()
	r := vaulttest.New(t)
	r.Write("team.md", "# Team\n")
	r.Commit("2026-01-02T10:00:00Z", "notes")
	hook := filepath.Join(r.Dir, ".git", "hooks", "post-commit")
	vaulttest.WriteFile(t, hook, "#!/bin/sh\necho mine\n")
	if err := os.Chmod(hook, 0o755); err != nil {
		t.Fatal(err)
	}
	killLoop(t, r, "init", "notes")
}

// A crash at any step of omh hooks uninstall leaves the shims in place or
// the user's own hook back, never no hook at all.
func TestACrashDuringHooksUninstallLeavesTheHooksAsBeforeOrAfter(t *testing.T) {
	t.Parallel()
	r := vaulttest.New(t)
	r.Write("team.md", "# Team\n")
	r.Commit("2026-01-02T10:00:00Z", "notes")
	hook := filepath.Join(r.Dir, ".git", "hooks", "post-merge")
	vaulttest.WriteFile(t, hook, "#!/bin/sh\necho mine\n")
	if err := os.Chmod(hook, 0o755); err != nil {
		t.Fatal(err)
	}
	installHooks(t, r.Dir)
	killLoop(t, r, "hooks", "uninstall")
}

// The first command of a vault without a config reads it as detected,
// also when that command is a write: a move in an Obsidian vault with no
// .omh/config.yaml renames the note, rewrites the link in Obsidian's way
// and writes no config. Catches: the write command holding the journal
// while the config's own change waited for it, for ever; a config written
// by a command whose job it is not.
func TestAFirstWriteCommandReadsTheVaultAsDetected(t *testing.T) {
	t.Parallel()
	r := vaulttest.New(t)
	r.Write(".obsidian/app.json", "{}\n")
	r.Write("a.md", "# A\n\n[[b]]\n")
	r.Write("b.md", "# B\n")
	r.Commit("2026-01-02T10:00:00Z", "vault")
	s, _ := openStore(t, r.Dir)
	if _, err := s.Move("b", "c"); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(r.Dir, ".omh", "config.yaml")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("omh mv wrote a config: %v", err)
	}
	if got := vaulttest.Read(t, filepath.Join(r.Dir, "a.md")); !strings.Contains(got, "[[c]]") {
		t.Errorf("a.md: %q", got)
	}
}

// workState is a working tree's files (git's folder left out) by path
// relative to dir, git's index entries, and a change left to finish.
func workState(t *testing.T, dir string) string {
	t.Helper()
	var lines []string
	for path, content := range vaulttest.Files(t, dir) {
		rel, err := filepath.Rel(dir, path)
		if err != nil {
			t.Fatal(err)
		}
		if rel != ".git" && !strings.HasPrefix(rel, ".git"+string(filepath.Separator)) {
			lines = append(lines, fmt.Sprintf("%s %q", filepath.ToSlash(rel), content))
		}
	}
	if journal.Pending(filepath.Join(dir, ".git")) {
		lines = append(lines, "journal manifest.json")
	}
	sort.Strings(lines)
	return strings.Join(lines, "\n") + "\nindex:\n" + vaulttest.RunGit(t, dir, "", "ls-files", "--stage").Stdout
}

// copyRepo copies the repository at from to to as cp -a does.
func copyRepo(t *testing.T, from, to string) {
	t.Helper()
	if out, err := exec.Command("cp", "-a", from, to).CombinedOutput(); err != nil {
		t.Fatalf("cp -a: %v\n%s", err, out)
	}
}

// A change a crash left half done in a repository that is then copied
// (cp -a) is finished by the next command in the copy, in the copy; the
// original is left as it was, and its own next command finishes it there.
// Catches: the journal's absolute paths finishing the copy's change in the
// original (8 → 64 changed files there) and stranding the copy.
func TestAChangeLeftHalfDoneFinishesInTheCopyThatRunsIt(t *testing.T) {
	t.Parallel()
	r := hubRepo(t)
	want := filepath.Join(t.TempDir(), "done")
	copyRepo(t, r.Dir, want)
	if res := omhProc(t, want, nil, "mv", "hub", "centre/hub"); res.status != 0 {
		t.Fatalf("mv: %s", res.stderr)
	}
	crashLeavingManifest(t, r, "mv", "hub", "centre/hub")
	halfDone := workState(t, r.Dir)
	cp := filepath.Join(t.TempDir(), "copy")
	copyRepo(t, r.Dir, cp)
	if res := omhProc(t, cp, nil, "status"); res.status != 0 || !strings.Contains(res.stderr, "finished omh mv hub centre/hub") {
		t.Errorf("status in the copy: exit %d\n%s", res.status, res.stderr)
	}
	if got := workState(t, cp); got != workState(t, want) {
		t.Errorf("the copy after its next command:\n%s\n--- want, as mv leaves it:\n%s", got, workState(t, want))
	}
	if got := workState(t, r.Dir); got != halfDone {
		t.Errorf("the copy's command changed the original:\n%s\n--- it was:\n%s", got, halfDone)
	}
	if res := omhProc(t, r.Dir, nil, "status"); res.status != 0 {
		t.Errorf("status in the original: exit %d\n%s", res.status, res.stderr)
	}
	if got := workState(t, r.Dir); got != workState(t, want) {
		t.Errorf("the original after its own next command:\n%s\n--- want:\n%s", got, workState(t, want))
	}
}

// The same for a repository moved to another folder: the change finishes
// where it now is, and nothing is written at the old path. Catches: ~130
// warnings, git update-index failing outside any repository, a note
// recreated at the old path, and a change every later command retried.
func TestAChangeLeftHalfDoneFinishesInTheFolderTheRepositoryMovedTo(t *testing.T) {
	t.Parallel()
	r := hubRepo(t)
	want := filepath.Join(t.TempDir(), "done")
	copyRepo(t, r.Dir, want)
	if res := omhProc(t, want, nil, "mv", "hub", "centre/hub"); res.status != 0 {
		t.Fatalf("mv: %s", res.stderr)
	}
	crashLeavingManifest(t, r, "mv", "hub", "centre/hub")
	moved := filepath.Join(t.TempDir(), "moved")
	if err := os.Rename(r.Dir, moved); err != nil {
		t.Fatal(err)
	}
	res := omhProc(t, moved, nil, "status")
	if res.status != 0 || strings.Count(res.stderr, "\n") != 1 || !strings.Contains(res.stderr, "finished omh mv hub centre/hub") {
		t.Errorf("status in the moved repository: exit %d\n%s", res.status, res.stderr)
	}
	if got := workState(t, moved); got != workState(t, want) {
		t.Errorf("the moved repository after its next command:\n%s\n--- want:\n%s", got, workState(t, want))
	}
	if _, err := os.Lstat(r.Dir); err == nil {
		t.Errorf("something was written at the old path %s", r.Dir)
	}
}

// The next command after a journal was planted with a put to an outside
// file answers, writes nothing there, and says why it leaves the change.
// Catches: omh find writing a planted manifest's file outside the
// repository and saying "finished omh mv a b".
func TestAPlantedJournalIsNotFinishedByTheNextCommand(t *testing.T) {
	t.Parallel()
	r := vaulttest.New(t)
	r.Write("a.md", "# A\n")
	r.Commit("2026-01-02T10:00:00Z", "notes")
	outside := filepath.Join(t.TempDir(), "written.md")
	dir := filepath.Join(r.Dir, ".git", "omh-journal")
	vaulttest.WriteFile(t, filepath.Join(dir, "payload-1"), "planted\n")
	vaulttest.WriteFile(t, filepath.Join(dir, "manifest.json"), fmt.Sprintf(`{"command":"omh mv a b","root":"..","ops":[{"kind":"put","path":%q,"payload":"payload-1","mode":420}]}`, outside))
	res := omhProc(t, r.Dir, nil, "status")
	if res.status != 0 || !strings.Contains(res.stderr, "omh does not finish it") || strings.Contains(res.stderr, "finished omh mv") {
		t.Errorf("status after a planted journal: exit %d\n%s", res.status, res.stderr)
	}
	if _, err := os.Lstat(outside); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the planted put wrote %s: %v", outside, err)
	}
}
