// Package varint reads and writes the compact records omh's caches keep:
// numbers as Go's binary varints, texts and lists led by their length.
package varint

import (
	"encoding/binary"
	"errors"
)

// ErrDamaged is a Reader's error: the bytes end inside a value, or a
// length runs past the bytes left.
var ErrDamaged = errors.New("damaged varint record")

// AppendText appends s led by its length.
func AppendText(b []byte, s string) []byte {
	b = binary.AppendUvarint(b, uint64(len(s)))
	return append(b, s...)
}

// AppendTexts appends the list's length, then each text as AppendText.
func AppendTexts(b []byte, ss []string) []byte {
	b = binary.AppendUvarint(b, uint64(len(ss)))
	for _, s := range ss {
		b = AppendText(b, s)
	}
	return b
}

// Reader decodes a record and remembers its first error, so that a caller
// reads every field and checks once. After an error it holds no bytes and
// every read returns the zero value.
type Reader struct {
	b   []byte
	err error
}

// NewReader reads b, which it does not copy.
func NewReader(b []byte) *Reader { return &Reader{b: b} }

// Err is the first error met, or nil.
func (r *Reader) Err() error { return r.err }

// Len is the number of bytes not read yet: a whole record leaves none.
func (r *Reader) Len() int { return len(r.b) }

func (r *Reader) fail() {
	if r.err == nil {
		r.err = ErrDamaged
	}
	r.b = nil
}

// Uvarint reads an unsigned varint.
func (r *Reader) Uvarint() uint64 {
	v, n := binary.Uvarint(r.b)
	if n <= 0 {
		r.fail()
		return 0
	}
	r.b = r.b[n:]
	return v
}

// Varint reads a signed varint.
func (r *Reader) Varint() int64 {
	v, n := binary.Varint(r.b)
	if n <= 0 {
		r.fail()
		return 0
	}
	r.b = r.b[n:]
	return v
}

// Int reads a signed varint as an int.
func (r *Reader) Int() int { return int(r.Varint()) }

// Bytes reads the next n bytes as they are, without a copy.
func (r *Reader) Bytes(n int) []byte {
	if n < 0 || n > len(r.b) {
		r.fail()
		return nil
	}
	out := r.b[:n]
	r.b = r.b[n:]
	return out
}

// Text reads a text written by AppendText.
func (r *Reader) Text() string {
	n := r.Uvarint()
	if n > uint64(len(r.b)) {
		r.fail()
		return ""
	}
	return string(r.Bytes(int(n)))
}

// Count reads a list's length. Each item takes at least a byte, so a
// length past the bytes left is damage, caught before anything is
// allocated for it.
func (r *Reader) Count() int {
	n := r.Uvarint()
	if n > uint64(len(r.b)) {
		r.fail()
		return 0
	}
	return int(n)
}

// Texts reads a list written by AppendTexts; an empty list is nil.
func (r *Reader) Texts() []string {
	n := r.Count()
	if n == 0 {
		return nil
	}
	out := make([]string, n)
	for i := range out {
		out[i] = r.Text()
	}
	return out
}
