package index

import (
	"testing"

	"github.com/omh-notes/omh/token"
	"github.com/omh-notes/omh/vault/vaulttest"
)

// A key's folders are shared by every note in them, so they are indexed
// apart from its last part, the note's own name: the tuned ranker takes
// only the name as the note's subject (the baseline reads both as key).
func TestAKeysFoldersAreIndexedApartFromItsName(t *testing.T) {
	t.Parallel()
	r := vaulttest.New(t)
	r.Write("guides/setup/install-plugins.md", "---\ntitle: Getting started\n---\nSome words.\n")
	r.Commit("2026-01-01T10:00:00Z", "a note in folders")
	repo, c := openStore(t, r.Dir)
	s, _, err := c.Fresh(repo, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for word, want := range map[string]token.Field{
		"guides": token.InFolder, "setup": token.InFolder,
		"install": token.InKey, "plugins": token.InKey,
	} {
		list, err := s.Postings(token.Term(word))
		if err != nil {
			t.Fatal(err)
		}
		if len(list) != 1 || list[0].Fields&(token.InKey|token.InFolder) != want {
			t.Errorf("%s: postings %+v, want the one note with fields %b", word, list, want)
		}
	}
}
