// Package index is omh's cache: parsed notes keyed by git blob id, and per
// working tree a snapshot of the store (documents, posting lists, link
// counts) that answers questions without reading the notes again.
//
// The cache is disposable. Deleting it is always safe; every answer it gives
// is the answer a rebuild from the files gives.
package index

import (
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"

	"github.com/omh-notes/omh/internal/pagesum"
	"github.com/omh-notes/omh/token"
	"github.com/omh-notes/omh/vault/disk"
	"github.com/omh-notes/omh/vault/gitrepo"
)

// SchemaVersion changes whenever the tables or any stored encoding change
// (9: the scan state in pages of fixed-size records beside HEAD's file
// list, per-document info in chunks, parsed notes' passage units,
// dialect-read links, and where a parse cut a note: markdown-too-costly,
// frontmatter-too-large; 10: "ex." no longer ends a passage unit's
// sentence; 11: per-document info marks a template's bare scaffolding,
// links other tools' dialects write, [[x]] backed by a definition
// [x]: path, and frontmatter tags; 12: rawlink targets as hashes, names of
// the kinds the dialect asks for alone, 8192-byte pages; 13: HEAD's files
// a hook's refresh found changed may wait in the snapshot's pending_track
// rather than the working tree's scan state, which a binary that does not
// know it would never record; 14: a note's tags, as its dialect reads
// them, are terms of its vector, and a Logseq page's tags:: is in its meta;
// 15: per-document info marks a team note whose file the working tree lacks
// (flagGone), and merge-conflict marker lines are parsed as blank lines;
// 16: a checksum in the last bytes of every page, see package pagesum).
// With the tokenizer's version it names the database file, so a binary
// that reads differently never opens an older file: it builds its own, and
// no command pays for a version check.
const SchemaVersion = 16

var filePrefix = fmt.Sprintf("cache-s%dt%d-", SchemaVersion, token.TokenizerVersion)

// Cache is an open cache database.
type Cache struct {
	Dir  string // the folder holding the cache's files
	Path string // the database file in use
	gen  int    // Path's generation
	db   *sql.DB
	use  *os.File  // shared lock held while this process uses Path
	keep *sql.Conn // for a cache in memory (Path ""), what keeps it
	name string    // and the name it has in SQLite
	warm warmRow
	// Notices say, for people, what Open found wrong with the cache's
	// folder and put right.
	Notices []string
}

// ErrNoCachePlace means neither the repository nor the user's cache folder
// can hold the cache.
var ErrNoCachePlace = errors.New("no writable place for the cache")

// Open opens the newest cache generation in commonDir/omh (the git directory
// every worktree of a clone shares), creating one if there is none. When the
// repository is read-only, the user's cache folder is used instead.
func Open(commonDir string) (*Cache, error) {
	return openFor(commonDir, nil)
}

// openFor is Open, and with a repository r, OpenRepo.
func openFor(commonDir string, r *gitrepo.Repo) (*Cache, error) {
	dir, notices, err := cacheDir(commonDir)
	if err != nil {
		return nil, err
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("listing the cache folder: %w", err)
	}
	links := removeLinks(dir, entries)
	if len(links) > 0 {
		notices = append(notices, fmt.Sprintf("the cache folder %s held symbolic links (%s); omh never writes through a link, so they were removed", dir, strings.Join(links, ", ")))
	}
	emptied := false
	if r != nil {
		var notice string
		if notice, emptied, err = claim(dir, r); err != nil {
			return nil, err
		}
		if notice != "" {
			notices = append(notices, notice)
		}
	}
	if len(links) > 0 || emptied {
		if entries, err = os.ReadDir(dir); err != nil {
			return nil, fmt.Errorf("listing the cache folder: %w", err)
		}
	}
	gens := generationsIn(entries)
	removeAbandoned(dir, entries, time.Now())
	var c *Cache
	if len(gens) == 0 {
		c, err = startGeneration(dir, 0)
	} else {
		c, err = open(dir, gens[len(gens)-1])
	}
	if c != nil {
		c.Notices = notices
	}
	return c, err
}

// removeLinks removes the symbolic links among the cache folder's entries
// (the link alone, never what it points to), and names them. omh makes
// none there: one planted (a database, its write-ahead log, a lock) would
// have a read-only command write wherever it points.
func removeLinks(dir string, entries []os.DirEntry) []string {
	var removed []string
	for _, e := range entries {
		if e.Type()&os.ModeSymlink == 0 {
			continue
		}
		path := filepath.Join(dir, e.Name())
		to, _ := os.Readlink(path)
		if os.Remove(path) == nil {
			removed = append(removed, e.Name()+" → "+to)
		}
	}
	return removed
}

