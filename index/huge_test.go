package index_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/omh-notes/omh/index"
)

// An untracked sparse .md of 8 GB was hashed whole after every stat change
// (72 s) before being skipped as binary. A terabyte-long one, which no
// machine reads in a test's time, is now skipped as binary from its first
// bytes, and a change of its last bytes is still noticed.
func TestAHugeBinaryNoteIsSkippedWithoutReadingItWhole(t *testing.T) {
	t.Parallel()
	r := seaStore(t)
	huge := filepath.Join(r.Dir, "notes", "huge.md")
	f, err := os.Create(huge)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := f.Truncate(1 << 40); err != nil {
		t.Skipf("this file system holds no sparse terabyte: %v", err)
	}
	repo := openRepo(t, r.Dir)
	c := openCache(t, repo.CommonDir)
	defer c.Close()
	fresh := func() index.Report {
		t.Helper()
		s, rep, err := c.Fresh(repo, index.Options{})
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		return rep
	}
	skipped := func(rep index.Report) bool {
		return slices.ContainsFunc(rep.Warnings, func(w string) bool {
			return strings.Contains(w, "huge.md skipped: binary content")
		})
	}
	if rep := fresh(); !skipped(rep) {
		t.Fatalf("warnings %q, want huge.md skipped as binary", rep.Warnings)
	}
	if _, err := f.WriteAt([]byte("the end"), 1<<40-7); err != nil {
		t.Fatal(err)
	}
	if rep := fresh(); !rep.Refreshed || !skipped(rep) {
		t.Fatalf("after its end changed: refreshed %v, warnings %q; want it read again and skipped", rep.Refreshed, rep.Warnings)
	}
}
