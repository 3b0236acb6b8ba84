package localscan

import (
	"encoding/hex"
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"sort"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"
)

// store is the cache's table of scan pieces, kept as the index keeps it:
// pieces written by id, new ones given the next id, dropped ones deleted.
type store struct {
	rows map[int64]ScanPiece
	next int64
}

func (st *store) save(s *ScanState) {
	put, drop := s.Pieces()
	for _, id := range drop {
		delete(st.rows, id)
	}
	for _, p := range put {
		if p.ID == 0 {
			st.next++
			p.ID = st.next
		}
		st.rows[p.ID] = ScanPiece{ID: p.ID, Head: p.Head, Data: slices.Clone(p.Data)}
	}
}

func (st *store) load(t *testing.T) *ScanState {
	t.Helper()
	var pieces []ScanPiece
	for _, p := range st.rows {
		pieces = append(pieces, ScanPiece{ID: p.ID, Head: p.Head, Data: slices.Clone(p.Data)})
	}
	s, err := LoadScanState(pieces)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// entry is what a record says of a file, as the tests compare it.
type entry struct {
	flags byte
	head  [2]byte // the start of HEAD's blob id, when tracked
}

// records lists a state's files in stored order.
func records(s *ScanState) []string {
	s.flush()
	var out []string
	for _, p := range s.pages {
		for i := 0; i < p.count(); i++ {
			f := p.record(i)
			e := entry{flags: f.flags & (flagTracked | flagListed)}
			if e.flags&flagTracked != 0 {
				copy(e.head[:], f.head[:])
			}
			out = append(out, fmt.Sprintf("%s %v", f.path, e))
		}
	}
	return out
}

// wantOrder sorts model entries the way pages hold them: by folder, then
// name; a folder's files are neighbours even when a subfolder's name sorts
// between them.
func wantOrder(model map[string]entry) []string {
	paths := make([]string, 0, len(model))
	for p := range model {
		paths = append(paths, p)
	}
	sort.Slice(paths, func(i, j int) bool {
		a, b := paths[i], paths[j]
		return compareKey([]byte(a), dirPart(a), []byte(b), dirPart(b)) < 0
	})
	out := make([]string, len(paths))
	for i, p := range paths {
		out[i] = fmt.Sprintf("%s %v", p, model[p])
	}
	return out
}

// A state edited at random (files tracked, untracked, listed, folders
// listed again) holds exactly what a plain map says, in folder order, and
// saving only its changed pieces and loading them back gives the same
// state. Catches: a page rewrite that loses or duplicates neighbours, a
// split that misorders pages, a dropped page left in the store, a change
// saved to the wrong row.
func TestAScanStateEditedAtRandomMatchesAMap(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(1, 2))
	dirs := []string{"", "notes", "notes/a", "notes/a b", "notes/a-b", "notes/a/z", "é"}
	model := map[string]entry{}
	st := &store{rows: map[int64]ScanPiece{}}
	s := NewScanState()
	for step := 0; step < 400; step++ {
		dir := dirs[rng.IntN(len(dirs))]
		switch op := rng.IntN(10); {
		case op < 6: // a burst of tracked files, as a first build or a pull
			for range 1 + rng.IntN(300) {
				p := joinRel(dir, fmt.Sprintf("n%03d.md", rng.IntN(900)))
				var blob plumbing.Hash
				blob[0], blob[1] = byte(rng.UintN(256)), byte(rng.UintN(256))
				s.Track(p, blob)
				e := model[p]
				e.flags |= flagTracked
				copy(e.head[:], blob[:])
				model[p] = e
			}
		case op < 8: // files leave HEAD
			for p, e := range model {
				if rng.IntN(4) == 0 {
					s.Untrack(p)
					if e.flags&flagListed != 0 {
						model[p] = entry{flags: flagListed}
					} else {
						delete(model, p)
					}
				}
			}
		default: // a folder listed again
			var names []string
			now := map[string]bool{}
			for k := range 40 {
				if rng.IntN(3) == 0 {
					name := fmt.Sprintf("n%03d.md", k*20)
					names = append(names, name)
					now[joinRel(dir, name)] = true
				}
			}
			s.setListed(dir, names)
			for p, e := range model {
				if parentDir(p) != dir || dirPart(p) != len(dir) {
					continue
				}
				switch {
				case now[p]:
					e.flags |= flagListed
					model[p] = e
				case e.flags&flagTracked != 0:
					e.flags &^= flagListed
					model[p] = e
				default:
					delete(model, p)
				}
			}
			for p := range now {
				if _, ok := model[p]; !ok {
					model[p] = entry{flags: flagListed}
				}
			}
		}
		if got, want := records(s), wantOrder(model); !slices.Equal(got, want) {
			t.Fatalf("step %d: %d records, want %d", step, len(got), len(want))
		}
		if rng.IntN(5) == 0 {
			st.save(s)
			s = st.load(t)
			if s.Changed() {
				t.Fatalf("step %d: a state just loaded says it changed", step)
			}
			if got, want := records(s), wantOrder(model); !slices.Equal(got, want) {
				t.Fatalf("step %d: after a reload %d records, want %d", step, len(got), len(want))
			}
		}
		for _, p := range s.pages {
			if p.count() > pageMax {
				t.Fatalf("step %d: a page of %d records", step, p.count())
			}
		}
	}
}

