package gitrepo

import (
	"bufio"
	"bytes"
	"compress/zlib"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"

	"github.com/go-git/go-git/v5/plumbing"
)

// packs reads objects from git's pack files by looking each up in its
// pack's index file where it lies. go-git, on the first object a process
// reads, decodes the whole index (read 4 bytes a syscall, hashed with
// collision detection) and maps every object's offset: at 10,000 notes a
// quarter of building one reply's cards. Here a lookup reads the index's
// fan-out once, then the names under the object's first byte and its
// offset. What this does not serve (loose objects, a pack changed or cut,
// an object past largeObject) it reports not found, for go-git to read.
type packs struct {
	dir string

	mu     sync.Mutex
	listed bool
	list   []*pack
	bases  bases // shared by the packs listed
}

// pack is one pack file and its index.
type pack struct {
	idx, data *os.File
	fanout    [256]uint32
	bases     *bases
}

// bases are objects delta chains went through, by pack and offset, at
// most basesHeld bytes of them in all.
type bases struct {
	mu   sync.Mutex
	objs map[baseAt]packed
	held int // their bytes
}

type baseAt struct {
	p   *pack
	off int64
}

// packed is an object's type and content.
type packed struct {
	typ     plumbing.ObjectType
	content []byte
}

// basesHeld bounds the bytes of the objects kept from delta chains:
// reading notes one after another walks chains that share their bases, as
// go-git's object cache spares it.
const basesHeld = 8 << 20

// maxChain bounds a delta chain (git writes at most 4,095 deep).
const maxChain = 10000

var errNotServed = errors.New("not in a pack omh reads itself")

// read returns object h when a pack holds it as an object of type t
// (plumbing.AnyObject: any) no larger than largeObject, else errNotServed
// or what went wrong reading it.
func (ps *packs) read(t plumbing.ObjectType, h plumbing.Hash) (packed, error) {
	for _, p := range ps.packs() {
		off, ok, err := p.find(h)
		if err != nil {
			return packed{}, err
		}
		if !ok {
			continue
		}
		obj, err := p.object(off)
		if err != nil {
			return packed{}, err
		}
		if t != plumbing.AnyObject && obj.typ != t {
			return packed{}, errNotServed
		}
		return obj, nil
	}
	return packed{}, errNotServed
}

// packs lists and opens the pack files the first time they are needed.
func (ps *packs) packs() []*pack {
	ps.mu.Lock()
	defer ps.mu.Unlock()
	if !ps.listed {
		ps.listed = true
		entries, _ := os.ReadDir(ps.dir) // unreadable: none, go-git says why
		for _, e := range entries {
			if name, ok := strings.CutSuffix(e.Name(), ".pack"); ok {
				if p, err := openPack(filepath.Join(ps.dir, name)); err == nil {
					p.bases = &ps.bases
					ps.list = append(ps.list, p)
				}
			}
		}
	}
	return ps.list
}

// close closes the packs; the next read lists them again.
func (ps *packs) close() {
	ps.mu.Lock()
	defer ps.mu.Unlock()
	for _, p := range ps.list {
		p.idx.Close()
		p.data.Close()
	}
	ps.list, ps.listed = nil, false
	ps.bases.mu.Lock()
	ps.bases.objs, ps.bases.held = nil, 0
	ps.bases.mu.Unlock()
}

// Layout of a version 2 pack index: a header, 256 cumulative counts by
// first byte, then the sorted names, their CRCs, their 4-byte offsets and
// the 8-byte offsets those point to when their top bit is set.
const (
	idxHeader = 8
	idxNames  = idxHeader + 256*4
	hashSize  = 20
)

func openPack(base string) (*pack, error) {
	idx, err := os.Open(base + ".idx")
	if err != nil {
		return nil, err
	}
	data, err := os.Open(base + ".pack")
	if err != nil {
		idx.Close()
		return nil, err
	}
	p := &pack{idx: idx, data: data}
	if err := p.readFanout(); err != nil {
		idx.Close()
		data.Close()
		return nil, err
	}
	return p, nil
}

func (p *pack) readFanout() error {
	head := make([]byte, idxNames)
	if _, err := p.idx.ReadAt(head, 0); err != nil {
		return err
	}
	if !bytes.Equal(head[:idxHeader], []byte{0xff, 't', 'O', 'c', 0, 0, 0, 2}) {
		return fmt.Errorf("%s: not a version 2 pack index", p.idx.Name())
	}
	for i := range p.fanout {
		p.fanout[i] = binary.BigEndian.Uint32(head[idxHeader+4*i:])
	}
	sig := make([]byte, 12)
	if _, err := p.data.ReadAt(sig, 0); err != nil {
		return err
	}
	if string(sig[:4]) != "PACK" || binary.BigEndian.Uint32(sig[4:]) != 2 && binary.BigEndian.Uint32(sig[4:]) != 3 {
		return fmt.Errorf("%s: not a pack file", p.data.Name())
	}
	return nil
}

