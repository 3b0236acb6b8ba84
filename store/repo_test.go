package store_test

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/omh-notes/omh/retrieve"
	"github.com/omh-notes/omh/store"
	"github.com/omh-notes/omh/vault/gitrepo"
	"github.com/omh-notes/omh/vault/vaulttest"
)

// The tests of this file's package prove the store's properties through
// its use cases, as a front end calls them: each opens the store as a new
// omh process would, and reads answers and statuses by their fields or, to
// compare two stores byte for byte, by their renderings.

// openStore opens the store at dir for one test; its notes for people are
// collected.
func openStore(t testing.TB, dir string) (*store.Store, *[]string) {
	t.Helper()
	var warnings []string
	s, err := store.Open(dir, options(func(msg string) { warnings = append(warnings, msg) }))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s, &warnings
}

// options are a test's store options: warnings go to warn, and a hook run
// in the test's process detaches the helper omh, never the test binary.
func options(warn func(string)) store.Options {
	return store.Options{Warn: warn, Background: func(args ...string) error { return store.Detach(omhBin, args...) }}
}

// question is a question asked as omh find asks it by default: eight
// roots, cards of 6,000 characters.
func question(text string) store.Question {
	return store.Question{Phrasings: []string{text}, Roots: 8, MaxChars: 6000, Ranker: retrieve.DefaultRanker, Cards: true}
}

// withRoots is q with n ranked notes.
func withRoots(q store.Question, n int) store.Question {
	q.Roots = n
	return q
}

// everything is a question every note of the fixtures answers, in full: it
// pins each note's key, layer, date and links at once.
var everything = withRoots(question("memory"), 100)

