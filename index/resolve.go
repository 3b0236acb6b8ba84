package index

import (
	"cmp"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/omh-notes/omh/vault"
)

// inboundDelta is a change in how many notes link to a key: from any note,
// and from notes other than uncommitted working copies.
type inboundDelta struct{ all, base int }

// resolveLinks resolves again the links of every changed document and of
// every note linking by a name whose meaning changed, and counts how the
// number of notes linking to each key moved. It returns those keys.
func (rf *refresher) resolveLinks(touched map[string]bool) (map[string]inboundDelta, error) {
	deltas := map[string]inboundDelta{}
	count := func(src *doc, links []link, sign int) {
		for _, k := range linkedKeys(links) {
			if k == src.key {
				continue // a note linking to its own key is not pointed at by the store
			}
			d := deltas[k]
			d.all += sign
			if src.part == partBase {
				d.base += sign
			}
			deltas[k] = d
		}
	}
	redo := map[uint32]*doc{}
	for _, ch := range rf.changes {
		if ch.old != nil {
			count(ch.old, ch.old.links, -1)
		}
		if ch.new != nil {
			redo[ch.new.ord] = ch.new
		}
	}
	// Notes linking by a name that now means something else. When every
	// document is being resolved anyway (a first build), there are none.
	if rf.firstBuild {
		touched = nil
	}
	changedNames := make([]string, 0, len(touched))
	for n := range touched {
		changedNames = append(changedNames, n)
	}
	sort.Strings(changedNames)
	for _, n := range changedNames {
		srcs, err := rf.docs(`d.ord IN (SELECT ord FROM rawlink WHERE snap = ? AND target = ?)`, rf.snap.id, nameHash(n))
		if err != nil {
			return nil, err
		}
		for _, d := range srcs {
			if _, ok := redo[d.ord]; !ok {
				count(d, d.links, -1)
				redo[d.ord] = d
			}
		}
	}
	ords := make([]uint32, 0, len(redo))
	for o := range redo {
		ords = append(ords, o)
	}
	sort.Slice(ords, func(i, j int) bool { return ords[i] < ords[j] })
	var lookup vault.Names = nameTable{tx: rf.tx, snap: rf.snap.id} // the snapshot being written
	if rf.firstBuild {
		// Every note is new: resolve against names held in memory rather
		// than one query per link.
		mem := vault.MemNames{}
		for _, ch := range rf.changes {
			if ch.new == nil {
				continue
			}
			b, err := rf.blob(ch.new.blob)
			if err != nil {
				return nil, err
			}
			mem.Add(ch.new.key, b.meta.Aliases)
		}
		lookup = mem
	}
	// Reverse links follow: every source whose links are redone, or which
	// is gone, loses its rows first, since a number may have a new owner.
	// Rows are removed by their whole key, from the links the source had.
	unlink := func(src uint32, links []link) error {
		for _, l := range links {
			if _, err := rf.tx.Exec(`DELETE FROM backlink WHERE snap = ? AND target = ? AND src = ? AND verb = ?`, rf.snap.id, l.key, src, l.verb); err != nil {
				return fmt.Errorf("removing reverse links: %w", err)
			}
		}
		return nil
	}
	for _, ch := range rf.changes {
		if ch.old != nil && ch.new == nil {
			if err := unlink(ch.old.ord, ch.old.links); err != nil {
				return nil, err
			}
		}
	}
	var back []backRow
	for _, o := range ords {
		d := redo[o]
		links, err := rf.resolve(d, lookup)
		if err != nil {
			return nil, err
		}
		count(d, links, +1)
		if encodeLinks(links) == encodeLinks(d.links) {
			continue
		}
		if err := unlink(o, d.links); err != nil {
			return nil, err
		}
		d.links = links
		if !rf.firstBuild { // else the row is written after, with its links
			if _, err := rf.tx.Exec(`UPDATE doc SET links = ? WHERE snap = ? AND ord = ?`, encodeLinks(links), rf.snap.id, o); err != nil {
				return nil, fmt.Errorf("writing links of %s: %w", d.path, err)
			}
		}
		for _, l := range links {
			back = append(back, backRow{l.key, o, l.verb})
		}
	}
	if err := rf.writeBacklinks(back); err != nil {
		return nil, err
	}
	for k, d := range deltas {
		if d == (inboundDelta{}) {
			delete(deltas, k)
		}
	}
	return deltas, nil
}

// resolve lists what a document's links reach, in order of first
// appearance, each (verb, key) once. Ambiguous and dangling links reach
// nothing, but for a link naming a note of another store
// ([[handbook:topic/x]]), kept under that qualified key: no note here
// holds it, and the stores answering together follow it (Foreign), and
// find the links into a note of theirs in the backlink table by it
// (LinksInKey).
func (rf *refresher) resolve(d *doc, names vault.Names) ([]link, error) {
	b, err := rf.blob(d.blob)
	if err != nil {
		return nil, err
	}
	var out []link
	seen := map[link]bool{}
	for _, l := range b.meta.Links {
		res, err := rf.target.cfg.Dialect.Resolve(l, d.key, names)
		if err != nil {
			return nil, err
		}
		key := res.Key
		if key == "" && len(res.Candidates) == 0 {
			key = rf.target.cfg.Dialect.QualifiedKey(l)
		}
		if r := (link{l.Verb, key}); key != "" && !seen[r] {
			seen[r] = true
			out = append(out, r)
		}
	}
	return out, nil
}

// backRow is a backlink row: the key linked to, the linking document, the
// link's verb.
type backRow struct {
	target string
	src    uint32
	verb   string
}

// writeBacklinks inserts reverse links in the order of their keys, so the
// table's pages fill (in a first build's document order a tenth of them
// stayed empty).
func (rf *refresher) writeBacklinks(rows []backRow) error {
	slices.SortFunc(rows, func(a, b backRow) int {
		return cmp.Or(strings.Compare(a.target, b.target), cmp.Compare(a.src, b.src), strings.Compare(a.verb, b.verb))
	})
	back := newInserter(rf.tx, "INSERT OR IGNORE", "backlink", "snap", "target", "src", "verb")
	for _, r := range rows {
		if err := back.Add(rf.snap.id, r.target, r.src, r.verb); err != nil {
			return err
		}
	}
	return back.Flush()
}
