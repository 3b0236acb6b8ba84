package index_test

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/omh-notes/omh/index"
	"github.com/omh-notes/omh/vault/vaulttest"
)

// A copied repository (cp -a) brings its cache along: its first refresh
// there parses nothing, yet it was reported as a first build ("indexing
// 38,187 notes for the first time…", then "parsed 0 blobs"). Only a first
// build that parses is reported as one.
func TestAFirstBuildFromCachedBlobsIsNotReportedAsFirst(t *testing.T) {
	t.Parallel()
	r := vaulttest.New(t)
	for i := range 20 {
		r.Write(fmt.Sprintf("n%02d.md", i), fmt.Sprintf("# Note %d\n\nAbout walruses, number %d.\n", i, i))
	}
	r.Commit("2026-01-02T10:00:00Z", "notes")
	firstSaid := func(dir string) bool {
		repo := openRepo(t, dir)
		c := openCache(t, repo.CommonDir)
		defer c.Close()
		said := false
		s, _, err := c.Fresh(repo, index.Options{Progress: func(_, _ int, first bool) { said = said || first }})
		if err != nil {
			t.Fatal(err)
		}
		s.Close()
		return said
	}
	if !firstSaid(r.Dir) {
		t.Fatal("the first build of a new cache was not reported as one")
	}
	copied := filepath.Join(t.TempDir(), "copy")
	vaulttest.CopyTree(t, r.Dir, copied)
	if firstSaid(copied) {
		t.Error("the copy's refresh, which parses nothing, was reported as a first build")
	}
}
