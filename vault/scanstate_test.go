package vault

import (
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"
)

// randomScanState builds a state whose neighbouring files differ in every
// direction the encoding stores as a difference: times and inodes going
// down as well as up, a missing ctime, paths sharing any length of prefix.
func randomScanState(rng *rand.Rand, files int) *ScanState {
	s := NewScanState()
	parts := []string{"notes", "ops", "a", "ab", "abc", "é", "x y", "zz"}
	for range files {
		var p []string
		for range 1 + rng.IntN(4) {
			p = append(p, parts[rng.IntN(len(parts))])
		}
		f := seenFile{
			FileStat: FileStat{Size: rng.Int64N(1 << 20), Mtime: rng.Int64N(1<<62) - 1<<61, Ino: rng.Uint64()},
			Checked:  rng.Int64N(1<<62) - 1<<61,
		}
		if rng.IntN(3) > 0 {
			f.Ctime = f.Mtime + rng.Int64N(1e9)
		}
		for i := range f.Blob {
			f.Blob[i] = byte(rng.UintN(256))
		}
		s.files[strings.Join(p, "/")+".md"] = f
	}
	s.dirs["notes"] = seenDir{FileStat: FileStat{Size: 4096, Mtime: 7, Ctime: 8, Ino: 9}, Notes: []string{"a.md"}, Dirs: []string{"ops"}}
	s.ignores["/home/u/.config/git/ignore"] = FileStat{Size: -1}
	return s
}

func TestScanStateRoundTrips(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{0, 1, 2, 50, 2000} {
		want := randomScanState(rng, n)
		data, err := want.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		got := NewScanState()
		if err := got.UnmarshalBinary(data); err != nil {
			t.Fatalf("%d files: %v", n, err)
		}
		if !reflect.DeepEqual(got.files, want.files) || !reflect.DeepEqual(got.dirs, want.dirs) || !reflect.DeepEqual(got.ignores, want.ignores) {
			t.Fatalf("%d files: the state changed in a round trip", n)
		}
		again, _ := got.MarshalBinary()
		if !slices.Equal(again, data) {
			t.Fatalf("%d files: encoding is not deterministic", n)
		}
	}
}

// A damaged state must decode to nothing, so the next scan starts cold,
// rather than to a state that claims files are unchanged.
func TestADamagedScanStateDecodesEmpty(t *testing.T) {
	data, _ := randomScanState(rand.New(rand.NewPCG(3, 4)), 20).MarshalBinary()
	for cut := 0; cut < len(data); cut++ {
		s := NewScanState()
		if err := s.UnmarshalBinary(data[:cut]); err == nil {
			t.Fatalf("cut at %d of %d decoded", cut, len(data))
		}
		if len(s.files)+len(s.dirs)+len(s.ignores) != 0 {
			t.Fatalf("cut at %d left %d files", cut, len(s.files))
		}
	}
	old := append([]byte("omhscan2"), data[len(scanStateMagic):]...)
	if err := NewScanState().UnmarshalBinary(old); err == nil {
		t.Error("a state in an older encoding decoded")
	}
}

func TestTrackedFilesRoundTripInPathOrder(t *testing.T) {
	m := map[string]plumbing.Hash{}
	for i, p := range []string{"notes/b.md", "notes/a.md", "notes/ab.md", "notes/a/b.md", "z.md", "notes/é.md"} {
		m[p] = plumbing.NewHash(strings.Repeat(string("0123456789abcdef"[i]), 40))
	}
	list := TrackedList(m)
	if !slices.IsSortedFunc(list, func(a, b TrackedFile) int { return strings.Compare(a.Path, b.Path) }) || len(list) != len(m) {
		t.Fatalf("TrackedList %v is not m sorted by path", list)
	}
	got, err := DecodeTracked(EncodeTracked(list))
	if err != nil || !slices.Equal(got, list) {
		t.Fatalf("round trip gave %v, %v; want %v", got, err, list)
	}
	swapped := []TrackedFile{list[1], list[0]}
	if _, err := DecodeTracked(EncodeTracked(swapped)); err == nil {
		t.Error("a list out of path order decoded; LocalScan's lookups would miss files")
	}
}
