package vault

import (
	"encoding/binary"
	"errors"
	"sort"

	"github.com/go-git/go-git/v5/plumbing"
)

// A scan state is read on every command, so it is stored in a compact binary
// form rather than as rows or JSON. Files are sorted by path and each is
// stored against the one before it: the path as the length it shares plus
// the rest, times and inode as differences, since files checked out or
// scanned together have neighbouring values. At 10,000 files that takes the
// state from 150 to about 70 bytes a file, and reading it is most of what a
// command on an unchanged store pays besides one stat per file.
const scanStateMagic = "omhscan3"

// MarshalBinary encodes the state deterministically (sorted by path).
func (s *ScanState) MarshalBinary() ([]byte, error) {
	// Sized for the files up front: growing a megabyte by doubling costs
	// more than encoding it.
	b := make([]byte, 0, 128*(len(s.files)+len(s.dirs))+1024)
	b = append(b, scanStateMagic...)
	b = binary.AppendUvarint(b, uint64(len(s.files)))
	var prev fileDelta
	for _, p := range sortedKeys(s.files) {
		b = prev.append(b, p, s.files[p])
	}
	b = binary.AppendUvarint(b, uint64(len(s.dirs)))
	for _, p := range sortedKeys(s.dirs) {
		d := s.dirs[p]
		b = appendString(b, p)
		b = appendStat(b, d.FileStat)
		b = appendStrings(b, d.Notes)
		b = appendStrings(b, d.Dirs)
	}
	b = binary.AppendUvarint(b, uint64(len(s.ignores)))
	for _, p := range sortedKeys(s.ignores) {
		b = appendString(b, p)
		b = appendStat(b, s.ignores[p])
	}
	return b, nil
}

var errBadScanState = errors.New("scan state is damaged")

// UnmarshalBinary decodes what MarshalBinary wrote. On error the state is
// left empty: the next scan then starts cold, which is slower, never wrong.
func (s *ScanState) UnmarshalBinary(data []byte) error {
	*s = *NewScanState()
	r := reader{b: data}
	if string(r.bytes(len(scanStateMagic))) != scanStateMagic {
		return errBadScanState
	}
	n := r.uvarint()
	if n > uint64(len(r.b)) {
		return errBadScanState
	}
	s.files = make(map[string]seenFile, n)
	var prev fileDelta
	for ; n > 0 && r.err == nil; n-- {
		p, f := prev.read(&r)
		s.files[p] = f
	}
	for n := r.uvarint(); n > 0 && r.err == nil; n-- {
		p := r.string()
		s.dirs[p] = seenDir{FileStat: r.stat(), Notes: r.strings(), Dirs: r.strings()}
	}
	for n := r.uvarint(); n > 0 && r.err == nil; n-- {
		p := r.string()
		s.ignores[p] = r.stat()
	}
	if r.err != nil || len(r.b) != 0 {
		*s = *NewScanState()
		return errBadScanState
	}
	return nil
}

// fileDelta is the file before, which the next is stored against.
type fileDelta struct {
	path                string
	mtime, ino, checked int64
}

func (d *fileDelta) append(b []byte, p string, f seenFile) []byte {
	shared := sharedPrefix(d.path, p)
	b = binary.AppendUvarint(b, uint64(shared))
	b = appendString(b, p[shared:])
	b = binary.AppendVarint(b, f.Size)
	b = binary.AppendVarint(b, f.Mtime-d.mtime)
	b = binary.AppendVarint(b, f.Ctime-f.Mtime)
	b = binary.AppendVarint(b, int64(f.Ino)-d.ino)
	b = binary.AppendVarint(b, f.Checked-d.checked)
	*d = fileDelta{p, f.Mtime, int64(f.Ino), f.Checked}
	return append(b, f.Blob[:]...)
}

func (d *fileDelta) read(r *reader) (string, seenFile) {
	shared := r.uvarint()
	if shared > uint64(len(d.path)) {
		r.fail()
		return "", seenFile{}
	}
	p := d.path[:shared] + r.string()
	var f seenFile
	f.Size = r.varint()
	f.Mtime = d.mtime + r.varint()
	f.Ctime = f.Mtime + r.varint()
	f.Ino = uint64(d.ino + r.varint())
	f.Checked = d.checked + r.varint()
	copy(f.Blob[:], r.bytes(len(f.Blob)))
	*d = fileDelta{p, f.Mtime, int64(f.Ino), f.Checked}
	return p, f
}

