package localscan

import (
	"bytes"
	"encoding/binary"
	"errors"
	"slices"
	"sort"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/omh-notes/omh/internal/varint"
)

// seenDir is a folder as the last scan listed it.
type seenDir struct {
	FileStat
	Dirs []string // names of subfolders worth descending into
}

// ScanState is what scans of one tree remember between commands: for the
// working tree, every file HEAD holds under the notes root and every note a
// folder listing found, with the stat and blob id each had when last
// checked; for the private folder, its notes. The cache stores it as pieces
// (see Pieces) and hands them back to LoadScanState.
type ScanState struct {
	pages   []*page
	dropped []int64             // rows of pages that no longer exist
	pending map[string]*fileRec // records to add, replace or (nil) remove at the next flush
	dirs    map[string]seenDir  // by path; "" is the top of the tree
	ignores map[string]FileStat // ignore files consulted; Size -1 when absent
	token   string              // the file system monitor's token the files were checked at
	headID  int64               // the row of the head piece
	// headDirty: folders, ignore files or the token changed. A token that
	// moved while nothing else did is not worth a write: the monitor
	// reports the same changes again since the older token.
	headDirty, tokenMoved bool
}

// NewScanState is the state of a scan that has never run.
func NewScanState() *ScanState {
	return &ScanState{pending: map[string]*fileRec{}, dirs: map[string]seenDir{}, ignores: map[string]FileStat{}}
}

// ScanPiece is one stored part of a scan state: its head (folders, ignore
// files, monitor token) or one page of files. ID is the row it is stored
// in, 0 for a piece not stored yet.
type ScanPiece struct {
	ID   int64
	Head bool
	Data []byte
}

var errBadScanState = errors.New("scan state is damaged")

// LoadScanState builds a state from its stored pieces, in any order. The
// pieces' data is kept, not copied. A piece that does not decode is an
// error: the state also says which files HEAD holds, so it cannot simply be
// forgotten.
func LoadScanState(pieces []ScanPiece) (*ScanState, error) {
	s := NewScanState()
	for _, pc := range pieces {
		if pc.Head {
			if s.headID != 0 || !s.decodeHead(pc.Data) {
				return nil, errBadScanState
			}
			s.headID = pc.ID
			continue
		}
		p := &page{id: pc.ID, b: pc.Data}
		if !p.valid() {
			return nil, errBadScanState
		}
		s.pages = append(s.pages, p)
	}
	sort.Slice(s.pages, func(i, j int) bool {
		a, b := s.pages[i], s.pages[j]
		return compareKey(a.path(0), a.dirLen(0), b.path(0), b.dirLen(0)) < 0
	})
	return s, nil
}

// Changed reports whether the state differs from what was loaded.
func (s *ScanState) Changed() bool {
	if s.headDirty || len(s.pending) > 0 || len(s.dropped) > 0 {
		return true
	}
	for _, p := range s.pages {
		if p.dirty || p.id == 0 {
			return true
		}
	}
	return false
}

// Pieces returns what changed since the state was loaded: pieces to write
// (ID 0: a new row) and rows to delete. A state is saved once.
func (s *ScanState) Pieces() (put []ScanPiece, drop []int64) {
	s.flush()
	for _, p := range s.pages {
		if p.dirty || p.id == 0 {
			put = append(put, ScanPiece{ID: p.id, Data: p.b})
		}
	}
	if s.headDirty || (s.tokenMoved && len(put)+len(s.dropped) > 0) || s.headID == 0 {
		put = append(put, ScanPiece{ID: s.headID, Head: true, Data: s.encodeHead()})
	}
	return put, s.dropped
}

// Files counts the files the state remembers.
func (s *ScanState) Files() int {
	s.flush()
	n := 0
	for _, p := range s.pages {
		n += p.count()
	}
	return n
}

// Track records that HEAD holds the file at path (relative to the tree's
// top) with this blob id.
func (s *ScanState) Track(path string, blob plumbing.Hash) {
	f, ok := s.lookup(path)
	if ok && f.flags&flagTracked != 0 && f.head == blob {
		return
	}
	if !ok {
		f = fileRec{path: path, dir: dirPart(path), flags: flagUnchecked}
	}
	f.flags |= flagTracked
	f.head = blob
	s.pending[path] = &f
}

// Untrack records that HEAD no longer holds the file at path.
func (s *ScanState) Untrack(path string) {
	f, ok := s.lookup(path)
	if !ok || f.flags&flagTracked == 0 {
		return
	}
	f.flags &^= flagTracked
	if f.flags&flagListed == 0 {
		s.pending[path] = nil
		return
	}
	s.pending[path] = &f
}

