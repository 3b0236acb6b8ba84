package gitrepo

import (
	"runtime"
	"strings"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/omh-notes/omh/vault/vaulttest"
)

// allocatedBy is how many bytes fn allocates on the heap.
func allocatedBy(fn func()) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	fn()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// A blob larger than what is read of it is streamed, loose or packed: its
// first bytes cost about what they hold, never the whole blob. Catches:
// go-git reading a 500 MB note into memory (1.9 GB, 22 s) to index its
// first 4 MiB.
// Not parallel: allocatedBy counts the whole process's allocations.
func TestABlobLargerThanTheLimitIsNeverReadWhole(t *testing.T) {
	r := vaulttest.New(t)
	line := "the walrus swims past the heron by the river stone\n"
	r.Write("big.md", strings.Repeat(line, (48<<20)/len(line)))
	r.Commit("2026-01-02T10:00:00Z", "a big note")
	id := plumbing.NewHash(r.Git("rev-parse", "HEAD:big.md"))
	for _, how := range []string{"loose", "packed"} {
		if how == "packed" {
			r.Git("gc", "-q")
		}
		repo, err := Open(r.Dir)
		if err != nil {
			t.Fatal(err)
		}
		var head []byte
		var size int64
		alloc := allocatedBy(func() { head, size, err = repo.ReadBlob(id, 4<<20) })
		repo.Close()
		if err != nil || len(head) != 4<<20 || size < 48<<20-int64(len(line)) {
			t.Fatalf("%s: read %d bytes of %d: %v", how, len(head), size, err)
		}
		if alloc > 24<<20 {
			t.Errorf("%s: reading the first 4 MiB of a 48 MiB blob allocated %d MiB", how, alloc>>20)
		}
	}
}
