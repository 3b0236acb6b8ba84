package index

import (
	"fmt"
	"strings"

	"github.com/omh-notes/omh/find"
)

// ProofRecords lists the snapshot's proof records with what their
// lifecycle reads: own retraction date and typed links out.
func (s *Snapshot) ProofRecords() ([]find.Record, error) {
	types := make([]string, 0, len(find.ProofTypes))
	args := []any{s.row.id}
	for t := range find.ProofTypes {
		types = append(types, "?")
		args = append(args, t)
	}
	rows, err := s.tx.Query(`SELECT d.ord, d.key, d.layer, d.type, d.date, d.links, b.meta
		FROM doc d JOIN blob b ON b.id = d.blob
		WHERE d.snap = ? AND d.type IN (`+strings.Join(types, ", ")+`) ORDER BY d.ord`, args...)
	if err != nil {
		return nil, fmt.Errorf("reading proof records: %w", err)
	}
	defer rows.Close()
	var out []find.Record
	for rows.Next() {
		var r find.Record
		var links string
		var meta []byte
		if err := rows.Scan(&r.Doc, &r.Key, &r.Layer, &r.Type, &r.Date, &links, &meta); err != nil {
			return nil, err
		}
		if !s.Info(r.Doc).Present {
			continue
		}
		m, err := decodeMeta(meta)
		if err != nil {
			return nil, err
		}
		r.Retracted = m.Retracted
		decoded, err := decodeLinks(links)
		if err != nil {
			return nil, err
		}
		for _, l := range decoded {
			if l.verb != "" {
				r.Links = append(r.Links, find.Ref{Key: l.key, Verb: l.verb})
			}
		}
		out = append(out, r)
	}
	return out, rows.Err()
}
