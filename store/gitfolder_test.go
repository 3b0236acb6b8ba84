package store

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/omh-notes/omh/vault/vaulttest"
)

// A commit made with git's plumbing can hold .git/victim.md, which no
// checkout writes: it is no note, in any letter case or spelling git
// treats as its own folder, and omh mv never writes into git's folder for
// it. Catches: .git/victim.md indexed as a team note and rewritten inside
// .git by omh mv.
func TestATreeEntryUnderDotGitIsNeverANoteAndMvLeavesGitsFolderAlone(t *testing.T) {
	t.Parallel()
	r := vaulttest.New(t)
	notes := map[string]string{"a.md": "# A\n", "b.md": "See [[a]].\n"}
	for p, c := range notes {
		r.Write(p, c)
	}
	r.Commit("2026-01-02T10:00:00Z", "notes")
	hostile := map[string]string{".git/victim.md": "See [[a]].\n", ".GIT/upper.md": "[[a]]\n", "sub/.Git/deep.md": "[[a]]\n",
		"sub/git~1/short.md": "[[a]]\n", ".git./dotted.md": "[[a]]\n", ".g\u200cit/joiner.md": "[[a]]\n"}
	for p, c := range notes {
		hostile[p] = c
	}
	r.CommitPaths("2026-01-03T10:00:00Z", "plumbing", hostile)
	s, warnings := open(t, r.Dir)
	if _, err := s.Index(false); err != nil {
		t.Fatal(err)
	}
	st, err := s.Status()
	if err != nil {
		t.Fatal(err)
	}
	if st.Notes.Team != 2 {
		t.Errorf("%d team notes, want a and b", st.Notes.Team)
	}
	if _, err := s.Show(".git/victim", 0, Lines{}, DefaultShowChars); code(err) != "not_found" && code(err) != "bad_key" {
		t.Errorf("show .git/victim: %v", err)
	}
	if _, err := s.Move("a", "c"); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{".git/victim.md", ".git/c.md"} {
		if _, err := os.Stat(filepath.Join(r.Dir, p)); err == nil {
			t.Errorf("omh mv wrote %s", p)
		}
	}
	if got := vaulttest.Read(t, filepath.Join(r.Dir, "b.md")); got != "See [[c]].\n" {
		t.Errorf("b.md: %q", got)
	}
	said := strings.Join(*warnings, "\n")
	for p := range hostile {
		if dir, _, _ := strings.Cut(p, "/"); dir != "a.md" && dir != "b.md" && !strings.Contains(said, strings.TrimSuffix(p[:strings.LastIndex(p, "/")], "/")) {
			t.Errorf("nothing said of %s: %s", p, said)
		}
	}
}
