package index

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/omh-notes/omh/vault/disk"
)

// Two processes that find one cache damaged must end in one new generation.
// Catches Replace making newest+1 regardless, which gives each repairing
// process a full build of its own and, when two decide at once, the same
// number to both.
func TestReplacingACacheAnotherProcessReplacedTakesUpItsGeneration(t *testing.T) {
	// Serial: it proves a file is removed once no process holds its use
	// lock, and a process forked meanwhile by a parallel test holds a copy
	// of every open file until it execs.
	common := t.TempDir()
	a, err := Open(common)
	if err != nil {
		t.Fatal(err)
	}
	b, err := Open(common)
	if err != nil {
		t.Fatal(err)
	}
	na, err := a.Replace()
	if err != nil {
		t.Fatal(err)
	}
	defer na.Close()
	nb, err := b.Replace()
	if err != nil {
		t.Fatal(err)
	}
	defer nb.Close()
	if na.Path != nb.Path {
		t.Errorf("the second Replace made %s beside %s, which the first had just made", nb.Path, na.Path)
	}
	gens, err := generations(na.Dir)
	if err != nil {
		t.Fatal(err)
	}
	if want := []int{na.gen}; !reflect.DeepEqual(gens, want) {
		t.Errorf("generations %v, want %v: the old one is no longer in use", gens, want)
	}
}

// A crash inside create leaves a temporary database behind. Catches nothing
// removing it, removing one whose process still runs (it may be writing it),
// and create failing on a leftover that a dead process of the same number
// left under its own name.
func TestCreatingAGenerationRemovesOnlyTempFilesOfDeadProcesses(t *testing.T) {
	t.Parallel()
	common := t.TempDir()
	dir := filepath.Join(common, "omh")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	exited := exec.Command("true")
	if err := exited.Run(); err != nil {
		t.Fatal(err)
	}
	temp := func(gen, pid int, suffix string) string {
		return fmt.Sprintf("%s.%d%s%s", genPath(dir, gen), pid, tmpSuffix, suffix)
	}
	dead, live := exited.Process.Pid, os.Getppid()
	removed := []string{
		temp(7, dead, ""), temp(7, dead, "-wal"), temp(7, dead, "-shm"),
		temp(1, os.Getpid(), ""), // the very file create is about to write
	}
	kept := []string{
		temp(7, live, ""), temp(7, live, "-wal"),
		// Another schema's files are left to its binaries.
		filepath.Join(dir, fmt.Sprintf("cache-s0t0-3.db.%d%s", dead, tmpSuffix)),
	}
	for _, f := range append(append([]string{}, removed...), kept...) {
		if err := os.WriteFile(f, []byte("not a database"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	c, err := Open(common)
	if err != nil {
		t.Fatalf("creating the cache over a stale temporary file of this process's number: %v", err)
	}
	c.Close()
	for _, f := range removed {
		if _, err := os.Stat(f); !os.IsNotExist(err) {
			t.Errorf("%s is still there (%v), and its process has ended", filepath.Base(f), err)
		}
	}
	for _, f := range kept {
		if _, err := os.Stat(f); err != nil {
			t.Errorf("%s was removed while its process runs or by another schema: %v", filepath.Base(f), err)
		}
	}
}

// Every upgrade of omh that changes the schema or the tokenizer starts a new
// cache file. Catches the old ones staying forever (37 MB at 10,000 notes),
// and removing one too eagerly: while another omh version still uses or
// recently wrote its cache, removing it would make the two rebuild in turn.
func TestAnotherVersionsCacheIsRemovedOnlyWhenAbandoned(t *testing.T) {
	// Serial: it proves a file is removed once no process holds its use
	// lock, and a process forked meanwhile by a parallel test holds a copy
	// of every open file until it execs.
	common := t.TempDir()
	dir := filepath.Join(common, "omh")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	long := time.Now().Add(-abandonAfter - time.Hour)
	write := func(name string, mtime time.Time, suffixes ...string) {
		for _, s := range append([]string{""}, suffixes...) {
			p := filepath.Join(dir, name+s)
			if err := os.WriteFile(p, []byte("x"), 0o644); err != nil {
				t.Fatal(err)
			}
			if err := os.Chtimes(p, mtime, mtime); err != nil {
				t.Fatal(err)
			}
		}
	}
	write("cache-s1t1-1.db", long, "-wal", "-shm", ".use") // abandoned: removed
	write("cache-s2t1-3.db", long, ".use")                 // abandoned, but in use: kept
	write("cache-s3t1-1.db", long, ".use")                 // its -wal is recent: kept
	write("cache-s3t1-1.db-wal", time.Now())
	write("cache-s3t2-7.db", time.Now(), ".use") // recent: kept
	write("cache-notes.db", long)                // not a cache's name: kept
	write("cache-s1t1-1.db.backup", long)        // not a cache's name: kept
	inUse, err := os.OpenFile(filepath.Join(dir, "cache-s2t1-3.db.use"), os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer inUse.Close()
	if err := disk.LockFile(inUse, false, true); err != nil {
		t.Fatal(err)
	}

	c, err := Open(common)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	// This version's own files are the business of other tests.
	var got []string
	for _, e := range entries {
		if !strings.HasPrefix(e.Name(), filePrefix) {
			got = append(got, e.Name())
		}
	}
	want := []string{
		"cache-notes.db", "cache-s1t1-1.db.backup", "cache-s2t1-3.db", "cache-s2t1-3.db.use",
		"cache-s3t1-1.db", "cache-s3t1-1.db-wal", "cache-s3t1-1.db.use", "cache-s3t2-7.db", "cache-s3t2-7.db.use",
		"generation.lock",
	}
	if !slices.Equal(got, want) {
		t.Errorf("cache folder holds\n%v\nwant\n%v", got, want)
	}
}

// A new cache's pages were SQLite's 4096 bytes whatever the schema asked:
// the connection turned WAL on before the schema set the size, and WAL
// fixes it. A refresh's statement journals went to temp files (a twentieth
// of a cold build's CPU in pwrite); each connection keeps them in memory.
func TestANewCacheHasTheSchemasPageSizeAndKeepsTempWorkInMemory(t *testing.T) {
	t.Parallel()
	c, err := Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	for pragma, want := range map[string]int{"page_size": 8192, "temp_store": 2} {
		var got int
		if err := c.db.QueryRow(`PRAGMA ` + pragma).Scan(&got); err != nil {
			t.Fatal(err)
		}
		if got != want {
			t.Errorf("PRAGMA %s = %d, want %d", pragma, got, want)
		}
	}
	var mode string
	if err := c.db.QueryRow(`PRAGMA journal_mode`).Scan(&mode); err != nil || mode != "wal" {
		t.Errorf("journal_mode %q (%v), want wal", mode, err)
	}
}