// lookup finds a record, pending edits first.
func (s *ScanState) lookup(path string) (fileRec, bool) {
	if f, ok := s.pending[path]; ok {
		if f == nil {
			return fileRec{}, false
		}
		return *f, true
	}
	if p, i, ok := s.find([]byte(path), dirPart(path)); ok {
		return p.record(i), true
	}
	return fileRec{}, false
}

// find locates a stored record by key, or where it would go.
func (s *ScanState) find(key []byte, dir int) (*page, int, bool) {
	pi := s.pageFor(key, dir)
	if pi < 0 {
		return nil, 0, false
	}
	p := s.pages[pi]
	i, found := sort.Find(p.count(), func(i int) int { return compareKey(key, dir, p.path(i), p.dirLen(i)) })
	return p, i, found
}

// pageFor is the index of the last page whose first record is not after
// the key; the first page for a key before every page; -1 with no pages.
func (s *ScanState) pageFor(key []byte, dir int) int {
	if len(s.pages) == 0 {
		return -1
	}
	i := sort.Search(len(s.pages), func(i int) bool {
		p := s.pages[i]
		return compareKey(p.path(0), p.dirLen(0), key, dir) > 0
	})
	return max(i-1, 0)
}

// flush applies the pending edits, rewriting only the pages they fall in.
func (s *ScanState) flush() {
	if len(s.pending) == 0 {
		return
	}
	keys := make([]editKey, 0, len(s.pending))
	for k := range s.pending {
		keys = append(keys, editKey{k, []byte(k), dirPart(k)})
	}
	slices.SortFunc(keys, func(a, b editKey) int { return compareKey(a.b, a.dir, b.b, b.dir) })
	byPage := map[int][]editKey{}
	for _, k := range keys {
		pi := max(s.pageFor(k.b, k.dir), 0)
		byPage[pi] = append(byPage[pi], k)
	}
	var pages []*page
	for pi := 0; pi < max(len(s.pages), 1); pi++ {
		edits, touched := byPage[pi]
		var old *page
		if pi < len(s.pages) {
			old = s.pages[pi]
		}
		if !touched {
			pages = append(pages, old)
			continue
		}
		pages = append(pages, s.rewrite(old, edits)...)
	}
	s.pages = pages
	clear(s.pending)
}

// editKey is a pending edit's path, as bytes for comparing with pages.
type editKey struct {
	k   string
	b   []byte
	dir int
}

// rewrite merges edits (sorted keys of s.pending) into page p (nil for
// none) and returns the pages that replace it: none when it empties, more
// than one when it outgrows pageMax.
func (s *ScanState) rewrite(p *page, edits []editKey) []*page {
	var recs []fileRec
	n := 0
	if p != nil {
		n = p.count()
	}
	i := 0
	for _, k := range edits {
		for i < n && compareKey(p.path(i), p.dirLen(i), k.b, k.dir) < 0 {
			recs = append(recs, p.record(i))
			i++
		}
		if i < n && compareKey(p.path(i), p.dirLen(i), k.b, k.dir) == 0 {
			i++ // replaced or removed
		}
		if f := s.pending[k.k]; f != nil {
			recs = append(recs, *f)
		}
	}
	for ; i < n; i++ {
		recs = append(recs, p.record(i))
	}
	if len(recs) == 0 {
		if p != nil && p.id != 0 {
			s.dropped = append(s.dropped, p.id)
		}
		return nil
	}
	parts := (len(recs) + pageMax - 1) / pageMax
	if len(recs) > pageMax {
		parts = (len(recs) + pageMax/2 - 1) / (pageMax / 2)
	}
	var out []*page
	for k := 0; k < parts; k++ {
		lo, hi := k*len(recs)/parts, (k+1)*len(recs)/parts
		np := &page{b: encodePage(recs[lo:hi]), dirty: true}
		if k == 0 && p != nil {
			np.id = p.id
		}
		out = append(out, np)
	}
	return out
}

// folderRange calls fn for each stored record directly in folder dir, in
// name order.
func (s *ScanState) folderRange(dir string, fn func(p *page, i int)) {
	dirb := []byte(dir)
	key := []byte(dir + "/")
	d := len(dir)
	if dir == "" {
		key, d = nil, 0
	}
	pi := s.pageFor(key, d)
	if pi < 0 {
		return
	}
	for ; pi < len(s.pages); pi++ {
		p := s.pages[pi]
		i, _ := sort.Find(p.count(), func(i int) int { return compareKey(key, d, p.path(i), p.dirLen(i)) })
		for ; i < p.count(); i++ {
			if p.dirLen(i) != len(dir) || !bytes.Equal(p.path(i)[:len(dir)], dirb) {
				return
			}
			fn(p, i)
		}
	}
}

