package index_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/omh-notes/omh/index"
	"github.com/omh-notes/omh/vault/vaulttest"
)

// `git repack -ad && git prune-packed` run while a refresh reads, after it
// listed the changed notes and before it read their blobs, moves every
// loose object into a pack go-git never listed and deletes the pack it
// did: the refresh still reads every note, loose or packed before, and
// says nothing of objects missing or of a partial clone. Catches: 3,561 of
// 6,000 notes skipped as "object not found", notes of the deleted pack
// skipped as "open …pack: no such file", and "history … is not in this
// partial clone" in a clone that is whole.
func TestARepackDuringARefreshLosesNoNote(t *testing.T) {
	t.Parallel()
	const notes, renamed = 300, 20
	r := vaulttest.New(t)
	r.Git("config", "gc.auto", "0")
	write := func(version string) {
		for i := range notes {
			r.Write(fmt.Sprintf("n%03d.md", i), fmt.Sprintf("# Note %d\n\nThe %s note number %d about walruses.\n", i, version, i))
		}
	}
	write("first")
	// Files that become notes by a rename: their blobs are in the first
	// pack, and read only once it is deleted; go-git reads an object over
	// 16 KiB from its pack by the pack's path.
	for i := range renamed {
		r.Write(fmt.Sprintf("t%03d.txt", i), fmt.Sprintf("# Text %d\n\n", i)+strings.Repeat(fmt.Sprintf("A text about walruses, number %d.\n", i), 700))
	}
	r.Commit("2026-01-02T10:00:00Z", "first")
	r.Git("repack", "-adq") // go-git lists this pack while building the cache
	repo := openRepo(t, r.Dir)
	c := openCache(t, repo.CommonDir)
	defer c.Close()
	s, _, err := c.Fresh(repo, index.Options{})
	if err != nil {
		t.Fatal(err)
	}
	s.Close()

	write("second")
	for i := range renamed {
		r.Git("mv", fmt.Sprintf("t%03d.txt", i), fmt.Sprintf("t%03d.md", i))
	}
	r.Commit("2026-01-03T10:00:00Z", "second") // loose objects
	repacked := false
	opt := index.Options{Progress: func(done, total int, first bool) {
		if !repacked {
			repacked = true
			r.Git("repack", "-adq")
			r.Git("prune-packed")
		}
	}}
	s, rep, err := c.Fresh(repo, opt)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if loose, _ := filepath.Glob(filepath.Join(r.Dir, ".git", "objects", "??", "*")); !repacked || len(loose) != 0 {
		t.Fatalf("the repack did not run in the refresh (%v) or left %d loose objects", repacked, len(loose))
	}
	for _, w := range rep.Warnings {
		t.Errorf("warning: %s", w)
	}
	indexed := 0
	for d := range s.Span() {
		if !s.Info(uint32(d)).Present {
			continue
		}
		n, err := s.Note(uint32(d))
		if err != nil {
			t.Fatal(err)
		}
		if want := r.Git("rev-parse", "HEAD:"+n.Path); n.Blob.String() != want {
			t.Errorf("%s indexed as %s, HEAD holds %s", n.Path, n.Blob, want)
		}
		indexed++
	}
	if indexed != notes+renamed {
		t.Errorf("%d notes indexed, want %d", indexed, notes+renamed)
	}
}

// History that cannot be read is said to be missing from a partial clone
// only in a partial clone; elsewhere the warning says it cannot be read.
// Catches: "not in this partial clone" said of a whole clone whose
// objects went missing.
func TestMissingHistoryIsBlamedOnAPartialCloneOnlyInOne(t *testing.T) {
	t.Parallel()
	r := vaulttest.New(t)
	r.Write("b.md", "# B\n\nDated by the first commit, whose tree goes missing.\n")
	for i, day := range []string{"2026-01-02", "2026-01-03", "2026-01-04"} {
		r.Write("a.md", fmt.Sprintf("# A\n\nWalrus, version %d.\n", i))
		r.Commit(day+"T10:00:00Z", "step")
	}
	tree := r.Git("rev-parse", "HEAD~2^{tree}")
	if err := os.Remove(filepath.Join(r.Dir, ".git", "objects", tree[:2], tree[2:])); err != nil {
		t.Fatal(err)
	}
	warnings := func() string {
		t.Helper()
		repo := openRepo(t, r.Dir)
		c := openCache(t, repo.CommonDir)
		defer c.Close()
		c, rep, err := c.Rebuild(repo, index.Options{})
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		return strings.Join(rep.Warnings, "\n")
	}
	if w := warnings(); strings.Contains(w, "partial clone") || !strings.Contains(w, "cannot be read") {
		t.Errorf("a whole clone missing a tree: warnings %q", w)
	}
	r.Git("config", "remote.origin.promisor", "true")
	if w := warnings(); !strings.Contains(w, "not in this partial clone") {
		t.Errorf("a partial clone: warnings %q", w)
	}
}
