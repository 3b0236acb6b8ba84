package index

import (
	"database/sql"
	"fmt"
	"strings"

	"github.com/zeebo/blake3"

	"github.com/omh-notes/omh/token"
	"github.com/omh-notes/omh/vault"
	"github.com/omh-notes/omh/vault/corpus"
	"github.com/omh-notes/omh/vault/gitrepo"
)

// Snapshot is one consistent state of the store, read for answering inside
// one read transaction. It implements retrieve.Corpus, proof.Snapshot and
// find.Snapshot, the interfaces ranking, the proof lifecycle and cards
// declare (implements_test.go holds it to them). Close it when done.
type Snapshot struct {
	repo       *gitrepo.Repo
	tx         *txn
	row        *snapRow
	state      snapState
	info       []byte
	noWorktree bool
	ords       map[string][]uint32 // see ordsOfKeys
	keys       map[uint32]string   // see key
	dates      map[int]vault.Date
}

func newSnapshot(r *gitrepo.Repo, tx *sql.Tx, row *snapRow, opt Options) (*Snapshot, error) {
	if row == nil {
		tx.Rollback()
		return nil, fmt.Errorf("opening the snapshot: %w", errDamaged)
	}
	return &Snapshot{repo: r, tx: newTxn(tx), row: row, state: row.state, info: row.info, noWorktree: opt.NoWorktree}, nil
}

func (c *Cache) openSnapshot(r *gitrepo.Repo, name string, opt Options) (*Snapshot, error) {
	tx, err := c.readTx()
	if err != nil {
		return nil, err
	}
	row, err := loadSnap(tx, name)
	if err != nil {
		tx.Rollback()
		return nil, err
	}
	return newSnapshot(r, tx, row, opt)
}

// Close ends the snapshot's read transaction.
func (s *Snapshot) Close() error { return s.tx.Rollback() }

// Commit is the commit the team layer was read at; "" before the first.
func (s *Snapshot) Commit() string { return s.state.Commit }

// Count is the number of notes that count for rarity.
func (s *Snapshot) Count() int {
	if s.noWorktree {
		return s.state.CountBase
	}
	return s.state.CountAll
}

// Words is the number of words in the bodies of the notes counted.
func (s *Snapshot) Words() int64 {
	if s.noWorktree {
		return s.state.WordsBase
	}
	return s.state.WordsAll
}

func (s *Snapshot) Span() int { return len(s.info) / infoSize }

// Postings reads a term's lists: committed and private notes, and unless
// the working tree is left out, uncommitted working copies.
func (s *Snapshot) Postings(term string) ([]token.Posting, error) {
	var id int64
	err := s.tx.QueryRow(`SELECT id FROM term WHERE text = ?`, term).Scan(&id)
	if isNoRows(err) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("looking up %q: %w", term, err)
	}
	return s.postingsOf(id, term)
}

// postingsOf reads the lists of the term with this id.
func (s *Snapshot) postingsOf(id int64, term string) ([]token.Posting, error) {
	// The uncommitted part, when there is one, is small and copied; the
	// committed part, as large as the term is common (38,000 postings for
	// "the" in vba-docs), is decoded where the driver left it, into a list
	// sized for both: a fresh process pays for every page of memory it
	// touches, and each copy of a list touched as many.
	var work []byte
	if !s.noWorktree {
		err := s.tx.QueryRow(`SELECT list FROM posting WHERE key = ?`, postingKey(s.row.id, partWorktree, id)).Scan(&work)
		if err != nil && !isNoRows(err) {
			return nil, fmt.Errorf("reading postings of %q: %w", term, err)
		}
	}
	rows, err := s.tx.Query(`SELECT list FROM posting WHERE key = ?`, postingKey(s.row.id, partBase, id))
	if err != nil {
		return nil, fmt.Errorf("reading postings of %q: %w", term, err)
	}
	defer rows.Close()
	var base sql.RawBytes
	if rows.Next() {
		if err := rows.Scan(&base); err != nil {
			return nil, fmt.Errorf("reading postings of %q: %w", term, err)
		}
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("reading postings of %q: %w", term, err)
	}
	if len(base)+len(work) == 0 {
		return nil, nil
	}
	out, err := appendPostings(make([]token.Posting, 0, countPostings(base)+countPostings(work)), base)
	if err != nil {
		return nil, err
	}
	return appendPostings(out, work)
}

