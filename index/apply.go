package index

import (
	"cmp"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/omh-notes/omh/vault"
	"github.com/omh-notes/omh/vault/token"
)

// apply writes the recorded changes into the snapshot: document rows,
// posting lists, names, resolved links, link counts and the packed info
// ranking reads. Each step touches only what the changes reach.
func (rf *refresher) apply() error {
	if err := rf.settle(); err != nil {
		return err
	}
	if len(rf.changes) == 0 {
		return nil
	}
	rf.assignOrds()
	var keys map[string]inboundDelta
	var err error
	var first *firstLists
	if rf.firstBuild && rf.ordsIncrease() {
		// The lists are built on another core while the documents are
		// written: alone, they were a third of a first build's apply.
		if first, err = rf.startFirstLists(); err != nil {
			return err
		}
	}
	if rf.firstBuild {
		// Every note is new and resolves against names held in memory, so
		// its links are resolved before its row is written, and the row is
		// written once: rewritten with its links, the doc table's rows grew
		// in place and left a tenth of its pages empty.
		if keys, err = rf.resolveLinks(nil); err != nil {
			return err
		}
	}
	touched, err := rf.writeDocs()
	if err != nil {
		return err
	}
	if first != nil {
		err = rf.writeFirstLists(first)
	} else {
		err = rf.writePostings()
	}
	if err != nil {
		return err
	}
	if !rf.firstBuild {
		if keys, err = rf.resolveLinks(touched); err != nil {
			return err
		}
	}
	return rf.writeInfo(keys)
}

// settle dates each new document and drops changes that change nothing.
func (rf *refresher) settle() error {
	kept := rf.changes[:0]
	for _, ch := range rf.changes {
		if d := ch.new; d != nil {
			b, err := rf.blob(d.blob)
			if err != nil {
				return err
			}
			d.date, d.source = dateOf(b.meta, d)
			if old := ch.old; old != nil && sameDoc(old, d) {
				continue
			}
		}
		kept = append(kept, ch)
	}
	rf.changes = kept
	return nil
}

// dateOf is a note's date: a valid recorded date, else the frontmatter's
// date or created, else the last commit that changed a team file or a local
// file's modification time (in UTC). Never today.
func dateOf(m blobMeta, d *doc) (vault.Date, vault.DateSource) {
	switch {
	case m.Recorded != "":
		return m.Recorded, vault.FromRecorded
	case m.Dated != "":
		return m.Dated, vault.FromFrontmatter
	case d.layer == vault.Team:
		return d.gitDate, vault.FromGit
	}
	return vault.DateOf(unixNano(d.mtime)), vault.FromMtime
}

func sameDoc(a, b *doc) bool {
	return a.part == b.part && a.layer == b.layer && a.key == b.key && a.path == b.path && a.blob == b.blob &&
		a.gitDate == b.gitDate && a.mtime == b.mtime && a.date == b.date && a.source == b.source
}

// assignOrds numbers new documents, reusing the numbers of removed ones so
// the snapshot's arrays stay as long as the store.
func (rf *refresher) assignOrds() {
	span := rf.snap.span()
	var free []uint32
	for ord := 0; ord < span; ord++ {
		if !getInfo(rf.snap.info, uint32(ord)).present {
			free = append(free, uint32(ord))
		}
	}
	for _, ch := range rf.changes {
		if ch.old != nil && ch.new == nil {
			free = append(free, ch.old.ord)
		}
	}
	sort.Slice(free, func(i, j int) bool { return free[i] < free[j] })
	for _, ch := range rf.changes {
		if ch.new == nil || ch.old != nil {
			continue
		}
		if len(free) > 0 {
			ch.new.ord, free = free[0], free[1:]
		} else {
			ch.new.ord = uint32(span)
			span++
		}
	}
}

// nameHolder is what a name lookup reports of one document holding the
// name. Its ord alone does not identify the note: assignOrds hands a removed
// note's ord to a note added in the same refresh.
type nameHolder struct {
	name string
	ord  uint32
	key  string
	kind vault.NameKind
}

