package localscan

import (
	"bytes"
	"encoding/binary"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
)

// A scan state is read on every command, so it is kept in the form a scan
// compares against: pages of fixed-size file records, each page one stored
// value, read without decoding and changed in place. A command on an
// unchanged store allocates nothing per file, and a change rewrites only the
// pages holding the files it touches (a one-note commit: one page, not the
// whole store's state).
//
// A page is a record count (uint32), the records, then the paths they point
// into. Records are sorted by folder, then by name, so the files of one
// folder are neighbours, and pages are ordered by their first record.
const (
	recPath  = 0  // uint32: where the path starts among the page's paths
	recLen   = 4  // uint16: the path's length
	recDir   = 6  // uint16: the length of its folder part; 0 at the top of the tree
	recFlags = 8  // one byte of flag* bits
	recHead  = 9  // HEAD's blob id, when flagTracked
	recWork  = 29 // the file's blob id, when flagPresent
	recSize  = 49 // the stat the blob id was computed for: size, mtime, ctime (ns), inode
	recMtime = 57
	recCtime = 65
	recIno   = 73
	recBytes = 81
)

const (
	flagTracked   = 1 << iota // HEAD holds the file; head is its blob id
	flagListed                // a listing of its folder found it a note (not ignored, not excluded)
	flagPresent               // it existed when last checked: stat and work are from then
	flagRacy                  // hashed too soon after it changed to trust its stat next time
	flagUnchecked             // added since the last scan: check it whatever a monitor says
)

// pageMax is the most records a page holds before it is split in two. A
// page is about 120 bytes a file, so a one-note change rewrites ~60 KB at
// most, and a 100,000-note store has a few hundred pages to read.
const pageMax = 512

var le = binary.LittleEndian

// page is one stored part of a state's files.
type page struct {
	id    int64 // the row it is stored in; 0 until stored
	b     []byte
	dirty bool
}

func (p *page) count() int { return int(le.Uint32(p.b)) }

func (p *page) rec(i int) []byte { return p.b[4+i*recBytes : 4+(i+1)*recBytes] }

func (p *page) path(i int) []byte {
	r := p.rec(i)
	start := 4 + p.count()*recBytes + int(le.Uint32(r[recPath:]))
	return p.b[start : start+int(le.Uint16(r[recLen:]))]
}

func (p *page) dirLen(i int) int { return int(le.Uint16(p.rec(i)[recDir:])) }

// valid checks that every record points inside the page, so a damaged
// page is an error rather than a panic.
func (p *page) valid() bool {
	if len(p.b) < 4 {
		return false
	}
	n := p.count()
	if n == 0 || n > (len(p.b)-4)/recBytes {
		return false
	}
	strs := len(p.b) - 4 - n*recBytes
	for i := 0; i < n; i++ {
		r := p.rec(i)
		start, length, dir := int(le.Uint32(r[recPath:])), int(le.Uint16(r[recLen:])), int(le.Uint16(r[recDir:]))
		if start+length > strs || dir >= length || length == 0 {
			return false
		}
	}
	return true
}

// fileRec is one record taken out of its page, for edits that add or
// remove records.
type fileRec struct {
	path       string
	dir        int // length of the folder part
	flags      byte
	head, work plumbing.Hash
	stat       FileStat
}

func (p *page) record(i int) fileRec {
	r := p.rec(i)
	f := fileRec{path: string(p.path(i)), dir: p.dirLen(i), flags: r[recFlags], stat: recStat(r)}
	copy(f.head[:], r[recHead:])
	copy(f.work[:], r[recWork:])
	return f
}

func recStat(r []byte) FileStat {
	return FileStat{Size: int64(le.Uint64(r[recSize:])), Mtime: int64(le.Uint64(r[recMtime:])),
		Ctime: int64(le.Uint64(r[recCtime:])), Ino: le.Uint64(r[recIno:])}
}

func putStat(r []byte, st FileStat) {
	le.PutUint64(r[recSize:], uint64(st.Size))
	le.PutUint64(r[recMtime:], uint64(st.Mtime))
	le.PutUint64(r[recCtime:], uint64(st.Ctime))
	le.PutUint64(r[recIno:], st.Ino)
}

// encodePage packs records, already sorted, into one page.
func encodePage(recs []fileRec) []byte {
	strs := 0
	for _, f := range recs {
		strs += len(f.path)
	}
	b := make([]byte, 4+len(recs)*recBytes, 4+len(recs)*recBytes+strs)
	le.PutUint32(b, uint32(len(recs)))
	off := 0
	for i, f := range recs {
		r := b[4+i*recBytes:]
		le.PutUint32(r[recPath:], uint32(off))
		le.PutUint16(r[recLen:], uint16(len(f.path)))
		le.PutUint16(r[recDir:], uint16(f.dir))
		r[recFlags] = f.flags
		copy(r[recHead:], f.head[:])
		copy(r[recWork:], f.work[:])
		putStat(r, f.stat)
		off += len(f.path)
	}
	for _, f := range recs {
		b = append(b, f.path...)
	}
	return b
}

// dirPart is the length of a path's folder part: 0 for a file at the top.
func dirPart(p string) int { return max(strings.LastIndexByte(p, '/'), 0) }

// compareKey orders files by folder, then name.
func compareKey(a []byte, aDir int, b []byte, bDir int) int {
	if c := bytes.Compare(a[:aDir], b[:bDir]); c != 0 {
		return c
	}
	return bytes.Compare(nameAt(a, aDir), nameAt(b, bDir))
}

func nameAt(p []byte, dir int) []byte {
	if dir == 0 {
		return p
	}
	return p[dir+1:]
}
