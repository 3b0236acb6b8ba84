package index

import (
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"sort"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/omh-notes/omh/retrieve"
	"github.com/omh-notes/omh/vault"
)

// maxNoteBytes bounds what is indexed of one note. A larger file is indexed
// from its first part, with a warning, so one huge file can neither exhaust
// memory nor crowd the cache.
const maxNoteBytes = 4 << 20

// maxMarkdownBytes bounds what goldmark parses for headings and links:
// some inputs cost it time out of proportion to their size (160 KB of
// unclosed link openers took five seconds), and a note's structure is at its
// start. Its words are indexed up to maxNoteBytes regardless.
const maxMarkdownBytes = 512 << 10

// blobMeta is what parsing a note's bytes yields, stored per blob.
type blobMeta struct {
	vault.Parsed
	Size   int64 `json:"size"`
	Cut    bool  `json:"cut,omitempty"`    // only the first maxNoteBytes were parsed
	Binary bool  `json:"binary,omitempty"` // not text: not a note at all
}

// blobData is a stored blob: its row id, meta and term vector, kept
// encoded (a quarter of the decoded size) while a refresh holds it.
type blobData struct {
	id    int64
	meta  blobMeta
	terms []byte
}

// analyze parses content (at most maxNoteBytes of a file of size bytes) into
// its meta and term vector.
func analyze(content []byte, size int64, dict *termDict) (blobMeta, []termEntry, error) {
	meta := blobMeta{Size: size, Cut: size > int64(len(content))}
	if vault.LooksBinary(content) {
		meta.Binary = true
		return meta, nil, nil
	}
	meta.Parsed = vault.Parse(content[:min(len(content), maxMarkdownBytes)])
	fields := map[string]*termEntry{}
	add := func(text string, f retrieve.Field) {
		retrieve.EachToken(text, func(_, _ int, term string) {
			e := fields[term]
			if e == nil {
				e = &termEntry{}
				fields[term] = e
			}
			e.Fields |= f
			if f == retrieve.InBody {
				e.TF++
			}
		})
	}
	p := &meta.Parsed
	add(p.Title, retrieve.InTitle)
	// An alias is another title the note goes by.
	for _, a := range p.Aliases {
		add(a, retrieve.InTitle)
	}
	for _, h := range p.Headings {
		add(h.Text, retrieve.InHeading)
	}
	for _, a := range p.Answers {
		add(a, retrieve.InAnswers)
	}
	for _, t := range p.Tags {
		add(t, retrieve.InBody)
	}
	add(string(content[min(p.BodyStart, len(content)):]), retrieve.InBody)
	// Ids are handed out in sorted order so that two builds from the same
	// files produce the same database.
	texts := make([]string, 0, len(fields))
	for text := range fields {
		texts = append(texts, text)
	}
	sort.Strings(texts)
	vector := make([]termEntry, 0, len(fields))
	for _, text := range texts {
		e := fields[text]
		id, err := dict.id(text)
		if err != nil {
			return meta, nil, err
		}
		e.ID = id
		vector = append(vector, *e)
	}
	return meta, vector, nil
}

// storeBlob parses and stores a blob unless it is stored already. parsed
// reports whether it was parsed now.
func (rf *refresher) storeBlob(oid plumbing.Hash, read func() ([]byte, int64, error)) (id int64, parsed bool, err error) {
	if id, ok := rf.blobIDs[oid]; ok {
		return id, false, nil
	}
	err = rf.tx.QueryRow(`SELECT id FROM blob WHERE oid = ?`, oid[:]).Scan(&id)
	if err == nil {
		rf.blobIDs[oid] = id
		return id, false, nil
	}
	if !errors.Is(err, sql.ErrNoRows) {
		return 0, false, fmt.Errorf("looking up blob %s: %w", oid, err)
	}
	content, size, err := read()
	if err != nil {
		return 0, false, err
	}
	meta, vector, err := analyze(content, size, rf.dict)
	if err != nil {
		return 0, false, err
	}
	metaJSON, err := json.Marshal(meta)
	if err != nil {
		return 0, false, fmt.Errorf("encoding blob %s: %w", oid, err)
	}
	terms := encodeTerms(vector)
	res, err := rf.tx.Exec(`INSERT INTO blob (oid, meta, terms) VALUES (?, ?, ?)`, oid[:], metaJSON, terms)
	if err != nil {
		return 0, false, fmt.Errorf("storing blob %s: %w", oid, err)
	}
	if id, err = res.LastInsertId(); err != nil {
		return 0, false, err
	}
	rf.blobIDs[oid] = id
	rf.loaded[id] = &blobData{id: id, meta: meta, terms: terms}
	return id, true, nil
}

// blob loads a stored blob, once per refresh.
func (rf *refresher) blob(id int64) (*blobData, error) {
	if b, ok := rf.loaded[id]; ok {
		return b, nil
	}
	var metaJSON, terms []byte
	if err := rf.tx.QueryRow(`SELECT meta, terms FROM blob WHERE id = ?`, id).Scan(&metaJSON, &terms); err != nil {
		return nil, fmt.Errorf("loading blob #%d: %w", id, err)
	}
	b := &blobData{id: id, terms: terms}
	if err := json.Unmarshal(metaJSON, &b.meta); err != nil {
		return nil, fmt.Errorf("blob #%d: %w", id, errDamaged)
	}
	rf.loaded[id] = b
	return b, nil
}

// termDict maps term texts to ids, inserting new terms.
type termDict struct {
	tx    *txn
	ids   map[string]int64
	empty bool // the table held no terms when the refresh began: skip lookups
	next  int64
}

func newTermDict(tx *txn) (*termDict, error) {
	d := &termDict{tx: tx, ids: map[string]int64{}}
	if err := tx.QueryRow(`SELECT coalesce(max(id), 0) FROM term`).Scan(&d.next); err != nil {
		return nil, fmt.Errorf("reading the term dictionary: %w", err)
	}
	d.empty = d.next == 0
	d.next++
	return d, nil
}

func (d *termDict) id(text string) (int64, error) {
	if id, ok := d.ids[text]; ok {
		return id, nil
	}
	var id int64
	if !d.empty {
		err := d.tx.QueryRow(`SELECT id FROM term WHERE text = ?`, text).Scan(&id)
		if err == nil {
			d.ids[text] = id
			return id, nil
		}
		if !errors.Is(err, sql.ErrNoRows) {
			return 0, fmt.Errorf("looking up term %q: %w", text, err)
		}
	}
	id = d.next
	if _, err := d.tx.Exec(`INSERT INTO term (id, text) VALUES (?, ?)`, id, text); err != nil {
		return 0, fmt.Errorf("adding term %q: %w", text, err)
	}
	d.next++
	d.ids[text] = id
	return id, nil
}
