package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/omh-notes/omh/vault"
	"github.com/omh-notes/omh/vault/vaulttest"
)

// writeState is everything a refused command must leave as it was: every
// file of the working tree and the private folder, what git reports, and
// git's index file byte for byte.
type writeState struct {
	files          map[string]string
	status, staged string
	index          string
}

func writeStateOf(t *testing.T, r *vaulttest.Repo) writeState {
	t.Helper()
	// --no-optional-locks keeps git status from refreshing the index file.
	status, err := vault.Git(r.Dir, "", "--no-optional-locks", "status", "--porcelain", "--untracked-files=all")
	if err != nil {
		t.Fatal(err)
	}
	staged, err := vault.Git(r.Dir, "", "--no-optional-locks", "diff", "--cached")
	if err != nil {
		t.Fatal(err)
	}
	index, _ := os.ReadFile(filepath.Join(r.Dir, ".git", "index"))
	return writeState{files: snapshotFiles(t, r.Dir, r.Private), status: status, staged: staged, index: string(index)}
}

func sameWriteState(t *testing.T, what string, before, after writeState) {
	t.Helper()
	if !reflect.DeepEqual(before.files, after.files) {
		t.Errorf("%s: files changed", what)
	}
	if before.status != after.status || before.staged != after.staged {
		t.Errorf("%s: git status or the staged diff changed:\n%s\n%s", what, after.status, after.staged)
	}
	if before.index != after.index {
		t.Errorf("%s: .git/index changed", what)
	}
}

// promoteRepo is a store with team notes, private notes that link to the
// team, to each other and to an uncommitted file.
func promoteRepo(t *testing.T) *vaulttest.Repo {
	r := vaulttest.New(t)
	r.Write(".omh/notes/topic/exports.md", "---\ntype: topic\n---\n# Exports\n")
	r.Write(".omh/notes/finding/shared.md", "# A team finding\n")
	r.Commit("2026-01-02T10:00:00Z", "team")
	r.Write(".omh/notes/draft/uncommitted.md", "# Not committed yet\n")
	for path, content := range map[string]string{
		"surprise/alone.md":         "---\ntype: surprise\n---\n# Alone\n\nSee [[topic/exports]].\n",
		"surprise/pair-one.md":      "# One\n\nSee [[pair-two]] and [[exports]].\n",
		"surprise/pair-two.md":      "# Two\n\nSee [pair one](pair-one.md).\n",
		"finding/shared.md":         "# A private finding with a team key\n",
		"a/dup.md":                  "# Dup A\n",
		"b/dup.md":                  "# Dup B\n",
		"note/to-uncommitted.md":    "# Points at a draft\n\n[[draft/uncommitted]]\n",
		"note/in-the-tree.md":       "# Also in the tree\n",
		"secret/ignored-by-git.md":  "# Ignored\n",
		"note/links-private-dup.md": "# Links a private note\n\n[[a/dup]]\n",
	} {
		vaulttest.WriteFile(t, filepath.Join(r.Private, filepath.FromSlash(path)), content)
	}
	r.Write(".omh/notes/note/in-the-tree.md", "# The tree's own\n")
	r.Write(".gitignore", ".omh/notes/secret/\n")
	r.Git("add", ".gitignore")
	return r
}

