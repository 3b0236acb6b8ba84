package store

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/omh-notes/omh/vault/vaulttest"
)

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
	t.Parallel()
	r := promoteRepo(t)
	// git's index lock, once taken below, is never let go: no wait.
	s := openWith(t, r.Dir, Options{LockWait: time.Millisecond})
	if _, err := s.Index(false); err != nil { // the cache exists before the first state is taken
		t.Fatal(err)
	}
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
			if _, err := s.Promote(c.keys); code(err) != c.code || !strings.Contains(err.Error(), c.says) {
				t.Errorf("%v, want a refusal coded %s saying %s", err, c.code, c.says)
			}
			sameWriteState(t, c.name, before, writeStateOf(t, r))
		})
	}
	// Another git process holds the index: nothing is written, and its
	// lock is left to it.
	lock := filepath.Join(r.Dir, ".git", "index.lock")
	vaulttest.WriteFile(t, lock, "")
	before := writeStateOf(t, r)
	if _, err := s.Promote([]string{"surprise/alone", "surprise/pair-one", "surprise/pair-two"}); code(err) != "git_busy" || !strings.Contains(err.Error(), "index.lock") {
		t.Errorf("%v", err)
	}
	sameWriteState(t, "git's index locked", before, writeStateOf(t, r))
	if _, err := os.Lstat(lock); err != nil {
		t.Errorf("the other process's index.lock was removed: %v", err)
	}
	os.Remove(lock)
	// The index entry case: staged, then deleted from the working tree.
	r.Write(".omh/notes/surprise/alone.md", "# staged elsewhere\n")
	r.Git("add", ".omh/notes/surprise/alone.md")
	r.Remove(".omh/notes/surprise/alone.md")
	before = writeStateOf(t, r)
	if _, err := s.Promote([]string{"surprise/alone"}); code(err) != "key_taken" || !strings.Contains(err.Error(), "index") {
		t.Errorf("%v", err)
	}
	sameWriteState(t, "staged path", before, writeStateOf(t, r))
}

// A promotion moves each note to the same key under the notes root, stages
// it, removes the private copy (and folders it leaves empty), and gives a
// commit command that commits exactly these files. Notes linking to each
// other move together. Catches: a note left in both places, a note not
// staged, a commit command that sweeps other staged changes in.
func TestPromoteMovesStagesAndPrintsTheCommit(t *testing.T) {
	t.Parallel()
	r := promoteRepo(t)
	private := vaulttest.Read(t, filepath.Join(r.Private, "surprise", "pair-one.md"))
	s, _ := open(t, r.Dir)
	rep, err := s.Promote([]string{"surprise/pair-one", "pair-two", "alone"})
	if err != nil {
		t.Fatal(err)
	}
	var moved []string
	for _, p := range rep.Promoted {
		moved = append(moved, p.Key+" -> "+p.To)
	}
	if want := []string{"surprise/pair-one -> .omh/notes/surprise/pair-one.md", "surprise/pair-two -> .omh/notes/surprise/pair-two.md",
		"surprise/alone -> .omh/notes/surprise/alone.md"}; !slices.Equal(moved, want) {
		t.Errorf("promoted %q, want %q", moved, want)
	}
	for _, key := range []string{"surprise/pair-one", "surprise/pair-two", "surprise/alone"} {
		if _, err := os.Stat(filepath.Join(r.Private, filepath.FromSlash(key)+".md")); err == nil {
			t.Errorf("%s is still private", key)
		}
	}
	if got := vaulttest.Read(t, filepath.Join(r.Dir, ".omh", "notes", "surprise", "pair-one.md")); got != private {
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
	// Run the command: it commits the notes and nothing else (the staged
	// .gitignore stays staged).
	cmd := exec.Command("sh", "-c", rep.Commit)
	cmd.Dir = r.Dir
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%s: %v %s", rep.Commit, err, b)
	}
	if left := r.Git("diff", "--cached", "--name-only"); left != ".gitignore" {
		t.Errorf("after the commit, staged: %q", left)
	}
	if shown, err := s.Show("surprise/pair-one", Scope{}, Lines{}, DefaultShowChars); err != nil || len(shown.Notes) != 1 || shown.Notes[0].Layer != "team" {
		t.Errorf("%+v %v", shown, err)
	}
	if lint, err := s.Lint([]string{"surprise/pair-one", "surprise/pair-two"}, false); err != nil || len(lint.Findings) != 0 {
		t.Errorf("%+v %v", lint, err)
	}
}

// The links promote checks are read by the vault's dialect: in Dendron
// the note follows the label, so [[see|ideas.two]] leaves ideas.two
// behind on this machine.
func TestPromoteReadsLinksByTheVaultsDialect(t *testing.T) {
	t.Parallel()
	r := vaulttest.New(t)
	r.Write(".omh/config.yaml", "dialect: dendron\n")
	r.Write("team.md", "# Team\n")
	r.Commit("2026-01-02T10:00:00Z", "team")
	vaulttest.WriteFile(t, filepath.Join(r.Private, "ideas.one.md"), "# One\n\n[[see|ideas.two]]\n")
	vaulttest.WriteFile(t, filepath.Join(r.Private, "ideas.two.md"), "# Two\n")
	s, _ := open(t, r.Dir)
	if _, err := s.Promote([]string{"ideas.one"}); code(err) != "links_local" || !strings.Contains(err.Error(), "ideas.two") {
		t.Errorf("%v", err)
	}
}
