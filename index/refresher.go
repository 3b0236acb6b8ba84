package index

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/omh-notes/omh/vault"
	"github.com/omh-notes/omh/vault/gitcli"
	"github.com/omh-notes/omh/vault/gitrepo"
	"github.com/omh-notes/omh/vault/localscan"
)

// Parts of a snapshot. Posting lists are kept per part so that a question
// asked with --no-worktree counts rarity over exactly the notes it searches.
const (
	partBase     = 0 // team notes and private notes
	partWorktree = 1 // uncommitted working copies
)

// doc is one document of a snapshot.
type doc struct {
	ord     uint32
	part    int
	layer   vault.Layer
	key     string
	path    string
	blob    int64
	oid     plumbing.Hash
	gitDate vault.Date // team notes: the last first-parent commit that changed the file
	mtime   int64      // local notes: modification time, nanoseconds
	date    vault.Date
	source  vault.DateSource
	title   string
	typ     string
	links   []link // what the note's links reach, in order of first appearance
}

// docChange is one document added (old nil), removed (new nil) or changed.
type docChange struct {
	old, new *doc
}

// refresher brings one snapshot up to date inside one transaction.
type refresher struct {
	c        *Cache
	tx       *txn
	repo     *gitrepo.Repo
	target   target
	opt      Options
	snap     *snapRow
	dict     *termDict
	blobIDs  map[plumbing.Hash]int64
	prepared map[plumbing.Hash]*parsedBlob // analysed ahead, not yet stored
	// storedInfo is the snapshot's info as stored, to write only the
	// chunks the refresh changed.
	storedInfo []byte
	loaded     map[int64]*blobData
	// Blobs stored by this refresh are numbered here and written in
	// batches; every lookup of one goes through blobIDs, never the table.
	nextBlob int64
	newBlobs *inserter
	parsed   int
	skipped  []string // notes left out: their content could not be read
	warnings []string
	changes  []docChange
	// deleted are the files of HEAD the working tree lacks, as this
	// refresh's scan found them; nil when it did not scan the working tree.
	deleted []string
	shallow map[plumbing.Hash]bool
	history *gitcli.HistoryLog // git's walk of the history, during a first build
	// firstBuild: the snapshot held no document when the refresh began, so
	// there is no old posting list to read.
	firstBuild bool
	// releaseMemory lifts a first build's memory limit (see limitMemory).
	releaseMemory func()
}

func newRefresher(c *Cache, tx *txn, r *gitrepo.Repo, t target, opt Options) (*refresher, error) {
	dict, err := newTermDict(tx)
	if err != nil {
		return nil, err
	}
	rf := &refresher{c: c, tx: tx, repo: r, target: t, opt: opt, dict: dict,
		blobIDs: map[plumbing.Hash]int64{}, prepared: map[plumbing.Hash]*parsedBlob{}, loaded: map[int64]*blobData{}, shallow: map[plumbing.Hash]bool{}}
	rf.newBlobs = newInserter(tx, "INSERT", "blob", "id", "oid", "meta", "terms")
	if err := tx.QueryRow(`SELECT coalesce(max(id), 0) + 1 FROM blob`).Scan(&rf.nextBlob); err != nil {
		return nil, fmt.Errorf("numbering blobs: %w", err)
	}
	shallow, err := r.Shallow()
	if err != nil {
		return nil, fmt.Errorf("reading the shallow clone's boundary: %w", err)
	}
	for _, h := range shallow {
		rf.shallow[h] = true
	}
	return rf, nil
}

// warn records a warning once: a file can be met by both the team layer's
// and the working tree's walk.
func (rf *refresher) warn(format string, args ...any) {
	w := fmt.Sprintf(format, args...)
	for _, seen := range rf.warnings {
		if seen == w {
			return
		}
	}
	rf.warnings = append(rf.warnings, w)
}

func (rf *refresher) run() error {
	t := rf.target
	cfg, head, name := t.cfg, t.head, t.name
	var err error
	if rf.snap, err = loadSnap(rf.tx, name); err != nil {
		return err
	}
	if rf.snap == nil {
		if rf.snap, err = rf.createSnap(name); err != nil {
			return err
		}
	}
	rf.storedInfo = rf.snap.info
	rf.snap.info = slices.Clone(rf.snap.info)
	rf.firstBuild = rf.snap.span() == 0
	dir, err := notesDir(rf.repo, t, rf.snap)
	if err != nil {
		return err
	}
	st := &rf.snap.state
	// What counts as a note changed: the snapshot starts over, and every
	// team note is a change.
	restart := st.NotesDir != dir || st.ConfigHash != configHash(cfg)
	from := plumbing.NewHash(st.Tree)
	if restart {
		from = plumbing.ZeroHash
	}
	team, err := rf.diffTeam(from, head, dir, cfg.Exclude)
	if err != nil {
		return err
	}
	if restart {
		// Parsed blobs are kept, so nothing is parsed again.
		if err := rf.clearSnap(); err != nil {
			return err
		}
		rf.firstBuild = true
		st.NotesDir, st.ConfigHash = dir, configHash(cfg)
	}
	// HEAD's changed files go into the working tree's scan state, read
	// only when the working tree is scanned or too many are pending; else
	// they wait in the snapshot's state (PendingTrack).
	if !t.past && (t.worktree || len(st.PendingTrack)+len(team.changes) > pendingMax) {
		if err := rf.snap.loadWorktree(rf.tx); err != nil {
			return err
		}
		rf.snap.trackPending()
	}
	defer func() {
		if rf.releaseMemory != nil {
			rf.releaseMemory()
		}
	}()
	if err := rf.startHistory(head); err != nil {
		return err
	}
	if rf.history != nil {
		defer rf.history.Close()
	}
	if err := rf.teamChanges(head, team, dir); err != nil {
		return err
	}
	if err := rf.localChanges(cfg); err != nil {
		return err
	}
	if err := rf.newBlobs.Flush(); err != nil {
		return err
	}
	if err := rf.apply(); err != nil {
		return err
	}
	if err := rf.markGone(); err != nil {
		return err
	}
	rf.countDocs()

	if err := rf.dict.flush(); err != nil {
		return err
	}
	if err := rf.collect(); err != nil {
		return err
	}
	st.Parsed = rf.parsed
	st.Skipped = rf.skipped
	return rf.saveSnap()
}

