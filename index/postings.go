package index

import (
	"cmp"
	"fmt"
	"slices"
	"sort"

	"github.com/omh-notes/omh/token"
	"github.com/omh-notes/omh/vault"
)

// vector is a document's terms: its blob's, plus its key's (see keyTerms).
func (rf *refresher) vector(d *doc) (map[int64]termEntry, error) {
	b, err := rf.blob(d.blob)
	if err != nil {
		return nil, err
	}
	terms, err := decodeTerms(b.terms)
	if err != nil {
		return nil, err
	}
	key, err := rf.keyTerms(d, b)
	if err != nil {
		return nil, err
	}
	v := make(map[int64]termEntry, len(terms)+len(key))
	for _, e := range withKeyTerms(terms, key) {
		v[e.ID] = e
	}
	return v, nil
}

// keyTerms are the terms of a document's key (the folders apart from the
// last part, and the last part) and, when the note has no title of its
// own, of the title it takes from its key, each with the fields it is in
// there; a term may come more than once. Key terms belong to the document,
// not the blob, since one content can live under many paths. Its tags, as
// the dialect reads them, are terms too (see tagTerm): which notes carry a
// tag is then a posting list, kept up to date as every term's is.
func (rf *refresher) keyTerms(d *doc, b *blobData) ([]termEntry, error) {
	var out []termEntry
	var err error
	add := func(text string, f token.Field) {
		token.EachToken(text, func(_, _ int, term string) {
			if err != nil {
				return
			}
			var id int64
			if id, err = rf.dict.id(term); err == nil {
				out = append(out, termEntry{ID: id, Fields: f})
			}
		})
	}
	folders, name := vault.SplitKey(d.key)
	add(folders, token.InFolder)
	add(name, token.InKey)
	if b.meta.Title == "" {
		add(vault.TitleFromKey(d.key), token.InTitle)
	}
	for _, tag := range rf.target.cfg.Dialect.Tags(b.meta.Parsed) {
		if err != nil {
			break
		}
		var id int64
		if id, err = rf.dict.id(tagTerm(tag)); err == nil {
			out = append(out, termEntry{ID: id}) // in no field: never scored
		}
	}
	return out, err
}

// tagTerm is the term a tag is indexed under: the tag folded, after a '#',
// which no word of a note's text holds (words are letters, marks and
// digits), so a question never reaches it and rarity never counts it.
func tagTerm(tag string) string { return "#" + vault.FoldTag(tag) }

// withKeyTerms adds key terms to a blob's terms (sorted by id, each once):
// a term of both keeps the blob's counts and gains the key's fields. The
// result holds each term once, in no particular order.
func withKeyTerms(terms, key []termEntry) []termEntry {
	blobTerms := len(terms)
	for _, k := range key {
		i, found := slices.BinarySearchFunc(terms[:blobTerms], k.ID, func(e termEntry, id int64) int { return cmp.Compare(e.ID, id) })
		if !found {
			i = slices.IndexFunc(terms[blobTerms:], func(e termEntry) bool { return e.ID == k.ID })
			if i < 0 {
				terms = append(terms, termEntry{ID: k.ID})
				i = len(terms) - 1
			} else {
				i += blobTerms
			}
		}
		terms[i].Fields |= k.Fields
	}
	return terms
}

type listKey struct {
	part int
	term int64
}

// postingKey is a posting list's row: snapshot, part and term in one
// integer, in that order, so a snapshot's lists are one range of keys.
func postingKey(snap int64, part int, term int64) int64 {
	return snap<<33 | int64(part)<<32 | term
}

// postingRange is the keys of a snapshot's lists, [lo, hi).
func postingRange(snap int64) (lo, hi int64) { return snap << 33, (snap + 1) << 33 }

type listEdit struct {
	drop map[uint32]bool
	add  []token.Posting
}

// writePostings updates the posting lists of exactly the terms whose entry
// for some document changed.
func (rf *refresher) writePostings() error {
	edits := map[listKey]*listEdit{}
	edit := func(k listKey) *listEdit {
		e := edits[k]
		if e == nil {
			e = &listEdit{drop: map[uint32]bool{}}
			edits[k] = e
		}
		return e
	}
	for _, ch := range rf.changes {
		var oldV, newV map[int64]termEntry
		var err error
		if ch.old != nil {
			if oldV, err = rf.vector(ch.old); err != nil {
				return err
			}
		}
		if ch.new != nil {
			if newV, err = rf.vector(ch.new); err != nil {
				return err
			}
		}
		moved := ch.old != nil && ch.new != nil && (ch.old.ord != ch.new.ord || ch.old.part != ch.new.part)
		for id, e := range oldV {
			if n, ok := newV[id]; moved || !ok || n != e {
				edit(listKey{ch.old.part, id}).drop[ch.old.ord] = true
			}
		}
		for id, e := range newV {
			if o, ok := oldV[id]; moved || !ok || o != e {
				le := edit(listKey{ch.new.part, id})
				le.drop[ch.new.ord] = true
				le.add = append(le.add, token.Posting{Doc: ch.new.ord, TF: e.TF, Fields: e.Fields})
			}
		}
	}
	keys := make([]listKey, 0, len(edits))
	for k := range edits {
		keys = append(keys, k)
	}
	sortListKeys(keys)
	lists := newInserter(rf.tx, "INSERT OR REPLACE", "posting", "key", "list")
	for _, k := range keys {
		if err := rf.editList(lists, k, edits[k]); err != nil {
			return err
		}
	}
	return lists.Flush()
}