func (s *Snapshot) Info(doc uint32) corpus.DocInfo {
	d := getInfo(s.info, doc)
	out := corpus.DocInfo{
		Present:   d.shown(s.noWorktree),
		Layer:     vault.Layer(d.layer),
		Day:       int(d.day),
		Inbound:   int(d.inboundAll),
		NameRank:  int(d.nameRank),
		Words:     int(d.words),
		Retracted: int(d.retracted),
		Scaffold:  d.scaffold,
	}
	if s.noWorktree {
		out.Inbound = int(d.inboundBase)
	}
	if int(d.typ) < len(s.state.Types) {
		out.Type = s.state.Types[d.typ]
	}
	return out
}

func (s *Snapshot) DocWords(doc uint32) int { return int(infoWords(s.info, doc)) }

func (s *Snapshot) Note(doc uint32) (corpus.Note, error) {
	var n corpus.Note
	var oid []byte
	err := s.tx.QueryRow(`SELECT d.key, d.layer, d.path, d.date, d.date_source, d.title, d.type, b.oid
		FROM doc d JOIN blob b ON b.id = d.blob WHERE d.snap = ? AND d.ord = ?`, s.row.id, doc).
		Scan(&n.Key, &n.Layer, &n.Path, &n.Date, &n.DateSource, &n.Title, &n.Type, &oid)
	if err != nil {
		return n, fmt.Errorf("reading note #%d: %w", doc, err)
	}
	copy(n.Blob[:], oid)
	s.keepKey(doc, n.Key)
	return n, nil
}

// key is a note's key: what Note and CardDetail read of it is kept for
// the snapshot's transaction, since a card asks for its links in after
// them (30 notes' keys read twice for one reply at 10,000 notes).
func (s *Snapshot) key(doc uint32) (string, error) {
	if key, ok := s.keys[doc]; ok {
		return key, nil
	}
	var key string
	if err := s.tx.QueryRow(`SELECT key FROM doc WHERE snap = ? AND ord = ?`, s.row.id, doc).Scan(&key); err != nil {
		return "", fmt.Errorf("reading note #%d: %w", doc, err)
	}
	s.keepKey(doc, key)
	return key, nil
}

func (s *Snapshot) keepKey(doc uint32, key string) {
	if s.keys == nil {
		s.keys = map[uint32]string{}
	}
	s.keys[doc] = key
}

func (s *Snapshot) Links(doc uint32) ([]uint32, error) {
	var links string
	if err := s.tx.QueryRow(`SELECT links FROM doc WHERE snap = ? AND ord = ?`, s.row.id, doc).Scan(&links); err != nil {
		return nil, fmt.Errorf("reading links of note #%d: %w", doc, err)
	}
	decoded, err := decodeLinks(links)
	if err != nil {
		return nil, err
	}
	keys := linkedKeys(decoded)
	held, err := s.ordsOfKeys(keys)
	if err != nil {
		return nil, err
	}
	var out []uint32
	for _, key := range keys {
		out = append(out, held[key]...)
	}
	return out, nil
}

// keysBatch is how many keys one query of ordsOfKeys asks for: a ranked
// note's links were a query each, and vba-docs' tables of contents link to
// thousands of notes.
const keysBatch = 64

// fewKeys is the batch of a second statement, for the few links most
// notes have: SQLite looked up all 64 slots of a batch, repeats too.
const fewKeys = 8

// slots is how many values the statement for a batch of n takes.
func slots(n int) int {
	if n <= fewKeys {
		return fewKeys
	}
	return keysBatch
}

