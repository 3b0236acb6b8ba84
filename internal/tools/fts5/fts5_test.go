package fts5

import (
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"testing"
	"time"
)

func write(t *testing.T, root, rel, content string) {
	t.Helper()
	p := filepath.Join(root, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// keysOf is the keys Search ranks for a question, sorted.
func keysOf(t *testing.T, db *DB, question string) []string {
	t.Helper()
	hits, err := db.Search(Match(question), 100)
	if err != nil {
		t.Fatal(err)
	}
	var keys []string
	for _, h := range hits {
		keys = append(keys, h.Key)
	}
	slices.Sort(keys)
	return keys
}

// The table holds every markdown note under the folder, keyed by its path
// without .md, titled by its frontmatter title and aliases, else its first
// heading, else its file name, and nothing else: no binary file, link,
// other file or git's folder. Catches: the two peers the benchmark and
// compare had, which filled different tables from different file lists.
func TestTheTableHoldsTheNotesAsOmhReadsThem(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	write(t, root, "walrus.md", "---\ntitle: The walrus\naliases: [tusker]\n---\nIt keeps the tusks clean.\n")
	write(t, root, "deep/heron.md", "Intro.\n\n# Heron\n\nThe heron waits.\n")
	write(t, root, "plain.md", "no heading at all\n")
	write(t, root, "binary.md", "walrus\x00\x01")
	write(t, root, "notes.txt", "walrus\n")
	write(t, root, ".git/walrus.md", "# Walrus in git's folder\n")
	if err := os.Symlink("walrus.md", filepath.Join(root, "link.md")); err != nil {
		t.Fatal(err)
	}
	notes, err := ReadNotes(root)
	if err != nil {
		t.Fatal(err)
	}
	want := []Note{
		{Key: "deep/heron", Title: "Heron", Body: "Intro.\n\n\nThe heron waits.\n"},
		{Key: "plain", Title: "plain", Body: "no heading at all\n"},
		{Key: "walrus", Title: "The walrus\ntusker", Body: "It keeps the tusks clean.\n"},
	}
	if !reflect.DeepEqual(notes, want) {
		t.Errorf("read %+v\nwant %+v", notes, want)
	}
	db := built(t, root)
	if got := keysOf(t, db, "tusker heron"); !slices.Equal(got, []string{"deep/heron", "walrus"}) {
		t.Errorf("tusker or heron finds %v", got)
	}
}

// built builds the database over root and opens it.
func built(t *testing.T, root string) *DB {
	t.Helper()
	path := filepath.Join(t.TempDir(), "fts5.db")
	if _, err := Build(path, root); err != nil {
		t.Fatal(err)
	}
	db, err := Open(path, root)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// A refresh reads again exactly the notes whose size or modification time
// changed, adds new ones and drops removed ones, so answers are as a fresh
// build's. Catches: a peer timed on answers staler than omh's.
func TestARefreshAnswersAsAFreshBuild(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	write(t, root, "a.md", "# A\n\nThe otter swims.\n")
	write(t, root, "b.md", "# B\n\nThe otter sleeps.\n")
	write(t, root, "c.md", "# C\n\nNothing here.\n")
	db := built(t, root)
	if n, err := db.Refresh(); err != nil || n != 0 {
		t.Fatalf("a refresh of an unchanged folder changed %d (%v)", n, err)
	}
	write(t, root, "a.md", "# A\n\nThe beaver swims.\n")
	later := time.Now().Add(time.Hour) // changed within the clock's grain or not, a new time
	os.Chtimes(filepath.Join(root, "a.md"), later, later)
	os.Remove(filepath.Join(root, "b.md"))
	write(t, root, "d.md", "# D\n\nAn otter and a beaver.\n")
	if n, err := db.Refresh(); err != nil || n != 3 {
		t.Fatalf("the refresh changed %d files (%v), want 3", n, err)
	}
	fresh := built(t, root)
	for _, q := range []string{"otter", "beaver", "nothing"} {
		if got, want := keysOf(t, db, q), keysOf(t, fresh, q); !slices.Equal(got, want) || len(want) == 0 {
			t.Errorf("%s: refreshed %v, fresh build %v", q, got, want)
		}
	}
}

// A question is one MATCH string of its distinct words, quoted and OR-ed,
// whatever punctuation or case they come in.
func TestMatchQuotesEachDistinctWordOnce(t *testing.T) {
	t.Parallel()
	if got := Match("Why does the (mount) fail?", "mount FAILS"); got != `"Why" OR "does" OR "the" OR "mount" OR "fail" OR "FAILS"` {
		t.Errorf("%s", got)
	}
	if got := Match("?!", ""); got != "" {
		t.Errorf("no words made %q", got)
	}
}
