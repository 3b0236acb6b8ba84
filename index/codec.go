package index

import (
	"cmp"
	"encoding/binary"
	"slices"
	"sort"

	"github.com/omh-notes/omh/internal/varint"
	"github.com/omh-notes/omh/token"
)

// termEntry is one term of a document: how often it occurs in the body and
// in which fields.
type termEntry struct {
	ID     int64
	TF     uint32
	Fields token.Field
}

// A term's occurrences in a note are stored as one varint: its body count
// shifted above the fields it occurs in. Seven fields: token.AllFields.
//
// A term a note's body holds once, or that only its title, headings or key
// hold, is most of every note's terms, and such an entry is one byte: a
// count of 0 or 1 that says whether the term is in the body, above the six
// other fields (short), values below 128. Any other entry is 128 plus the
// count above all seven fields (long). Written long, the commonest entry,
// once in the body, took two bytes: a seventh of the cache at 10,000 notes,
// in the term vectors and the posting lists alike.
const fieldBits = 7

// shortLimit is where long entries start.
const shortLimit = 128

func packTF(tf uint32, fields token.Field) uint64 {
	if inBody := fields&token.InBody != 0; tf <= 1 && inBody == (tf == 1) {
		rest := uint64(fields &^ token.InBody)
		return uint64(tf)<<6 | rest&0x0f | rest>>1&0x30
	}
	return shortLimit + (uint64(tf)<<fieldBits | uint64(fields))
}

func unpackTF(v uint64) (uint32, token.Field) {
	if v < shortLimit {
		tf := uint32(v >> 6)
		fields := token.Field(v&0x0f | v&0x30<<1)
		if tf == 1 {
			fields |= token.InBody
		}
		return tf, fields
	}
	v -= shortLimit
	return uint32(v >> fieldBits), token.Field(v & (1<<fieldBits - 1))
}

// encodeTerms packs a term vector sorted by term id: id delta, then tf and
// fields packed.
func encodeTerms(v []termEntry) []byte {
	slices.SortFunc(v, func(a, b termEntry) int { return cmp.Compare(a.ID, b.ID) })
	b := make([]byte, 0, len(v)*3)
	prev := int64(0)
	for _, e := range v {
		b = binary.AppendUvarint(b, uint64(e.ID-prev))
		b = binary.AppendUvarint(b, packTF(e.TF, e.Fields))
		prev = e.ID
	}
	return b
}

func decodeTerms(b []byte) ([]termEntry, error) { return appendTerms(nil, b) }

// appendTerms decodes an encoded term vector onto out.
func appendTerms(out []termEntry, b []byte) ([]termEntry, error) {
	r := varint.NewReader(b)
	prev := int64(0)
	for r.Len() > 0 {
		prev += int64(r.Uvarint())
		tf, fields := unpackTF(r.Uvarint())
		out = append(out, termEntry{ID: prev, TF: tf, Fields: fields})
	}
	if r.Err() != nil {
		return nil, errDamaged
	}
	return out, nil
}

// encodePostings packs a posting list sorted by document: doc delta, then
// tf and fields packed. About two bytes a posting, so the list of a term
// held by every note of a large store still reads in one blob.
func encodePostings(list []token.Posting) []byte {
	b := make([]byte, 0, len(list)*2)
	prev := uint32(0)
	for _, p := range list {
		b = appendPosting(b, p.Doc-prev, p.TF, p.Fields)
		prev = p.Doc
	}
	return b
}

// appendPosting encodes one posting: the gap from the document before, then
// tf and fields packed.
func appendPosting(b []byte, gap, tf uint32, fields token.Field) []byte {
	b = binary.AppendUvarint(b, uint64(gap))
	return binary.AppendUvarint(b, packTF(tf, fields))
}

func decodePostings(b []byte) ([]token.Posting, error) {
	return appendPostings(make([]token.Posting, 0, countPostings(b)), b)
}

// countPostings is how many postings an encoded list holds, two varints
// each, without decoding them: a varint ends at each byte below 0x80.
func countPostings(b []byte) int {
	n := 0
	for _, c := range b {
		if c < 0x80 {
			n++
		}
	}
	return n / 2
}

// appendPostings decodes an encoded list onto out. It reads the varints
// itself rather than through varint.Reader, whose reads the compiler does
// not inline: through the reader, a list of 40,000 postings took a third
// longer to decode (310 µs against 420), on every term of every question.
func appendPostings(out []token.Posting, b []byte) ([]token.Posting, error) {
	prev := uint32(0)
	for len(b) > 0 {
		d, n := binary.Uvarint(b)
		if n <= 0 {
			return nil, errDamaged
		}
		b = b[n:]
		v, m := binary.Uvarint(b)
		if m <= 0 {
			return nil, errDamaged
		}
		b = b[m:]
		prev += uint32(d)
		tf, fields := unpackTF(v)
		out = append(out, token.Posting{Doc: prev, TF: tf, Fields: fields})
	}
	return out, nil
}

