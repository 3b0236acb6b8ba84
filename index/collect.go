package index

import (
	"fmt"
	"os"
	"strings"
)

// minGarbage is how many blobs no snapshot uses may pile up before they
// are collected: collecting costs a pass over the documents, and an old
// blob may be wanted again (a checkout back, a rebase).
var minGarbage = 1000

// keptPast is how many snapshots of past moments (--as-of) are kept: each
// is a whole store's documents and postings, and the newest are the ones
// asked for again. An older one is rebuilt, from cached blobs, when wanted.
var keptPast = 8

// collect keeps the cache proportional to the store rather than to its
// history: it drops the snapshots of worktrees that no longer exist and of
// all but the newest past moments, and the blobs no snapshot uses once
// there are more of them than of blobs in use.
func (rf *refresher) collect() error {
	rows, err := rf.tx.Query(`SELECT id, name FROM snap WHERE id != ? ORDER BY id DESC`, rf.snap.id)
	if err != nil {
		return fmt.Errorf("listing snapshots: %w", err)
	}
	var gone []int64
	past := 0
	if rf.target.past {
		past++ // the snapshot just made counts among the kept
	}
	for rows.Next() {
		var id int64
		var name string
		if err := rows.Scan(&id, &name); err != nil {
			rows.Close()
			return err
		}
		if dir, ok := strings.CutPrefix(name, "worktree:"); ok {
			if _, err := os.Stat(dir); os.IsNotExist(err) {
				gone = append(gone, id)
			}
		}
		if strings.HasPrefix(name, pastPrefix) {
			if past++; past > keptPast {
				gone = append(gone, id)
			}
		}
	}
	rows.Close()
	for _, id := range gone {
		if err := dropSnapRows(rf.tx, id, true); err != nil {
			return fmt.Errorf("dropping a snapshot no longer wanted: %w", err)
		}
	}
	// Counting the blobs in use reads every document, so it is done only
	// when enough documents left their blobs since the last count that
	// the garbage may have grown past what is worth collecting. Until
	// then a bound is kept: the garbage counted last plus one blob per
	// document removed or given other content since.
	orphaned := 0
	for _, ch := range rf.changes {
		if ch.old != nil && (ch.new == nil || ch.new.blob != ch.old.blob) {
			orphaned++
		}
	}
	bound, err := rf.counter(counterGarbage)
	if err != nil {
		return err
	}
	usedBefore, err := rf.counter(counterUsed)
	if err != nil {
		return err
	}
	if bound += orphaned; len(gone) == 0 && bound <= max(usedBefore/2, minGarbage) {
		if orphaned == 0 {
			return nil
		}
		return rf.setCounter(counterGarbage, bound)
	}
	var all, used int
	if err := rf.tx.QueryRow(`SELECT count(*) FROM blob`).Scan(&all); err != nil {
		return fmt.Errorf("counting blobs: %w", err)
	}
	if err := rf.tx.QueryRow(`SELECT count(DISTINCT blob) FROM doc`).Scan(&used); err != nil {
		return fmt.Errorf("counting blobs in use: %w", err)
	}
	garbage := all - used
	if garbage > max(used, minGarbage) {
		if _, err := rf.tx.Exec(`DELETE FROM blob WHERE id NOT IN (SELECT blob FROM doc)`); err != nil {
			return fmt.Errorf("collecting unused blobs: %w", err)
		}
		garbage = 0
	}
	if err := rf.setCounter(counterGarbage, garbage); err != nil {
		return err
	}
	return rf.setCounter(counterUsed, used)
}

// dropSnapRows deletes a snapshot's documents, lists and links; with all,
// also its info, scan state and the snapshot itself.
func dropSnapRows(tx *txn, snap int64, all bool) error {
	tables := []string{"doc", "name", "rawlink", "inbound", "backlink"}
	if all {
		tables = append(tables, "info", "scan")
	}
	for _, table := range tables {
		if _, err := tx.Exec(`DELETE FROM `+table+` WHERE snap = ?`, snap); err != nil {
			return err
		}
	}
	lo, hi := postingRange(snap)
	if _, err := tx.Exec(`DELETE FROM posting WHERE key >= ? AND key < ?`, lo, hi); err != nil {
		return err
	}
	if all {
		_, err := tx.Exec(`DELETE FROM snap WHERE id = ?`, snap)
		return err
	}
	return nil
}

// Counters the cache keeps across refreshes.
const (
	counterGarbage = "garbage" // at most this many blobs are in no snapshot
	counterUsed    = "used"    // blobs in use when last counted
	counterTerms   = "terms"   // the last term id handed out
)

func (rf *refresher) counter(name string) (int, error) {
	var n int
	err := rf.tx.QueryRow(`SELECT n FROM counter WHERE name = ?`, name).Scan(&n)
	if err != nil && !isNoRows(err) {
		return 0, fmt.Errorf("reading counter %s: %w", name, err)
	}
	return n, nil
}

func (rf *refresher) setCounter(name string, n int) error {
	if _, err := rf.tx.Exec(`INSERT OR REPLACE INTO counter (name, n) VALUES (?, ?)`, name, n); err != nil {
		return fmt.Errorf("writing counter %s: %w", name, err)
	}
	return nil
}