func sharedPrefix(a, b string) int {
	n := 0
	for n < len(a) && n < len(b) && a[n] == b[n] {
		n++
	}
	return n
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func appendString(b []byte, s string) []byte {
	b = binary.AppendUvarint(b, uint64(len(s)))
	return append(b, s...)
}

func appendStrings(b []byte, ss []string) []byte {
	b = binary.AppendUvarint(b, uint64(len(ss)))
	for _, s := range ss {
		b = appendString(b, s)
	}
	return b
}

func appendStat(b []byte, st FileStat) []byte {
	b = binary.AppendVarint(b, st.Size)
	b = binary.AppendVarint(b, st.Mtime)
	b = binary.AppendVarint(b, st.Ctime)
	return binary.AppendUvarint(b, st.Ino)
}

// reader decodes, remembering the first error so callers check once.
type reader struct {
	b   []byte
	err error
}

func (r *reader) fail() { r.err, r.b = errBadScanState, nil }

func (r *reader) bytes(n int) []byte {
	if r.err != nil || n < 0 || n > len(r.b) {
		r.fail()
		return nil
	}
	out := r.b[:n]
	r.b = r.b[n:]
	return out
}

func (r *reader) uvarint() uint64 {
	v, n := binary.Uvarint(r.b)
	if n <= 0 {
		r.fail()
		return 0
	}
	r.b = r.b[n:]
	return v
}

func (r *reader) varint() int64 {
	v, n := binary.Varint(r.b)
	if n <= 0 {
		r.fail()
		return 0
	}
	r.b = r.b[n:]
	return v
}

func (r *reader) string() string {
	n := r.uvarint()
	if n > uint64(len(r.b)) {
		r.fail()
		return ""
	}
	return string(r.bytes(int(n)))
}

func (r *reader) strings() []string {
	n := r.uvarint()
	if n > uint64(len(r.b)) {
		r.fail()
		return nil
	}
	out := make([]string, 0, n)
	for ; n > 0 && r.err == nil; n-- {
		out = append(out, r.string())
	}
	return out
}

func (r *reader) stat() FileStat {
	return FileStat{Size: r.varint(), Mtime: r.varint(), Ctime: r.varint(), Ino: r.uvarint()}
}

// TrackedFile is a note file in HEAD's tree: its repository-relative path
// and blob id.
type TrackedFile struct {
	Path string
	Blob plumbing.Hash
}

// TrackedList returns tracked's files sorted by path, the order LocalScan
// and EncodeTracked need.
func TrackedList(tracked map[string]plumbing.Hash) []TrackedFile {
	out := make([]TrackedFile, 0, len(tracked))
	for _, p := range sortedKeys(tracked) {
		out = append(out, TrackedFile{p, tracked[p]})
	}
	return out
}

// EncodeTracked packs files, sorted by path, each path stored as the length
// it shares with the previous one plus the rest.
func EncodeTracked(files []TrackedFile) []byte {
	b := make([]byte, 0, 64*len(files))
	prev := ""
	for _, f := range files {
		shared := sharedPrefix(prev, f.Path)
		b = binary.AppendUvarint(b, uint64(shared))
		b = appendString(b, f.Path[shared:])
		b = append(b, f.Blob[:]...)
		prev = f.Path
	}
	return b
}

// DecodeTracked reads what EncodeTracked wrote. It is read on every command
// that scans the working tree, so it builds a sorted list, which needs
// neither hashing nor sorting, rather than a map.
func DecodeTracked(data []byte) ([]TrackedFile, error) {
	// Entries take about 50 bytes; a low guess only costs growing.
	out := make([]TrackedFile, 0, len(data)/48)
	r := reader{b: data}
	prev := ""
	for len(r.b) > 0 && r.err == nil {
		shared := r.uvarint()
		if shared > uint64(len(prev)) {
			return nil, errBadScanState
		}
		p := prev[:shared] + r.string()
		if p <= prev && len(out) > 0 {
			return nil, errBadScanState // LocalScan's lookups rely on the order
		}
		f := TrackedFile{Path: p}
		copy(f.Blob[:], r.bytes(len(f.Blob)))
		out = append(out, f)
		prev = p
	}
	if r.err != nil {
		return nil, r.err
	}
	return out, nil
}