// ordsIncrease reports whether the changes bring only new documents, in
// increasing order of their numbers, as a first build does.
func (rf *refresher) ordsIncrease() bool {
	next := uint32(0)
	for _, ch := range rf.changes {
		if ch.old != nil || (ch.new != nil && ch.new.ord < next) {
			return false
		}
		if ch.new != nil {
			next = ch.new.ord + 1
		}
	}
	return true
}

// firstLists are the posting lists of a first build. Documents come in
// increasing order, so each list grows at its end and is kept encoded as it
// grows (three bytes a posting) instead of as edits to merge: at 100,000
// notes, 15 million postings. Term ids are dense, so a part's lists are a
// slice indexed by id, which also gives them in the table's key order:
// kept in a map, finding each posting's list was two fifths of the work.
type firstLists struct {
	done  chan struct{} // closed once parts and err are set
	parts [partWorktree + 1][]growingList
	err   error
}

type growingList struct {
	prev uint32
	b    []byte
}

// startFirstLists builds a first build's posting lists on another
// goroutine. What needs the refresh's state (each document's blob, the ids
// of its key terms) is gathered first, on this one.
func (rf *refresher) startFirstLists() (*firstLists, error) {
	type docTerms struct {
		ord   uint32
		part  int
		terms []byte // the blob's, encoded
		key   []termEntry
	}
	var docs []docTerms
	for _, ch := range rf.changes {
		d := ch.new
		if d == nil {
			continue
		}
		b, err := rf.blob(d.blob)
		if err != nil {
			return nil, err
		}
		key, err := rf.keyTerms(d, b)
		if err != nil {
			return nil, err
		}
		docs = append(docs, docTerms{d.ord, d.part, b.terms, key})
	}
	terms := int(rf.dict.next) // every id handed out is below it
	fl := &firstLists{done: make(chan struct{})}
	go func() {
		defer close(fl.done)
		var buf []termEntry
		for _, d := range docs {
			var err error
			if buf, err = appendTerms(buf[:0], d.terms); err != nil {
				fl.err = err
				return
			}
			lists := fl.parts[d.part]
			if lists == nil {
				lists = make([]growingList, terms)
				fl.parts[d.part] = lists
			}
			for _, e := range withKeyTerms(buf, d.key) {
				l := &lists[e.ID]
				l.b = appendPosting(l.b, d.ord-l.prev, e.TF, e.Fields)
				l.prev = d.ord
			}
		}
	}()
	return fl, nil
}

// writeFirstLists writes the lists once they are built.
func (rf *refresher) writeFirstLists(fl *firstLists) error {
	<-fl.done
	if fl.err != nil {
		return fl.err
	}
	out := newInserter(rf.tx, "INSERT", "posting", "key", "list")
	for part, lists := range fl.parts {
		for id, l := range lists {
			if len(l.b) == 0 {
				continue
			}
			if err := out.Add(postingKey(rf.snap.id, part, int64(id)), l.b); err != nil {
				return err
			}
		}
	}
	return out.Flush()
}

func sortListKeys(keys []listKey) {
	sort.Slice(keys, func(i, j int) bool {
		if keys[i].part != keys[j].part {
			return keys[i].part < keys[j].part
		}
		return keys[i].term < keys[j].term
	})
}

func (rf *refresher) editList(lists *inserter, k listKey, e *listEdit) error {
	var raw []byte
	if !rf.firstBuild {
		err := rf.tx.QueryRow(`SELECT list FROM posting WHERE key = ?`, postingKey(rf.snap.id, k.part, k.term)).Scan(&raw)
		if err != nil && !isNoRows(err) {
			return fmt.Errorf("reading a posting list: %w", err)
		}
	}
	old, err := decodePostings(raw)
	if err != nil {
		return err
	}
	list := mergePostings(old, e.drop, e.add)
	if len(list) > 0 {
		return lists.Add(postingKey(rf.snap.id, k.part, k.term), encodePostings(list))
	}
	if _, err := rf.tx.Exec(`DELETE FROM posting WHERE key = ?`, postingKey(rf.snap.id, k.part, k.term)); err != nil {
		return fmt.Errorf("removing a posting list: %w", err)
	}
	return nil
}
