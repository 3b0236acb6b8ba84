package index

import (
	"bytes"
	"sync"
)

// warmRow keeps, between the answers of one process, the largest values
// reading the working tree's snapshot decodes: its documents' info and the
// scan states. A server answers many questions while nothing changes, and
// on vba-docs (38,187 notes) reading and decoding them again was a tenth of
// each warm MCP find.
//
// What is kept is the snapshot's as of one seq, which every refresh and
// every save of scan state bumps, and no answer changed it since: a scan
// edits its states in place, so one that did is dropped (its edits went to
// the cache, or were lost with a busy lock) and the next answer reads the
// stored states. An answer takes the row, so two at once never share one.
type warmRow struct {
	mu  sync.Mutex
	row *snapRow
}

// take fills s's info and scan states from the kept row when that is the
// same snapshot at the same seq, and empties the keeping either way.
func (w *warmRow) take(s *snapRow) {
	w.mu.Lock()
	kept := w.row
	w.row = nil
	w.mu.Unlock()
	if kept == nil || kept.id != s.id || kept.seq != s.seq || !bytes.Equal(kept.raw, s.raw) {
		return
	}
	s.info, s.private, s.worktree, s.derived = kept.info, kept.private, kept.worktree, kept.derived
}

// keep keeps s for the next answer: s was read and scanned, and the scan
// changed none of it.
func (w *warmRow) keep(s *snapRow) {
	w.mu.Lock()
	w.row = s
	w.mu.Unlock()
}

// derived is what answers compute from a snapshot as one seq holds it, kept
// with its row so the answers after reuse it while the row is kept: the
// numbers no present note holds (a walk over every note's info), and a
// hub's count of links in (tens of thousands of rows counted).
type derived struct {
	mu     sync.Mutex
	absent [2][]uint32         // by noWorktree; nil until asked
	hubs   map[hubKey]hubCount // see LinksIn
}

type hubKey struct {
	doc        uint32
	noWorktree bool
}

// hubCount is a hub's links in: backlink rows, and notes present other
// than itself.
type hubCount struct{ rows, notes int }

func (d *derived) absentDocs(noWorktree bool, compute func() []uint32) []uint32 {
	d.mu.Lock()
	defer d.mu.Unlock()
	i := 0
	if noWorktree {
		i = 1
	}
	if d.absent[i] == nil {
		d.absent[i] = compute()
	}
	return d.absent[i]
}

func (d *derived) hub(k hubKey) (hubCount, bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	c, ok := d.hubs[k]
	return c, ok
}

func (d *derived) keepHub(k hubKey, c hubCount) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.hubs == nil {
		d.hubs = map[hubKey]hubCount{}
	}
	d.hubs[k] = c
}
