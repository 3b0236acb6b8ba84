package index

import (
	"fmt"
	"math"
	"runtime/debug"
	"testing"

	"github.com/omh-notes/omh/vault/vaulttest"
)

// A first build let the heap grow to twice what it held live (430 MiB peak
// at vba-docs). While it parses it holds the heap to a limit sized by its
// notes, and restores the limit that was set before once it is done; a
// later refresh, which holds little, sets none.
func TestAFirstBuildLimitsItsMemoryAndRestoresTheLimit(t *testing.T) {
	// Serial: the limit is the process's.
	before := debug.SetMemoryLimit(-1)
	if before != math.MaxInt64 {
		t.Skipf("GOMEMLIMIT is set (%d)", before)
	}
	r := vaulttest.New(t)
	for i := range 30 {
		r.Write(fmt.Sprintf("n%d.md", i), fmt.Sprintf("# N%d\n\nA note.\n", i))
	}
	r.Commit("2025-12-01T10:00:00Z", "notes")
	repo, c := openStore(t, r.Dir)
	var during []int64
	opt := Options{Progress: func(done, total int, first bool) { during = append(during, debug.SetMemoryLimit(-1)) }}
	s, _, err := c.Fresh(repo, opt)
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	if want := int64(buildMemoryBase + 30*buildMemoryPerNote); len(during) == 0 || during[0] != want {
		t.Errorf("limit while building %v, want %d", during, want)
	}
	if after := debug.SetMemoryLimit(-1); after != before {
		t.Errorf("limit after the build %d, want %d again", after, before)
	}
	r.Write("n0.md", "# N0\n\nChanged.\n")
	r.Commit("2025-12-02T10:00:00Z", "one note")
	during = nil
	if s, _, err = c.Fresh(repo, opt); err != nil {
		t.Fatal(err)
	}
	s.Close()
	for _, l := range during {
		if l != before {
			t.Errorf("a one-note refresh set the limit to %d", l)
		}
	}
}