// writeDocs rewrites the changed documents' rows and names, first removing
// every old row so that a reused number never meets its former owner's rows.
// It returns the names whose meaning changed: those gaining or losing a
// holder, where a holder whose ord now carries another key or kind counts
// as both, so the notes linking by the name are resolved again.
func (rf *refresher) writeDocs() (map[string]bool, error) {
	touched := map[string]bool{}
	oldNames := map[nameHolder]bool{}
	for _, ch := range rf.changes {
		if ch.old == nil {
			continue
		}
		// Rows are removed by their whole primary key, from the names and
		// link targets the old document had: removing by ord alone reads
		// every row of the snapshot, per changed document.
		if _, err := rf.tx.Exec(`DELETE FROM doc WHERE snap = ? AND ord = ?`, rf.snap.id, ch.old.ord); err != nil {
			return nil, fmt.Errorf("removing %s: %w", ch.old.path, err)
		}
		names, err := rf.namesOf(ch.old)
		if err != nil {
			return nil, err
		}
		for n, kind := range names {
			oldNames[nameHolder{n, ch.old.ord, ch.old.key, kind}] = true
			if _, err := rf.tx.Exec(`DELETE FROM name WHERE snap = ? AND name = ? AND ord = ?`, rf.snap.id, n, ch.old.ord); err != nil {
				return nil, fmt.Errorf("removing %s: %w", ch.old.path, err)
			}
		}
		targets, err := rf.linkNames(ch.old)
		if err != nil {
			return nil, err
		}
		for t := range targets {
			if _, err := rf.tx.Exec(`DELETE FROM rawlink WHERE snap = ? AND target = ? AND ord = ?`, rf.snap.id, nameHash(t), ch.old.ord); err != nil {
				return nil, fmt.Errorf("removing %s: %w", ch.old.path, err)
			}
		}
	}
	docs := newInserter(rf.tx, "INSERT", "doc", "snap", "ord", "part", "layer", "key", "path", "blob", "git_date", "mtime", "date", "date_source", "title", "type", "links")
	// Names and link targets are written in key order: a table keyed by
	// them and filled in document order left a tenth of its pages empty.
	var nameRows []nameHolder
	var linkRows []rawLink
	for _, ch := range rf.changes {
		d := ch.new
		if d == nil {
			continue
		}
		err := docs.Add(rf.snap.id, d.ord, d.part, d.layer, d.key, d.path, d.blob, d.gitDate, d.mtime, d.date, d.source, d.title, d.typ, encodeLinks(d.links))
		if err != nil {
			return nil, err
		}
		names, err := rf.namesOf(d)
		if err != nil {
			return nil, err
		}
		for n, kind := range names {
			h := nameHolder{n, d.ord, d.key, kind}
			nameRows = append(nameRows, h)
			if oldNames[h] {
				delete(oldNames, h)
			} else {
				touched[n] = true
			}
		}
		targets, err := rf.linkNames(d)
		if err != nil {
			return nil, err
		}
		for t := range targets {
			linkRows = append(linkRows, rawLink{nameHash(t), d.ord})
		}
	}
	if err := docs.Flush(); err != nil {
		return nil, err
	}
	if err := rf.writeNames(nameRows, linkRows); err != nil {
		return nil, err
	}
	for h := range oldNames {
		touched[h.name] = true
	}
	return touched, nil
}

// rawLink is a rawlink row: a name a document's links are resolved by,
// as nameHash gives it, and the document.
type rawLink struct {
	target int64
	ord    uint32
}

// writeNames inserts name and rawlink rows in the order of their keys.
func (rf *refresher) writeNames(names []nameHolder, links []rawLink) error {
	slices.SortFunc(names, func(a, b nameHolder) int { return cmp.Or(strings.Compare(a.name, b.name), cmp.Compare(a.ord, b.ord)) })
	rows := newInserter(rf.tx, "INSERT", "name", "snap", "name", "ord", "kind")
	for _, n := range names {
		if err := rows.Add(rf.snap.id, n.name, n.ord, n.kind); err != nil {
			return err
		}
	}
	if err := rows.Flush(); err != nil {
		return err
	}
	slices.SortFunc(links, func(a, b rawLink) int { return cmp.Or(cmp.Compare(a.target, b.target), cmp.Compare(a.ord, b.ord)) })
	links = slices.Compact(links) // two names of one document may share a hash
	rows = newInserter(rf.tx, "INSERT", "rawlink", "snap", "target", "ord")
	for _, l := range links {
		if err := rows.Add(rf.snap.id, l.target, l.ord); err != nil {
			return err
		}
	}
	return rows.Flush()
}

