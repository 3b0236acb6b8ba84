package index

import (
	"encoding/binary"

	"github.com/omh-notes/omh/internal/varint"
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
		b = varint.AppendText(b, s)
	}
	for _, list := range [][]string{p.Aliases, p.Tags, p.PageTags, p.Answers} {
		b = varint.AppendTexts(b, list)
	}
	b = binary.AppendUvarint(b, uint64(len(p.Headings)))
	for _, h := range p.Headings {
		b = binary.AppendVarint(b, int64(h.Level))
		b = varint.AppendText(b, h.Text)
		b = binary.AppendVarint(b, int64(h.Start))
		b = binary.AppendVarint(b, int64(h.Line))
	}
	b = binary.AppendUvarint(b, uint64(len(p.Links)))
	for _, l := range p.Links {
		b = binary.AppendUvarint(b, uint64(l.Kind))
		for _, s := range []string{l.Target, l.Fragment, l.Label, l.Verb, l.Lead} {
			b = varint.AppendText(b, s)
		}
		b = binary.AppendVarint(b, int64(l.Start))
		b = binary.AppendVarint(b, int64(l.End-l.Start))
		b = binary.AppendVarint(b, int64(l.Line))
	}
	b = binary.AppendUvarint(b, uint64(len(p.Problems)))
	for _, pr := range p.Problems {
		b = binary.AppendVarint(b, int64(pr.Line))
		b = varint.AppendText(b, pr.Rule)
		b = varint.AppendText(b, pr.Message)
	}
	return varint.AppendText(b, string(vault.AppendUnits(nil, p.Units)))
}

func decodeMeta(b []byte) (blobMeta, error) {
	r := varint.NewReader(b)
	flags := r.Uvarint()
	m := blobMeta{Cut: flags&metaCut != 0, Binary: flags&metaBinary != 0}
	p := &m.Parsed
	p.TitleFromH1 = flags&metaTitleFromH1 != 0
	m.Size, m.Words, p.BodyStart, p.FrontmatterLines = r.Varint(), r.Int(), r.Int(), r.Int()
	p.Title, p.Type, p.Source, p.Description, p.DeclaredKey = r.Text(), r.Text(), r.Text(), r.Text(), r.Text()
	p.Recorded, p.Dated, p.DatedField = vault.Date(r.Text()), vault.Date(r.Text()), r.Text()
	p.Retracted, p.RetractedReason = vault.Date(r.Text()), r.Text()
	p.Aliases, p.Tags, p.PageTags, p.Answers = r.Texts(), r.Texts(), r.Texts(), r.Texts()
	if n := r.Count(); n > 0 {
		p.Headings = make([]vault.Heading, n)
		for i := range p.Headings {
			p.Headings[i] = vault.Heading{Level: r.Int(), Text: r.Text(), Start: r.Int(), Line: r.Int()}
		}
	}
	if n := r.Count(); n > 0 {
		p.Links = make([]vault.Link, n)
		for i := range p.Links {
			l := &p.Links[i]
			l.Kind = vault.LinkKind(r.Uvarint())
			l.Target, l.Fragment, l.Label, l.Verb, l.Lead = r.Text(), r.Text(), r.Text(), r.Text(), r.Text()
			l.Start = r.Int()
			l.End = l.Start + r.Int()
			l.Line = r.Int()
		}
	}
	if n := r.Count(); n > 0 {
		p.Problems = make([]vault.Problem, n)
		for i := range p.Problems {
			p.Problems[i] = vault.Problem{Line: r.Int(), Rule: r.Text(), Message: r.Text()}
		}
	}
	units, err := vault.DecodeUnits([]byte(r.Text()))
	if err != nil || r.Err() != nil || r.Len() != 0 {
		return blobMeta{}, errDamaged
	}
	p.Units = units
	return m, nil
}
