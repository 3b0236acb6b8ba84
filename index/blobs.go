package index

import (
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/omh-notes/omh/internal/procs"
	"github.com/omh-notes/omh/token"
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

// blobData is a stored blob as a refresh holds it: its row id, the part of
// its meta a refresh reads (see slim), and its term vector kept encoded (a
// quarter of the decoded size).
type blobData struct {
	id    int64
	meta  blobMeta
	terms []byte
	// scaffold marks a note that is only a template's scaffolding (see
	// vault.Parsed.Scaffold), read from the full parse slim drops.
	scaffold bool
}

// parsedBlob is a blob's content analysed, before its terms have ids.
type parsedBlob struct {
	meta      blobMeta
	metaBytes []byte      // meta as stored
	terms     []textEntry // sorted by text
	err       error
}

// textEntry is one term of a parsed blob, before it has an id.
type textEntry struct {
	text string
	termEntry
}

// analyze parses content (at most maxNoteBytes of a file of size bytes) into
// its meta and terms, sorted, and encodes the meta; words are the terms of
// the words of the notes analysed before on the same goroutine. It is pure, so blobs are
// analysed on every core; what is left for the one goroutine that stores
// them is handing out term ids.
func analyze(content []byte, size int64, words *token.Words) *parsedBlob {
	pb := &parsedBlob{meta: blobMeta{Size: size, Cut: size > int64(len(content))}}
	if vault.LooksBinary(content) {
		pb.meta.Binary = true
	} else {
		pb.meta.Parsed = vault.ParseNote(content)
		pb.terms = pb.termsOf(content, words)
	}
	pb.metaBytes = encodeMeta(pb.meta)
	return pb
}

// termsOf lists a parsed note's terms by text, with the fields each is in
// and how often it occurs in the body, and counts the body's words.
func (pb *parsedBlob) termsOf(content []byte, words *token.Words) []textEntry {
	sc := termScratches.Get().(*termScratch)
	defer func() {
		clear(sc.at)
		sc.out = sc.out[:0]
		termScratches.Put(sc)
	}()
	// Each token's term is looked up once: as a map of entries, read and
	// written back, it was twice.
	at, out := sc.at, sc.out
	add := func(text string, f token.Field) {
		words.EachToken(text, func(_, _ int, term string) {
			i, ok := at[term]
			if !ok {
				i = len(out)
				at[term] = i
				out = append(out, textEntry{text: term})
			}
			e := &out[i]
			e.Fields |= f
			if f == token.InBody {
				e.TF++
				pb.meta.Words++
			}
		})
	}
	p := &pb.meta.Parsed
	add(p.Title, token.InTitle)
	// An alias is another title the note goes by.
	for _, a := range p.Aliases {
		add(a, token.InTitle)
	}
	for _, h := range p.Headings {
		add(h.Text, token.InHeading)
	}
	add(p.Description, token.InDescription)
	for _, a := range p.Answers {
		add(a, token.InAnswers)
	}
	for _, t := range p.Tags {
		add(t, token.InBody)
	}
	add(string(content[min(p.BodyStart, len(content)):]), token.InBody)
	sc.out = out
	slices.SortFunc(out, func(a, b textEntry) int { return strings.Compare(a.text, b.text) })
	return slices.Clone(out)
}

// termScratch is what termsOf fills for one note: where each term is in
// out, and out. Kept between notes: grown anew for each note, a map
// doubling its way to a few hundred terms was a seventh of a cold build's
// allocations.
type termScratch struct {
	at  map[string]int
	out []textEntry
}

var termScratches = sync.Pool{New: func() any { return &termScratch{at: map[string]int{}} }}

// vector gives a parsed blob's terms their ids, handed out in sorted order
// so that two builds from the same files produce the same database. The
// vector is the dictionary's scratch, good until the next call.
func (pb *parsedBlob) vector(dict *termDict) ([]termEntry, error) {
	if !dict.empty {
		texts := make([]string, len(pb.terms))
		for i, t := range pb.terms {
			texts[i] = t.text
		}
		if err := dict.prefetch(texts); err != nil {
			return nil, err
		}
	}
	vector := dict.scratch[:0]
	for _, t := range pb.terms {
		id, err := dict.id(t.text)
		if err != nil {
			return nil, err
		}
		t.ID = id
		vector = append(vector, t.termEntry)
	}
	dict.scratch = vector
	return vector, nil
}

// parseAhead is how many notes may be parsed ahead of the one being stored:
// enough to keep every core busy while the refresh stores on one, few
// enough that the parsed notes waiting (about 10 KB each) stay a few
// megabytes however large the store.
const parseAhead = 256

// blobSource is a blob a refresh may need, and how to read it.
type blobSource struct {
	oid  plumbing.Hash
	read func() ([]byte, int64, error)
}

// unstored keeps, of sources, the blobs the cache does not hold yet, each
// once, in order.
func (rf *refresher) unstored(sources []blobSource) ([]blobSource, error) {
	var todo []blobSource
	queued := map[plumbing.Hash]bool{}
	for _, src := range sources {
		if _, stored := rf.blobIDs[src.oid]; stored || queued[src.oid] {
			continue
		}
		var id int64
		err := rf.tx.QueryRow(`SELECT id FROM blob WHERE oid = ?`, src.oid[:]).Scan(&id)
		switch {
		case err == nil:
			rf.blobIDs[src.oid] = id
		case isNoRows(err):
			queued[src.oid] = true
			todo = append(todo, src)
		default:
			return nil, fmt.Errorf("looking up blob %s: %w", src.oid, err)
		}
	}
	return todo, nil
}

// parser analyses blobs on every core while the refresh stores the ones
// before them. Reading stays on one goroutine (go-git's storage is not safe
// for concurrent use); results come back in the order of the sources.
type parser struct {
	order chan chan *parsedBlob
	stop  chan struct{}
	read  chan struct{} // closed when the reading goroutine is done with go-git
}

func startParser(sources []blobSource) *parser {
	p := &parser{order: make(chan chan *parsedBlob, parseAhead), stop: make(chan struct{}), read: make(chan struct{})}
	type job struct {
		content []byte
		size    int64
		out     chan *parsedBlob
	}
	jobs := make(chan job, parseAhead)
	go func() {
		defer close(p.read)
		defer close(jobs)
		defer close(p.order)
		for _, src := range sources {
			content, size, err := src.read()
			out := make(chan *parsedBlob, 1)
			if err != nil {
				out <- &parsedBlob{err: err}
			} else {
				select {
				case jobs <- job{content, size, out}:
				case <-p.stop:
					return
				}
			}
			select {
			case p.order <- out:
			case <-p.stop:
				return
			}
		}
	}()
	for range procs.Workers(len(sources)) {
		go func() {
			words := token.NewWords()
			for j := range jobs {
				j.out <- analyze(j.content, j.size, words)
			}
		}()
	}
	return p
}

// next is the next source's analysis.
func (p *parser) next() *parsedBlob { return <-<-p.order }

// close stops the reading and parsing that nobody will wait for, and
// returns once go-git is no longer being read.
func (p *parser) close() {
	close(p.stop)
	<-p.read
}

// storeBlob parses and stores a blob unless it is stored already, warning
// about a note (at path) read in part or not at all when it is parsed.
// parsed reports whether it was parsed now.
func (rf *refresher) storeBlob(path string, oid plumbing.Hash, read func() ([]byte, int64, error)) (id int64, parsed bool, err error) {
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
		pb = analyze(content, size, token.NewWords())
	}
	delete(rf.prepared, oid)
	if pb.err != nil {
		return 0, false, fmt.Errorf("%w: %w", errUnreadable, pb.err)
	}
	vector, err := pb.vector(rf.dict)
	if err != nil {
		return 0, false, err
	}
	terms := encodeTerms(vector)
	id = rf.nextBlob
	if err := rf.newBlobs.Add(id, oid[:], pb.metaBytes, terms); err != nil {
		return 0, false, fmt.Errorf("storing blob %s: %w", oid, err)
	}
	rf.nextBlob++
	rf.blobIDs[oid] = id
	rf.reportBlob(path, pb.meta)
	rf.loaded[id] = &blobData{id: id, meta: slim(pb.meta), terms: terms, scaffold: pb.meta.Scaffold()}
	return id, true, nil
}

