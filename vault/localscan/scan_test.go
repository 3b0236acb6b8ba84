package localscan

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/format/index"

	"github.com/omh-notes/omh/internal/exclude"
	"github.com/omh-notes/omh/vault"
	"github.com/omh-notes/omh/vault/gitrepo"
	"github.com/omh-notes/omh/vault/vaulttest"
)

type scanFixture struct {
	repo              *vaulttest.Repo
	r                 *gitrepo.Repo
	private, worktree *ScanState
}

func newScanFixture(t *testing.T) *scanFixture {
	rp := vaulttest.New(t)
	rp.Write("notes/a.md", "# A\n")
	rp.Write("notes/sub/b.md", "# B\n")
	rp.Write("notes/README.md", "# Readme\n")
	rp.Write("other/c.md", "# Outside the notes root\n")
	rp.Commit("2026-01-01T10:00:00Z", "notes")
	r, err := gitrepo.Open(rp.Dir)
	if err != nil {
		t.Fatal(err)
	}
	return &scanFixture{repo: rp, r: r, private: NewScanState(), worktree: NewScanState()}
}

// track records HEAD's notes under notes/ in the working tree's state, the
// way the team layer's refresh does.
func (f *scanFixture) track(t *testing.T) {
	head, err := f.r.Head()
	if err != nil {
		t.Fatal(err)
	}
	tree, err := f.r.NotesTree(head, "notes")
	if err != nil {
		t.Fatal(err)
	}
	changes, _, err := f.r.DiffNotes(plumbing.ZeroHash, tree, "notes", readmeExcluded(t))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range changes {
		f.worktree.Track(c.New.Path, c.New.Blob)
	}
}