// ordsOfKeys is ordsOf for many keys, keysBatch at a time. What it found
// is kept for the snapshot's transaction: building cards asks again for
// the links ranking followed, half of its 37 queries for one reply at
// 10,000 notes.
func (s *Snapshot) ordsOfKeys(keys []string) (map[string][]uint32, error) {
	out := make(map[string][]uint32, len(keys))
	var ask []string
	for _, key := range keys {
		ords, known := s.ords[key]
		switch {
		case !known:
			ask = append(ask, key)
		case len(ords) > 0:
			out[key] = ords
		}
	}
	for rest := ask; len(rest) > 0; {
		batch := rest[:min(len(rest), keysBatch)]
		rest = rest[len(batch):]
		n := slots(len(batch))
		args := make([]any, 1+n)
		args[0] = s.row.id
		for i := range n {
			args[1+i] = batch[min(i, len(batch)-1)] // the last repeated: one statement for every batch
		}
		query := `SELECT key, ord FROM doc WHERE snap = ? AND key IN (?` + strings.Repeat(", ?", n-1) + `) ORDER BY key, layer, path`
		if err := s.readOrds(query, args, out); err != nil {
			return nil, err
		}
	}
	if s.ords == nil {
		s.ords = map[string][]uint32{}
	}
	for _, key := range ask {
		s.ords[key] = out[key] // nil: no note holds it
	}
	return out, nil
}

func (s *Snapshot) readOrds(query string, args []any, out map[string][]uint32) error {
	rows, err := s.tx.Query(query, args...)
	if err != nil {
		return fmt.Errorf("finding linked notes: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var key string
		var o uint32
		if err := rows.Scan(&key, &o); err != nil {
			return fmt.Errorf("finding linked notes: %w", err)
		}
		out[key] = append(out[key], o)
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("finding linked notes: %w", err)
	}
	return nil
}

// ordsOf lists the documents holding key, in name order (team first).
func (s *Snapshot) ordsOf(key string) ([]uint32, error) {
	rows, err := s.tx.Query(`SELECT ord FROM doc WHERE snap = ? AND key = ? ORDER BY layer, path`, s.row.id, key)
	if err != nil {
		return nil, fmt.Errorf("finding notes of %s: %w", key, err)
	}
	return scanOrds(rows)
}

// scanOrds reads a query's document numbers, in its order, and closes it.
func scanOrds(rows *sql.Rows) ([]uint32, error) {
	defer rows.Close()
	var out []uint32
	for rows.Next() {
		var o uint32
		if err := rows.Scan(&o); err != nil {
			return nil, err
		}
		out = append(out, o)
	}
	return out, rows.Err()
}

// Find lists the documents with this key, optionally in one layer, for
// commands that name a note.
func (s *Snapshot) Find(key string, layer vault.Layer) ([]uint32, error) {
	ords, err := s.ordsOf(key)
	if err != nil {
		return nil, err
	}
	out := ords[:0]
	for _, o := range ords {
		if info := s.Info(o); info.Present && (layer == 0 || info.Layer == layer) {
			out = append(out, o)
		}
	}
	return out, nil
}

// Gone returns the path of the committed note with key whose file the
// working tree lacks (deleted or moved, not committed); "" when there is
// none, or when the working tree is left out.
func (s *Snapshot) Gone(key string) (string, error) {
	if s.noWorktree {
		return "", nil
	}
	ords, err := s.ordsOf(key)
	if err != nil {
		return "", err
	}
	for _, o := range ords {
		if d := getInfo(s.info, o); d.present && d.gone {
			n, err := s.Note(o)
			return n.Path, err
		}
	}
	return "", nil
}

// Fingerprint hashes the snapshot's sorted (layer, key, blob id) list with
// BLAKE3: equal fingerprints mean the same notes with the same content.
func (s *Snapshot) Fingerprint() (string, error) {
	rows, err := s.tx.Query(`SELECT d.ord, d.layer, d.key, b.oid FROM doc d JOIN blob b ON b.id = d.blob
		WHERE d.snap = ? ORDER BY d.layer, d.key, d.path`, s.row.id)
	if err != nil {
		return "", fmt.Errorf("fingerprinting the snapshot: %w", err)
	}
	defer rows.Close()
	h := blake3.New()
	for rows.Next() {
		var ord uint32
		var layer vault.Layer
		var key string
		var oid []byte
		if err := rows.Scan(&ord, &layer, &key, &oid); err != nil {
			return "", err
		}
		if !s.Info(ord).Present {
			continue
		}
		fmt.Fprintf(h, "%s\x00%s\x00%x\n", layer, key, oid)
	}
	if err := rows.Err(); err != nil {
		return "", err
	}
	return fmt.Sprintf("%x", h.Sum(nil)), nil
}
