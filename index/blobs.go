package index

import (
	"database/sql"
	"errors"
	"fmt"
	"runtime"
	"sort"
	"sync"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/omh-notes/omh/retrieve"
	"github.com/omh-notes/omh/vault"
)

// maxNoteBytes bounds what is indexed of one note. A larger file is indexed
// from its first part, with a warning, so one huge file can neither exhaust
// memory nor crowd the cache.
const maxNoteBytes = 4 << 20

// errUnreadable marks a note whose content could not be read: the note is
// left out with a warning, and the rest of the store answers.
var errUnreadable = errors.New("cannot be read")

// blobMeta is what parsing a note's bytes yields, stored per blob.
type blobMeta struct {
	vault.Parsed
	Size   int64
	Words  int  // words in the body, for length normalisation
	Cut    bool // only the first maxNoteBytes were indexed
	Binary bool // not text: not a note at all
}

// blobData is a stored blob: its row id, meta and term vector, kept
// encoded (a quarter of the decoded size) while a refresh holds it.
type blobData struct {
	id    int64
	meta  blobMeta
	terms []byte
}

// parsedBlob is a blob's content analysed, before its terms have ids.
type parsedBlob struct {
	meta  blobMeta
	terms map[string]termEntry // by term text; ID unset
	err   error
}

// analyze parses content (at most maxNoteBytes of a file of size bytes) into
// its meta and terms. It is pure, so blobs are analysed on every core.
func analyze(content []byte, size int64) *parsedBlob {
	pb := &parsedBlob{meta: blobMeta{Size: size, Cut: size > int64(len(content))}, terms: map[string]termEntry{}}
	if vault.LooksBinary(content) {
		pb.meta.Binary = true
		return pb
	}
	pb.meta.Parsed = vault.ParseNote(content)
	add := func(text string, f retrieve.Field) {
		retrieve.EachToken(text, func(_, _ int, term string) {
			e := pb.terms[term]
			e.Fields |= f
			if f == retrieve.InBody {
				e.TF++
				pb.meta.Words++
			}
			pb.terms[term] = e
		})
	}
	p := &pb.meta.Parsed
	add(p.Title, retrieve.InTitle)
	// An alias is another title the note goes by.
	for _, a := range p.Aliases {
		add(a, retrieve.InTitle)
	}
	for _, h := range p.Headings {
		add(h.Text, retrieve.InHeading)
	}
	add(p.Description, retrieve.InDescription)
	for _, a := range p.Answers {
		add(a, retrieve.InAnswers)
	}
	for _, t := range p.Tags {
		add(t, retrieve.InBody)
	}
	add(string(content[min(p.BodyStart, len(content)):]), retrieve.InBody)
	return pb
}

// vector gives a parsed blob's terms their ids, handed out in sorted order
// so that two builds from the same files produce the same database.
func (pb *parsedBlob) vector(dict *termDict) ([]termEntry, error) {
	texts := make([]string, 0, len(pb.terms))
	for text := range pb.terms {
		texts = append(texts, text)
	}
	sort.Strings(texts)
	vector := make([]termEntry, 0, len(texts))
	for _, text := range texts {
		e := pb.terms[text]
		id, err := dict.id(text)
		if err != nil {
			return nil, err
		}
		e.ID = id
		vector = append(vector, e)
	}
	return vector, nil
}

// blobSource is a blob a refresh may need, and how to read it.
type blobSource struct {
	oid  plumbing.Hash
	read func() ([]byte, int64, error)
}

// prepare analyses, on every core, the blobs among sources the cache does
// not hold yet, so that storeBlob finds them ready. Reading stays on one
// goroutine (go-git's storage is not safe for concurrent use).
func (rf *refresher) prepare(sources []blobSource) error {
	var todo []blobSource
	for _, src := range sources {
		var id int64
		err := rf.tx.QueryRow(`SELECT id FROM blob WHERE oid = ?`, src.oid[:]).Scan(&id)
		switch {
		case err == nil:
			rf.blobIDs[src.oid] = id
		case isNoRows(err):
			if _, queued := rf.prepared[src.oid]; !queued {
				rf.prepared[src.oid] = nil
				todo = append(todo, src)
			}
		default:
			return fmt.Errorf("looking up blob %s: %w", src.oid, err)
		}
	}
	type job struct {
		oid     plumbing.Hash
		content []byte
		size    int64
		err     error
	}
	type done struct {
		oid plumbing.Hash
		pb  *parsedBlob
	}
	jobs, results := make(chan job, 64), make(chan done, 64)
	go func() {
		for _, src := range todo {
			content, size, err := src.read()
			jobs <- job{src.oid, content, size, err}
		}
		close(jobs)
	}()
	var wg sync.WaitGroup
	for w := 0; w < runtime.GOMAXPROCS(0); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range jobs {
				if j.err != nil {
					results <- done{j.oid, &parsedBlob{err: j.err}}
					continue
				}
				results <- done{j.oid, analyze(j.content, j.size)}
			}
		}()
	}
	go func() { wg.Wait(); close(results) }()
	for d := range results {
		rf.prepared[d.oid] = d.pb
	}
	return nil
}

// storeBlob parses and stores a blob unless it is stored already. parsed
// reports whether it was parsed now.
func (rf *refresher) storeBlob(oid plumbing.Hash, read func() ([]byte, int64, error)) (id int64, parsed bool, err error) {
	if id, ok := rf.blobIDs[oid]; ok {
		return id, false, nil
	}
	pb := rf.prepared[oid]
	if pb == nil {
		err = rf.tx.QueryRow(`SELECT id FROM blob WHERE oid = ?`, oid[:]).Scan(&id)
		if err == nil {
			rf.blobIDs[oid] = id
			return id, false, nil
		}
		if !isNoRows(err) {
			return 0, false, fmt.Errorf("looking up blob %s: %w", oid, err)
		}
		content, size, err := read()
		if err != nil {
			return 0, false, fmt.Errorf("%w: %w", errUnreadable, err)
		}
		pb = analyze(content, size)
	}
	delete(rf.prepared, oid)
	if pb.err != nil {
		return 0, false, fmt.Errorf("%w: %w", errUnreadable, pb.err)
	}
	vector, err := pb.vector(rf.dict)
	if err != nil {
		return 0, false, err
	}
	metaJSON, err := encodeMeta(pb.meta)
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
	rf.loaded[id] = &blobData{id: id, meta: pb.meta, terms: terms}
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
	var err error
	if b.meta, err = decodeMeta(metaJSON); err != nil {
		return nil, fmt.Errorf("blob #%d: %w", id, err)
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
	added *inserter
}

func newTermDict(tx *txn) (*termDict, error) {
	d := &termDict{tx: tx, ids: map[string]int64{}, added: newInserter(tx, "INSERT", "term", "id", "text")}
	if err := tx.QueryRow(`SELECT coalesce(max(id), 0) FROM term`).Scan(&d.next); err != nil {
		return nil, fmt.Errorf("reading the term dictionary: %w", err)
	}
	d.empty = d.next == 0
	d.next++
	return d, nil
}

// id returns text's id. Ids of new terms are handed out here and written in
// batches; every lookup of a new term goes through ids, never the table.
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
	if err := d.added.Add(id, text); err != nil {
		return 0, err
	}
	d.next++
	d.ids[text] = id
	return id, nil
}
