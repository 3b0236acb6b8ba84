package index

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/zeebo/blake3"

	"github.com/omh-notes/omh/vault"
	"github.com/omh-notes/omh/vault/disk"
	"github.com/omh-notes/omh/vault/gitrepo"
	"github.com/omh-notes/omh/vault/localscan"
)

// Options are a command's choices about what the store includes.
type Options struct {
	NoWorktree bool      // leave uncommitted working copies out, and skip looking for them
	Now        time.Time // the moment of the scan; zero means time.Now
	// LockWait is how long to wait for another process's refresh before
	// answering from the last snapshot. Zero waits as long as it takes.
	LockWait time.Duration
	// Progress, when set, hears how many changed notes a refresh has read
	// of how many, and whether the snapshot is being built for the first
	// time, so long work can be shown or explained.
	Progress func(done, total int, first bool)
	// Waiting, when set, hears once that the command is blocked on another
	// process's refresh with no snapshot to answer from meanwhile, so a
	// long silent wait has a reason on screen.
	Waiting func(why string)
}

// Report says what bringing the cache up to date did.
type Report struct {
	Refreshed bool     // the snapshot was rewritten
	Parsed    int      // blobs parsed by this refresh
	Stale     bool     // another process was refreshing; the answer is from the last snapshot
	Warnings  []string // files skipped or read in part, said once when first met
}

// SnapshotName names the snapshot of a working tree.
func SnapshotName(r *gitrepo.Repo) string { return "worktree:" + r.GitDir }

// view is the store as it is now on disk, read without writing anything.
type view struct {
	cfg       vault.Config
	head      plumbing.Hash
	notesDir  string
	snap      *snapRow // nil when no snapshot exists
	teamFresh bool
	private   string
	local     []localscan.LocalFile
	skips     []gitrepo.Skip
	fresh     bool   // nothing differs from the snapshot
	notice    string // something wrong with the store itself, said on every command
}

// look compares the store with the target's snapshot, reading through q.
// The team layer costs one ref read and one comparison; the local layer a
// stat per note file.
func (c *Cache) look(q querier, r *gitrepo.Repo, t target, opt Options) (*view, error) {
	v := &view{cfg: t.cfg, head: t.head}
	var err error
	if v.snap, err = loadSnapState(q, t.name); err != nil {
		return nil, err
	}
	if v.notesDir, err = notesDir(r, t, v.snap); err != nil {
		return nil, err
	}
	s := v.snap
	if s == nil {
		return v, nil
	}
	if !t.past {
		v.notice = notice(r, t.cfg, s.state)
	}
	if v.private, err = r.PrivateDir(plumbing.NewHash(s.state.Root)); err != nil {
		return nil, err
	}
	// Notes the last refresh could not read make it stale: the next one
	// reads them again.
	v.teamFresh = s.state.Commit == commitString(v.head) && s.state.NotesDir == v.notesDir && s.state.ConfigHash == configHash(t.cfg) &&
		len(s.state.Skipped) == 0
	if !v.teamFresh {
		// A refresh follows, which reads the snapshot itself.
		return v, nil
	}
	if !t.past {
		c.warm.take(s)
	}
	if err := s.loadRest(q); err != nil {
		return nil, err
	}
	var worktree *localscan.ScanState
	if t.worktree {
		if err := s.loadWorktree(q); err != nil {
			return nil, err
		}
		s.trackPending()
		worktree = s.worktree
	}
	scan := localscan.LocalScan{Repo: r, NotesDir: v.notesDir, Exclude: t.cfg.Exclude, Private: v.private}
	if v.local, v.skips, err = scan.Run(s.private, worktree, opt.now()); err != nil {
		return nil, err
	}
	if t.day != "" {
		// As of a day, a private note counts only if it was recorded by
		// then, which only its parsed content says; the snapshot is current
		// while no file of the private folder changed since it was built.
		v.fresh = !s.private.Changed()
		return v, nil
	}
	v.fresh, err = sameLocal(q, s.id, v.local, worktree == nil)
	if v.fresh && worktree != nil {
		v.fresh = sameDeleted(v.local, s.state.Deleted)
	}
	return v, err
}

// sameDeleted reports whether the files of HEAD's the working tree lacks
// are those the snapshot marked gone (deleted, sorted).
func sameDeleted(found []localscan.LocalFile, deleted []string) bool {
	n := 0
	for _, f := range found {
		if f.Deleted {
			if _, ok := slices.BinarySearch(deleted, f.Path); !ok {
				return false
			}
			n++
		}
	}
	return n == len(deleted)
}

