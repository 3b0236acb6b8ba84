package journal

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/omh-notes/omh/vault/gitrepo"
	"github.com/omh-notes/omh/vault/vaulttest"
)

func read(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		return "<" + err.Error() + ">"
	}
	return string(b)
}

func id(s string) plumbing.Hash { return gitrepo.HashBytes([]byte(s)) }

// begin starts a change in the repository r with a warning collector.
func begin(t *testing.T, r *vaulttest.Repo, warnings *[]string) *Txn {
	t.Helper()
	tx, err := Begin(filepath.Join(r.Dir, ".git"), r.Dir, r.Private, "test change", func(m string) { *warnings = append(*warnings, m) })
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(tx.Close)
	return tx
}

// A file that changed between reading it and committing stops the whole
// change before anything is written; a new file whose name was taken
// meanwhile is fs.ErrExist. Catches: a change made over an edit the user
// just saved; a create that replaces a file.
func TestCommitRefusesWhenAFileChangedAndChangesNothing(t *testing.T) {
	t.Parallel()
	r := vaulttest.New(t)
	a, b := filepath.Join(r.Dir, "a.md"), filepath.Join(r.Dir, "b.md")
	r.Write("a.md", "edited meanwhile\n")
	var warnings []string
	tx := begin(t, r, &warnings)
	if err := tx.Put(a, id("as read\n"), []byte("new a\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := tx.Put(b, plumbing.ZeroHash, []byte("new b\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := tx.Commit(); !errors.Is(err, ErrChanged) || !strings.Contains(err.Error(), a) {
		t.Errorf("Commit = %v, want ErrChanged naming %s", err, a)
	}
	if got := read(t, a); got != "edited meanwhile\n" {
		t.Errorf("a.md = %q", got)
	}
	if _, err := os.Lstat(b); err == nil {
		t.Error("b.md was written although the change was refused")
	}
	tx.Close()

	tx = begin(t, r, &warnings)
	r.Write("b.md", "someone else's\n")
	if err := tx.Put(b, plumbing.ZeroHash, []byte("new b\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := tx.Commit(); !errors.Is(err, fs.ErrExist) {
		t.Errorf("Commit = %v, want fs.ErrExist", err)
	}
	if got := read(t, b); got != "someone else's\n" {
		t.Errorf("b.md = %q", got)
	}
	tx.Close()
	if entries, _ := os.ReadDir(tx.dir); len(entries) != 1 {
		t.Errorf("the journal holds %d files after two refused changes, want only its lock", len(entries))
	}
}

// A step that fails after the manifest was written (git refusing to stage)
// undoes every step before it: replaced files get their old bytes and
// mode back, new files and folders go, removed files come back. Catches: a
// change left half made when git fails; an undo that loses a file's mode.
func TestAFailingGitStepUndoesTheChange(t *testing.T) {
	t.Parallel()
	r := vaulttest.New(t)
	r.Write("old.md", "old\n")
	r.Write("gone.md", "gone\n")
	if err := os.Chmod(filepath.Join(r.Dir, "old.md"), 0o600); err != nil {
		t.Fatal(err)
	}
	r.Commit("2026-01-02T10:00:00Z", "files")
	before := vaulttest.Tree(t, r.Dir)
	delete(before, filepath.Join(r.Dir, ".git", "index"))
	var warnings []string
	tx := begin(t, r, &warnings)
	if err := tx.Put(filepath.Join(r.Dir, "old.md"), id("old\n"), []byte("new\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := tx.Put(filepath.Join(r.Dir, "deep", "er", "new.md"), plumbing.ZeroHash, []byte("new\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tx.Remove(filepath.Join(r.Dir, "gone.md"), id("gone\n"), "")
	// git add refuses a path that matches no file.
	tx.Add("old.md", "deep/er/new.md", "no/such.md")
	err := tx.Commit()
	if !IsGit(err) || !strings.Contains(err.Error(), "no/such.md") {
		t.Fatalf("Commit = %v, want git's failure", err)
	}
	after := vaulttest.Tree(t, r.Dir)
	delete(after, filepath.Join(r.Dir, ".git", "index"))
	for p := range after {
		if strings.HasPrefix(p, filepath.Join(r.Dir, ".git")) {
			delete(after, p)
			delete(before, p)
		}
	}
	vaulttest.SameTree(t, "after the undo", before, after)
	if _, err := os.Lstat(filepath.Join(r.Dir, "deep")); err == nil {
		t.Error("the folder made for the new file stayed")
	}
	if _, err := os.Stat(filepath.Join(tx.dir, manifestName)); err == nil {
		t.Error("the manifest stayed after the undo")
	}
	for _, name := range []string{"index.lock", "index.omh"} {
		if _, err := os.Lstat(filepath.Join(r.Dir, ".git", name)); err == nil {
			t.Errorf(".git/%s stayed after the undo: git is locked out of its index", name)
		}
	}
}

// A change a dead process left after its manifest was written is finished
// by the next Begin (or Recover); a file the user changed in between is
// left as the user made it, with a warning naming it, and the rest is
// finished. Catches: recovery that overwrites an edit made after the
// crash; recovery that stops at the first surprise.
func TestALeftChangeIsFinishedAroundAFileChangedSince(t *testing.T) {
	t.Parallel()
	r := vaulttest.New(t)
	r.Write("a.md", "a\n")
	r.Write("b.md", "b\n")
	var warnings []string
	tx := begin(t, r, &warnings)
	for _, name := range []string{"a.md", "b.md"} {
		if err := tx.Put(filepath.Join(r.Dir, name), id(strings.TrimSuffix(name, ".md")+"\n"), []byte("new "+name+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// What Commit does up to the point of no return, then the process
	// "dies": its lock goes, its manifest stays.
	for i := range tx.m.Ops {
		if err := tx.backUp(&tx.m.Ops[i]); err != nil {
			t.Fatal(err)
		}
	}
	if err := writeManifest(tx.dir, tx.m); err != nil {
		t.Fatal(err)
	}
	tx.lock.Close()
	tx.lock = nil
	if !Pending(filepath.Join(r.Dir, ".git")) {
		t.Fatal("Pending does not see the manifest")
	}
	r.Write("b.md", "the user's edit\n")

	cmd, err := Recover(filepath.Join(r.Dir, ".git"), r.Private, false, func(m string) { warnings = append(warnings, m) })
	if err != nil || cmd != "test change" {
		t.Fatalf("Recover = %q, %v", cmd, err)
	}
	if got := read(t, filepath.Join(r.Dir, "a.md")); got != "new a.md\n" {
		t.Errorf("a.md = %q, want the change finished", got)
	}
	if got := read(t, filepath.Join(r.Dir, "b.md")); got != "the user's edit\n" {
		t.Errorf("b.md = %q, want the user's edit kept", got)
	}
	if len(warnings) != 1 || !strings.Contains(warnings[0], "b.md") {
		t.Errorf("warnings %q, want one naming b.md", warnings)
	}
	if Pending(filepath.Join(r.Dir, ".git")) {
		t.Error("the manifest stayed after recovery")
	}
}

// What a process killed before its manifest was written prepared (payloads,
// manifest.tmp) is thrown away by the next command, not left until the
// next write; while another process holds the journal, its files are left
// to it. Catches: up to 140 payload files and manifest.tmp staying in
// .git/omh-journal after a kill until the next write command.
func TestFilesAKilledChangePreparedGoAtTheNextCommand(t *testing.T) {
	t.Parallel()
	r := vaulttest.New(t)
	commonDir := filepath.Join(r.Dir, ".git")
	var warnings []string
	tx := begin(t, r, &warnings)
	for i := 0; i < 3; i++ {
		if err := tx.Put(filepath.Join(r.Dir, fmt.Sprintf("n%d.md", i)), plumbing.ZeroHash, []byte("new\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := writeNew(filepath.Join(tx.dir, "manifest.tmp"), []byte("{"), 0o644, false); err != nil {
		t.Fatal(err)
	}
	if cmd, err := Recover(commonDir, r.Private, false, nil); err != nil || cmd != "" {
		t.Fatalf("Recover while the change is being prepared = %q, %v", cmd, err)
	}
	if entries, _ := os.ReadDir(tx.dir); len(entries) != 5 {
		t.Errorf("the journal holds %d files while another process prepares a change, want its lock, 3 payloads and manifest.tmp", len(entries))
	}
	// The process dies: its lock goes, its files stay.
	tx.lock.Close()
	tx.lock = nil
	if !Pending(commonDir) {
		t.Error("Pending does not see what the dead process prepared")
	}
	if cmd, err := Recover(commonDir, r.Private, false, nil); err != nil || cmd != "" {
		t.Fatalf("Recover = %q, %v", cmd, err)
	}
	if entries, _ := os.ReadDir(tx.dir); len(entries) != 1 {
		t.Errorf("the journal holds %d files after the next command, want only its lock", len(entries))
	}
	if Pending(commonDir) {
		t.Error("Pending after the files were thrown away")
	}
}

// A rename never replaces a file; undone (a git step failing), it puts
// the file back under its old name in the folder it pruned and removes the
// folders it made; left by a crash with the file under both names, it is
// finished by removing the old one. Catches: a moved note copied whole
// into the journal (a 500 MB note: 10 s, 1 GB); a rename over a file
// taken meanwhile; a crash between linking and removing that leaves the
// note twice.
func TestARenameNeverReplacesIsUndoneWithItsFoldersAndFinishesFromBothNames(t *testing.T) {
	t.Parallel()
	r := vaulttest.New(t)
	r.Write("old/deep/note.md", "the note\n")
	r.Write("taken.md", "someone else's\n")
	from, to := filepath.Join(r.Dir, "old", "deep", "note.md"), filepath.Join(r.Dir, "new", "er", "note.md")
	var warnings []string

	tx := begin(t, r, &warnings)
	tx.Rename(from, filepath.Join(r.Dir, "taken.md"), r.Dir)
	if err := tx.Commit(); !errors.Is(err, fs.ErrExist) {
		t.Errorf("a rename onto a taken name: %v, want fs.ErrExist", err)
	}
	tx.Close()
	if read(t, filepath.Join(r.Dir, "taken.md")) != "someone else's\n" || read(t, from) != "the note\n" {
		t.Error("the refused rename changed a file")
	}

	tx = begin(t, r, &warnings)
	tx.Rename(from, to, r.Dir)
	tx.Add("no/such.md") // git add refuses it: the rename is undone
	if err := tx.Commit(); !IsGit(err) || !IsUndone(err) {
		t.Fatalf("Commit = %v, want git's failure, undone", err)
	}
	tx.Close()
	if read(t, from) != "the note\n" {
		t.Errorf("after the undo the note is %q", read(t, from))
	}
	if _, err := os.Lstat(filepath.Join(r.Dir, "new")); err == nil {
		t.Error("the folders made for the new name stayed after the undo")
	}

	// A crash after the link, before the old name went.
	tx = begin(t, r, &warnings)
	tx.Rename(from, to, r.Dir)
	if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := writeManifest(tx.dir, tx.m); err != nil {
		t.Fatal(err)
	}
	if err := os.Link(from, to); err != nil {
		t.Fatal(err)
	}
	tx.lock.Close()
	tx.lock = nil
	if cmd, err := Recover(filepath.Join(r.Dir, ".git"), r.Private, true, nil); err != nil || cmd != "test change" {
		t.Fatalf("Recover = %q, %v", cmd, err)
	}
	if read(t, to) != "the note\n" {
		t.Errorf("the renamed note holds %q", read(t, to))
	}
	if _, err := os.Lstat(filepath.Join(r.Dir, "old")); err == nil {
		t.Error("the old name or its emptied folders stayed")
	}
}

// A manifest planted in the journal (by anyone who can write git's folder)
// is finished only when it writes nowhere but the repository's working
// tree, its hooks and the private folder: one naming an outside file, a
// root that is no working tree of the clone, a payload outside the
// journal, a file in .git, or a folder that is a link out is neither
// finished nor removed, and nothing outside changes. Catches: the next omh
// find writing a planted put to an outside path ("finished omh mv a b").
func TestAPlantedJournalWritesNothingOutside(t *testing.T) {
	t.Parallel()
	r := vaulttest.New(t)
	r.Write("a.md", "# A\n")
	r.Commit("2026-01-02T10:00:00Z", "notes")
	commonDir := filepath.Join(r.Dir, ".git")
	outside := t.TempDir()
	vaulttest.WriteFile(t, filepath.Join(outside, "secret"), "kept outside\n")
	if err := os.Symlink(outside, filepath.Join(r.Dir, "linked")); err != nil {
		t.Fatal(err)
	}
	payload := "planted\n"
	put := func(path string) string {
		return fmt.Sprintf(`{"kind":"put","path":%q,"after":%q,"payload":"payload-1","mode":420}`, path, id(payload))
	}
	cases := map[string]string{
		"a put to an outside file":       `{"command":"omh mv a b","root":"..","ops":[` + put(filepath.Join(outside, "written.md")) + `]}`,
		"a root that is no working tree": `{"command":"omh mv a b","root":` + fmt.Sprintf("%q", outside) + `,"ops":[` + put("written.md") + `]}`,
		"a put into git's folder":        `{"command":"omh mv a b","root":"..","ops":[` + put(".git/config.md") + `]}`,
		"a put through a linked folder":  `{"command":"omh mv a b","root":"..","ops":[` + put("linked/written.md") + `]}`,
		"a move of an outside file in":   `{"command":"omh mv a b","root":"..","ops":[{"kind":"move","from":` + fmt.Sprintf("%q", filepath.Join(outside, "secret")) + `,"path":"stolen.md"}]}`,
		"a payload outside the journal":  `{"command":"omh mv a b","root":"..","ops":[{"kind":"put","path":"stolen.md","after":"` + id("kept outside\n").String() + `","payload":"../../../` + filepath.Base(outside) + `/secret","mode":420}]}`,
	}
	dir := filepath.Join(commonDir, "omh-journal")
	vaulttest.WriteFile(t, filepath.Join(dir, "lock"), "")
	for name, m := range cases {
		vaulttest.WriteFile(t, filepath.Join(dir, "payload-1"), payload)
		vaulttest.WriteFile(t, filepath.Join(dir, manifestName), m)
		beforeOutside, beforeTree := vaulttest.Tree(t, outside), vaulttest.Tree(t, r.Dir)
		cmd, err := Recover(commonDir, r.Private, false, nil)
		if err == nil || !strings.Contains(err.Error(), "omh does not finish it") {
			t.Errorf("%s: Recover = %q, %v; want it refused", name, cmd, err)
		}
		vaulttest.SameTree(t, name+": outside", beforeOutside, vaulttest.Tree(t, outside))
		vaulttest.SameTree(t, name+": the repository", beforeTree, vaulttest.Tree(t, r.Dir))
		if !Pending(commonDir) {
			t.Errorf("%s: the planted manifest was removed; it stays for someone to look at", name)
		}
	}
}