// abandonAfter is how long the cache of another omh version (another schema
// or tokenizer) may go unwritten before this one removes it. It is not
// removed at once: an older omh may still run beside this one (a hook can
// call another binary than the shell does), and each would rebuild what the
// other removed. Without this, every upgrade would leave a cache as large
// as the last behind.
const abandonAfter = 14 * 24 * time.Hour

// removeAbandoned removes, of the cache folder's entries, other omh
// versions' generations that no process uses and that nothing has written
// for abandonAfter. Like the removal of this version's old generations, it
// is tidying: what it cannot do it leaves for a later command.
func removeAbandoned(dir string, entries []os.DirEntry, now time.Time) {
	for _, e := range entries {
		name := e.Name()
		if strings.HasPrefix(name, filePrefix) || !isCacheFile(name) {
			continue
		}
		db := filepath.Join(dir, name)
		if now.Sub(lastWritten(db)) > abandonAfter {
			removeIfUnused(db)
		}
	}
}

// isCacheFile reports whether name is a cache database of some omh version:
// cache-s<schema>t<tokenizer>-<generation>.db.
func isCacheFile(name string) bool {
	rest, ok := strings.CutPrefix(name, "cache-s")
	if !ok {
		return false
	}
	rest, ok = strings.CutSuffix(rest, ".db")
	if !ok {
		return false
	}
	schema, rest, ok := strings.Cut(rest, "t")
	if !ok {
		return false
	}
	tokenizer, gen, ok := strings.Cut(rest, "-")
	return ok && isNumber(schema) && isNumber(tokenizer) && isNumber(gen)
}

func isNumber(s string) bool {
	_, err := strconv.ParseUint(s, 10, 32)
	return err == nil
}

// lastWritten is the newest modification time among a database's files.
func lastWritten(db string) time.Time {
	var last time.Time
	for _, suffix := range slices.Concat(sqliteSuffixes, []string{".use"}) {
		if fi, err := os.Stat(db + suffix); err == nil && fi.ModTime().After(last) {
			last = fi.ModTime()
		}
	}
	return last
}

// lockGenerations serializes the choice and the making of a new generation
// among processes: without it, two that decide on the same number at once
// each rename a file to that name, the second over the one the first has
// opened, and they then write two databases through one -wal and -shm.
func lockGenerations(dir string) (unlock func(), err error) {
	f, err := os.OpenFile(filepath.Join(dir, "generation.lock"), os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return nil, fmt.Errorf("opening the generation lock: %w", err)
	}
	if err := disk.LockFile(f, true, true); err != nil {
		f.Close()
		return nil, fmt.Errorf("taking the generation lock: %w", err)
	}
	return func() { f.Close() }, nil
}

// startGeneration opens the newest generation when it is newer than after,
// else creates the next one. Another process that found the same damage or
// the same empty folder may have made one since after was chosen; it is as
// new as one made now, and sharing it spares a second build. The generation
// is opened, and so marked in use, before the lock is released, so no other
// process's Replace can remove it in between.
func startGeneration(dir string, after int) (*Cache, error) {
	unlock, err := lockGenerations(dir)
	if err != nil {
		return nil, err
	}
	defer unlock()
	gens, err := generations(dir)
	if err != nil {
		return nil, err
	}
	newest := 0
	if len(gens) > 0 {
		newest = gens[len(gens)-1]
	}
	if newest > after {
		return open(dir, newest)
	}
	return create(dir, newest+1)
}

