package index_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/omh-notes/omh/index"
	"github.com/omh-notes/omh/vault/vaulttest"
)

// A cache folder, database or write-ahead log that is a symbolic link out
// of git's folder is never written through: the link is removed, the
// command answers as a rebuild does from a cache made in place, and says
// so once; what the link pointed to is left as it was. Catches: a
// read-only find writing through .git/omh/cache-….db, its -wal, or a
// .git/omh linked to a folder outside the repository.
func TestTheCacheNeverWritesThroughALink(t *testing.T) {
	t.Parallel()
	r := seaStore(t)
	want := rebuild(t, r.Dir, seaTerms).all
	repo := openRepo(t, r.Dir)
	cacheDir := filepath.Join(repo.CommonDir, "omh")
	plant := map[string]func(outside string){
		"the cache folder": func(outside string) {
			vaulttest.WriteFile(t, filepath.Join(outside, "kept"), "outside\n")
			if err := os.Symlink(outside, cacheDir); err != nil {
				t.Fatal(err)
			}
		},
		"the database and its log": func(outside string) {
			c := openCache(t, repo.CommonDir)
			freshView(t, c, repo, index.Options{}, seaTerms)
			path := c.Path
			c.Close()
			copied := filepath.Join(outside, "copy.db")
			vaulttest.WriteFile(t, copied, vaulttest.Read(t, path))
			if err := os.Remove(path); err != nil {
				t.Fatal(err)
			}
			for link, to := range map[string]string{path: copied, path + "-wal": filepath.Join(outside, "log")} {
				if err := os.Symlink(to, link); err != nil {
					t.Fatal(err)
				}
			}
		},
	}
	for name, planted := range plant {
		os.RemoveAll(cacheDir)
		outside := t.TempDir()
		planted(outside)
		before := vaulttest.Tree(t, outside)
		c := openCache(t, repo.CommonDir)
		if d := freshView(t, c, repo, index.Options{}, seaTerms).diff(want); d != "" {
			t.Errorf("%s linked out: the answer differs from a rebuild's:\n%s", name, d)
		}
		c.Close()
		if len(c.Notices) != 1 || !strings.Contains(c.Notices[0], "symbolic link") {
			t.Errorf("%s linked out: notices %q, want one saying a link was removed", name, c.Notices)
		}
		vaulttest.SameTree(t, name+": outside", before, vaulttest.Tree(t, outside))
		if fi, err := os.Lstat(cacheDir); err != nil || !fi.IsDir() {
			t.Errorf("%s linked out: %s is not a folder now: %v", name, cacheDir, err)
		}
	}
}
