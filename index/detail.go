package index

import (
	"fmt"

	"github.com/omh-notes/omh/find"
	"github.com/omh-notes/omh/retrieve"
	"github.com/omh-notes/omh/vault"
)

var _ find.Store = (*Snapshot)(nil)

// Content returns a note's bytes as indexed, up to the indexing limit.
func (s *Snapshot) Content(doc uint32, n retrieve.Note) ([]byte, error) {
	return s.repo.ReadNote(n.Layer, n.Path, n.Blob, maxNoteBytes)
}

// Detail returns where a note's body starts and its links both ways, each
// end with its own layer and date.
func (s *Snapshot) Detail(doc uint32) (find.Detail, error) {
	var d find.Detail
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
				d.Links = append(d.Links, find.Ref{Doc: o, Key: l.key, Layer: info.Layer, Date: vault.DateFromNumber(info.Day), Verb: l.verb})
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
		var ref find.Ref
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
// a table of contents, and no more (counting all of vba-docs' api/TOC's
// 9,213 links for every card that lists it cost 6 ms a reply).
func (s *Snapshot) LinksOut(doc uint32, limit int) (int, error) {
	var n int
	err := s.tx.QueryRow(`SELECT count(*) FROM (SELECT 1 FROM backlink WHERE snap = ? AND src = ? LIMIT ?)`, s.row.id, doc, limit).Scan(&n)
	if err != nil {
		return 0, fmt.Errorf("counting the links of note #%d: %w", doc, err)
	}
	return n, nil
}