// slim keeps of a blob's meta what a refresh reads once the blob is stored:
// the title and type a document takes, the dates, aliases and link targets
// that dating and link resolution need, the tags a document's tag terms
// come from, the word count. A first build holds
// one per note until its links are resolved; headings, answers and offsets
// (most of a meta) stay in the stored row.
func slim(m blobMeta) blobMeta {
	p := &m.Parsed
	out := blobMeta{Size: m.Size, Words: m.Words, Cut: m.Cut, Binary: m.Binary, Parsed: vault.Parsed{
		Title: p.Title, Type: p.Type, Recorded: p.Recorded, Dated: p.Dated, Retracted: p.Retracted, Aliases: p.Aliases,
		Tags: p.Tags, PageTags: p.PageTags}}
	if len(p.Links) > 0 {
		out.Links = make([]vault.Link, len(p.Links))
		for i, l := range p.Links {
			out.Links[i] = vault.Link{Kind: l.Kind, Target: l.Target, Label: l.Label, Verb: l.Verb}
		}
	}
	return out
}

// blob loads a stored blob, once per refresh.
func (rf *refresher) blob(id int64) (*blobData, error) {
	if b, ok := rf.loaded[id]; ok {
		return b, nil
	}
	var meta, terms []byte
	if err := rf.tx.QueryRow(`SELECT meta, terms FROM blob WHERE id = ?`, id).Scan(&meta, &terms); err != nil {
		return nil, fmt.Errorf("loading blob #%d: %w", id, err)
	}
	b := &blobData{id: id, terms: terms}
	var err error
	if b.meta, err = decodeMeta(meta); err != nil {
		return nil, fmt.Errorf("blob #%d: %w", id, err)
	}
	b.meta, b.scaffold = slim(b.meta), b.meta.Scaffold()
	rf.loaded[id] = b
	return b, nil
}