// find looks h up in the index: its offset in the pack, if it is there.
func (p *pack) find(h plumbing.Hash) (int64, bool, error) {
	lo, hi := uint32(0), p.fanout[h[0]]
	if h[0] > 0 {
		lo = p.fanout[h[0]-1]
	}
	if hi <= lo {
		return 0, false, nil
	}
	names := make([]byte, (hi-lo)*hashSize)
	if _, err := p.idx.ReadAt(names, idxNames+int64(lo)*hashSize); err != nil {
		return 0, false, fmt.Errorf("reading %s: %w", p.idx.Name(), err)
	}
	n := int(hi - lo)
	i := sort.Search(n, func(i int) bool { return bytes.Compare(names[i*hashSize:(i+1)*hashSize], h[:]) >= 0 })
	if i == n || !bytes.Equal(names[i*hashSize:(i+1)*hashSize], h[:]) {
		return 0, false, nil
	}
	count := int64(p.fanout[255])
	at := int64(lo) + int64(i)
	var word [8]byte
	offsets := idxNames + count*(hashSize+4)
	if _, err := p.idx.ReadAt(word[:4], offsets+at*4); err != nil {
		return 0, false, fmt.Errorf("reading %s: %w", p.idx.Name(), err)
	}
	off := int64(binary.BigEndian.Uint32(word[:4]))
	if off&(1<<31) != 0 {
		large := offsets + count*4 + (off&(1<<31-1))*8
		if _, err := p.idx.ReadAt(word[:], large); err != nil {
			return 0, false, fmt.Errorf("reading %s: %w", p.idx.Name(), err)
		}
		off = int64(binary.BigEndian.Uint64(word[:]))
	}
	return off, true, nil
}

// Pack object types.
const (
	ofsDelta = 6 // a delta on the object at a smaller offset
	refDelta = 7 // a delta on the object of a given name
)

// object reads the object at off, following its delta chain down to a
// whole object (or one kept from an earlier chain) and applying the deltas
// back up. Each object below the one asked for is kept: the base of
// other chains too, often.
func (p *pack) object(off int64) (packed, error) {
	var deltas [][]byte
	var offs []int64 // offs[i]: where the object deltas[i] makes lies
	var whole packed
	z := inflaters.Get().(*inflater)
	defer inflaters.Put(z)
	for {
		if base, ok := p.base(off); ok {
			whole = base
			break
		}
		if len(deltas) > maxChain {
			return packed{}, fmt.Errorf("%s: a delta chain longer than %d", p.data.Name(), maxChain)
		}
		typ, size, start, baseOff, err := p.header(off)
		if err != nil {
			return packed{}, err
		}
		if size > largeObject {
			return packed{}, errNotServed
		}
		data, err := z.inflate(p.data, start, size)
		if err != nil {
			return packed{}, fmt.Errorf("reading %s at %d: %w", p.data.Name(), off, err)
		}
		if typ < ofsDelta {
			whole = packed{plumbing.ObjectType(typ), data}
			if len(deltas) > 0 {
				p.keep(off, whole)
			}
			break
		}
		deltas, offs = append(deltas, data), append(offs, off)
		off = baseOff
	}
	for i := len(deltas) - 1; i >= 0; i-- {
		content, err := applyDelta(whole.content, deltas[i])
		if err != nil {
			return packed{}, fmt.Errorf("%s at %d: %w", p.data.Name(), offs[i], err)
		}
		if content == nil {
			return packed{}, errNotServed
		}
		whole.content = content
		if i > 0 {
			p.keep(offs[i], whole)
		}
	}
	return whole, nil
}

// header reads the object header at off: its type, its (inflated) size,
// where its data starts and, for a delta, its base's offset.
func (p *pack) header(off int64) (typ int, size, start, baseOff int64, err error) {
	var buf [32 + hashSize]byte
	n, err := p.data.ReadAt(buf[:], off)
	if n == 0 {
		return 0, 0, 0, 0, fmt.Errorf("reading %s at %d: %w", p.data.Name(), off, err)
	}
	b := buf[:n]
	cut := fmt.Errorf("%s: the object at %d is cut short", p.data.Name(), off)
	c, i := b[0], 1
	typ, size = int(c>>4&7), int64(c&15)
	for shift := 4; c&0x80 != 0; shift += 7 {
		if i == len(b) || shift > 56 {
			return 0, 0, 0, 0, cut
		}
		c = b[i]
		i++
		size |= int64(c&0x7f) << shift
	}
	switch typ {
	case 1, 2, 3, 4:
	case ofsDelta:
		if i == len(b) {
			return 0, 0, 0, 0, cut
		}
		c = b[i]
		i++
		back := int64(c & 0x7f)
		for c&0x80 != 0 {
			if i == len(b) || back > 1<<48 {
				return 0, 0, 0, 0, cut
			}
			c = b[i]
			i++
			back = (back+1)<<7 | int64(c&0x7f)
		}
		if back <= 0 || back > off {
			return 0, 0, 0, 0, fmt.Errorf("%s: the delta at %d points outside the pack", p.data.Name(), off)
		}
		baseOff = off - back
	case refDelta:
		if i+hashSize > len(b) {
			return 0, 0, 0, 0, cut
		}
		var base plumbing.Hash
		copy(base[:], b[i:i+hashSize])
		i += hashSize
		o, ok, err := p.find(base)
		if err != nil {
			return 0, 0, 0, 0, err
		}
		if !ok {
			return 0, 0, 0, 0, errNotServed // its base is elsewhere: go-git's to find
		}
		baseOff = o
		typ = ofsDelta
	default:
		return 0, 0, 0, 0, fmt.Errorf("%s: an object of unknown type %d at %d", p.data.Name(), typ, off)
	}
	return typ, size, off + int64(i), baseOff, nil
}