func (rf *refresher) createSnap(name string) (*snapRow, error) {
	state, _ := json.Marshal(snapState{})
	res, err := rf.tx.Exec(`INSERT INTO snap (name, state, seq) VALUES (?, ?, 0)`, name, state)
	if err != nil {
		return nil, fmt.Errorf("creating snapshot %s: %w", name, err)
	}
	id, err := res.LastInsertId()
	return &snapRow{id: id, info: []byte{}, private: localscan.NewScanState(), derived: &derived{}}, err
}

func (rf *refresher) clearSnap() error {
	if err := dropSnapRows(rf.tx, rf.snap.id, false); err != nil {
		return fmt.Errorf("clearing snapshot: %w", err)
	}
	if _, err := rf.tx.Exec(`DELETE FROM scan WHERE snap = ? AND tree = ?`, rf.snap.id, treeWorktree); err != nil {
		return fmt.Errorf("clearing snapshot: %w", err)
	}
	rf.snap.state = snapState{}
	rf.snap.info = nil
	if rf.snap.worktree != nil {
		rf.snap.worktree = localscan.NewScanState()
	}
	return nil
}

func (rf *refresher) saveSnap() error {
	state, err := json.Marshal(rf.snap.state)
	if err != nil {
		return err
	}
	if _, err = rf.tx.Exec(`UPDATE snap SET state = ?, seq = seq + 1 WHERE id = ?`, state, rf.snap.id); err != nil {
		return fmt.Errorf("saving snapshot: %w", err)
	}
	if err := rf.snap.saveInfo(rf.tx, rf.storedInfo); err != nil {
		return err
	}
	return rf.snap.saveScans(rf.tx)
}

// newDoc builds the document for a file's current content, parsing the
// blob unless it is stored already. It returns nil for a file that is not a
// note after all (binary).
func (rf *refresher) newDoc(old *doc, part int, layer vault.Layer, path, key string, oid plumbing.Hash, read func() ([]byte, int64, error)) (*doc, error) {
	id, parsed, err := rf.storeBlob(path, oid, read)
	if errors.Is(err, errUnreadable) {
		rf.warn("%s skipped: %v", path, err)
		rf.skipped = append(rf.skipped, path)
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	b, err := rf.blob(id)
	if err != nil {
		return nil, err
	}
	if parsed {
		rf.parsed++
	}
	if b.meta.Binary {
		return nil, nil
	}
	d := &doc{part: part, layer: layer, key: key, path: path, blob: id, oid: oid, title: b.meta.Title, typ: b.meta.Type}
	if d.title == "" {
		d.title = vault.TitleFromKey(key)
	}
	if d.typ == "" {
		d.typ = "note"
	}
	if old != nil {
		d.ord, d.gitDate, d.links = old.ord, old.gitDate, old.links
	}
	return d, nil
}

// reportBlob warns, once when a file is first parsed, about what makes it
// read in part or not at all.
func (rf *refresher) reportBlob(path string, m blobMeta) {
	switch {
	case m.Binary:
		rf.warn("%s skipped: binary content, not a note", path)
	case m.Cut:
		rf.warn("%s is %d bytes; only the first %d are indexed", path, m.Size, maxNoteBytes)
	}
	for _, p := range m.Problems {
		switch {
		case strings.HasPrefix(p.Rule, "frontmatter-"):
			rf.warn("%s:%d: %s; the note is indexed from its body", path, p.Line, p.Message)
		case p.Rule == "markdown-too-costly", p.Rule == "conflict-markers":
			rf.warn("%s:%d: %s", path, p.Line, p.Message)
		}
	}
}

const docColumns = `d.ord, d.part, d.layer, d.key, d.path, d.blob, b.oid, d.git_date, d.mtime, d.date, d.date_source, d.title, d.type, d.links
	FROM doc d JOIN blob b ON b.id = d.blob`

func scanDoc(row interface{ Scan(...any) error }) (*doc, error) {
	d := &doc{}
	var links string
	var oid []byte
	if err := row.Scan(&d.ord, &d.part, &d.layer, &d.key, &d.path, &d.blob, &oid, &d.gitDate, &d.mtime, &d.date, &d.source, &d.title, &d.typ, &links); err != nil {
		return nil, err
	}
	copy(d.oid[:], oid)
	var err error
	if d.links, err = decodeLinks(links); err != nil {
		return nil, err
	}
	return d, nil
}

// docs loads the documents matching a condition on the doc table.
func (rf *refresher) docs(where string, args ...any) ([]*doc, error) {
	return rf.queryDocs(`SELECT `+docColumns+` WHERE d.snap = ? AND `+where+` ORDER BY d.ord`, append([]any{rf.snap.id}, args...)...)
}

// queryDocs runs a query of documents (docColumns) and reads every row.
func (rf *refresher) queryDocs(query string, args ...any) ([]*doc, error) {
	rows, err := rf.tx.Query(query, args...)
	if err != nil {
		return nil, fmt.Errorf("reading documents: %w", err)
	}
	defer rows.Close()
	var out []*doc
	for rows.Next() {
		d, err := scanDoc(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, d)
	}
	return out, rows.Err()
}
