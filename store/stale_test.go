package store

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/omh-notes/omh/find"
	"github.com/omh-notes/omh/vault/gitrepo"
	"github.com/omh-notes/omh/vault/vaulttest"
)

// While another process refreshes, a find answers from the last snapshot;
// a local note changed behind it since then is never quoted from other
// bytes than the blob its card names: a deleted or rewritten untracked
// note gets a card without passages that says it changed, and a rewritten
// note whose indexed copy git holds (staged) is quoted from that copy.
// Catches: a deleted untracked note failing the whole answer ("reading …:
// no such file"); a rewritten one cut at the old offsets of the new text
// under the old blob's id.
func TestAStaleSnapshotQuotesOnlyTheBlobItNames(t *testing.T) {
	t.Parallel()
	r := vaulttest.New(t)
	r.Write("team.md", "# Team\n\nThe team keeps one walrus.\n")
	r.Commit("2026-01-02T10:00:00Z", "team")
	r.Write("gone.md", "# Gone\n\nThe walrus tusks grow all year long, and the herd rests on the ice.\n")
	const rewritten = "# Rewritten\n\nWalrus tusks are long teeth; the walrus hauls itself out with them.\n"
	r.Write("rewritten.md", rewritten)
	r.Write("staged.md", "# Staged\n\nA staged walrus: tusks of ivory on a staged note.\n")
	r.Git("add", "staged.md")
	s, _ := open(t, r.Dir)
	q := Question{Phrasings: []string{"walrus tusks"}, Roots: 8, MaxChars: 6000, Cards: true}
	if _, err := s.Ask(q); err != nil { // the snapshot the next answer comes from
		t.Fatal(err)
	}
	// Hold the refresh lock as another omh process would.
	lock, err := os.OpenFile(filepath.Join(r.Dir, ".git", "omh", "refresh.lock"), os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	defer lock.Close()
	if err := syscall.Flock(int(lock.Fd()), syscall.LOCK_EX); err != nil {
		t.Fatal(err)
	}
	r.Remove("gone.md")
	r.Write("rewritten.md", "# Rewritten\n\nNothing here is about the sea any more: the text was replaced whole.\n")
	r.Write("staged.md", "# Staged\n\nReplaced after staging.\n")

	ans, err := s.Ask(q)
	if err != nil {
		t.Fatalf("a stale answer with changed notes: %v", err)
	}
	cards := map[string]find.Card{}
	for _, c := range ans.Reply.Cards {
		cards[c.Hit.Note.Key] = c
	}
	for _, key := range []string{"gone", "rewritten"} {
		if c, ok := cards[key]; !ok || !c.Changed || len(c.Passages) != 0 {
			t.Errorf("%s: card %+v; want one marked changed, without passages", key, c)
		}
	}
	if c := cards["staged"]; c.Changed || len(c.Passages) == 0 || !strings.Contains(c.Passages[0].Text, "tusks of ivory") {
		t.Errorf("staged: card %+v; want passages from the staged blob", c)
	}
	if c := cards["team"]; c.Changed || len(c.Passages) == 0 {
		t.Errorf("team: card %+v; want its passage", c)
	}
	text := ans.Cards()
	if strings.Count(text, "changed since this snapshot") != 2 || strings.Contains(text, "the sea") {
		t.Errorf("cards:\n%s", text)
	}
	// The JSON still names the blob indexed, and quotes nothing of the file.
	old := gitrepo.HashBytes([]byte(rewritten)).String()
	for _, h := range ans.Reply.JSON().Hits {
		if h.Key == "rewritten" && (!h.Changed || h.Blob != old || len(h.Passages) != 0) {
			t.Errorf("rewritten: JSON hit %+v; want changed, blob %s, no passages", h, old)
		}
	}
}
