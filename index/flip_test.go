package index_test

import (
	"fmt"
	"math/rand/v2"
	"os"
	"strings"
	"testing"

	"github.com/omh-notes/omh/index"
	"github.com/omh-notes/omh/internal/pagesum"
	"github.com/omh-notes/omh/token"
	"github.com/omh-notes/omh/vault/vaulttest"
)

// flipStore is a store whose cache spans many pages of every table: notes
// with dates, types, titles and links, a private note, an uncommitted one,
// and rows that spill onto overflow pages (which SQLite may read straight
// from the file, a part of a page at a time).
func flipStore(t *testing.T) *vaulttest.Repo {
	t.Helper()
	r := vaulttest.New(t)
	for i := range 2 {
		var long strings.Builder
		fmt.Fprintf(&long, "# Long walrus %d\n\n", i)
		for w := range 4000 {
			fmt.Fprintf(&long, "heron%d otter%d ", w, (w*7+i)%997)
		}
		r.Write(fmt.Sprintf("long/l%d.md", i), long.String())
	}
	// 330 notes: the per-document info of a snapshot (27 bytes a note)
	// then fills more than a page.
	for i := range 330 {
		r.Write(fmt.Sprintf("topic%d/note%03d.md", i%7, i), fmt.Sprintf(
			"---\nrecorded: 2026-03-%02d\ntype: %s\n---\n# Note %d about walrus %d\n\nThe heron and otter %d meet the krill [[note%03d]] and [[topic%d/note%03d]].\n",
			1+i%28, []string{"fact", "finding", "note"}[i%3], i, i%11, i%13, (i+1)%330, (i+3)%7, (i+3)%330))
	}
	r.Commit("2026-03-29T10:00:00Z", "notes")
	r.Write("topic0/uncommitted.md", "# Uncommitted\n\nA walrus not yet committed. [[note001]]\n")
	writePrivate(t, r, "mine.md", "# Mine\n\nMy heron. [[note002]]\n")
	return r
}

// Single bits flipped in the cache file, one at a time, one in each page:
// each read of the cache either answers exactly as before, every fact of
// the snapshot alike, or says the cache is damaged, which a command
// answers by rebuilding it. Catches: a flip read as data, giving other
// answers without a word (15 of 150 before every page held a checksum: a
// key no note has, a date "2026-03-2$", a note missing from the top 20).
// scripts/faultprobes.py flips 150 bits through the command line.
func TestASingleFlippedBitInTheCacheNeverChangesAnAnswer(t *testing.T) {
	t.Parallel()
	r := flipStore(t)
	repo := openRepo(t, r.Dir)
	terms := token.Terms("walrus heron otter krill note uncommitted mine topic3 long heron17 otter5")
	c := openCache(t, repo.CommonDir)
	want := freshView(t, c, repo, index.Options{}, terms)
	path := c.Path
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(path + "-wal"); !os.IsNotExist(err) {
		t.Fatalf("the write-ahead log outlived the last connection: %v", err)
	}
	pristine, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	// One bit in every page, so that pages of every kind are met: b-tree
	// leaves and interior pages, overflow pages (which SQLite may read a
	// part of, straight into a value), the header.
	rng := rand.New(rand.NewPCG(34, 7))
	flips := len(pristine) / pagesum.PageSize
	unchanged, damaged := 0, 0
	for k := range flips {
		b := append([]byte(nil), pristine...)
		at := k*pagesum.PageSize + rng.IntN(pagesum.PageSize)
		b[at] ^= 1 << rng.IntN(8)
		if err := os.WriteFile(path, b, 0o644); err != nil {
			t.Fatal(err)
		}
		c := openCache(t, repo.CommonDir)
		s, _, err := c.Fresh(repo, index.Options{})
		var got []string
		if err == nil {
			got, err = describe(s, terms)
			s.Close()
		}
		c.Close()
		switch {
		case index.IsDamaged(err):
			damaged++
		case err != nil:
			t.Errorf("flip %d (byte %d): an error a command would not rebuild on: %v", k, at, err)
		case view(got).diff(want) != "":
			t.Errorf("flip %d (byte %d of %d) changed the answer without a word:\n%s", k, at, len(b), view(got).diff(want))
		default:
			unchanged++
		}
	}
	if damaged == 0 {
		t.Errorf("none of %d flips was found: the check reads nothing", flips)
	}
	t.Logf("%d single-bit flips: %d answered as before, %d found damaged (rebuilt)", flips, unchanged, damaged)
}