// setListed makes the notes listed in folder dir exactly names (sorted): a
// listed file no longer there loses the flag (and its record, unless HEAD
// holds it), a new one gets a record to be checked.
func (s *ScanState) setListed(dir string, names []string) {
	s.flush()
	j := 0
	s.folderRange(dir, func(p *page, i int) {
		name := string(nameAt(p.path(i), p.dirLen(i)))
		for j < len(names) && names[j] < name {
			s.addListed(dir, names[j])
			j++
		}
		r := p.rec(i)
		listed := j < len(names) && names[j] == name
		if listed {
			j++
		}
		switch was := r[recFlags]&flagListed != 0; {
		case listed == was:
		case listed:
			r[recFlags] |= flagListed
			p.dirty = true
		case r[recFlags]&flagTracked == 0:
			s.pending[string(p.path(i))] = nil
		default:
			r[recFlags] &^= flagListed
			p.dirty = true
		}
	})
	for ; j < len(names); j++ {
		s.addListed(dir, names[j])
	}
}

func (s *ScanState) addListed(dir, name string) {
	p := name
	if dir != "" {
		p = dir + "/" + name
	}
	s.pending[p] = &fileRec{path: p, dir: len(dir), flags: flagListed | flagUnchecked}
}

// forgetFolders drops every folder listing, so the next walk lists every
// folder again (the ignore rules they were made under changed). Files keep
// what was learnt of them until the listings say whether they stay.
func (s *ScanState) forgetFolders() {
	s.flush()
	for _, p := range s.pages {
		for i := 0; i < p.count(); i++ {
			if r := p.rec(i); r[recFlags]&flagListed != 0 {
				r[recFlags] = r[recFlags]&^flagListed | flagUnchecked
				p.dirty = true
			}
		}
	}
	s.dirs = map[string]seenDir{}
	s.ignores = map[string]FileStat{}
	s.headDirty = true
}

// sweep removes the records neither HEAD holds nor a listing found.
func (s *ScanState) sweep() {
	s.flush()
	for _, p := range s.pages {
		for i := 0; i < p.count(); i++ {
			if p.rec(i)[recFlags]&(flagTracked|flagListed) == 0 {
				s.pending[string(p.path(i))] = nil
			}
		}
	}
	s.flush()
}

// dropDir forgets folder dir and every folder below it, with their listings.
func (s *ScanState) dropDir(dir string) {
	for d := range s.dirs {
		if d == dir || strings.HasPrefix(d, dir+"/") || dir == "" {
			delete(s.dirs, d)
			s.setListed(d, nil)
		}
	}
	s.headDirty = true
}

func (s *ScanState) setToken(token string) {
	if token != s.token {
		s.token = token
		s.tokenMoved = true
	}
}

const scanHeadMagic = "omhscanhead1"

// encodeHead writes the folders, ignore files and token, sorted.
func (s *ScanState) encodeHead() []byte {
	b := append([]byte(nil), scanHeadMagic...)
	b = varint.AppendText(b, s.token)
	b = binary.AppendUvarint(b, uint64(len(s.dirs)))
	for _, p := range sortedKeys(s.dirs) {
		d := s.dirs[p]
		b = varint.AppendText(b, p)
		b = appendStat(b, d.FileStat)
		b = varint.AppendTexts(b, d.Dirs)
	}
	b = binary.AppendUvarint(b, uint64(len(s.ignores)))
	for _, p := range sortedKeys(s.ignores) {
		b = varint.AppendText(b, p)
		b = appendStat(b, s.ignores[p])
	}
	return b
}

func (s *ScanState) decodeHead(data []byte) bool {
	r := varint.NewReader(data)
	if string(r.Bytes(len(scanHeadMagic))) != scanHeadMagic {
		return false
	}
	s.token = r.Text()
	for n := r.Uvarint(); n > 0 && r.Err() == nil; n-- {
		p := r.Text()
		s.dirs[p] = seenDir{FileStat: readStat(r), Dirs: r.Texts()}
	}
	for n := r.Uvarint(); n > 0 && r.Err() == nil; n-- {
		p := r.Text()
		s.ignores[p] = readStat(r)
	}
	return r.Err() == nil && r.Len() == 0
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func appendStat(b []byte, st FileStat) []byte {
	b = binary.AppendVarint(b, st.Size)
	b = binary.AppendVarint(b, st.Mtime)
	b = binary.AppendVarint(b, st.Ctime)
	return binary.AppendUvarint(b, st.Ino)
}

func readStat(r *varint.Reader) FileStat {
	return FileStat{Size: r.Varint(), Mtime: r.Varint(), Ctime: r.Varint(), Ino: r.Uvarint()}
}
