package store_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/omh-notes/omh/store"
	"github.com/omh-notes/omh/vault/vaulttest"
)

// A private note written before a repository's first commit is found after
// it, with no warning, from the folder keyed by the root commit; a note of
// the same key already there (another clone's) is kept, and the early one
// found beside it under a free key. Catches: the note staying in the
// folder keyed "no-commits-…" that nothing reads once there is a root
// commit ("0 local", no word).
func TestAPrivateNoteWrittenBeforeTheFirstCommitIsFoundAfterIt(t *testing.T) {
	t.Parallel()
	r := vaulttest.New(t)
	// The default private folder, under the test binary's XDG_DATA_HOME;
	// the commit below is this test's own, so no other test shares it.
	r.Git("config", "--unset", "omh.local")
	s, _ := openStore(t, r.Dir)
	w, err := s.New(store.Draft{Type: "finding", Title: "mount returns ebusy", Body: []byte("The bind mount returns EBUSY.\n")})
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	early := filepath.Dir(filepath.Dir(w.Path))
	if !strings.Contains(filepath.Base(early), "no-commits-") {
		t.Fatalf("before the first commit the note went to %s", w.Path)
	}
	r.Write("readme.md", "# "+t.Name()+"\n")
	root := r.Commit("2026-01-02T10:00:00Z", "first")
	keyed := filepath.Join(filepath.Dir(early), root)
	other := "---\ntype: finding\nrecorded: 2026-01-01\n---\n# Mount returns EBUSY elsewhere\n\nAnother clone's ebusy note.\n"
	vaulttest.WriteFile(t, filepath.Join(keyed, "finding", "mount-returns-ebusy.md"), other)

	answer, warnings := ask(t, r.Dir, withRoots(question("ebusy"), 10))
	for _, key := range []string{"finding/mount-returns-ebusy  finding · local", "finding/mount-returns-ebusy-2  finding · local"} {
		if !strings.Contains(answer, key) {
			t.Errorf("the answer after the first commit lacks %q:\n%s", key, answer)
		}
	}
	if len(warnings) != 0 {
		t.Errorf("warnings %q", warnings)
	}
	if got := vaulttest.Read(t, filepath.Join(keyed, "finding", "mount-returns-ebusy.md")); got != other {
		t.Errorf("the note already in %s was replaced:\n%s", keyed, got)
	}
	if _, err := os.Lstat(early); err == nil {
		t.Errorf("%s is still there", early)
	}
}