// cacheDir is the cache's folder: omh in commonDir, else, when the
// repository is read-only, one in the user's cache folder. A link in
// place of omh's own folder is removed (the link alone) and a folder made:
// the cache never writes through a link out of git's folder. notices say
// so, for people.
func cacheDir(commonDir string) (dir string, notices []string, err error) {
	dir = filepath.Join(commonDir, "omh")
	if fi, err := os.Lstat(dir); err == nil && fi.Mode()&os.ModeSymlink != 0 {
		to, _ := os.Readlink(dir)
		if os.Remove(dir) == nil {
			notices = append(notices, fmt.Sprintf("the cache folder %s was a symbolic link to %s; omh never writes through a link, so it was removed and a folder made", dir, to))
		}
	}
	if err := os.MkdirAll(dir, 0o755); err == nil && disk.Writable(dir) && isRealDir(dir) {
		return dir, notices, nil
	}
	base, err := os.UserCacheDir()
	if err != nil {
		return "", nil, fmt.Errorf("%w: %s is read-only and there is no user cache folder: %v", ErrNoCachePlace, commonDir, err)
	}
	sum := sha256.Sum256([]byte(commonDir))
	dir = filepath.Join(base, "omh", hex.EncodeToString(sum[:8]))
	if err := os.MkdirAll(dir, 0o755); err != nil || !disk.Writable(dir) {
		return "", nil, fmt.Errorf("%w: neither %s nor %s can be written", ErrNoCachePlace, commonDir, dir)
	}
	return dir, notices, nil
}

// isRealDir reports whether path is a folder, not a link to one.
func isRealDir(path string) bool {
	fi, err := os.Lstat(path)
	return err == nil && fi.IsDir()
}

// generations lists this schema's database generations, oldest first.
func generations(dir string) ([]int, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("listing the cache folder: %w", err)
	}
	return generationsIn(entries), nil
}

// generationsIn picks this schema's generations out of the cache folder's
// entries, oldest first.
func generationsIn(entries []os.DirEntry) []int {
	var gens []int
	for _, e := range entries {
		name, ok := strings.CutPrefix(e.Name(), filePrefix)
		if !ok {
			continue
		}
		if n, err := strconv.Atoi(strings.TrimSuffix(name, ".db")); err == nil && strings.HasSuffix(name, ".db") {
			gens = append(gens, n)
		}
	}
	sort.Ints(gens)
	return gens
}

func genPath(dir string, gen int) string {
	return filepath.Join(dir, fmt.Sprintf("%s%d.db", filePrefix, gen))
}

// create makes generation gen: the schema is written to a temporary file
// that is renamed into place, so no process ever opens a half-made file.
// It runs under the generation lock, so gen is free and no other process is
// making a file at the same time.
func create(dir string, gen int) (*Cache, error) {
	removeStaleTemps(dir)
	final := genPath(dir, gen)
	tmp := fmt.Sprintf("%s.%d%s", final, os.Getpid(), tmpSuffix)
	// The schema sets the page size before WAL mode, which fixes it: the
	// usual DSN turns WAL on first, and the size stayed SQLite's 4096. It
	// is made through pagesum, which leaves room for a checksum in every
	// page.
	err := pagesum.Create(tmp, schema)
	if err == nil {
		crash.Step()
		err = os.Rename(tmp, final)
	}
	if err != nil {
		removeFiles(tmp)
		return nil, fmt.Errorf("creating the cache %s: %w", final, err)
	}
	return open(dir, gen)
}

const tmpSuffix = ".tmp"

// sqliteSuffixes are the endings of the files SQLite keeps beside a
// database.
var sqliteSuffixes = []string{"", "-wal", "-shm", "-journal"}

func removeFiles(db string) {
	for _, suffix := range sqliteSuffixes {
		os.Remove(db + suffix)
	}
}

// removeStaleTemps deletes the temporary files of creations that never
// finished: a process that crashed inside create leaves one, and nothing
// else would ever remove it. A file is left alone while the process named
// in it lives: it may be an omh from before the generation lock, still
// writing. One named after this process is stale, since create calls this
// before making its own.
func removeStaleTemps(dir string) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range entries {
		if pid, ok := tempOwner(e.Name()); ok && (pid == os.Getpid() || !alive(pid)) {
			os.Remove(filepath.Join(dir, e.Name()))
		}
	}
}

// tempOwner is the process that create named in a temporary file's name.
func tempOwner(name string) (pid int, ok bool) {
	if !strings.HasPrefix(name, filePrefix) {
		return 0, false
	}
	for _, suffix := range sqliteSuffixes {
		if db, ok := strings.CutSuffix(name, tmpSuffix+suffix); ok {
			pid, err := strconv.Atoi(db[strings.LastIndexByte(db, '.')+1:])
			return pid, err == nil && pid > 0
		}
	}
	return 0, false
}

