package index

import (
	"fmt"
	"sort"
)

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