// mergePostings applies edits to a sorted list: every document in drop is
// removed, then add (sorted by doc) is merged in.
func mergePostings(old []token.Posting, drop map[uint32]bool, add []token.Posting) []token.Posting {
	sort.Slice(add, func(i, j int) bool { return add[i].Doc < add[j].Doc })
	out := make([]token.Posting, 0, len(old)+len(add))
	i := 0
	for _, p := range old {
		if drop[p.Doc] {
			continue
		}
		for i < len(add) && add[i].Doc < p.Doc {
			out = append(out, add[i])
			i++
		}
		out = append(out, p)
	}
	return append(out, add[i:]...)
}

// Per-document info is fixed-width so ranking reads one document's record
// straight out of the snapshot's blob, with nothing to decode up front.
const infoSize = 27

const (
	flagPresent  = 1 << 0
	flagWorktree = 1 << 1 // the document is an uncommitted working copy
	flagScaffold = 1 << 2 // the note is only a template's scaffolding
	flagGone     = 1 << 3 // a team note whose file the working tree has lost (deleted or moved, not committed)
	layerShift   = 4
)

type docInfo struct {
	present, worktree bool
	scaffold          bool // only a template's scaffolding (vault.Parsed.Scaffold)
	gone              bool // a team note deleted in the working tree: absent unless the working tree is left out
	layer             uint8
	typ               uint16 // index into the snapshot's type names
	day               uint32 // YYYYMMDD
	inboundAll        uint32
	inboundBase       uint32 // links from uncommitted working copies left out
	nameRank          uint32
	words             uint32 // words in the note's body, for length normalisation
	retracted         uint32 // YYYYMMDD of the note's own retracted date; 0 when none
}

func putInfo(b []byte, ord uint32, d docInfo) []byte {
	need := int(ord+1) * infoSize
	if len(b) < need {
		b = append(b, make([]byte, need-len(b))...)
	}
	r := b[int(ord)*infoSize:]
	var flags byte
	if d.present {
		flags |= flagPresent
	}
	if d.worktree {
		flags |= flagWorktree
	}
	if d.scaffold {
		flags |= flagScaffold
	}
	if d.gone {
		flags |= flagGone
	}
	r[0] = flags | d.layer<<layerShift
	binary.LittleEndian.PutUint16(r[1:], d.typ)
	binary.LittleEndian.PutUint32(r[3:], d.day)
	binary.LittleEndian.PutUint32(r[7:], d.inboundAll)
	binary.LittleEndian.PutUint32(r[11:], d.inboundBase)
	binary.LittleEndian.PutUint32(r[15:], d.nameRank)
	binary.LittleEndian.PutUint32(r[infoWordsAt:], d.words)
	binary.LittleEndian.PutUint32(r[23:], d.retracted)
	return b
}

// infoWordsAt is where a record holds the words of its body.
const infoWordsAt = 19

// infoWords is getInfo(b, ord).words alone.
func infoWords(b []byte, ord uint32) uint32 {
	if int(ord+1)*infoSize > len(b) {
		return 0
	}
	return binary.LittleEndian.Uint32(b[int(ord)*infoSize+infoWordsAt:])
}

// shown reports whether the document is in the store a question is
// asked of: present, and neither an uncommitted working copy when the
// working tree is left out nor a committed note the working tree has lost
// when it is not.
func (d docInfo) shown(noWorktree bool) bool {
	if noWorktree {
		return d.present && !d.worktree
	}
	return d.present && !d.gone
}

func getInfo(b []byte, ord uint32) docInfo {
	if int(ord+1)*infoSize > len(b) {
		return docInfo{}
	}
	r := b[int(ord)*infoSize:]
	return docInfo{
		present:     r[0]&flagPresent != 0,
		worktree:    r[0]&flagWorktree != 0,
		scaffold:    r[0]&flagScaffold != 0,
		gone:        r[0]&flagGone != 0,
		layer:       r[0] >> layerShift,
		typ:         binary.LittleEndian.Uint16(r[1:]),
		day:         binary.LittleEndian.Uint32(r[3:]),
		inboundAll:  binary.LittleEndian.Uint32(r[7:]),
		inboundBase: binary.LittleEndian.Uint32(r[11:]),
		nameRank:    binary.LittleEndian.Uint32(r[15:]),
		words:       binary.LittleEndian.Uint32(r[infoWordsAt:]),
		retracted:   binary.LittleEndian.Uint32(r[23:]),
	}
}
