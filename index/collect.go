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
		for _, table := range []string{"doc", "posting", "name", "rawlink", "inbound", "backlink", "snap"} {
			column := "snap"
			if table == "snap" {
				column = "id"
			}
			if _, err := rf.tx.Exec(`DELETE FROM `+table+` WHERE `+column+` = ?`, id); err != nil {
				return fmt.Errorf("dropping a snapshot no longer wanted: %w", err)
			}
		}
	}
	if rf.parsed == 0 && len(gone) == 0 {
		return nil // no new blob, no freed snapshot: nothing new to collect
	}
	var all, used int
	if err := rf.tx.QueryRow(`SELECT count(*) FROM blob`).Scan(&all); err != nil {
		return fmt.Errorf("counting blobs: %w", err)
	}
	if err := rf.tx.QueryRow(`SELECT count(DISTINCT blob) FROM doc`).Scan(&used); err != nil {
		return fmt.Errorf("counting blobs in use: %w", err)
	}
	if garbage := all - used; garbage <= max(used, minGarbage) {
		return nil
	}
	if _, err := rf.tx.Exec(`DELETE FROM blob WHERE id NOT IN (SELECT blob FROM doc)`); err != nil {
		return fmt.Errorf("collecting unused blobs: %w", err)
	}
	return nil
}
