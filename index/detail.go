package index

import (
	"fmt"

	"github.com/omh-notes/omh/vault"
)

// Content returns a note's bytes as indexed, up to the indexing limit: the
// blob the snapshot names, never a file changed since (vault.ErrChangedSince).
func (s *Snapshot) Content(doc uint32, n vault.Note) ([]byte, error) {
	return s.repo.ReadIndexed(n.Layer, n.Path, n.Blob, maxNoteBytes)
}

// Detail returns where a note's body starts and its links both ways, each
// end with its own layer and date.
func (s *Snapshot) Detail(doc uint32) (vault.Detail, error) {
	var d vault.Detail
	var meta []byte
	var key, links string
	err := s.tx.QueryRow(`SELECT d.key, d.links, b.meta FROM doc d JOIN blob b ON b.id = d.blob WHERE d.snap = ? AND d.ord = ?`,
		s.row.id, doc).Scan(&key, &links, &meta)
	if err != nil {
		return d, fmt.Errorf("reading note #%d: %w", doc, err)
	}
	m, err := decodeMeta(meta)
	if err != nil {
		return d, err
	}
	d.BodyStart, d.Units, d.Headings = m.BodyStart, m.Units, m.Headings
	out, err := decodeLinks(links)
	if err != nil {
		return d, err
	}
	for _, l := range out {
		ords, err := s.ordsOf(l.key)
		if err != nil {
			return d, err
		}
		for _, o := range ords {
			if info := s.Info(o); info.Present {
				d.Links = append(d.Links, vault.Ref{Doc: o, Key: l.key, Layer: info.Layer, Date: vault.DateFromNumber(info.Day), Verb: l.verb})
			}
		}
	}
	rows, err := s.tx.Query(`SELECT b.src, d.key, b.verb FROM backlink b JOIN doc d ON d.snap = b.snap AND d.ord = b.src
		WHERE b.snap = ? AND b.target = ? ORDER BY d.key, d.layer, d.path, b.verb`, s.row.id, key)
	if err != nil {
		return d, fmt.Errorf("reading links to %s: %w", key, err)
	}
	defer rows.Close()
	for rows.Next() {
		var src uint32
		var ref vault.Ref
		if err := rows.Scan(&src, &ref.Key, &ref.Verb); err != nil {
			return d, err
		}
		info := s.Info(src)
		if src == doc || !info.Present {
			continue
		}
		ref.Doc, ref.Layer, ref.Date = src, info.Layer, vault.DateFromNumber(info.Day)
		d.In = append(d.In, ref)
	}
	return d, rows.Err()
}

// LinksOut counts the notes a note links to, up to limit: enough to tell
// a table of contents. It reads the note's own row, as Links does: the
// backlink table has no index by source any more, and counting there
// scanned it for every link in of every card (35% of an answer at 10,000
// notes).
func (s *Snapshot) LinksOut(doc uint32, limit int) (int, error) {
	var links string
	if err := s.tx.QueryRow(`SELECT links FROM doc WHERE snap = ? AND ord = ?`, s.row.id, doc).Scan(&links); err != nil {
		return 0, fmt.Errorf("counting the links of note #%d: %w", doc, err)
	}
	decoded, err := decodeLinks(links)
	if err != nil {
		return 0, err
	}
	return min(len(linkedKeys(decoded)), limit), nil
}
