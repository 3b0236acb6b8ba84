package index_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/omh-notes/omh/index"
	"github.com/omh-notes/omh/vault"
)

// After every git operation a person runs on a notes repository, and every
// change to the working tree or the private folder, one cache kept across
// them all answers exactly as a cache rebuilt from scratch: the same view
// with and without the working tree, the same status. Before Fresh runs,
// Status says the cache is not fresh; after, that it is, at HEAD, with no
// lag. Catches: a refresh that misses what an operation changed (HEAD
// moving back to an older commit, an amend replacing the commit the cache
// holds, a rename taken as an addition, a deleted note or link kept, an
// uncommitted edit or its revert unseen, a private note's change unseen),
// an inbound count or backlink left from an older state, and Status calling
// a stale cache fresh.
func TestAfterEachChangeToTheStoreFreshAnswersAsARebuild(t *testing.T) {
	r := seaStore(t)
	first := r.Git("rev-parse", "HEAD")
	repo := openRepo(t, r.Dir)
	c := openCache(t, repo.CommonDir)
	defer func() { c.Close() }()

	steps := []struct {
		name string
		do   func()
	}{
		{"first build", func() {}},
		{"commit", func() {
			r.Write("notes/heron.md", "# Heron\n\nA heron memory, revised: it fishes for [[krill]].\n")
			r.Write("notes/seal.md", "# Seal\n\nA seal memory, next to the [[otter]].\n")
			r.Commit("2025-12-05T10:00:00Z", "a seal and a revised heron")
		}},
		{"amend", func() {
			r.Write("notes/seal.md", "# Seal\n\nA seal memory, amended: it eats [[squid]].\n")
			r.GitAt("2025-12-06T10:00:00Z", "commit", "-q", "-a", "--amend", "--no-edit")
		}},
		{"checkout of an old commit", func() { r.Git("checkout", "-q", "--detach", first) }},
		{"checkout back", func() { r.Git("checkout", "-q", "main") }},
		{"switch to a branch with its own commit", func() {
			r.Git("checkout", "-q", "-b", "side", first)
			r.Write("notes/squid.md", "# Squid\n\nA squid memory, only on the side branch [[krill]].\n")
			r.Git("rm", "-q", "notes/deep/krill.md")
			r.Commit("2025-12-07T10:00:00Z", "side work")
		}},
		{"switch back", func() { r.Git("checkout", "-q", "main") }},
		{"rename", func() {
			r.Git("mv", "notes/otter.md", "notes/sea-otter.md")
			r.Commit("2025-12-08T10:00:00Z", "otters live at sea")
		}},
		{"deletion", func() {
			r.Git("rm", "-q", "notes/deep/krill.md")
			r.Commit("2025-12-09T10:00:00Z", "no more krill")
		}},
		{"uncommitted edit", func() {
			r.Write("notes/walrus.md", "# Walrus\n\nA walrus memory, edited and not committed, of a [[seal]].\n")
		}},
		{"its revert", func() { r.Git("checkout", "--", "notes/walrus.md") }},
		{"new untracked note", func() {
			r.Write("notes/deep/squid.md", "# Squid\n\nAn untracked squid memory of the [[walrus]].\n")
		}},
		{"private note added", func() {
			writePrivate(t, r, "heron.md", "# Heron (mine)\n\nMy own heron memory, seen with a [[seal]].\n")
		}},
		{"private note removed", func() {
			if err := os.Remove(filepath.Join(r.Private, "mine.md")); err != nil {
				t.Fatal(err)
			}
		}},
		{"reset --hard", func() {
			r.Write("notes/heron.md", "# Heron\n\nAn edit that reset throws away.\n")
			r.Git("reset", "-q", "--hard", "HEAD~1")
		}},
	}
	for i, step := range steps {
		step.do()
		st, err := c.Status(repo)
		if err != nil {
			t.Fatal(err)
		}
		if i > 0 && st.Fresh {
			t.Errorf("%s: Status says the cache is fresh before any refresh", step.name)
		}
		want := rebuild(t, r.Dir, seaTerms)
		if d := freshView(t, c, repo, index.Options{}, seaTerms).diff(want.all); d != "" {
			t.Errorf("%s: the kept cache differs from a rebuild:\n%s", step.name, d)
		}
		if d := freshView(t, c, repo, index.Options{NoWorktree: true}, seaTerms).diff(want.base); d != "" {
			t.Errorf("%s: without the working tree, the kept cache differs from a rebuild:\n%s", step.name, d)
		}
		if st, err = c.Status(repo); err != nil {
			t.Fatal(err)
		}
		head := r.Git("rev-parse", "HEAD")
		if !st.Fresh || st.Indexed == nil || *st.Indexed != head {
			t.Errorf("%s: after Fresh, Status says fresh %v at %v, want fresh at %s", step.name, st.Fresh, st.Indexed, head)
		}
		if got, want := comparable(st), comparable(want.status); !reflect.DeepEqual(got, want) {
			t.Errorf("%s: status\n%s\nwant the rebuild's\n%s", step.name, jsonOf(t, got), jsonOf(t, want))
		}
		if lag, err := c.Lag(repo); err != nil || lag != 0 {
			t.Errorf("%s: Lag %d (%v) after Fresh, want 0", step.name, lag, err)
		}
	}
}

