package vault

import (
	"encoding/binary"
	"errors"
	"sort"

	"github.com/go-git/go-git/v5/plumbing"
)

// A scan state is read on every command, so it is stored in a compact binary
// form that decodes in about a millisecond per ten thousand files, rather
// than as rows or JSON.
const scanStateMagic = "omhscan2"

// MarshalBinary encodes the state deterministically (sorted by path).
func (s *ScanState) MarshalBinary() ([]byte, error) {
	b := []byte(scanStateMagic)
	b = binary.AppendUvarint(b, uint64(len(s.files)))
	for _, p := range sortedKeys(s.files) {
		f := s.files[p]
		b = appendString(b, p)
		b = appendStat(b, f.FileStat)
		b = binary.AppendVarint(b, f.Checked)
		b = append(b, f.Blob[:]...)
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
	for ; n > 0 && r.err == nil; n-- {
		p := r.string()
		f := seenFile{FileStat: r.stat(), Checked: r.varint()}
		copy(f.Blob[:], r.bytes(len(plumbing.ZeroHash)))
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

// EncodeTracked packs HEAD's note files (path → blob), sorted by path, each
// path stored as the length it shares with the previous one plus the rest.
func EncodeTracked(tracked map[string]plumbing.Hash) []byte {
	b := []byte{}
	prev := ""
	for _, p := range sortedKeys(tracked) {
		shared := 0
		for shared < len(p) && shared < len(prev) && p[shared] == prev[shared] {
			shared++
		}
		b = binary.AppendUvarint(b, uint64(shared))
		b = appendString(b, p[shared:])
		blob := tracked[p]
		b = append(b, blob[:]...)
		prev = p
	}
	return b
}

// DecodeTracked reads what EncodeTracked wrote.
func DecodeTracked(data []byte) (map[string]plumbing.Hash, error) {
	// Each entry takes at least 22 bytes: enough to size the map up front.
	out := make(map[string]plumbing.Hash, len(data)/22)
	r := reader{b: data}
	prev := ""
	for len(r.b) > 0 && r.err == nil {
		shared := r.uvarint()
		if shared > uint64(len(prev)) {
			return nil, errBadScanState
		}
		p := prev[:shared] + r.string()
		var blob plumbing.Hash
		copy(blob[:], r.bytes(len(blob)))
		out[p] = blob
		prev = p
	}
	if r.err != nil {
		return nil, r.err
	}
	return out, nil
}