func open(dir string, gen int) (*Cache, error) {
	if err := pagesum.Register(); err != nil {
		return nil, err
	}
	path := genPath(dir, gen)
	use, err := os.OpenFile(path+".use", os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return nil, fmt.Errorf("opening the cache's use lock: %w", err)
	}
	if err := disk.LockFile(use, false, true); err != nil {
		use.Close()
		return nil, fmt.Errorf("locking the cache for use: %w", err)
	}
	db, err := sql.Open("sqlite", dsn(path))
	if err != nil {
		use.Close()
		return nil, fmt.Errorf("opening the cache %s: %w", path, err)
	}
	// A command holds at most a read transaction and a write one at a time;
	// SQLite's own locks order them.
	db.SetMaxOpenConns(4)
	return &Cache{Dir: dir, Path: path, gen: gen, db: db, use: use}, nil
}

// dsn opens the database without memory-mapping it: when another process
// cut a mapped file short (truncating it while --rebuild ran), reading the
// mapping crashed omh with SIGBUS (Go's status 2, omh's usage status) in 7
// of 8 tries, and recovering from the fault deadlocked in the transaction's
// rollback. Read with pread, a cut file is SQLITE_IOERR_SHORT_READ or
// corrupt, which IsDamaged replaces. omh find on 3,000 notes measured the
// same either way. Statement journals stay in memory: a cold build's
// multi-row inserts wrote them to temp files, a twentieth of its CPU in
// pwrite. (A page cache of 32 MiB rather than 2 saved nothing once rows
// came in key order, and cost 40 MiB of peak memory.) Every page read from
// the file is checked against its checksum (see package pagesum).
func dsn(path string) string {
	return "file:" + path + "?vfs=" + pagesum.Name + "&_pragma=busy_timeout(20000)&_pragma=journal_mode(WAL)&_pragma=synchronous(NORMAL)&_pragma=journal_size_limit(16777216)&_pragma=temp_store(MEMORY)&_txlock=immediate"
}

// Close releases the database and this process's use of it.
func (c *Cache) Close() error {
	if c.keep != nil {
		c.keep.Close()
	}
	err := c.db.Close()
	if c.use != nil {
		c.use.Close()
	}
	return err
}

// Replace starts a new, empty generation beside this one, for a cache found
// damaged or asked to be rebuilt, or takes up the one another process
// started since this one was opened. The old file is not touched while any
// process still uses it; older generations nobody uses are removed.
func (c *Cache) Replace() (*Cache, error) {
	if c.Unsaved() {
		c.Close()
		return OpenInMemory(c.Dir)
	}
	next, err := startGeneration(c.Dir, c.gen)
	if err != nil {
		return nil, err
	}
	c.Close()
	// Removing old files is tidying: when the folder cannot be listed, they
	// stay for a later Replace.
	gens, _ := generations(c.Dir)
	for _, g := range gens {
		if g < next.gen {
			removeIfUnused(genPath(c.Dir, g))
		}
	}
	return next, nil
}

// removeIfUnused deletes a generation's files when no process holds its use
// lock.
func removeIfUnused(path string) {
	use, err := os.OpenFile(path+".use", os.O_RDWR, 0)
	if err != nil {
		return
	}
	defer use.Close()
	if disk.LockFile(use, true, false) != nil {
		return
	}
	removeFiles(path)
	os.Remove(path + ".use")
}

// Size is the bytes the cache's current generation occupies on disk.
func (c *Cache) Size() int64 {
	var n int64
	for _, suffix := range []string{"", "-wal"} {
		if fi, err := os.Stat(c.Path + suffix); err == nil {
			n += fi.Size()
		}
	}
	return n
}

// IsDamaged reports whether err means the database file cannot be trusted:
// not a database, corrupt, a page that does not hold its checksum, cut
// short, or missing the tables it should hold. Such a cache is replaced,
// never repaired.
func IsDamaged(err error) bool {
	var e *sqlite.Error
	if errors.As(err, &e) {
		switch e.Code() & 0xff {
		case sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB, sqlite3.SQLITE_FORMAT:
			return true
		case sqlite3.SQLITE_IOERR:
			return e.Code() == sqlite3.SQLITE_IOERR_SHORT_READ || e.Code() == sqlite3.SQLITE_IOERR_DATA
		case sqlite3.SQLITE_ERROR:
			return strings.Contains(e.Error(), "no such table") || strings.Contains(e.Error(), "no such column")
		}
	}
	return errors.Is(err, errDamaged)
}

// errDamaged marks stored values that do not decode.
var errDamaged = errors.New("the cache holds a value it cannot read")