// Each refusal leaves the files, git status, the staged diff and git's
// index exactly as they were. Catches: a copy written before a later check
// fails, an index entry added and not taken back, a private note removed
// before staging succeeded.
func TestPromoteRefusesAndChangesNothing(t *testing.T) {
	r := promoteRepo(t)
	ok(t, r.Dir, "index") // the cache exists before the first state is taken
	for _, c := range []struct {
		name string
		keys []string
		code string
		says string
	}{
		{"missing", []string{"surprise/nowhere"}, "not_found", "no private note"},
		{"a team note already", []string{"finding/shared"}, "key_taken", "team note"},
		{"in the working tree already", []string{"note/in-the-tree"}, "key_taken", "working tree"},
		{"ambiguous", []string{"dup"}, "ambiguous", "a/dup, b/dup"},
		{"links to a private note left behind", []string{"note/links-private-dup"}, "links_local", "a/dup"},
		{"links to an uncommitted file", []string{"note/to-uncommitted"}, "links_local", "draft/uncommitted"},
		{"half of a linked pair", []string{"surprise/pair-one"}, "links_local", "surprise/pair-two"},
		{"one bad key spoils the batch", []string{"surprise/alone", "surprise/nowhere"}, "not_found", "nowhere"},
		{"an ignored path", []string{"surprise/alone", "secret/ignored-by-git"}, "ignored", "secret/ignored-by-git"},
	} {
		t.Run(c.name, func(t *testing.T) {
			before := writeStateOf(t, r)
			res := omh(t, r.Dir, append([]string{"--json", "promote"}, c.keys...)...)
			var reply struct {
				Error struct{ Code, Message string }
			}
			json.Unmarshal([]byte(res.stderr), &reply)
			if res.status != exitRefused || reply.Error.Code != c.code || !strings.Contains(reply.Error.Message, c.says) {
				t.Errorf("exit %d %s", res.status, res.stderr)
			}
			sameWriteState(t, c.name, before, writeStateOf(t, r))
		})
	}
	// git add fails (another git process holds the index): the copies are
	// taken back out.
	lock := filepath.Join(r.Dir, ".git", "index.lock")
	vaulttest.WriteFile(t, lock, "")
	before := writeStateOf(t, r)
	if res := omh(t, r.Dir, "promote", "surprise/alone", "surprise/pair-one", "surprise/pair-two"); res.status != exitRefused || !strings.Contains(res.stderr, "index.lock") {
		t.Errorf("exit %d %s", res.status, res.stderr)
	}
	sameWriteState(t, "git add failing", before, writeStateOf(t, r))
	os.Remove(lock)
	// The index entry case: staged, then deleted from the working tree.
	r.Write(".omh/notes/surprise/alone.md", "# staged elsewhere\n")
	r.Git("add", ".omh/notes/surprise/alone.md")
	r.Remove(".omh/notes/surprise/alone.md")
	before = writeStateOf(t, r)
	if res := omh(t, r.Dir, "promote", "surprise/alone"); res.status != exitRefused || !strings.Contains(res.stderr, "index") {
		t.Errorf("exit %d %s", res.status, res.stderr)
	}
	sameWriteState(t, "staged path", before, writeStateOf(t, r))
}

// A promotion moves each note to the same key under the notes root, stages
// it, removes the private copy (and folders it leaves empty), and prints a
// commit command that commits exactly these files. Notes linking to each
// other move together. Catches: a note left in both places, a note not
// staged, a commit command that sweeps other staged changes in.
func TestPromoteMovesStagesAndPrintsTheCommit(t *testing.T) {
	r := promoteRepo(t)
	private := readNoteFile(t, filepath.Join(r.Private, "surprise", "pair-one.md"))
	out := ok(t, r.Dir, "promote", "surprise/pair-one", "pair-two", "alone")
	for _, key := range []string{"surprise/pair-one", "surprise/pair-two", "surprise/alone"} {
		if !strings.Contains(out, "promoted "+key+" -> .omh/notes/"+key+".md") {
			t.Errorf("%s: %s", key, out)
		}
		if _, err := os.Stat(filepath.Join(r.Private, filepath.FromSlash(key)+".md")); err == nil {
			t.Errorf("%s is still private", key)
		}
	}
	if got := readNoteFile(t, filepath.Join(r.Dir, ".omh", "notes", "surprise", "pair-one.md")); got != private {
		t.Errorf("content changed: %q", got)
	}
	if _, err := os.Stat(filepath.Join(r.Private, "surprise")); err == nil {
		t.Error("the emptied private folder surprise/ was kept")
	}
	staged := r.Git("diff", "--cached", "--name-only")
	for _, f := range []string{".omh/notes/surprise/alone.md", ".omh/notes/surprise/pair-one.md", ".omh/notes/surprise/pair-two.md"} {
		if !strings.Contains(staged, f) {
			t.Errorf("%s not staged: %q", f, staged)
		}
	}
	// Run the printed command: it commits the notes and nothing else (the
	// staged .gitignore stays staged).
	line := out[strings.LastIndex(strings.TrimSpace(out), "\n")+1:]
	cmd := exec.Command("sh", "-c", strings.TrimSpace(line))
	cmd.Dir = r.Dir
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%s: %v %s", line, err, b)
	}
	if left := r.Git("diff", "--cached", "--name-only"); left != ".gitignore" {
		t.Errorf("after the commit, staged: %q", left)
	}
	if out := ok(t, r.Dir, "show", "surprise/pair-one"); !strings.HasPrefix(out, "surprise/pair-one  team · ") {
		t.Errorf("%s", out)
	}
	if out := ok(t, r.Dir, "lint", "surprise/pair-one", "surprise/pair-two"); !strings.Contains(out, "no problems") {
		t.Errorf("%s", out)
	}
}