// The store as it stood at each past commit, read from a cache that has
// followed the history (and so holds every blob parsed already), answers
// as a new cache asked the same moment. Catches: a past snapshot built from
// blobs the cache parsed for another commit under the wrong key or date, a
// past snapshot mixing in the working tree, and one past snapshot answered
// for another moment.
func TestAPastMomentAnswersAsInANewCache(t *testing.T) {
	r := seaStore(t)
	repo := openRepo(t, r.Dir)
	c := openCache(t, repo.CommonDir)
	defer c.Close()
	freshView(t, c, repo, index.Options{}, seaTerms)
	// The private note was recorded on 2025-12-20: the later moments hold
	// it, the earlier ones do not.
	moments := []index.Moment{{Commit: plumbing.NewHash(r.Git("rev-parse", "HEAD")), Day: "2025-12-01"}}
	for _, step := range []struct {
		day  vault.Date
		edit func()
	}{
		{"2025-12-10", func() { r.Write("notes/heron.md", "# Heron\n\nA heron memory, revised [[walrus]].\n") }},
		{"2025-12-21", func() { r.Git("mv", "notes/walrus.md", "notes/deep/walrus.md") }},
		{"2025-12-22", func() { r.Git("rm", "-q", "notes/otter.md") }},
	} {
		step.edit()
		commit := r.Commit(string(step.day)+"T10:00:00Z", "step")
		moments = append(moments, index.Moment{Commit: plumbing.NewHash(commit), Day: step.day})
		freshView(t, c, repo, index.Options{}, seaTerms)
	}
	r.Write("notes/heron.md", "# Heron\n\nAn uncommitted heron.\n")
	freshView(t, c, repo, index.Options{}, seaTerms)

	asOf := func(c *index.Cache, m index.Moment) view {
		s, _, err := c.AsOf(repo, m, index.Options{})
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		if s.Commit() != m.Commit.String() {
			t.Errorf("the snapshot as of %s is at %s", m.Commit, s.Commit())
		}
		return mustDescribe(t, s, seaTerms)
	}
	// The new cache is asked the moments newest first, the kept one oldest
	// first, so that neither builds a moment from the same predecessor.
	other := openCache(t, t.TempDir())
	defer other.Close()
	want := make([]view, len(moments))
	for i := len(moments) - 1; i >= 0; i-- {
		want[i] = asOf(other, moments[i])
	}
	for i, m := range moments {
		if d := asOf(c, m).diff(want[i]); d != "" {
			t.Errorf("as of %s: the kept cache differs from a new one:\n%s", m.Day, d)
		}
	}
	if d := want[0].diff(want[len(want)-1]); d == "" {
		t.Error("the first and the last moment look alike: the fixture proves nothing")
	}
}

func jsonOf(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
