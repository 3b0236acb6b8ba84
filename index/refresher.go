package index

import (
	"cmp"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"

	"github.com/omh-notes/omh/vault"
	"github.com/omh-notes/omh/vault/gitcli"
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
	repo     *vault.Repo
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

func newRefresher(c *Cache, tx *txn, r *vault.Repo, t target, opt Options) (*refresher, error) {
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

// teamDiff is what changed in the team layer between the notes tree from
// and HEAD's, walking only the subtrees whose ids differ.
type teamDiff struct {
	tree    plumbing.Hash // HEAD's notes tree; zero when there is none
	changes []vault.NoteChange
	skips   []vault.Skip
}

func (rf *refresher) diffTeam(from, head plumbing.Hash, dir string, exclude []string) (teamDiff, error) {
	var d teamDiff
	var err error
	if !head.IsZero() {
		if d.tree, err = rf.repo.NotesTree(head, dir); err != nil {
			return d, err
		}
	}
	d.changes, d.skips, err = rf.repo.DiffNotes(from, d.tree, dir, exclude)
	return d, err
}

// teamChanges records what changed in the team layer since the snapshot's
// commit, and HEAD's changed files in the working tree's state, or as
// pending when that was not read.
func (rf *refresher) teamChanges(head plumbing.Hash, team teamDiff, dir string) error {
	st := &rf.snap.state
	tree, changes, skips := team.tree, team.changes, team.skips
	for _, s := range skips {
		rf.warn("%s skipped: %s", s.Path, s.Reason)
		if s.Unreadable() {
			rf.skipped = append(rf.skipped, s.Path)
		}
	}
	changes = append(changes, rf.retrySkipped(st.Skipped, changes, tree, dir)...)
	var sources []blobSource
	for _, ch := range changes {
		if blob := ch.New.Blob; !blob.IsZero() {
			sources = append(sources, blobSource{blob, func() ([]byte, int64, error) { return rf.repo.ReadBlob(blob, maxNoteBytes) }})
		}
	}
	todo, err := rf.unstored(sources)
	if err != nil {
		return err
	}
	parsing := startParser(todo)
	defer parsing.close()
	// A first build whose blobs are all cached (a copied repository, a
	// second worktree) parses nothing: it is not reported as a first build.
	firstParse := rf.firstBuild && len(todo) > 0
	if firstParse {
		rf.releaseMemory = limitMemory(len(todo))
	}
	changed := map[string]plumbing.Hash{}
	for i, ch := range changes {
		if len(todo) > 0 && ch.New.Blob == todo[0].oid {
			rf.prepared[todo[0].oid] = parsing.next()
			todo = todo[1:]
		}
		if rf.opt.Progress != nil && i%256 == 0 {
			rf.opt.Progress(i, len(changes), firstParse)
		}
		switch wt := rf.snap.worktree; {
		case wt != nil && ch.New.Blob.IsZero():
			wt.Untrack(ch.New.Path)
		case wt != nil:
			wt.Track(ch.New.Path, ch.New.Blob)
		case !rf.target.past:
			st.pend(ch.New.Path, ch.New.Blob)
		}
		changed[ch.New.Path] = ch.New.Blob
		if err := rf.teamChange(ch); err != nil {
			return err
		}
	}
	if rf.opt.Progress != nil {
		rf.opt.Progress(len(changes), len(changes), firstParse)
	}
	dates, complete, root, err := rf.gitDates(head, plumbing.NewHash(st.Commit), changed)
	if err != nil {
		return err
	}
	if err := rf.applyGitDates(dates, complete, changed); err != nil {
		return err
	}
	st.Commit, st.Root = commitString(head), commitString(root)
	st.Tree = ""
	if !tree.IsZero() {
		st.Tree = tree.String()
	}
	st.Shallow = len(rf.shallow) > 0
	return nil
}

// retrySkipped lists, as changes, the team notes the last refresh could
// not read and that HEAD's notes tree still holds unchanged: read them
// again. A path the tree no longer holds, or that cannot be looked up, is
// dropped: the diff reports it if it comes back.
func (rf *refresher) retrySkipped(skipped []string, changes []vault.NoteChange, tree plumbing.Hash, dir string) []vault.NoteChange {
	if len(skipped) == 0 || tree.IsZero() {
		return nil
	}
	t, err := object.GetTree(rf.repo.Objects, tree)
	if err != nil {
		return nil
	}
	changed := map[string]bool{}
	for _, ch := range changes {
		changed[ch.New.Path] = true
	}
	var again []vault.NoteChange
	for _, p := range skipped {
		rel := p
		if dir != "" {
			rel = strings.TrimPrefix(p, dir+"/")
		}
		e, err := t.FindEntry(rel)
		if err != nil || !e.Mode.IsFile() || changed[p] {
			continue
		}
		if key, ok := vault.KeyOf(rel); ok {
			again = append(again, vault.NoteChange{Old: vault.TeamFile{Path: p}, New: vault.TeamFile{Path: p, Key: key, Blob: e.Hash}})
		}
	}
	return again
}

// teamChange records one changed team file. Its git date is filled in by
// applyGitDates.
func (rf *refresher) teamChange(ch vault.NoteChange) error {
	old, err := rf.teamDocAt(ch.New.Path)
	if err != nil {
		return err
	}
	if ch.New.Blob.IsZero() {
		if old != nil {
			rf.changes = append(rf.changes, docChange{old: old})
		}
		return nil
	}
	blob := ch.New.Blob
	nd, err := rf.newDoc(old, partBase, vault.Team, ch.New.Path, ch.New.Key, blob, func() ([]byte, int64, error) {
		return rf.repo.ReadBlob(blob, maxNoteBytes)
	})
	if err != nil || (nd == nil && old == nil) {
		return err
	}
	rf.changes = append(rf.changes, docChange{old: old, new: nd})
	return nil
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

// localChanges finds the private notes and uncommitted working copies and
// records what differs from the snapshot.
func (rf *refresher) localChanges(cfg vault.Config) error {
	st := &rf.snap.state
	private, err := rf.repo.PrivateDir(plumbing.NewHash(st.Root))
	if err != nil {
		return err
	}
	worktree := rf.target.worktree
	var worktreeState *localscan.ScanState
	if worktree {
		worktreeState = rf.snap.worktree
	}
	scan := localscan.LocalScan{Repo: rf.repo, NotesDir: st.NotesDir, Exclude: cfg.Exclude, Private: private}
	found, skips, err := scan.Run(rf.snap.private, worktreeState, rf.opt.now())
	if err != nil {
		return err
	}
	for _, s := range skips {
		rf.warn("%s skipped: %s", s.Path, s.Reason)
		if s.Unreadable() {
			rf.skipped = append(rf.skipped, s.Path)
		}
	}
	stored, err := rf.localDocs()
	if err != nil {
		return err
	}
	byPath := map[string]*doc{}
	for _, d := range stored {
		byPath[d.path] = d
	}
	seen := map[string]bool{}
	if worktree {
		rf.deleted = []string{}
	}
	for _, f := range found {
		if f.Deleted {
			rf.deleted = append(rf.deleted, f.Path)
			continue
		}
		seen[f.Path] = true
		old := byPath[f.Path]
		part, abs := partWorktree, filepath.Join(rf.repo.Root, filepath.FromSlash(f.Path))
		if f.Private {
			part, abs = partBase, f.Path
		}
		if old != nil && old.part == part && old.mtime == f.Mtime && old.oid == f.Blob {
			continue
		}
		oid := f.Blob
		nd, err := rf.newDoc(old, part, vault.Local, f.Path, f.Key, oid, func() ([]byte, int64, error) {
			id, content, size, err := vault.ReadFile(abs, maxNoteBytes)
			if err == nil && id != oid {
				err = fmt.Errorf("%s changed while being indexed", abs)
			}
			return content, size, err
		})
		if err != nil {
			return err
		}
		if nd != nil && rf.target.day != "" {
			// As of a day, a private note exists only if it was recorded
			// by then.
			b, err := rf.blob(nd.blob)
			if err != nil {
				return err
			}
			if b.meta.Recorded == "" || b.meta.Recorded > rf.target.day {
				nd = nil
			}
		}
		if nd != nil {
			nd.mtime = f.Mtime
		}
		if nd != nil || old != nil {
			rf.changes = append(rf.changes, docChange{old: old, new: nd})
		}
	}
	for _, d := range stored {
		if !seen[d.path] && (worktree || d.part == partBase) {
			rf.changes = append(rf.changes, docChange{old: d})
		}
	}
	return nil
}

// markGone marks the team documents of the files the working tree has
// lost as gone, and unmarks those it has again. A refresh that did not
// scan the working tree keeps the last scan's list, marking again the
// documents it rewrote.
func (rf *refresher) markGone() error {
	st := &rf.snap.state
	now := st.Deleted
	if rf.deleted != nil {
		now = rf.deleted
		slices.Sort(now)
	}
	paths := append(slices.Clone(st.Deleted), now...)
	slices.Sort(paths)
	for _, p := range slices.Compact(paths) {
		d, err := rf.teamDocAt(p)
		if err != nil {
			return err
		}
		if d == nil {
			continue
		}
		info := getInfo(rf.snap.info, d.ord)
		if gone := slices.Contains(now, p); info.gone != gone {
			info.gone = gone
			rf.snap.info = putInfo(rf.snap.info, d.ord, info)
		}
	}
	st.Deleted = now
	return nil
}

// Local documents are read through the index that holds only them
// (doc_local), named outright: without table statistics SQLite otherwise
// prefers the primary key's order and reads every document of the snapshot,
// on every command. The layer is written out, not a parameter, as a partial
// index requires.
const (
	localDocs = "d.layer = " + string(rune('0'+vault.Local))
	docLocal  = "doc d INDEXED BY doc_local"
)

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

// teamDocAt loads the team document at path (relative to the repository
// root), or nil. It is found by its key, which the path gives.
func (rf *refresher) teamDocAt(path string) (*doc, error) {
	rel := path
	if dir := rf.snap.state.NotesDir; dir != "" {
		rel = strings.TrimPrefix(path, dir+"/")
	}
	key, ok := vault.KeyOf(rel)
	if !ok {
		return nil, nil
	}
	d, err := scanDoc(rf.tx.QueryRow(teamDocQuery, rf.snap.id, key, vault.Team, path))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("reading document %s: %w", path, err)
	}
	return d, nil
}

// teamDocQuery reads one document by its key, layer and path through the
// index made for that (doc_key), named outright: without table statistics
// SQLite read the snapshot's every document in the primary key's order
// instead, 2.7 ms of a post-commit hook's 17 at 10,000 notes.
var teamDocQuery = `SELECT ` + strings.Replace(docColumns, "doc d", "doc d INDEXED BY doc_key", 1) +
	` WHERE d.snap = ? AND d.key = ? AND d.layer = ? AND d.path = ?`

// localDocs loads the local documents, in order of their numbers.
func (rf *refresher) localDocs() ([]*doc, error) {
	out, err := rf.queryDocs(`SELECT `+strings.Replace(docColumns, "doc d", docLocal, 1)+` WHERE d.snap = ? AND `+localDocs, rf.snap.id)
	slices.SortFunc(out, func(a, b *doc) int { return cmp.Compare(a.ord, b.ord) })
	return out, err
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
