package store

import (
	"strings"
	"testing"

	"github.com/omh-notes/omh/find"
	"github.com/omh-notes/omh/retrieve"
	"github.com/omh-notes/omh/vault/vaulttest"
)

// Asking among proof records in a store that holds none says so, in the
// cards and the JSON, instead of saying no note holds the question's
// words; once a record exists, an unmatched question gets the usual
// sentence. Catches: "no note contains any word" for a store whose notes
// do contain the words but are not records.
func TestProofFindWithoutRecordsSaysThereAreNone(t *testing.T) {
	t.Parallel()
	r := vaulttest.New(t)
	r.Write("topic/cache.md", "---\ntype: topic\nrecorded: 2026-01-02\n---\n# Cache\n\nWhy the cache is slow.\n")
	r.Commit("2026-01-03T10:00:00Z", "a topic")
	s, _ := open(t, r.Dir)
	ask := func(words string) Answer {
		t.Helper()
		ans, err := s.Ask(Question{Phrasings: []string{words}, Roots: 8, MaxChars: 6000, Cards: true, Records: true, Retracted: find.ExcludeRetracted})
		if err != nil {
			t.Fatal(err)
		}
		return ans
	}
	ans := ask("why is the cache slow")
	if text := ans.Cards(); !strings.HasPrefix(text, "The store holds no proof records yet") || !strings.Contains(text, "omh new finding TITLE") ||
		!strings.HasSuffix(text, "@ "+r.Git("rev-parse", "HEAD")+"\n") {
		t.Errorf("cards %q", text)
	}
	if reply := ans.JSON().(retrieve.JSONReply); !strings.HasPrefix(reply.Note, "the store holds no proof records") || reply.StoreEmpty || reply.Commit == nil {
		t.Errorf("JSON %+v", reply)
	}
	r.Write("finding/slow.md", "---\ntype: finding\nrecorded: 2026-01-04\n---\n# Slow\n\n## Claim\n\n## Evidence\n\n## Answers\n")
	if text := ask("zebra").Cards(); !strings.HasPrefix(text, "none: no note contains any meaningful word of `zebra`") {
		t.Errorf("with a record: %q", text)
	}
}
