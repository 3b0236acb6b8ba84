package store

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/omh-notes/omh/vault/vaulttest"
)

// café written composed (NFC) and decomposed (NFD): one key, two names.
const (
	cafeNFC = "caf\u00e9"
	cafeNFD = "cafe\u0301"
)

// Two files whose names differ only in Unicode normalisation are one key
// and, on macOS, one file: mv and promote of that key refuse, naming both,
// and change nothing, as they do for case twins. Catches: omh mv <NFD
// name> moved moving the NFC file and rewriting links of both forms to
// [[moved]], losing which note each meant.
func TestMvOfNormalisationTwinsIsRefused(t *testing.T) {
	t.Parallel()
	r := vaulttest.New(t)
	r.Write(cafeNFC+".md", "# Composed\n")
	r.Write(cafeNFD+".md", "# Decomposed\n")
	r.Write("links.md", "[["+cafeNFC+"]] and [["+cafeNFD+"]]\n")
	r.Commit("2026-01-02T10:00:00Z", "twins")
	vaulttest.WriteFile(t, filepath.Join(r.Private, "mine", cafeNFC+".md"), "# Mine composed\n")
	vaulttest.WriteFile(t, filepath.Join(r.Private, "mine", cafeNFD+".md"), "# Mine decomposed\n")
	s, _ := open(t, r.Dir)
	for _, c := range []struct{ what, key string }{{"mv NFD", cafeNFD}, {"mv NFC", cafeNFC}, {"mv private", "mine/" + cafeNFD}} {
		before := writeStateOf(t, r)
		if _, err := s.Move(c.key, "moved"); code(err) != "ambiguous" {
			t.Errorf("%s: %v, want ambiguous", c.what, err)
		}
		sameWriteState(t, c.what, before, writeStateOf(t, r))
	}
	before := writeStateOf(t, r)
	if _, err := s.Promote([]string{"mine/" + cafeNFD}); code(err) != "ambiguous" {
		t.Errorf("promote: %v, want ambiguous", err)
	}
	sameWriteState(t, "promote", before, writeStateOf(t, r))
	if shown, err := s.Show(cafeNFD, 0, Lines{}, DefaultShowChars); err != nil || len(shown.Notes) != 2 {
		t.Errorf("show of the key written decomposed: %v, %d notes", err, len(shown.Notes))
	}
}

// A note whose file name is decomposed (NFD, as macOS wrote names) has the
// composed key, and a key given either way reaches it: show finds it, mv
// renames that very file, and promote moves a decomposed private note.
// Catches: omh show <NFD> saying "no note has the key "café"; did you mean
// café?"; mv and promote looking for the composed file name, which is not
// there.
func TestAKeyGivenDecomposedFindsItsNote(t *testing.T) {
	t.Parallel()
	r := vaulttest.New(t)
	r.Write(cafeNFD+".md", "# Decomposed\n")
	r.Write("links.md", "See [["+cafeNFD+"]].\n")
	r.Commit("2026-01-02T10:00:00Z", "one")
	vaulttest.WriteFile(t, filepath.Join(r.Private, "mine", cafeNFD+".md"), "# Mine\n")
	s, _ := open(t, r.Dir)
	for _, key := range []string{cafeNFD, cafeNFC} {
		if shown, err := s.Show(key, 0, Lines{}, DefaultShowChars); err != nil || len(shown.Notes) != 1 || shown.Notes[0].Key != cafeNFC {
			t.Errorf("show %+q: %v", key, err)
		}
	}
	if _, err := s.Move(cafeNFD, "moved"); err != nil {
		t.Fatalf("mv: %v", err)
	}
	if _, err := os.Stat(filepath.Join(r.Dir, "moved.md")); err != nil {
		t.Error(err)
	}
	if _, err := os.Lstat(filepath.Join(r.Dir, cafeNFD+".md")); err == nil {
		t.Error("the decomposed file is still there")
	}
	if got := vaulttest.Read(t, filepath.Join(r.Dir, "links.md")); got != "See [[moved]].\n" {
		t.Errorf("links.md: %q", got)
	}
	if _, err := s.Promote([]string{"mine/" + cafeNFC}); err != nil {
		t.Fatalf("promote: %v", err)
	}
	if _, err := os.Stat(filepath.Join(r.Dir, "mine", cafeNFC+".md")); err != nil {
		t.Errorf("promote: %v", err)
	}
}