func (rf *refresher) namesOf(d *doc) (map[string]vault.NameKind, error) {
	b, err := rf.blob(d.blob)
	if err != nil {
		return nil, err
	}
	names := vault.NamesOf(d.key, b.meta.Aliases)
	for n, kind := range names {
		if !rf.target.cfg.Dialect.Asks(kind) {
			delete(names, n)
		}
	}
	return names, nil
}

func (rf *refresher) linkNames(d *doc) (map[string]bool, error) {
	b, err := rf.blob(d.blob)
	if err != nil {
		return nil, err
	}
	out := map[string]bool{}
	for _, l := range b.meta.Links {
		for _, n := range rf.target.cfg.Dialect.LinkNames(l, d.key) {
			out[n] = true
		}
	}
	return out, nil
}

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
// not the blob, since one content can live under many paths.
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
	return out, err
}

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

// writeInfo applies the link counts and rewrites the packed info of every
// document whose date, type, counts or place in name order changed.
func (rf *refresher) writeInfo(deltas map[string]inboundDelta) error {
	st := &rf.snap.state
	types := map[string]uint16{}
	for i, t := range st.Types {
		types[t] = uint16(i)
	}
	typeIndex := func(t string) uint16 {
		i, ok := types[t]
		if !ok {
			i = uint16(len(st.Types))
			st.Types = append(st.Types, t)
			types[t] = i
		}
		return i
	}
	keys := make([]string, 0, len(deltas))
	for k := range deltas {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	counts, all, err := rf.applyInbounds(keys, deltas)
	if err != nil {
		return err
	}
	reorder := false
	for _, ch := range rf.changes {
		if ch.old != nil && (ch.new == nil || ch.new.key != ch.old.key) {
			rf.snap.info = putInfo(rf.snap.info, ch.old.ord, docInfo{})
			reorder = true
		}
	}
	for _, ch := range rf.changes {
		d := ch.new
		if d == nil {
			continue
		}
		n, ok := counts[d.key]
		if !ok && !all {
			var err error
			if n, err = rf.inbound(d.key); err != nil {
				return err
			}
		}
		b, err := rf.blob(d.blob)
		if err != nil {
			return err
		}
		prev := getInfo(rf.snap.info, d.ord)
		rf.snap.info = putInfo(rf.snap.info, d.ord, docInfo{
			present: true, worktree: d.part == partWorktree, layer: uint8(d.layer), typ: typeIndex(d.typ),
			day: uint32(d.date.Number()), inboundAll: uint32(n.all), inboundBase: uint32(n.base), nameRank: prev.nameRank,
			words: uint32(b.meta.Words), retracted: uint32(b.meta.Retracted.Number()), scaffold: b.scaffold,
		})
		if ch.old == nil {
			reorder = true
		}
	}
	if !all { // else every document is new, and was given its count above
		if err := rf.recount(keys, counts); err != nil {
			return err
		}
	}
	if reorder {
		if err := rf.rankNames(); err != nil {
			return err
		}
	}
	rf.trimInfo()
	return nil
}

// countDocs counts the documents and their words a question is asked of,
// with the working tree and without (see docInfo.shown).
func (rf *refresher) countDocs() {
	st := &rf.snap.state
	st.CountAll, st.CountBase, st.WordsAll, st.WordsBase = 0, 0, 0, 0
	for o := 0; o < rf.snap.span(); o++ {
		info := getInfo(rf.snap.info, uint32(o))
		if info.shown(false) {
			st.CountAll++
			st.WordsAll += int64(info.words)
		}
		if info.shown(true) {
			st.CountBase++
			st.WordsBase += int64(info.words)
		}
	}
}

// applyInbounds adds deltas to the stored link counts of keys (sorted) and
// returns the counts. all reports that counts holds every count there is
// (a key not in it has none): a first build, which finds no count stored,
// writes them in batches without reading one, where a statement or two
// for each key linked to was a third of vba-docs' writing of counts and
// infos.
func (rf *refresher) applyInbounds(keys []string, deltas map[string]inboundDelta) (counts map[string]inboundDelta, all bool, err error) {
	counts = make(map[string]inboundDelta, len(keys))
	if rf.firstBuild {
		err := rf.tx.QueryRow(`SELECT NOT EXISTS (SELECT 1 FROM inbound WHERE snap = ?)`, rf.snap.id).Scan(&all)
		if err != nil {
			return nil, false, fmt.Errorf("reading the link counts: %w", err)
		}
	}
	if !all {
		for _, k := range keys {
			n, err := rf.applyInbound(k, deltas[k])
			if err != nil {
				return nil, false, err
			}
			counts[k] = n
		}
		return counts, false, nil
	}
	rows := newInserter(rf.tx, "INSERT", "inbound", "snap", "key", "n_all", "n_base")
	for _, k := range keys {
		n := deltas[k]
		if n.all < 0 || n.base < 0 {
			return nil, false, fmt.Errorf("link count of %s went below zero: %w", k, errDamaged)
		}
		counts[k] = n
		if n != (inboundDelta{}) {
			if err := rows.Add(rf.snap.id, k, n.all, n.base); err != nil {
				return nil, false, err
			}
		}
	}
	return counts, true, rows.Flush()
}

// recount gives the documents of each of keys, whose link count changed,
// the new count.
func (rf *refresher) recount(keys []string, counts map[string]inboundDelta) error {
	for _, k := range keys {
		ords, err := rf.ordsOf(k)
		if err != nil {
			return err
		}
		for _, o := range ords {
			info := getInfo(rf.snap.info, o)
			info.inboundAll, info.inboundBase = uint32(counts[k].all), uint32(counts[k].base)
			rf.snap.info = putInfo(rf.snap.info, o, info)
		}
	}
	return nil
}

// ordsOf lists the documents of the snapshot with key.
func (rf *refresher) ordsOf(key string) ([]uint32, error) {
	rows, err := rf.tx.Query(`SELECT ord FROM doc WHERE snap = ? AND key = ?`, rf.snap.id, key)
	if err != nil {
		return nil, fmt.Errorf("finding notes of %s: %w", key, err)
	}
	defer rows.Close()
	var ords []uint32
	for rows.Next() {
		var o uint32
		if err := rows.Scan(&o); err != nil {
			return nil, err
		}
		ords = append(ords, o)
	}
	return ords, rows.Err()
}

func (rf *refresher) applyInbound(key string, d inboundDelta) (inboundDelta, error) {
	n, err := rf.inbound(key)
	if err != nil {
		return n, err
	}
	n.all += d.all
	n.base += d.base
	if n.all < 0 || n.base < 0 {
		return n, fmt.Errorf("link count of %s went below zero: %w", key, errDamaged)
	}
	if n == (inboundDelta{}) {
		_, err = rf.tx.Exec(`DELETE FROM inbound WHERE snap = ? AND key = ?`, rf.snap.id, key)
	} else {
		_, err = rf.tx.Exec(`INSERT OR REPLACE INTO inbound (snap, key, n_all, n_base) VALUES (?, ?, ?, ?)`, rf.snap.id, key, n.all, n.base)
	}
	return n, err
}

func (rf *refresher) inbound(key string) (inboundDelta, error) {
	var n inboundDelta
	err := rf.tx.QueryRow(`SELECT n_all, n_base FROM inbound WHERE snap = ? AND key = ?`, rf.snap.id, key).Scan(&n.all, &n.base)
	if err != nil && !isNoRows(err) {
		return n, fmt.Errorf("reading the link count of %s: %w", key, err)
	}
	return n, nil
}

// rankNames numbers every document by (key, layer, path), the last
// tie-break of the ranking.
func (rf *refresher) rankNames() error {
	rows, err := rf.tx.Query(`SELECT ord FROM doc WHERE snap = ? ORDER BY key, layer, path`, rf.snap.id)
	if err != nil {
		return fmt.Errorf("ordering notes by name: %w", err)
	}
	defer rows.Close()
	rank := uint32(0)
	for rows.Next() {
		var o uint32
		if err := rows.Scan(&o); err != nil {
			return err
		}
		info := getInfo(rf.snap.info, o)
		info.nameRank = rank
		rf.snap.info = putInfo(rf.snap.info, o, info)
		rank++
	}
	return rows.Err()
}

// trimInfo drops trailing numbers no document holds.
func (rf *refresher) trimInfo() {
	n := rf.snap.span()
	for n > 0 && !getInfo(rf.snap.info, uint32(n-1)).present {
		n--
	}
	rf.snap.info = rf.snap.info[:n*infoSize]
}
