package varint

import (
	"encoding/binary"
	"errors"
	"reflect"
	"testing"
)

func record() []byte {
	b := binary.AppendUvarint(nil, 300)
	b = binary.AppendVarint(b, -7)
	b = AppendText(b, "walrus")
	b = AppendTexts(b, []string{"heron", "", "otter"})
	b = AppendTexts(b, nil)
	return append(b, "end"...)
}

// What the Append functions write reads back field by field and leaves
// nothing over.
func TestARecordReadsBack(t *testing.T) {
	r := NewReader(record())
	if u, v, s := r.Uvarint(), r.Int(), r.Text(); u != 300 || v != -7 || s != "walrus" {
		t.Fatalf("read %d, %d, %q", u, v, s)
	}
	if l := r.Texts(); !reflect.DeepEqual(l, []string{"heron", "", "otter"}) {
		t.Fatalf("read %q", l)
	}
	if l := r.Texts(); l != nil {
		t.Fatalf("an empty list read as %#v, want nil", l)
	}
	if b := r.Bytes(3); string(b) != "end" || r.Len() != 0 || r.Err() != nil {
		t.Fatalf("read %q, %d left, %v", b, r.Len(), r.Err())
	}
}

// Every cut of a record is damage the reader reports, however the fields
// after the cut are read. Catches: a reader that reports only the last
// read's error, or that reads a length past the bytes it has.
func TestACutRecordIsDamaged(t *testing.T) {
	whole := record()
	for cut := 0; cut < len(whole); cut++ {
		r := NewReader(whole[:cut])
		r.Uvarint()
		r.Int()
		r.Text()
		r.Texts()
		r.Texts()
		r.Bytes(3)
		if !errors.Is(r.Err(), ErrDamaged) {
			t.Errorf("cut at %d of %d bytes: error %v", cut, len(whole), r.Err())
		}
	}
}

// A length past the bytes left fails before anything is allocated for it,
// and every read after a failure returns nothing.
func TestALengthPastTheEndFails(t *testing.T) {
	for _, read := range []func(*Reader) any{
		func(r *Reader) any { return r.Text() },
		func(r *Reader) any { return r.Count() },
		func(r *Reader) any { return r.Texts() },
	} {
		r := NewReader(append(binary.AppendUvarint(nil, 1<<40), "abc"...))
		if got := read(r); !reflect.ValueOf(got).IsZero() || r.Err() == nil {
			t.Errorf("read %v, error %v", got, r.Err())
		}
		if r.Len() != 0 || r.Uvarint() != 0 || r.Bytes(0) != nil {
			t.Errorf("the reader goes on after its error")
		}
	}
}