func (o Options) now() time.Time {
	if o.Now.IsZero() {
		return time.Now()
	}
	return o.Now
}

func commitString(h plumbing.Hash) string {
	if h.IsZero() {
		return ""
	}
	return h.String()
}

func configHash(cfg vault.Config) string {
	sum := blake3.Sum256(cfg.Raw)
	return fmt.Sprintf("%x", sum[:16])
}

// NotesRoot is the notes root of the working tree with HEAD at head, by
// the rule a refresh applies (notesDir), for a command that reads no
// snapshot.
func NotesRoot(r *gitrepo.Repo, cfg vault.Config, head plumbing.Hash) (string, error) {
	return notesDir(r, target{cfg: cfg, head: head}, nil)
}

// notesDir applies the rule for the notes root: the config's, else
// .omh/notes when it exists in the working tree (not for a past commit) or
// in the target's tree, else the repository root.
func notesDir(r *gitrepo.Repo, t target, s *snapRow) (string, error) {
	if t.cfg.Notes != "" {
		return t.cfg.Notes, nil
	}
	if !t.past && isDir(filepath.Join(r.Root, filepath.FromSlash(vault.DefaultNotesDir))) {
		return vault.DefaultNotesDir, nil
	}
	if t.head.IsZero() {
		return "", nil
	}
	if s != nil && s.state.Commit == t.head.String() && s.state.ConfigHash == configHash(t.cfg) {
		// The commit has not changed, so neither has what its tree holds;
		// and the working tree lacks the folder, so the snapshot's choice
		// stands unless it was made for a folder only the working tree had,
		// or by a config that has changed since (one that named a root).
		if s.state.NotesDir != vault.DefaultNotesDir || s.state.Tree != "" {
			return s.state.NotesDir, nil
		}
	}
	tree, err := r.NotesTree(t.head, vault.DefaultNotesDir)
	if err != nil {
		return "", err
	}
	if tree.IsZero() {
		return "", nil
	}
	return vault.DefaultNotesDir, nil
}

func isDir(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && fi.IsDir()
}

// sameLocal reports whether the local notes found equal the snapshot's.
// Without the working tree, only private notes are compared.
func sameLocal(q querier, snap int64, found []localscan.LocalFile, privateOnly bool) (bool, error) {
	rows, err := q.Query(`SELECT d.path, d.part, b.oid, d.mtime FROM `+docLocal+` JOIN blob b ON b.id = d.blob
		WHERE d.snap = ? AND `+localDocs+` ORDER BY d.path`, snap)
	if err != nil {
		return false, fmt.Errorf("reading local notes: %w", err)
	}
	defer rows.Close()
	type local struct {
		worktree bool
		oid      plumbing.Hash
		mtime    int64
	}
	stored := map[string]local{}
	for rows.Next() {
		var path string
		var part int
		var oid []byte
		var l local
		if err := rows.Scan(&path, &part, &oid, &l.mtime); err != nil {
			return false, err
		}
		l.worktree = part == partWorktree
		copy(l.oid[:], oid)
		if privateOnly && l.worktree {
			continue
		}
		stored[path] = l
	}
	if err := rows.Err(); err != nil {
		return false, err
	}
	n := 0
	for _, f := range found {
		if f.Deleted || (privateOnly && !f.Private) {
			continue
		}
		n++
		l, ok := stored[f.Path]
		if !ok || l.worktree == f.Private || l.oid != f.Blob || l.mtime != f.Mtime {
			return false, nil
		}
	}
	return n == len(stored), nil
}

// Fresh brings the working tree's snapshot up to date, when it is not, and
// opens it for reading. The caller closes the snapshot.
func (c *Cache) Fresh(r *gitrepo.Repo, opt Options) (*Snapshot, Report, error) {
	t, err := worktreeTarget(r, opt)
	if err != nil {
		return nil, Report{}, err
	}
	return c.fresh(r, t, opt, true)
}

// Refresh brings the working tree's snapshot up to date, as Fresh does,
// without opening it: what a hook does, which asks nothing of it after.
func (c *Cache) Refresh(r *gitrepo.Repo, opt Options) (Report, error) {
	t, err := worktreeTarget(r, opt)
	if err != nil {
		return Report{}, err
	}
	_, rep, err := c.fresh(r, t, opt, false)
	return rep, err
}

