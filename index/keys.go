package index

import (
	"fmt"
	"strings"

	"github.com/omh-notes/omh/vault/gitrepo"
)

// Keys lists the distinct keys starting with prefix in the working tree's
// snapshot as the last refresh left it, in order. Nothing is refreshed: a
// shell completing a key must answer at once, and a key one refresh behind
// serves it well enough. None when nothing was indexed yet.
func (c *Cache) Keys(r *gitrepo.Repo, prefix string) ([]string, error) {
	tx, err := c.readTx()
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	row, err := loadSnap(tx, SnapshotName(r))
	if err != nil || row == nil {
		return nil, err
	}
	rows, err := tx.Query(`SELECT ord, key FROM doc WHERE snap = ? AND key >= ? ORDER BY key`, row.id, prefix)
	if err != nil {
		return nil, fmt.Errorf("listing keys: %w", err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var ord uint32
		var key string
		if err := rows.Scan(&ord, &key); err != nil {
			return nil, fmt.Errorf("listing keys: %w", err)
		}
		if !strings.HasPrefix(key, prefix) {
			break
		}
		if getInfo(row.info, ord).present && (len(out) == 0 || out[len(out)-1] != key) {
			out = append(out, key)
		}
	}
	return out, rows.Err()
}
