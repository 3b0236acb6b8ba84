package index_test

import (
	"bytes"
	"os"
	"testing"

	"github.com/omh-notes/omh/index"
	"github.com/omh-notes/omh/internal/pagesum"
)

// A cache file emptied, cut short, or overwritten with garbage in whole or
// in part is reported damaged: Fresh (or, for garbage in some pages, a read
// of its snapshot) returns an error that IsDamaged recognises; and Replace
// gives a cache that answers exactly as a rebuild, and removes the damaged
// file. Catches: damage read as an empty or partial store and answered
// from, an error IsDamaged does not recognise (the command would fail
// instead of rebuilding), and a Replace that reopens the damaged file.
func TestADamagedCacheIsDetectedAndReplacedByAWorkingOne(t *testing.T) {
	// Serial: it proves a file is removed once no process holds its use
	// lock, and a process forked meanwhile by a parallel test holds a copy
	// of every open file until it execs.
	const page = pagesum.PageSize
	damages := []struct {
		name   string
		damage func(content []byte) []byte
		// seen: the damage is met before any answer. Garbage in some pages
		// may be met only by a read of the snapshot, which must then say
		// the cache is damaged: every page holds a checksum.
		seen bool
	}{
		{"emptied", func([]byte) []byte { return nil }, true},
		{"cut to its header", func(b []byte) []byte { return b[:100] }, true},
		{"cut in half", func(b []byte) []byte { return b[:len(b)/2] }, true},
		{"garbage throughout", func(b []byte) []byte { return bytes.Repeat([]byte("garbage!"), len(b)/8) }, true},
		{"garbage after the header", func(b []byte) []byte {
			return append(b[:100:100], bytes.Repeat([]byte{0xA5}, len(b)-100)...)
		}, true},
		{"garbage in every other page", func(b []byte) []byte {
			for at := 2 * page; at+page <= len(b); at += 2 * page {
				copy(b[at:], bytes.Repeat([]byte{0x5A}, page))
			}
			return b
		}, false},
	}
	for _, dm := range damages {
		t.Run(dm.name, func(t *testing.T) {
			r := seaStore(t)
			want := rebuild(t, r.Dir, seaTerms).all
			repo := openRepo(t, r.Dir)
			c := openCache(t, repo.CommonDir)
			freshView(t, c, repo, index.Options{}, seaTerms)
			path := c.Path
			if err := c.Close(); err != nil {
				t.Fatal(err)
			}
			content, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			// Closing the last connection folds the write-ahead log into the
			// file; what is left of it would otherwise be read first.
			for _, suffix := range []string{"-wal", "-shm"} {
				if err := os.Remove(path + suffix); err != nil && !os.IsNotExist(err) {
					t.Fatal(err)
				}
			}
			if err := os.WriteFile(path, dm.damage(content), 0o644); err != nil {
				t.Fatal(err)
			}

			c = openCache(t, repo.CommonDir)
			defer func() { c.Close() }()
			s, _, err := c.Fresh(repo, index.Options{})
			if err == nil {
				var v view
				v, err = describe(s, seaTerms)
				s.Close()
				if err == nil && dm.seen {
					t.Fatalf("Fresh answered from the damaged cache:\n%s", v.diff(want))
				}
				if err == nil {
					t.Fatalf("the snapshot of the damaged cache read as data:\n%s", v.diff(want))
				}
			}
			if !index.IsDamaged(err) {
				t.Fatalf("IsDamaged does not recognise what the damaged cache said: %v", err)
			}
			if c, err = c.Replace(); err != nil {
				t.Fatal(err)
			}
			if c.Path == path {
				t.Errorf("Replace kept the damaged file %s", path)
			}
			if d := freshView(t, c, repo, index.Options{}, seaTerms).diff(want); d != "" {
				t.Errorf("the replaced cache differs from a rebuild:\n%s", d)
			}
			if _, err := os.Stat(path); !os.IsNotExist(err) {
				t.Errorf("the damaged file is still there after Replace (%v), and no one uses it", err)
			}
		})
	}
}
