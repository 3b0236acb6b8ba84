package main

import (
	"fmt"
	"os/exec"
	"strconv"
	"time"

	"github.com/omh-notes/omh/internal/tools/fts5"
)

// ftsLimit is how many notes FTS5 ranks per question, as omh is asked for.
const ftsLimit = 100

// ftsRanked returns the keys FTS5 ranks best for q, and how long the query
// took, rows read included.
func ftsRanked(db *fts5.DB, match string) ([]string, time.Duration, error) {
	start := time.Now()
	hits, err := db.Search(match, ftsLimit)
	took := time.Since(start)
	if err != nil {
		return nil, took, err
	}
	keys := make([]string, len(hits))
	for i, h := range hits {
		keys[i] = h.Key
	}
	return keys, took, nil
}

// ftsProcess times one fts5peer process answering q from the database,
// without its refresh (the files do not change while compare runs).
func ftsProcess(peer, dbPath string, q question) (time.Duration, error) {
	args := append([]string{"query", "-bare", "-db", dbPath, "-limit", strconv.Itoa(ftsLimit), "--", q.Question}, q.Also...)
	cmd := exec.Command(peer, args...)
	start := time.Now()
	out, err := cmd.CombinedOutput()
	took := time.Since(start)
	if err != nil {
		return took, fmt.Errorf("fts5peer on %s: %v\n%s", q.ID, err, out)
	}
	return took, nil
}
