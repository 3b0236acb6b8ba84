package store

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/omh-notes/omh/vault/vaulttest"
)

// A notes root that is, or lies through, a symbolic link HEAD holds is a
// bad config naming the link, and omh reads nothing through it. Catches:
// notes: docs (a link to real/) giving a store of 0 notes without a word,
// and notes: docs/sub exiting 3 with "object not found (a partial clone
// leaves objects out…)", which is untrue.
func TestANotesRootThroughACommittedLinkIsABadConfigNamingIt(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ notes, says string }{
		{"docs", "the notes root docs is a symbolic link to real"},
		{"docs/sub", "the notes root docs/sub is reached through docs, a symbolic link to real"},
	} {
		t.Run(c.notes, func(t *testing.T) {
			t.Parallel()
			r := vaulttest.New(t)
			r.Write("real/a.md", "# A\n")
			r.Write("real/sub/b.md", "# B\n")
			if err := os.Symlink("real", filepath.Join(r.Dir, "docs")); err != nil {
				t.Fatal(err)
			}
			r.Write(".omh/config.yaml", "notes: "+c.notes+"\n")
			r.Commit("2026-01-02T10:00:00Z", "a linked notes root")
			s, _ := open(t, r.Dir)
			_, err := s.Index(false)
			if code(err) != "bad_config" || !strings.Contains(err.Error(), c.says) || strings.Contains(err.Error(), "partial clone") {
				t.Errorf("omh index = %v (%s), want bad_config saying %q", err, code(err), c.says)
			}
		})
	}
}
