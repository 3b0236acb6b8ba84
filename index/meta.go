package index

import (
	"encoding/binary"

	"github.com/omh-notes/omh/vault"
)

// A blob's meta (what parsing its note found) is stored in a compact binary
// form: one row per version of every note adds up, and as JSON with short
// keys it was still a seventh of the cache. Every field is written, in a
// fixed order; numbers are varints, strings and lists carry their length.
// TestEveryMetaFieldRoundTrips fills every field and reads it back, so a
// field added to vault.Parsed and forgotten here fails it.

const (
	metaTitleFromH1 = 1 << iota
	metaCut
	metaBinary
)

func encodeMeta(m blobMeta) []byte {
	p := &m.Parsed
	var flags uint64
	if p.TitleFromH1 {
		flags |= metaTitleFromH1
	}
	if m.Cut {
		flags |= metaCut
	}
	if m.Binary {
		flags |= metaBinary
	}
	b := binary.AppendUvarint(nil, flags)
	b = binary.AppendVarint(b, m.Size)
	b = binary.AppendVarint(b, int64(m.Words))
	b = binary.AppendVarint(b, int64(p.BodyStart))
	b = binary.AppendVarint(b, int64(p.FrontmatterLines))
	for _, s := range []string{p.Title, p.Type, p.Source, p.Description, p.DeclaredKey, string(p.Recorded),
		string(p.Dated), p.DatedField, string(p.Retracted), p.RetractedReason} {
		b = appendText(b, s)
	}
	for _, list := range [][]string{p.Aliases, p.Tags, p.Answers} {
		b = binary.AppendUvarint(b, uint64(len(list)))
		for _, s := range list {
			b = appendText(b, s)
		}
	}
	b = binary.AppendUvarint(b, uint64(len(p.Headings)))
	for _, h := range p.Headings {
		b = binary.AppendVarint(b, int64(h.Level))
		b = appendText(b, h.Text)
		b = binary.AppendVarint(b, int64(h.Start))
		b = binary.AppendVarint(b, int64(h.Line))
	}
	b = binary.AppendUvarint(b, uint64(len(p.Links)))
	for _, l := range p.Links {
		b = binary.AppendUvarint(b, uint64(l.Kind))
		for _, s := range []string{l.Target, l.Fragment, l.Label, l.Verb, l.Lead} {
			b = appendText(b, s)
		}
		b = binary.AppendVarint(b, int64(l.Start))
		b = binary.AppendVarint(b, int64(l.End-l.Start))
		b = binary.AppendVarint(b, int64(l.Line))
	}
	b = binary.AppendUvarint(b, uint64(len(p.Problems)))
	for _, pr := range p.Problems {
		b = binary.AppendVarint(b, int64(pr.Line))
		b = appendText(b, pr.Rule)
		b = appendText(b, pr.Message)
	}
	return appendText(b, string(vault.AppendUnits(nil, p.Units)))
}

func appendText(b []byte, s string) []byte {
	b = binary.AppendUvarint(b, uint64(len(s)))
	return append(b, s...)
}

// metaReader decodes, remembering the first error so callers check once.
type metaReader struct {
	b   []byte
	bad bool
}

func (r *metaReader) uvarint() uint64 {
	v, n := binary.Uvarint(r.b)
	if n <= 0 {
		r.bad, r.b = true, nil
		return 0
	}
	r.b = r.b[n:]
	return v
}

func (r *metaReader) int() int { return int(r.int64()) }

func (r *metaReader) int64() int64 {
	v, n := binary.Varint(r.b)
	if n <= 0 {
		r.bad, r.b = true, nil
		return 0
	}
	r.b = r.b[n:]
	return v
}

func (r *metaReader) text() string {
	n := r.uvarint()
	if n > uint64(len(r.b)) {
		r.bad, r.b = true, nil
		return ""
	}
	s := string(r.b[:n])
	r.b = r.b[n:]
	return s
}

// count reads a list's length, which cannot exceed the bytes left.
func (r *metaReader) count() int {
	n := r.uvarint()
	if n > uint64(len(r.b)) {
		r.bad, r.b = true, nil
		return 0
	}
	return int(n)
}

func (r *metaReader) texts() []string {
	n := r.count()
	if n == 0 {
		return nil
	}
	out := make([]string, n)
	for i := range out {
		out[i] = r.text()
	}
	return out
}

func decodeMeta(b []byte) (blobMeta, error) {
	r := &metaReader{b: b}
	flags := r.uvarint()
	m := blobMeta{Cut: flags&metaCut != 0, Binary: flags&metaBinary != 0}
	p := &m.Parsed
	p.TitleFromH1 = flags&metaTitleFromH1 != 0
	m.Size, m.Words, p.BodyStart, p.FrontmatterLines = r.int64(), r.int(), r.int(), r.int()
	p.Title, p.Type, p.Source, p.Description, p.DeclaredKey = r.text(), r.text(), r.text(), r.text(), r.text()
	p.Recorded, p.Dated, p.DatedField = vault.Date(r.text()), vault.Date(r.text()), r.text()
	p.Retracted, p.RetractedReason = vault.Date(r.text()), r.text()
	p.Aliases, p.Tags, p.Answers = r.texts(), r.texts(), r.texts()
	if n := r.count(); n > 0 {
		p.Headings = make([]vault.Heading, n)
		for i := range p.Headings {
			p.Headings[i] = vault.Heading{Level: r.int(), Text: r.text(), Start: r.int(), Line: r.int()}
		}
	}
	if n := r.count(); n > 0 {
		p.Links = make([]vault.Link, n)
		for i := range p.Links {
			l := &p.Links[i]
			l.Kind = vault.LinkKind(r.uvarint())
			l.Target, l.Fragment, l.Label, l.Verb, l.Lead = r.text(), r.text(), r.text(), r.text(), r.text()
			l.Start = r.int()
			l.End = l.Start + r.int()
			l.Line = r.int()
		}
	}
	if n := r.count(); n > 0 {
		p.Problems = make([]vault.Problem, n)
		for i := range p.Problems {
			p.Problems[i] = vault.Problem{Line: r.int(), Rule: r.text(), Message: r.text()}
		}
	}
	units, err := vault.DecodeUnits([]byte(r.text()))
	if err != nil || r.bad || len(r.b) != 0 {
		return blobMeta{}, errDamaged
	}
	p.Units = units
	return m, nil
}
