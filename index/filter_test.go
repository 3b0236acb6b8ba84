package index_test

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/omh-notes/omh/index"
)

// keysOf names documents by key and layer, sorted.
func keysOf(t *testing.T, s *index.Snapshot, docs []uint32) []string {
	t.Helper()
	var out []string
	for _, d := range docs {
		n, err := s.Note(d)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, n.Key+"@"+n.Layer.String())
	}
	slices.Sort(out)
	return out
}

// What the filters read of a snapshot: the notes carrying a tag or one
// nested under it (any letter case, by the dialect's nesting), the notes
// under a folder, and the notes changed since (team notes at the keys
// given, every working copy, the private notes modified since); each of a
// working copy's tags replaces its committed version's, and nothing absent
// from the answer (a working copy without the working tree) is listed.
// Catches: a tag missing from the index, a working copy's tags read from
// its committed version, a folder matched as a prefix of a name.
func TestFilterReadsOfASnapshot(t *testing.T) {
	t.Parallel()
	r := seaStore(t)
	r.Write("notes/heron.md", "---\ntags: [Bird/Wader, coast]\n---\n# Heron\n\nA heron memory.\n")
	r.Write("notes/seal.md", "# Seal\n\nA #bird? No: a #mammal.\n")
	r.Write("notes/deeper.md", "# Deeper\n\nNot under deep/.\n")
	r.Commit("2025-12-05T10:00:00Z", "tags")
	r.Write("notes/seal.md", "# Seal\n\nA #mammal of the #coast, edited.\n")
	old := filepath.Join(r.Private, "mine.md")
	long := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	if err := os.Chtimes(old, long, long); err != nil {
		t.Fatal(err)
	}
	writePrivate(t, r, "fresh.md", "# Fresh\n\nJust written.\n")
	repo := openRepo(t, r.Dir)
	c := openCache(t, repo.CommonDir)
	defer c.Close()
	// More keys than one batch looks up.
	var manyKeys []string
	for i := range 600 {
		manyKeys = append(manyKeys, fmt.Sprintf("nowhere/%d", i))
	}
	for _, noWorktree := range []bool{false, true} {
		s, _, err := c.Fresh(repo, index.Options{NoWorktree: noWorktree})
		if err != nil {
			t.Fatal(err)
		}
		read := func(docs []uint32, err error) []string {
			t.Helper()
			if err != nil {
				t.Fatal(err)
			}
			return keysOf(t, s, docs)
		}
		edited := []string{"seal@local"}
		if noWorktree {
			edited = nil
		}
		for _, c := range []struct {
			got, want []string
		}{
			{read(s.Tagged("bird", "/")), []string{"heron@team", "seal@team"}},
			{read(s.Tagged("BIRD/wader", "/")), []string{"heron@team"}},
			{read(s.Tagged("coast", "/")), append([]string{"heron@team"}, edited...)},
			{read(s.Tagged("mammal", "/")), append(slices.Clone(edited), "seal@team")},
			{read(s.Tagged("bird", ".")), []string{"seal@team"}},
			{read(s.Under("deep", "/")), []string{"deep/krill@team"}},
			{read(s.ChangedSince([]string{"heron", "deep/krill"}, false, time.Date(2025, 6, 1, 0, 0, 0, 0, time.UTC).UnixNano())),
				append([]string{"deep/krill@team", "fresh@local", "heron@team"}, edited...)},
			{read(s.ChangedSince(append(manyKeys, "heron"), false, time.Date(2026, 6, 1, 0, 0, 0, 0, time.UTC).UnixNano())),
				append([]string{"fresh@local", "heron@team"}, edited...)},
			{read(s.ChangedSince(nil, true, time.Date(2026, 6, 1, 0, 0, 0, 0, time.UTC).UnixNano())),
				append([]string{"deep/krill@team", "deeper@team", "fresh@local", "heron@team", "mine@team", "otter@team", "seal@team", "walrus@team"}, edited...)},
		} {
			slices.Sort(c.want)
			if !slices.Equal(c.got, c.want) {
				t.Errorf("without the working tree %v: %q, want %q", noWorktree, c.got, c.want)
			}
		}
		s.Close()
	}
}