// A commit that changes one note rewrites one page of the working tree's
// state, whatever the size of the store. Catches: state stored as one
// value per store, rewritten on every refresh.
func TestOneChangedFileRewritesOnePage(t *testing.T) {
	t.Parallel()
	s := NewScanState()
	for i := range 20000 {
		s.Track(fmt.Sprintf("notes/d%02d/n%05d.md", i%37, i), plumbing.Hash{1})
	}
	st := &store{rows: map[int64]ScanPiece{}}
	st.save(s)
	if len(st.rows) < 40 {
		t.Fatalf("20,000 files in %d pieces", len(st.rows))
	}
	s = st.load(t)
	s.Track("notes/d05/n00005.md", plumbing.Hash{2})
	put, drop := s.Pieces()
	if len(put) != 1 || len(drop) != 0 || put[0].Head {
		t.Errorf("one changed file wrote %d pieces and dropped %d", len(put), len(drop))
	}
}

// A damaged page is an error, never a state that claims to know files.
func TestADamagedScanPageIsAnError(t *testing.T) {
	t.Parallel()
	s := NewScanState()
	for i := range 50 {
		s.Track(fmt.Sprintf("notes/n%02d.md", i), plumbing.Hash{1})
	}
	put, _ := s.Pieces()
	for _, p := range put {
		if p.Head {
			continue
		}
		for _, cut := range []int{0, 3, 4, 100, len(p.Data) - 1} {
			if _, err := LoadScanState([]ScanPiece{{ID: 1, Data: p.Data[:cut]}}); err == nil {
				t.Errorf("a page cut at %d of %d loaded", cut, len(p.Data))
			}
		}
	}
	if _, err := LoadScanState([]ScanPiece{{ID: 1, Head: true, Data: []byte("omhscanhead0")}}); err == nil {
		t.Error("a head of another encoding loaded")
	}
}

// headBytes is a head as the first release of the format wrote it.
const headBytes = "6f6d687363616e686561643105746f6b3a370200c001aab4aed8c7bfce972f0380808080802002056e6f746573046ec3a965056e6f7465730002000000020a2e67697469676e6f726501000000106e6f7465732f2e67697469676e6f7265d8040a0c07"

// A head is written and read byte for byte as before, so a cache made by an
// older omh loads. Catches: a change of codec that moves a length, a sign
// or the order of a field.
func TestAScanHeadKeepsItsBytes(t *testing.T) {
	t.Parallel()
	s := NewScanState()
	s.token = "tok:7"
	s.dirs[""] = seenDir{FileStat: FileStat{Size: 96, Mtime: 1700000000123456789, Ctime: -2, Ino: 1 << 40}, Dirs: []string{"notes", "n\u00e9e"}}
	s.dirs["notes"] = seenDir{FileStat: FileStat{Mtime: 1}}
	s.ignores[".gitignore"] = FileStat{Size: -1}
	s.ignores["notes/.gitignore"] = FileStat{Size: 300, Mtime: 5, Ctime: 6, Ino: 7}
	if got := hex.EncodeToString(s.encodeHead()); got != headBytes {
		t.Fatalf("head written as\n%s\nwant\n%s", got, headBytes)
	}
	data, _ := hex.DecodeString(headBytes)
	l, err := LoadScanState([]ScanPiece{{ID: 1, Head: true, Data: data}})
	if err != nil {
		t.Fatal(err)
	}
	if l.token != s.token || !maps.Equal(l.ignores, s.ignores) || len(l.dirs) != 2 ||
		l.dirs[""].FileStat != s.dirs[""].FileStat || !slices.Equal(l.dirs[""].Dirs, s.dirs[""].Dirs) ||
		l.dirs["notes"].FileStat != s.dirs["notes"].FileStat || len(l.dirs["notes"].Dirs) != 0 {
		t.Fatalf("head read as token %q, folders %v, ignore files %v", l.token, l.dirs, l.ignores)
	}
	for cut := range data {
		if _, err := LoadScanState([]ScanPiece{{ID: 1, Head: true, Data: data[:cut]}}); err == nil {
			t.Errorf("a head cut at %d of %d loaded", cut, len(data))
		}
	}
}
