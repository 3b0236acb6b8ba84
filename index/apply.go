package index

import (
	"cmp"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/omh-notes/omh/vault"
)

// apply writes the recorded changes into the snapshot: document rows and
// names (here), posting lists (postings.go), resolved links (resolve.go),
// link counts and the packed info ranking reads (inbound.go). Each step
// touches only what the changes reach.
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