// readmeExcluded is a config's exclude: README.md.
func readmeExcluded(t *testing.T) exclude.Globs {
	e, err := exclude.Compile([]string{"README.md"})
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// scan runs a scan as of a moment well after every write, so no file is
// racy and a scan after no change must not read any file.
func (f *scanFixture) scan(t *testing.T, worktree bool) []string {
	t.Helper()
	out, _ := f.scanCounting(t, worktree)
	return out
}

// scanCounting is scan, also returning the scanner, which counts the files
// it read and the folders it listed.
func (f *scanFixture) scanCounting(t *testing.T, worktree bool) ([]string, *scanner) {
	t.Helper()
	f.track(t)
	ls := LocalScan{Repo: f.r, NotesDir: "notes", Exclude: readmeExcluded(t), Private: f.repo.Private}
	wt := f.worktree
	if !worktree {
		wt = nil
	}
	sc, err := ls.run(f.private, wt, time.Now().Add(time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, lf := range sc.found {
		if lf.Deleted {
			out = append(out, "deleted:"+lf.Key+"="+lf.Path)
			continue
		}
		if lf.Private {
			rel, _ := filepath.Rel(f.repo.Private, lf.Path)
			out = append(out, "private:"+lf.Key+"="+rel)
		} else {
			out = append(out, lf.Key+"="+lf.Path)
		}
	}
	sort.Strings(out)
	return out, sc
}

// reload stores a state and reads it back, as the cache does between
// commands: whatever a scan changed is saved, and the state loaded is
// unchanged.
func reload(t *testing.T, s *ScanState) *ScanState {
	t.Helper()
	put, _ := s.Pieces()
	for i := range put {
		put[i].ID = int64(i + 1)
	}
	got, err := LoadScanState(put)
	if err != nil {
		t.Fatal(err)
	}
	return got
}

func TestTheLocalLayerIsWhatDiffersFromHead(t *testing.T) {
	t.Parallel()
	f := newScanFixture(t)
	if got := f.scan(t, true); got != nil {
		t.Fatalf("a clean checkout has no local notes, got %v", got)
	}
	f.repo.Write("notes/a.md", "# A, edited\n")
	f.repo.Write("notes/new/d.md", "# New\n")
	f.repo.Write("notes/README.md", "# Edited but excluded\n")
	f.repo.Write("other/e.md", "# Outside the notes root\n")
	f.repo.Remove("notes/sub/b.md")
	vaulttest.WriteFile(t, filepath.Join(f.repo.Private, "mine.md"), "# Mine\n")
	// The file deleted from the working tree, not committed, is reported
	// as deleted.
	want := []string{"a=notes/a.md", "deleted:sub/b=notes/sub/b.md", "new/d=notes/new/d.md", "private:mine=mine.md"}
	if got := f.scan(t, true); !reflect.DeepEqual(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
	if got := f.scan(t, false); !reflect.DeepEqual(got, []string{"private:mine=mine.md"}) {
		t.Errorf("without the working tree: %v", got)
	}
	// Staged but then reverted in the working copy: the working copy equals
	// HEAD, so it is not a local note.
	f.repo.Git("add", "notes/a.md")
	f.repo.Write("notes/a.md", "# A\n")
	if got := f.scan(t, true); !reflect.DeepEqual(got, []string{"deleted:sub/b=notes/sub/b.md", "new/d=notes/new/d.md", "private:mine=mine.md"}) {
		t.Errorf("after reverting a staged edit: %v", got)
	}
}

// The second scan of an unchanged tree reads no file and lists no folder:
// its state is exactly the first scan's. Catches: a scan that reads every
// file again (comparing content rather than stat) even when it finds the
// state unchanged.
func TestAScanOfAnUnchangedTreeReadsNothing(t *testing.T) {
	t.Parallel()
	f := newScanFixture(t)
	f.repo.Write("notes/new.md", "# New\n")
	vaulttest.WriteFile(t, filepath.Join(f.repo.Private, "mine.md"), "# Mine\n")
	want, first := f.scanCounting(t, true)
	if first.read == 0 || first.listed == 0 {
		t.Fatalf("the first scan read %d files and listed %d folders: the counts count nothing", first.read, first.listed)
	}
	f.worktree, f.private = reload(t, f.worktree), reload(t, f.private)
	got, second := f.scanCounting(t, true)
	if second.read != 0 || second.listed != 0 {
		t.Errorf("the scan of an unchanged tree read %d files and listed %d folders", second.read, second.listed)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("the second scan found %v, the first %v", got, want)
	}
	if f.worktree.Changed() || f.private.Changed() {
		t.Error("an unchanged tree changed the scan state")
	}
}

func TestIgnoredFilesAndOtherRepositoriesAreNotNotes(t *testing.T) {
	t.Parallel()
	f := newScanFixture(t)
	f.repo.Write("notes/draft.md", "# Draft\n")
	f.repo.Write("notes/build/out.md", "# Generated\n")
	f.repo.Write("notes/vendored/.git/HEAD", "ref: refs/heads/main\n")
	f.repo.Write("notes/vendored/theirs.md", "# Another repository's note\n")
	f.repo.Write(".gitignore", "build/\n")
	want := []string{"draft=notes/draft.md"}
	if got := f.scan(t, true); !reflect.DeepEqual(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
	// An ignore rule added later drops a note found before.
	f.repo.Write("notes/.gitignore", "draft.md\n")
	if got := f.scan(t, true); got != nil {
		t.Errorf("after ignoring draft.md: %v", got)
	}
	// And removing the rule brings it back.
	f.repo.Remove("notes/.gitignore")
	if got := f.scan(t, true); !reflect.DeepEqual(got, want) {
		t.Errorf("after removing the rule: %v", got)
	}
}

// An ignore file is parsed once per process while it stays as it was, and
// again as soon as it changes, even to the same size. Catches: the cache of
// parsed ignore files answering with an old file's rules.
func TestAnIgnoreFileIsParsedAgainWhenItChanges(t *testing.T) {
	t.Parallel()
	f := newScanFixture(t)
	f.repo.Write("notes/draft.md", "# Draft\n")
	f.repo.Write("notes/other.md", "# Other\n")
	gitignore := filepath.Join(f.repo.Dir, "notes", ".gitignore")
	vaulttest.WriteFile(t, gitignore, "draft.md\n")
	if got := f.scan(t, true); !reflect.DeepEqual(got, []string{"other=notes/other.md"}) {
		t.Fatalf("ignoring draft.md: %v", got)
	}
	vaulttest.WriteFile(t, gitignore, "other.md\n") // the same size
	if got := f.scan(t, true); !reflect.DeepEqual(got, []string{"draft=notes/draft.md"}) {
		t.Errorf("ignoring other.md instead: %v", got)
	}
	// Left alone past the racy window, it is parsed once: both scans share
	// the rules.
	old := time.Now().Add(-time.Minute)
	if err := os.Chtimes(gitignore, old, old); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(gitignore)
	if err != nil {
		t.Fatal(err)
	}
	open := func() *os.File {
		file, err := os.Open(gitignore)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { file.Close() })
		return file
	}
	first := parsedIgnores.get(gitignore, []string{"notes"}, statOf(fi), open())
	if again := parsedIgnores.get(gitignore, []string{"notes"}, statOf(fi), open()); again != first {
		t.Error("an unchanged ignore file was parsed again")
	}
	// Changed but dated past the racy window too: its stat decides.
	vaulttest.WriteFile(t, gitignore, "draft.md\n")
	older := old.Add(-time.Minute)
	if err := os.Chtimes(gitignore, older, older); err != nil {
		t.Fatal(err)
	}
	if fi, err = os.Stat(gitignore); err != nil {
		t.Fatal(err)
	}
	if changed := parsedIgnores.get(gitignore, []string{"notes"}, statOf(fi), open()); changed == first {
		t.Error("a changed ignore file kept its old rules")
	}
}

// A file rewritten within the same clock tick keeps its size and time, so
// stat alone cannot see the change; a file hashed that close to its
// modification is read again next time.
func TestARacyFileIsReadAgain(t *testing.T) {
	t.Parallel()
	f := newScanFixture(t)
	path := filepath.Join(f.repo.Dir, "notes", "racy.md")
	vaulttest.WriteFile(t, path, "# one\n")
	fi, _ := os.Stat(path)
	f.track(t)
	ls := LocalScan{Repo: f.r, NotesDir: "notes", Exclude: readmeExcluded(t)}
	first, _, err := ls.Run(f.private, f.worktree, fi.ModTime())
	if err != nil || len(first) != 1 {
		t.Fatalf("%v %v", first, err)
	}
	// Same size, same mtime, other content; ctime and inode faked back too.
	vaulttest.WriteFile(t, path, "# two\n")
	if err := os.Chtimes(path, fi.ModTime(), fi.ModTime()); err != nil {
		t.Fatal(err)
	}
	p, i, ok := f.worktree.find([]byte("notes/racy.md"), len("notes"))
	if !ok {
		t.Fatal("the scan kept no record of notes/racy.md")
	}
	now, _ := os.Stat(path)
	putStat(p.rec(i), statOf(now))
	second, _, err := ls.Run(f.private, f.worktree, fi.ModTime().Add(time.Second))
	if err != nil || len(second) != 1 || second[0].Blob == first[0].Blob {
		t.Errorf("the rewrite was missed: %v %v", second, err)
	}
}

// A first scan takes a clean file's blob id from git's index, as git does,
// rather than hashing every file. Caught go-git's index.Merged (1), which no
// decoded entry of a clean index carries (0), making every first scan hash
// the whole working tree. The index is doctored to name another blob for
// notes/a.md with its stat data intact: only a scan that trusts the index
// sees that blob.
func TestAFirstScanTakesBlobIdsFromGitsIndex(t *testing.T) {
	t.Parallel()
	f := newScanFixture(t)
	doctored := doctorIndex(t, f, "notes/a.md", time.Now().Add(time.Minute))
	if got, want := f.scan(t, true), []string{"a=notes/a.md"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("first scan found %v, want %v: the index's blob id was not used", got, want)
	}
	p, i, ok := f.worktree.find([]byte("notes/a.md"), len("notes"))
	if !ok {
		t.Fatal("the scan kept no record of notes/a.md")
	}
	if blob := plumbing.Hash(p.rec(i)[recWork : recWork+20]); blob != doctored {
		t.Errorf("notes/a.md has blob %s, want the index's %s", blob, doctored)
	}
}

// A file modified in the same timestamp tick as git wrote its index may
// have changed after git hashed it without its stat data showing it (git's
// "racy" entries): its index entry is not trusted, the file is hashed.
func TestARacyIndexEntryIsHashedNotTrusted(t *testing.T) {
	t.Parallel()
	f := newScanFixture(t)
	fi, err := os.Stat(filepath.Join(f.repo.Dir, "notes", "a.md"))
	if err != nil {
		t.Fatal(err)
	}
	doctorIndex(t, f, "notes/a.md", fi.ModTime())
	if got := f.scan(t, true); got != nil {
		t.Fatalf("first scan found %v: a racy entry's blob id was trusted", got)
	}
}

// doctorIndex rewrites git's index to name another blob for path, keeping
// its stat data, and dates the index at. It returns the blob named.
func doctorIndex(t *testing.T, f *scanFixture, path string, at time.Time) plumbing.Hash {
	t.Helper()
	file := filepath.Join(f.repo.Dir, ".git", "index")
	in, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	var idx index.Index
	err = index.NewDecoder(in).Decode(&idx)
	in.Close()
	if err != nil {
		t.Fatal(err)
	}
	e, err := idx.Entry(path)
	if err != nil {
		t.Fatal(err)
	}
	e.Hash = gitrepo.HashBytes([]byte("# Not what the file holds\n"))
	out, err := os.Create(file)
	if err != nil {
		t.Fatal(err)
	}
	if err := index.NewEncoder(out).Encode(&idx); err != nil {
		t.Fatal(err)
	}
	out.Close()
	if err := os.Chtimes(file, at, at); err != nil {
		t.Fatal(err)
	}
	return e.Hash
}

// A copied tree's files all differ in stat from what git's index recorded,
// so a first scan hashes each of them, on every core: exactly the files
// whose content differs from HEAD are local, however the hashing is split.
func TestAFirstScanOfACopiedTreeHashesEachFile(t *testing.T) {
	t.Parallel()
	rp := vaulttest.New(t)
	const n = 300
	for i := 0; i < n; i++ {
		rp.Write(fmt.Sprintf("notes/d%d/n%d.md", i%7, i), fmt.Sprintf("# Note %d\n", i))
	}
	rp.Commit("2026-01-01T10:00:00Z", "notes")
	later := time.Now().Add(-time.Hour)
	var want []string
	for i := 0; i < n; i++ {
		path := filepath.Join(rp.Dir, "notes", fmt.Sprintf("d%d", i%7), fmt.Sprintf("n%d.md", i))
		if i%50 == 3 {
			vaulttest.WriteFile(t, path, fmt.Sprintf("# Note %d, edited\n", i))
			want = append(want, fmt.Sprintf("d%d/n%d=notes/d%d/n%d.md", i%7, i, i%7, i))
		}
		if err := os.Chtimes(path, later, later); err != nil { // as cp -a keeps times but not the inode
			t.Fatal(err)
		}
	}
	r, err := gitrepo.Open(rp.Dir)
	if err != nil {
		t.Fatal(err)
	}
	f := &scanFixture{repo: rp, r: r, private: NewScanState(), worktree: NewScanState()}
	got, sc := f.scanCounting(t, true)
	sort.Strings(want)
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("first scan found %v, want %v", got, want)
	}
	if sc.read != n {
		t.Errorf("first scan read %d files, want all %d (git's index vouches for none)", sc.read, n)
	}
}

// Folders on disk deeper than vault.MaxFolderDepth are not entered: the
// note at the bound is found, the folder past it is a skip said once.
// Catches: a scan walking any depth a hostile tree makes, where a path
// past the system's limit fails to open.
func TestTheScanStopsAtTheFolderDepthBound(t *testing.T) {
	t.Parallel()
	f := newScanFixture(t)
	chain := strings.Repeat("d/", vault.MaxFolderDepth)
	vaulttest.WriteFile(t, filepath.Join(f.repo.Private, chain+"last.md"), "# At the bound\n")
	vaulttest.WriteFile(t, filepath.Join(f.repo.Private, chain+"d", "past.md"), "# Past it\n")
	got, sc := f.scanCounting(t, false)
	if want := []string{"private:" + chain + "last=" + chain + "last.md"}; !reflect.DeepEqual(got, want) {
		t.Errorf("found %.200q", got)
	}
	if len(sc.skips) != 1 || sc.skips[0].Path != filepath.Join(f.repo.Private, chain+"d") || !strings.Contains(sc.skips[0].Reason, "deeper than") {
		t.Errorf("skips: %.300v", sc.skips)
	}
}

// With `*.md text eol=crlf` (common on teams with Windows machines) a
// checkout writes every note with CRLF while git keeps LF: git's clean
// filter, or its index's stat data, say whether a working copy changed,
// not its bytes. A note checked out again (what a pull does), or touched,
// is no local copy; a real edit is, CRLF or not. Catches: every note
// listed twice after a pull, as team and as an uncommitted local copy,
// while git status was clean.
func TestAWorkingCopyGitCheckedOutWithCRLFIsUnchanged(t *testing.T) {
	t.Parallel()
	f := newScanFixture(t)
	f.repo.Write(".gitattributes", "*.md text eol=crlf\n")
	f.repo.Commit("2026-01-02T10:00:00Z", "CRLF in the working tree")
	crlf := func(path string) {
		t.Helper()
		if b := vaulttest.Read(t, filepath.Join(f.repo.Dir, path)); !strings.Contains(b, "\r\n") {
			t.Fatalf("%s was not checked out with CRLF: %q", path, b)
		}
	}
	checkout := func(paths ...string) {
		t.Helper()
		for _, p := range paths {
			f.repo.Remove(p)
		}
		f.repo.Git(append([]string{"checkout", "--"}, paths...)...)
		for _, p := range paths {
			crlf(p)
		}
	}
	if got := f.scan(t, true); got != nil {
		t.Fatalf("before any CRLF checkout: %v", got)
	}
	checkout("notes/a.md", "notes/sub/b.md")
	if got := f.scan(t, true); got != nil {
		t.Errorf("notes checked out again with CRLF are listed as local copies: %v", got)
	}
	later := time.Now().Add(time.Minute)
	if err := os.Chtimes(filepath.Join(f.repo.Dir, "notes", "a.md"), later, later); err != nil {
		t.Fatal(err)
	}
	if got := f.scan(t, true); got != nil {
		t.Errorf("a note touched after a CRLF checkout is listed as a local copy: %v", got)
	}
	f.repo.Write("notes/sub/b.md", "# B\r\n\r\nEdited.\r\n")
	if got := f.scan(t, true); !reflect.DeepEqual(got, []string{"sub/b=notes/sub/b.md"}) {
		t.Errorf("a real edit of a CRLF note: %v, want it local", got)
	}
	f.repo.Remove("notes/sub/b.md")
	f.repo.Git("checkout", "--", "notes/sub/b.md")
	if got := f.scan(t, true); got != nil {
		t.Errorf("after the edit was undone: %v", got)
	}
}