// AsOf opens the snapshot of the store as it stood at a moment, building
// it (from blobs parsed before, where it can) when it does not exist yet.
func (c *Cache) AsOf(r *gitrepo.Repo, m Moment, opt Options) (*Snapshot, Report, error) {
	t, err := pastTarget(r, m)
	if err != nil {
		return nil, Report{}, err
	}
	opt.NoWorktree = true
	return c.fresh(r, t, opt, true)
}

// fresh brings the target's snapshot up to date and, when open, opens it
// for reading.
func (c *Cache) fresh(r *gitrepo.Repo, t target, opt Options, open bool) (*Snapshot, Report, error) {
	tx, err := c.readTx()
	if err != nil {
		return nil, Report{}, err
	}
	v, err := c.look(tx, r, t, opt)
	if err != nil {
		tx.Rollback()
		return nil, Report{}, err
	}
	if v.fresh && !v.snap.scanChanged() {
		if !t.past {
			c.warm.keep(v.snap)
		}
		if !open {
			tx.Rollback()
			return nil, v.report(Report{}), nil
		}
		s, err := newSnapshot(r, tx, v.snap, opt)
		return s, v.report(Report{}), err
	}
	tx.Rollback()
	if v.fresh {
		// Only stat data moved (a touched file): remember it, so the file is
		// not read again, when no refresh is writing right now.
		c.saveScan(v.snap)
		s, err := c.maybeOpen(r, t.name, opt, open)
		return s, v.report(Report{}), err
	}
	unlock, ok, err := c.waitBriefly(opt)
	if err != nil {
		return nil, Report{}, err
	}
	if !ok {
		if v.snap != nil {
			s, err := c.maybeOpen(r, t.name, opt, open)
			return s, Report{Stale: true}, err
		}
		if unlock, err = c.waitForRefresh(opt); err != nil {
			return nil, Report{}, err
		}
	}
	defer unlock()
	rep, st, err := c.refresh(r, t, opt)
	if err != nil {
		return nil, rep, err
	}
	s, err := c.maybeOpen(r, t.name, opt, open)
	if err != nil {
		return nil, rep, err
	}
	if !t.past {
		v.notice = notice(r, t.cfg, st)
	}
	return s, v.report(rep), nil
}

// maybeOpen opens the snapshot called name when open, else returns nil.
func (c *Cache) maybeOpen(r *gitrepo.Repo, name string, opt Options, open bool) (*Snapshot, error) {
	if !open {
		return nil, nil
	}
	return c.openSnapshot(r, name, opt)
}

func (v *view) report(rep Report) Report {
	if v.notice != "" {
		rep.Warnings = append(rep.Warnings, v.notice)
	}
	return rep
}

// notice says what is wrong with the store itself rather than with one
// note: a configured notes root that exists nowhere.
func notice(r *gitrepo.Repo, cfg vault.Config, st snapState) string {
	if cfg.Notes != "" && st.Tree == "" && !isDir(filepath.Join(r.Root, filepath.FromSlash(cfg.Notes))) {
		named := "named in " + vault.ConfigPath
		if _, err := os.Lstat(filepath.Join(r.Root, filepath.FromSlash(vault.ConfigPath))); errors.Is(err, fs.ErrNotExist) {
			named = "omh detected (there is no " + vault.ConfigPath + ")"
		}
		return fmt.Sprintf("the notes root %s %s exists neither at HEAD nor in the working tree", cfg.Notes, named)
	}
	return ""
}

// readTx starts a read transaction: every query of one answer sees the same
// committed snapshot, however many refreshes commit meanwhile.
func (c *Cache) readTx() (*sql.Tx, error) {
	tx, err := c.db.BeginTx(context.Background(), &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return nil, fmt.Errorf("reading the cache: %w", err)
	}
	return tx, nil
}

// saveScan saves the stat data a scan learnt, so the files are not read
// again, unless a refresh or another save has rewritten the snapshot since
// it was read (its pages would be older than the stored ones) or one is
// writing right now; with the pending files of HEAD's recorded, the state
// that no longer lists them goes with it. It is an optimisation: failing
// costs the next command the same reads.
func (c *Cache) saveScan(s *snapRow) {
	unlock, ok, err := c.lockRefresh(time.Millisecond)
	if err != nil || !ok {
		return
	}
	defer unlock()
	tx, err := c.db.Begin()
	if err != nil {
		return
	}
	defer tx.Rollback()
	var seq int64
	if tx.QueryRow(`SELECT seq FROM snap WHERE id = ?`, s.id).Scan(&seq) != nil || seq != s.seq {
		return
	}
	state := s.raw
	if s.caughtUp {
		if state, err = json.Marshal(s.state); err != nil {
			return
		}
	}
	// The seq moves, so another process's save of a state it read before
	// this one is refused, as a refresh's is: its pages would overwrite or
	// overlap these.
	if _, err := tx.Exec(`UPDATE snap SET state = ?, seq = seq + 1 WHERE id = ?`, state, s.id); err != nil {
		return
	}
	if s.saveScans(newTxn(tx)) == nil {
		crash.Step()
		tx.Commit()
	}
}