// rendered is an answer as omh find prints it, as a tree, as cards and as
// JSON, in one string: two stores that answer alike render alike.
func rendered(t testing.TB, a store.Answer) string {
	t.Helper()
	s, err := render(a)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func render(a store.Answer) (string, error) {
	b, err := json.MarshalIndent(a.JSON(), "", "  ")
	return a.Tree() + "--- cards\n" + a.Cards() + "--- json\n" + string(b) + "\n", err
}

// askAll opens the store at dir and asks it each question, returning each
// answer rendered.
func askAll(t testing.TB, dir string, questions ...store.Question) []string {
	t.Helper()
	s, _ := openStore(t, dir)
	var out []string
	for _, q := range questions {
		a, err := s.Ask(q)
		if err != nil {
			t.Fatalf("asking %q in %s: %v", q.Phrasings, dir, err)
		}
		out = append(out, rendered(t, a))
	}
	return out
}

// ask opens the store at dir, asks it q and returns the answer rendered
// and the notes for people it gave.
func ask(t testing.TB, dir string, q store.Question) (string, []string) {
	t.Helper()
	answer, warnings, err := find(dir, q)
	if err != nil {
		t.Fatalf("asking %q in %s: %v", q.Phrasings, dir, err)
	}
	return answer, warnings
}

// answerCommit is the commit a rendered answer states, in its tree's last
// line and in its JSON; it fails the test when the two disagree.
func answerCommit(t testing.TB, answer string) string {
	t.Helper()
	tree, rest, _ := strings.Cut(answer, "--- cards\n")
	_, js, _ := strings.Cut(rest, "--- json\n")
	var reply struct{ Commit *string }
	if err := json.Unmarshal([]byte(js), &reply); err != nil {
		t.Fatalf("the JSON reply does not decode: %v\n%s", err, js)
	}
	commit := ""
	if reply.Commit != nil {
		commit = *reply.Commit
	}
	if !strings.HasSuffix(tree, "\n@ "+commit+"\n") {
		t.Errorf("the tree does not end at @ %s, the commit its JSON reply states:\n%s", commit, tree)
	}
	return commit
}

// state is what the tests read of a store's status.
type state struct {
	Fresh         bool
	Indexed, Head string // "" for none
	Team, Local   int
	Skipped       []string
	NotesRoot     string
	Shallow       bool
	Parsed        int // blobs the last refresh parsed
}

// statusOf opens the store at dir and reads its status, changing nothing.
func statusOf(t testing.TB, dir string) state {
	t.Helper()
	s, _ := openStore(t, dir)
	st, err := s.Status()
	if err != nil {
		t.Fatal(err)
	}
	deref := func(p *string) string {
		if p == nil {
			return ""
		}
		return *p
	}
	return state{Fresh: st.Fresh, Indexed: deref(st.Indexed), Head: deref(st.Head), Team: st.Notes.Team, Local: st.Notes.Local,
		Skipped: st.Skipped, NotesRoot: st.NotesRoot, Shallow: st.Shallow, Parsed: st.Parsed}
}

// refresh brings the store at dir up to date as omh index does, waiting
// for any refresh in progress.
func refresh(t testing.TB, dir string) {
	t.Helper()
	s, _ := openStore(t, dir)
	if _, err := s.Index(false); err != nil {
		t.Fatalf("indexing %s: %v", dir, err)
	}
}

// installHooks installs omh's hooks as omh hooks install does.
func installHooks(t testing.TB, dir string) {
	t.Helper()
	s, _ := openStore(t, dir)
	if _, err := s.InstallHooks(); err != nil {
		t.Fatal(err)
	}
}

const gitDate = "2026-01-01T12:00:00Z"

// mustGit runs git, hooks and all, and fails the test unless it succeeds.
func mustGit(t testing.TB, dir string, args ...string) string {
	t.Helper()
	return vaulttest.MustGit(t, dir, gitDate, args...)
}

// rebuiltCopy copies the working tree at dir (a linked worktree with its
// main repository) without omh's cache, so answers there come from a
// cache built from the files. The copy keeps the repository's git config,
// and so its private folder.
func rebuiltCopy(t testing.TB, dir string) string {
	t.Helper()
	to := t.TempDir()
	// Files are hard-linked, not copied: omh never writes a repository's
	// files, and a copy of thousands of git objects would cost seconds.
	cp := func(from, into string) {
		t.Helper()
		if out, err := exec.Command("cp", "-al", from, into).CombinedOutput(); err != nil {
			os.RemoveAll(into)
			if out, err = exec.Command("cp", "-a", from, into).CombinedOutput(); err != nil {
				t.Fatalf("copying %s: %v\n%s", from, err, out)
			}
		}
	}
	if fi, err := os.Stat(filepath.Join(dir, ".git")); err == nil && fi.IsDir() {
		cp(dir, filepath.Join(to, "repo"))
		if err := os.RemoveAll(filepath.Join(to, "repo", ".git", "omh")); err != nil {
			t.Fatal(err)
		}
		return filepath.Join(to, "repo")
	}
	// A linked worktree: copy its main repository too and point the two
	// copies at each other (git worktree repair would find the originals).
	repo, err := gitrepo.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	repo.Close()
	common, gitDir := repo.CommonDir, repo.GitDir
	name, err := filepath.Rel(filepath.Join(common, "worktrees"), gitDir)
	if err != nil || strings.Contains(name, "..") {
		t.Fatalf("%s is not a linked worktree of %s", gitDir, common)
	}
	main, wt := filepath.Join(to, "main"), filepath.Join(to, "wt")
	cp(filepath.Dir(common), main)
	cp(dir, wt)
	if err := os.RemoveAll(filepath.Join(main, ".git", "omh")); err != nil {
		t.Fatal(err)
	}
	copiedGitDir := filepath.Join(main, ".git", "worktrees", name)
	for path, content := range map[string]string{
		filepath.Join(wt, ".git"):             "gitdir: " + copiedGitDir + "\n",
		filepath.Join(copiedGitDir, "gitdir"): filepath.Join(wt, ".git") + "\n",
	} {
		os.Remove(path) // a hard link to the original's file: replace, never write through
		vaulttest.WriteFile(t, path, content)
	}
	return wt
}

// sameAnswersAsARebuild asks the questions in each working tree and on a
// cache-less copy of it, and requires the same bytes, every answer stating
// HEAD. It asks first, so on a stale cache the question is what refreshes
// it.
func sameAnswersAsARebuild(t testing.TB, step string, dirs []string, questions ...store.Question) {
	t.Helper()
	for _, dir := range dirs {
		got := askAll(t, dir, questions...)
		want := askAll(t, rebuiltCopy(t, dir), questions...)
		for i := range got {
			if got[i] != want[i] {
				t.Errorf("%s: %q in %s differs from a rebuild:\n%s\n--- rebuild:\n%s", step, questions[i].Phrasings, filepath.Base(dir), got[i], want[i])
			}
		}
		answersState(t, step, vaulttest.Head(t, dir), got)
	}
}

// answersState requires every answer, tree and JSON, to name head as the
// commit it reflects.
func answersState(t testing.TB, step, head string, answers []string) {
	t.Helper()
	for _, a := range answers {
		if got := answerCommit(t, a); got != head {
			t.Errorf("%s: the answer states commit %q, not %s:\n%s", step, got, head, a)
		}
	}
}