// termDict maps term texts to ids, inserting new terms.
type termDict struct {
	tx      *txn
	ids     map[string]int64
	checked map[string]bool // looked up in the table and not there
	empty   bool            // the table held no terms when the refresh began: skip lookups
	next    int64
	first   int64 // the first id this refresh hands out
	added   []string
	// scratch holds the last vector: a first build's vectors, each made
	// anew, were a tenth of what it allocated.
	scratch []termEntry
}

func newTermDict(tx *txn) (*termDict, error) {
	d := &termDict{tx: tx, ids: map[string]int64{}, checked: map[string]bool{}}
	// The table is keyed by text alone, so the last id handed out is kept
	// as a counter rather than found by reading every term.
	err := tx.QueryRow(`SELECT n FROM counter WHERE name = ?`, counterTerms).Scan(&d.next)
	if err != nil && !isNoRows(err) {
		return nil, fmt.Errorf("reading the term dictionary: %w", err)
	}
	d.empty = d.next == 0
	d.next++
	d.first = d.next
	return d, nil
}

// flush writes the new terms, in the order of the table's key (written as
// they came, a tenth of its pages stayed empty), and the last id handed out.
func (d *termDict) flush() error {
	if d.next == d.first {
		return nil // no new term
	}
	slices.Sort(d.added)
	rows := newInserter(d.tx, "INSERT", "term", "text", "id")
	for _, t := range d.added {
		if err := rows.Add(t, d.ids[t]); err != nil {
			return err
		}
	}
	if err := rows.Flush(); err != nil {
		return err
	}
	if _, err := d.tx.Exec(`INSERT OR REPLACE INTO counter (name, n) VALUES (?, ?)`, counterTerms, d.next-1); err != nil {
		return fmt.Errorf("writing the term dictionary: %w", err)
	}
	return nil
}

// prefetchBatch is how many terms one lookup asks the table for. A note's
// few hundred distinct terms were as many queries, each a statement run
// through database/sql: 7% of a post-commit hook's CPU at 10,000 notes.
const prefetchBatch = 128

// prefetch looks up, a batch at a time, the ids of the texts not known
// yet, so that id asks the table for none of them again.
func (d *termDict) prefetch(texts []string) error {
	if d.empty {
		return nil
	}
	var todo []string
	for _, t := range texts {
		if _, known := d.ids[t]; !known && !d.checked[t] {
			todo = append(todo, t)
		}
	}
	query := `SELECT text, id FROM term WHERE text IN (?` + strings.Repeat(", ?", prefetchBatch-1) + `)`
	args := make([]any, prefetchBatch)
	for len(todo) > 0 {
		batch := todo[:min(len(todo), prefetchBatch)]
		todo = todo[len(batch):]
		for i := range args {
			args[i] = batch[min(i, len(batch)-1)] // the last repeated: one statement for every batch
		}
		if err := d.fetch(query, args); err != nil {
			return err
		}
		for _, t := range batch {
			if _, found := d.ids[t]; !found {
				d.checked[t] = true
			}
		}
	}
	return nil
}

func (d *termDict) fetch(query string, args []any) error {
	rows, err := d.tx.Query(query, args...)
	if err != nil {
		return fmt.Errorf("looking up terms: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var text string
		var id int64
		if err := rows.Scan(&text, &id); err != nil {
			return fmt.Errorf("looking up terms: %w", err)
		}
		d.ids[text] = id
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("looking up terms: %w", err)
	}
	return nil
}

// id returns text's id. Ids of new terms are handed out here and written in
// batches; every lookup of a new term goes through ids, never the table.
func (d *termDict) id(text string) (int64, error) {
	if id, ok := d.ids[text]; ok {
		return id, nil
	}
	var id int64
	if !d.empty && !d.checked[text] {
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
	d.added = append(d.added, text)
	d.next++
	d.ids[text] = id
	return id, nil
}