// lockRefresh takes the lock every refresh holds, so two processes never
// refresh at once. With a positive wait it gives up after that long.
func (c *Cache) lockRefresh(wait time.Duration) (unlock func(), ok bool, err error) {
	if c.Unsaved() {
		return func() {}, true, nil // no other process sees it
	}
	f, err := os.OpenFile(filepath.Join(c.Dir, "refresh.lock"), os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return nil, false, fmt.Errorf("opening the refresh lock: %w", err)
	}
	deadline := time.Now().Add(wait)
	for {
		err = disk.LockFile(f, true, wait <= 0)
		if err == nil {
			return func() { f.Close() }, true, nil
		}
		if err != disk.ErrLocked || time.Now().After(deadline) {
			f.Close()
			if err == disk.ErrLocked {
				return nil, false, nil
			}
			return nil, false, fmt.Errorf("taking the refresh lock: %w", err)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// waitBriefly takes the refresh lock within opt.LockWait, saying once what
// the command waits for when that is longer than waitGrace: a find during
// another process's rebuild waited its two seconds in silence before
// answering from the snapshot it had.
func (c *Cache) waitBriefly(opt Options) (unlock func(), ok bool, err error) {
	if opt.LockWait <= waitGrace || opt.Waiting == nil {
		return c.lockRefresh(opt.LockWait)
	}
	if unlock, ok, err = c.lockRefresh(waitGrace); err != nil || ok {
		return unlock, ok, err
	}
	opt.Waiting(fmt.Sprintf("waiting up to %s for another omh process that is refreshing the cache (it holds %s)",
		opt.LockWait.Round(time.Second), filepath.Join(c.Dir, "refresh.lock")))
	return c.lockRefresh(opt.LockWait - waitGrace)
}

// waitForRefresh takes the refresh lock however long another process holds
// it, saying once, after a short grace, what the command is waiting for.
func (c *Cache) waitForRefresh(opt Options) (unlock func(), err error) {
	unlock, ok, err := c.lockRefresh(waitGrace)
	if err != nil || ok {
		return unlock, err
	}
	if opt.Waiting != nil {
		opt.Waiting(fmt.Sprintf("waiting for another omh process that is building the cache (it holds %s)", filepath.Join(c.Dir, "refresh.lock")))
	}
	unlock, _, err = c.lockRefresh(0)
	return unlock, err
}

// waitGrace is how long a wait for another refresh goes unannounced: long
// enough that a short refresh passes unremarked.
const waitGrace = 500 * time.Millisecond

// refresh rebuilds what changed of the target's snapshot in one
// transaction, and returns the state it leaves. It runs under the refresh
// lock.
func (c *Cache) refresh(r *gitrepo.Repo, t target, opt Options) (Report, snapState, error) {
	tx, err := c.db.Begin()
	if err != nil {
		return Report{}, snapState{}, fmt.Errorf("starting a refresh: %w", err)
	}
	defer tx.Rollback()
	rf, err := newRefresher(c, newTxn(tx), r, t, opt)
	if err != nil {
		return Report{}, snapState{}, err
	}
	if err := rf.run(); err != nil {
		return Report{}, snapState{}, err
	}
	crash.Step()
	if err := tx.Commit(); err != nil {
		return Report{}, snapState{}, fmt.Errorf("committing the refresh: %w", err)
	}
	return Report{Refreshed: true, Parsed: rf.parsed, Warnings: rf.warnings}, rf.snap.state, nil
}

// Rebuild discards every snapshot and parsed blob of this cache by starting
// a new generation, then builds the working tree's snapshot from the files.
func (c *Cache) Rebuild(r *gitrepo.Repo, opt Options) (*Cache, Report, error) {
	unlock, err := c.waitForRefresh(opt)
	if err != nil {
		return c, Report{}, err
	}
	defer unlock()
	next, err := c.Replace()
	if err != nil {
		return c, Report{}, err
	}
	t, err := worktreeTarget(r, opt)
	if err != nil {
		return next, Report{}, err
	}
	rep, _, err := next.refresh(r, t, opt)
	return next, rep, err
}
