package index_test

import (
	"fmt"
	"reflect"
	"testing"

	"github.com/omh-notes/omh/index"
	"github.com/omh-notes/omh/vault/corpus"
	"github.com/omh-notes/omh/vault/gitrepo"
	"github.com/omh-notes/omh/vault/vaulttest"
)

// hubStore commits a hub note linked by linkers notes: plain and typed links
// (one note both ways), dates shared and not, keys held in both layers, a
// self-link, a note deleted since (its number freed) and an uncommitted
// edit that drops its link, so that some numbers are absent.
func hubStore(t *testing.T, linkers int) *vaulttest.Repo {
	t.Helper()
	r := vaulttest.New(t)
	r.Write(".omh/config.yaml", "notes: notes\n")
	r.Write("notes/hub.md", "# Hub\n\nThe hub links itself: [[hub]].\n")
	verbs := []string{"", "", "", "supersedes", "cites", "", "derives_from", "", "invalidates"}
	for i := range linkers {
		link := "See [[hub]]."
		if v := verbs[i%len(verbs)]; v != "" {
			link = "- " + v + " [[hub]]"
		}
		if i%17 == 0 {
			link += "\n\nAlso [[hub]] plainly.\n\n- supersedes [[hub]]"
		}
		r.Write(fmt.Sprintf("notes/n%03d.md", i), fmt.Sprintf("---\nrecorded: 2025-%02d-%02d\n---\n# N%d\n\n%s\n", 1+i%5, 1+i%3, i, link))
	}
	r.Write("notes/gone.md", "# Gone\n\n[[hub]]\n")
	r.Commit("2025-12-01T10:00:00Z", "notes")
	for i := range 6 {
		writePrivate(t, r, fmt.Sprintf("n%03d.md", i*7), fmt.Sprintf("---\nrecorded: 2025-12-%02d\n---\n# Mine\n\n- cites [[hub]]\n\nand [[hub]]\n", 10+i%2))
	}
	return r
}

// changeHubStore deletes a note the cache holds and edits another without
// committing, after c read the store once.
func changeHubStore(t *testing.T, r *vaulttest.Repo, c *index.Cache, repo *gitrepo.Repo) {
	t.Helper()
	s, _, err := c.Fresh(repo, index.Options{})
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	r.Remove("notes/gone.md")
	r.Commit("2025-12-02T10:00:00Z", "gone")
	r.Write("notes/n004.md", "# N4\n\nNo link any more.\n")
	r.Write("notes/n005.md", "# N5\n\nAn uncommitted [[hub]] link, now typed:\n\n- supersedes [[hub]]\n")
}

// Links in read for a card, keyed after, are the links in Detail reads by
// joining every one to its note and sorting by key, in the same order; the
// typed ones alone and the count agree too, with and without the working
// tree, for a hub counted row by row and one counted by seeks (600 notes
// link to it), each state read twice by the same cache (the second answer
// reuses what the first kept of the snapshot), and again after more
// changes. Catches: NameRank order drifting from (key, layer, path), an
// absent note's links counted, a self-link kept, a hub's count kept from
// before a change.
func TestLinksInForACardEqualTheFullRead(t *testing.T) {
	t.Parallel()
	for _, linkers := range []int{120, 600} {
		t.Run(fmt.Sprint(linkers), func(t *testing.T) {
			t.Parallel()
			linksInEqualTheFullRead(t, linkers)
		})
	}
}

func linksInEqualTheFullRead(t *testing.T, linkers int) {
	r := hubStore(t, linkers)
	repo := openRepo(t, r.Dir)
	c := openCache(t, repo.CommonDir)
	defer c.Close()
	changeHubStore(t, r, c, repo)
	r.Settle()
	linksInAgreeWithDetail(t, c, repo, linkers)
	linksInAgreeWithDetail(t, c, repo, linkers)
	r.Write("notes/new.md", "# New\n\nAn untracked [[hub]] link.\n")
	r.Remove("notes/n001.md")
	r.Commit("2025-12-03T10:00:00Z", "one linker fewer")
	r.Settle()
	linksInAgreeWithDetail(t, c, repo, linkers)
	linksInAgreeWithDetail(t, c, repo, linkers)
}

func linksInAgreeWithDetail(t *testing.T, c *index.Cache, repo *gitrepo.Repo, linkers int) {
	t.Helper()
	for _, opt := range []index.Options{{}, {NoWorktree: true}} {
		s, _, err := c.Fresh(repo, opt)
		if err != nil {
			t.Fatal(err)
		}
		typedSeen, hubIn := 0, 0
		for doc := uint32(0); int(doc) < s.Span(); doc++ {
			if !s.Info(doc).Present {
				continue
			}
			full, err := s.Detail(doc)
			if err != nil {
				t.Fatal(err)
			}
			all, n, err := s.LinksIn(doc, true, true)
			if err != nil {
				t.Fatal(err)
			}
			if err := s.KeyRefs(all); err != nil {
				t.Fatal(err)
			}
			if n != len(full.In) || !reflect.DeepEqual(all, full.In) {
				t.Errorf("%+v note #%d: links in %d %+v, the full read %d %+v", opt, doc, n, all, len(full.In), full.In)
			}
			_, n, err = s.LinksIn(doc, false, false)
			if err != nil {
				t.Fatal(err)
			}
			if n != len(full.In) {
				t.Errorf("%+v note #%d: %d links in counted, the full read %d", opt, doc, n, len(full.In))
			}
			typed, n, err := s.LinksIn(doc, false, true)
			if err != nil {
				t.Fatal(err)
			}
			if err := s.KeyRefs(typed); err != nil {
				t.Fatal(err)
			}
			var want []corpus.Ref
			for _, ref := range full.In {
				if ref.Verb != "" {
					want = append(want, ref)
				}
			}
			if n != len(full.In) || !reflect.DeepEqual(typed, want) {
				t.Errorf("%+v note #%d: typed links in %d %+v, the full read %d %+v", opt, doc, n, typed, len(full.In), want)
			}
			typedSeen += len(want)
			hubIn = max(hubIn, len(full.In))
		}
		s.Close()
		if typedSeen < 20 || hubIn < linkers-20 {
			t.Fatalf("%+v: the fixture has %d typed links in and a hub of %d", opt, typedSeen, hubIn)
		}
	}
}
