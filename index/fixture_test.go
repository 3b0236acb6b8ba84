package index_test

import (
	"path/filepath"
	"testing"

	"github.com/omh-notes/omh/index"
	"github.com/omh-notes/omh/token"
	"github.com/omh-notes/omh/vault/gitrepo"
	"github.com/omh-notes/omh/vault/vaulttest"
)

// seaTerms are the terms whose posting lists a view of the sea store holds:
// words of titles, bodies and keys, one in every note, one in none.
var seaTerms = token.Terms("walrus heron otter krill squid seal memory tusks mine revised absent")

// seaStore commits a store built so that a wrong cache cannot pass by
// accident: notes under a configured root and a markdown file outside it,
// a note in a subfolder reached by the last part of its key, links both
// ways, a key held in both layers, pairwise distinct dates, and a private
// note linking to a team one.
func seaStore(t *testing.T) *vaulttest.Repo {
	t.Helper()
	r := vaulttest.New(t)
	r.Write(".omh/config.yaml", "notes: notes\n")
	r.Write("notes/walrus.md", "---\nrecorded: 2025-11-02\n---\n# Walrus\n\nA walrus memory: the tusks, and [[heron]].\n")
	r.Write("notes/heron.md", "# Heron\n\nA heron memory.\n\nThe heron stands still.\n")
	r.Write("notes/otter.md", "---\ntype: fact\n---\n# Otter\n\nAn otter memory; see [[walrus]] and [[krill]].\n")
	r.Write("notes/deep/krill.md", "# Krill\n\nA krill memory, deep down.\n")
	r.Write("notes/mine.md", "# Mine (team)\n\nThe team's memory named like a private one.\n")
	r.Write("elsewhere/far.md", "# Far\n\nA memory outside the notes root, of a [[walrus]].\n")
	r.Commit("2025-12-01T10:00:00Z", "first notes")
	writePrivate(t, r, "mine.md", "---\nrecorded: 2025-12-20\n---\n# Mine\n\nMy private memory of the [[otter]].\n")
	return r
}

func writePrivate(t *testing.T, r *vaulttest.Repo, name, content string) {
	t.Helper()
	vaulttest.WriteFile(t, filepath.Join(r.Private, name), content)
}

// openRepo opens the working tree at dir, closed when the test ends.
func openRepo(t *testing.T, dir string) *gitrepo.Repo {
	t.Helper()
	repo, err := gitrepo.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { repo.Close() })
	return repo
}

// openCache opens the cache in commonDir; the caller closes it.
func openCache(t *testing.T, commonDir string) *index.Cache {
	t.Helper()
	c, err := index.Open(commonDir)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// freshView brings c up to date for repo and describes its snapshot.
func freshView(t *testing.T, c *index.Cache, repo *gitrepo.Repo, opt index.Options, terms []string) view {
	t.Helper()
	s, rep, err := c.Fresh(repo, opt)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if rep.Stale {
		t.Fatal("Fresh answered from a stale snapshot with no other refresh running")
	}
	return mustDescribe(t, s, terms)
}

// rebuilt is what a cache built from scratch says of a working tree: the
// view of its snapshot with the working tree, without it, and its status.
type rebuilt struct {
	all, base view
	status    index.Status
}

// rebuild builds a new cache of the working tree at dir in a folder of its
// own with Rebuild, and describes it.
func rebuild(t *testing.T, dir string, terms []string) rebuilt {
	t.Helper()
	repo := openRepo(t, dir)
	c := openCache(t, t.TempDir())
	c, _, err := c.Rebuild(repo, index.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	var b rebuilt
	b.all = freshView(t, c, repo, index.Options{}, terms)
	b.base = freshView(t, c, repo, index.Options{NoWorktree: true}, terms)
	if b.status, err = c.Status(repo); err != nil {
		t.Fatal(err)
	}
	return b
}

// withoutParsed leaves out of a status what differs between two caches of
// the same store: how much their last refresh parsed.
func withoutParsed(st index.Status) index.Status {
	st.Parsed = 0
	return st
}
