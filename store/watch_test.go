package store

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/omh-notes/omh/vault/vaulttest"
)

// A watching store (a server's) answers each question as a store opened
// for that question does, right after notes were written, edited, added
// in new folders, renamed and removed, with no pause between the change
// and the question. Catches: a watcher whose token moves past a change it
// never reported, a change made just before the question missed.
func TestAWatchingStoreAnswersAsAFreshOne(t *testing.T) {
	t.Parallel()
	r := vaulttest.New(t)
	r.Write("notes/walrus.md", "# Walrus\n\nThe walrus keeps the tusks clean.\n")
	r.Write("notes/heron.md", "# Heron\n\nThe heron waits by the [[walrus]].\n")
	r.Commit("2026-01-02T10:00:00Z", "first notes")
	watching, err := Open(r.Dir, Options{Watch: true})
	if err != nil {
		t.Fatal(err)
	}
	defer watching.Close()
	ask := func(s *Store) string {
		t.Helper()
		ans, err := s.Ask(Question{Phrasings: []string{"walrus heron tusks otter puffin"}, Roots: 8, MaxChars: 6000, Cards: true})
		if err != nil {
			t.Fatal(err)
		}
		return ans.Cards()
	}
	fresh := func() string {
		t.Helper()
		s, err := Open(r.Dir, Options{})
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		return ask(s)
	}
	steps := []struct {
		what   string
		change func()
	}{
		{"nothing yet", func() {}},
		{"an edit", func() { r.Write("notes/walrus.md", "# Walrus\n\nThe walrus keeps the tusks clean, and naps.\n") }},
		{"a new note", func() { r.Write("notes/otter.md", "# Otter\n\nThe otter floats.\n") }},
		{"a note in a new folder", func() { r.Write("notes/birds/puffin.md", "# Puffin\n\nThe puffin dives.\n") }},
		{"a rename", func() {
			os.Rename(filepath.Join(r.Dir, "notes/otter.md"), filepath.Join(r.Dir, "notes/birds/otter.md"))
		}},
		{"a removal", func() { r.Remove("notes/heron.md") }},
		{"a commit", func() { r.Commit("2026-01-03T10:00:00Z", "more notes") }},
		{"an edit after the commit", func() { r.Write("notes/birds/puffin.md", "# Puffin\n\nThe puffin dives for fish.\n") }},
	}
	for _, step := range steps {
		step.change()
		if got, want := ask(watching), fresh(); got != want {
			t.Errorf("after %s the watching store answered\n%s\na fresh one\n%s", step.what, got, want)
		}
	}
}