// base is an object kept from an earlier delta chain.
func (p *pack) base(off int64) (packed, bool) {
	b := p.bases
	b.mu.Lock()
	defer b.mu.Unlock()
	obj, ok := b.objs[baseAt{p, off}]
	return obj, ok
}

// keep holds the object at off for other chains through it, forgetting
// all when they would pass basesHeld.
func (p *pack) keep(off int64, obj packed) {
	if len(obj.content) > basesHeld/4 {
		return
	}
	b := p.bases
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.held+len(obj.content) > basesHeld || b.objs == nil {
		b.objs, b.held = map[baseAt]packed{}, 0
	}
	if _, ok := b.objs[baseAt{p, off}]; !ok {
		b.objs[baseAt{p, off}] = obj
		b.held += len(obj.content)
	}
}

// inflaters are reused across objects: each zlib reader holds a 32 KiB
// window, a sixth of what building one reply's cards allocated.
var inflaters = sync.Pool{New: func() any { return &inflater{} }}

// inflater is a zlib reader and its buffer, reset for each object.
type inflater struct {
	buf *bufio.Reader
	zr  io.ReadCloser
}

// inflate reads size bytes of zlib data starting at off in f.
func (z *inflater) inflate(f *os.File, off, size int64) ([]byte, error) {
	src := io.NewSectionReader(f, off, 1<<62)
	if z.buf == nil {
		z.buf = bufio.NewReaderSize(src, 4096)
	} else {
		z.buf.Reset(src)
	}
	var err error
	if z.zr == nil {
		z.zr, err = zlib.NewReader(z.buf)
	} else {
		err = z.zr.(zlib.Resetter).Reset(z.buf, nil)
	}
	if err != nil {
		return nil, err
	}
	out := make([]byte, size)
	if _, err := io.ReadFull(z.zr, out); err != nil {
		return nil, err
	}
	return out, nil
}

// applyDelta builds an object from its base and a delta: the two sizes,
// then instructions that copy a run of the base or insert the bytes that
// follow. A result past largeObject is nil, for go-git to stream.
func applyDelta(base, delta []byte) ([]byte, error) {
	bad := errors.New("a delta that does not fit its base")
	srcSize, delta, ok := deltaSize(delta)
	if !ok || srcSize != uint64(len(base)) {
		return nil, bad
	}
	dstSize, delta, ok := deltaSize(delta)
	if !ok {
		return nil, bad
	}
	if dstSize > largeObject {
		return nil, nil
	}
	out := make([]byte, 0, dstSize)
	for len(delta) > 0 {
		op := delta[0]
		delta = delta[1:]
		switch {
		case op&0x80 != 0:
			var off, n uint64
			for i := range 7 {
				if op&(1<<i) == 0 {
					continue
				}
				if len(delta) == 0 {
					return nil, bad
				}
				if i < 4 {
					off |= uint64(delta[0]) << (8 * i)
				} else {
					n |= uint64(delta[0]) << (8 * (i - 4))
				}
				delta = delta[1:]
			}
			if n == 0 {
				n = 0x10000
			}
			if off+n > uint64(len(base)) || uint64(len(out))+n > dstSize {
				return nil, bad
			}
			out = append(out, base[off:off+n]...)
		case op != 0:
			n := int(op)
			if n > len(delta) || uint64(len(out)+n) > dstSize {
				return nil, bad
			}
			out = append(out, delta[:n]...)
			delta = delta[n:]
		default:
			return nil, bad
		}
	}
	if uint64(len(out)) != dstSize {
		return nil, bad
	}
	return out, nil
}

// deltaSize reads a delta's little-endian base-128 size.
func deltaSize(b []byte) (uint64, []byte, bool) {
	var size uint64
	for i, c := range b {
		if i > 9 {
			break
		}
		size |= uint64(c&0x7f) << (7 * i)
		if c&0x80 == 0 {
			return size, b[i+1:], true
		}
	}
	return 0, nil, false
}
