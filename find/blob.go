package find

import (
	"errors"

	"github.com/omh-notes/omh/internal/safefile"
	"github.com/omh-notes/omh/proof"
	"github.com/omh-notes/omh/vault"
	"github.com/omh-notes/omh/vault/corpus"
)

// BlobQuote is the passage of a blob a record rests on, quoted on its card.
type BlobQuote struct {
	ID      string // the git blob id of the blob record's file
	Key     string
	Layer   vault.Layer
	Via     string // the citation it was reached through; "" when attached directly
	Passage Passage
}

// blobRoom is the room of a blob's quote on a record's card, in characters
// of the line.
const blobRoom = 300

// blobFor finds the blob a record attaches directly, else through a
// current, unretracted citation it cites, skipping blobs the reply quotes
// already, and quotes the blob's best passage for the question.
func blobFor(snap Snapshot, p *proof.Proof, links []corpus.Ref, quoted map[uint32]bool, q question) (*BlobQuote, error) {
	type candidate struct {
		doc uint32
		via string
	}
	var candidates []candidate
	for _, l := range links {
		if l.Verb == "attaches" {
			candidates = append(candidates, candidate{l.Doc, ""})
		}
	}
	for _, l := range links {
		if l.Verb != "cites" || snap.Info(l.Doc).Type != "citation" {
			continue
		}
		if s, _, err := p.Standing(l.Doc); err != nil || s.State != proof.Current {
			if err != nil {
				return nil, err
			}
			continue
		}
		d, err := snap.CardDetail(l.Doc)
		if err != nil {
			return nil, err
		}
		for _, cl := range d.Links {
			if cl.Verb == "attaches" {
				candidates = append(candidates, candidate{cl.Doc, l.Key})
			}
		}
	}
	for _, c := range candidates {
		if snap.Info(c.doc).Type != "blob" || quoted[c.doc] || !p.ShowsRef(c.doc) {
			continue
		}
		n, err := snap.Note(c.doc)
		if err != nil {
			return nil, err
		}
		content, err := snap.Content(c.doc, n)
		if errors.Is(err, safefile.ErrChangedSince) {
			continue // no passage of a blob changed since the snapshot
		}
		if err != nil {
			return nil, err
		}
		d, err := snap.CardDetail(c.doc)
		if err != nil {
			return nil, err
		}
		passages := newNote(string(content), d, n.Title, q).choose(blobRoom, true)
		if len(passages) == 0 {
			continue // an empty blob has nothing to quote
		}
		quoted[c.doc] = true
		return &BlobQuote{ID: n.Blob.String(), Key: n.Key, Layer: n.Layer, Via: c.via, Passage: passages[0]}, nil
	}
	return nil, nil
}
