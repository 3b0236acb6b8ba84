package index_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/omh-notes/omh/index"
	"github.com/omh-notes/omh/vault"
)

// After every git operation a person runs on a notes repository, and every
// change to the working tree or the private folder, one cache kept across
// them all answers exactly as a cache rebuilt from scratch: the same view
// with and without the working tree, the same status. Before Fresh runs,
// Status says the cache is not fresh, and a refresh limited to fewer team
// changes than the operation made refuses, changing nothing; after, Status
// says it is fresh, at HEAD. Catches: a refresh that misses what an operation changed (HEAD
// moving back to an older commit, an amend replacing the commit the cache
// holds, a note whose content is the same on another branch and its date
// not, a rename taken as an addition, a deleted note or link kept, an
// uncommitted edit or its revert unseen, a private note's change unseen),
// an inbound count or backlink left from an older state, Status calling a
// stale cache fresh, and a notes root kept from a config that no longer
// names it (committed or not), a tag's notes (its term, #tag) kept from an
// older content.
func TestAfterEachChangeToTheStoreFreshAnswersAsARebuild(t *testing.T) {
	t.Parallel()
	r := seaStore(t)
	seaTerms := append(slices.Clone(seaTerms), "#bird", "#bird/wader", "#mammal")
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
			r.Write("notes/heron.md", "---\ntags: [bird/wader]\n---\n# Heron\n\nA heron memory, revised: it fishes for [[krill]].\n")
			r.Write("notes/seal.md", "# Seal\n\nA seal memory, next to the [[otter]]. #mammal\n")
			r.Commit("2025-12-05T10:00:00Z", "a seal and a revised heron")
		}},
		{"amend", func() {
			r.Write("notes/seal.md", "---\ntags: bird\n---\n# Seal\n\nA seal memory, amended: it eats [[squid]].\n")
			r.GitAt("2025-12-06T10:00:00Z", "commit", "-q", "-a", "--amend", "--no-edit")
		}},
		{"checkout of an old commit", func() { r.Git("checkout", "-q", "--detach", first) }},
		{"checkout back", func() { r.Git("checkout", "-q", "main") }},
		{"switch to a branch with its own commits", func() {
			r.Git("checkout", "-q", "-b", "side", first)
			r.Write("notes/squid.md", "# Squid\n\nA squid memory, only on the side branch [[krill]].\n")
			r.Git("rm", "-q", "notes/deep/krill.md")
			r.Write("notes/otter.md", "# Otter\n\nAn otter edited on the side branch.\n")
			r.Commit("2025-12-07T10:00:00Z", "side work")
			// The otter is back as on main, and was last changed later:
			// its content is the same, its date is not.
			r.Git("checkout", first, "--", "notes/otter.md")
			r.Commit("2025-12-08T10:00:00Z", "the otter as it was")
		}},
		{"switch back", func() { r.Git("checkout", "-q", "main") }},
		{"rename", func() {
			r.Git("mv", "notes/otter.md", "notes/sea-otter.md")
			r.Commit("2025-12-09T10:00:00Z", "otters live at sea")
		}},
		{"deletion", func() {
			r.Git("rm", "-q", "notes/deep/krill.md")
			r.Commit("2025-12-10T10:00:00Z", "no more krill")
		}},
		{"uncommitted edit", func() {
			r.Write("notes/walrus.md", "# Walrus\n\nA #mammal memory, edited and not committed, of a [[seal]].\n")
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
		{"config change", func() {
			r.Write(".omh/config.yaml", "notes: notes\nexclude:\n  - deep/**\n")
			r.Commit("2025-12-11T10:00:00Z", "the deep is not notes")
		}},
		{"config change to a root that is nowhere", func() {
			r.Write(".omh/config.yaml", "notes: nowhere\n")
			r.Commit("2025-12-12T10:00:00Z", "no notes")
		}},
		{"config change: deleted, not committed", func() { r.Remove(".omh/config.yaml") }},
		{"config change: excludes, not committed", func() {
			r.Write(".omh/config.yaml", "notes: notes\nexclude: [walrus.md]\n")
		}},
	}
	// A cache kept as the hooks keep one: the team layer alone refreshed
	// after every step, the working tree scanned every other step, so its
	// list of HEAD's files is caught up across refreshes that left it out.
	hooked := openCache(t, t.TempDir())
	defer hooked.Close()
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
		if !st.Fresh || st.Indexed != head {
			t.Errorf("%s: after Fresh, Status says fresh %v at %v, want fresh at %s", step.name, st.Fresh, st.Indexed, head)
		}
		if got, want := withoutParsed(st), withoutParsed(want.status); !reflect.DeepEqual(got, want) {
			t.Errorf("%s: status\n%s\nwant the rebuild's\n%s", step.name, jsonOf(t, got), jsonOf(t, want))
		}

		if d := freshView(t, hooked, repo, index.Options{NoWorktree: true}, seaTerms).diff(want.base); d != "" {
			t.Errorf("%s: refreshed as a hook does, the cache differs from a rebuild:\n%s", step.name, d)
		}
		if i%2 == 0 {
			continue
		}
		if d := freshView(t, hooked, repo, index.Options{}, seaTerms).diff(want.all); d != "" {
			t.Errorf("%s: after refreshes as a hook does, the working tree's view differs from a rebuild:\n%s", step.name, d)
		}
		if st, err = hooked.Status(repo); err != nil {
			t.Fatal(err)
		}
		if got, want := withoutParsed(st), withoutParsed(want.status); !reflect.DeepEqual(got, want) {
			t.Errorf("%s: after refreshes as a hook does, status\n%s\nwant the rebuild's\n%s", step.name, jsonOf(t, got), jsonOf(t, want))
		}
	}
}

// The store as it stood at each past moment (a commit, and the day that
// decides which private notes were recorded by then) answers as a cache
// built from scratch on a checkout of that commit with those private notes
// does: read from a cache that has followed the history (and so holds every
// blob parsed already, and an uncommitted edit), and from a new cache asked
// the moments in the other order. Catches: a past snapshot that mixes in
// the working tree, today's config or a private note recorded later, one
// built from blobs parsed for another commit under the wrong key or date,
// and one answered for another moment.
func TestAPastMomentAnswersAsACheckoutOfItsCommit(t *testing.T) {
	t.Parallel()
	r := seaStore(t)
	repo := openRepo(t, r.Dir)
	c := openCache(t, repo.CommonDir)
	defer c.Close()
	freshView(t, c, repo, index.Options{}, seaTerms)
	// The private note was recorded on 2025-12-20: the later moments hold
	// it, the earlier ones do not.
	const recorded = "2025-12-20"
	moments := []index.Moment{{Commit: plumbing.NewHash(r.Git("rev-parse", "HEAD")), Day: "2025-12-01"}}
	for _, step := range []struct {
		day  vault.Date
		edit func()
	}{
		{"2025-12-10", func() { r.Write("notes/heron.md", "# Heron\n\nA heron memory, revised [[walrus]].\n") }},
		{"2025-12-21", func() { r.Git("mv", "notes/walrus.md", "notes/deep/walrus.md") }},
		{"2025-12-22", func() { r.Git("rm", "-q", "notes/otter.md") }},
		{"2025-12-23", func() { r.Write(".omh/config.yaml", "notes: notes\nexclude:\n  - deep/**\n") }},
	} {
		step.edit()
		commit := r.Commit(string(step.day)+"T10:00:00Z", "step")
		moments = append(moments, index.Moment{Commit: plumbing.NewHash(commit), Day: step.day})
		freshView(t, c, repo, index.Options{}, seaTerms)
	}

	private := filepath.Join(r.Private, "mine.md")
	aside := filepath.Join(t.TempDir(), "mine.md")
	want := make([]view, len(moments))
	for i, m := range moments {
		r.Git("checkout", "-q", "--detach", m.Commit.String())
		if m.Day < recorded {
			if err := os.Rename(private, aside); err != nil {
				t.Fatal(err)
			}
		}
		want[i] = rebuild(t, r.Dir, seaTerms).base
		if m.Day < recorded {
			if err := os.Rename(aside, private); err != nil {
				t.Fatal(err)
			}
		}
	}
	r.Git("checkout", "-q", "main")
	r.Write("notes/heron.md", "# Heron\n\nAn uncommitted heron.\n")
	freshView(t, c, repo, index.Options{}, seaTerms)

	asOf := func(c *index.Cache, m index.Moment) view {
		s, _, err := c.AsOf(repo, m, index.Options{})
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		return mustDescribe(t, s, seaTerms)
	}
	for i, m := range moments {
		if d := asOf(c, m).diff(want[i]); d != "" {
			t.Errorf("as of %s, the cache that followed the history differs from a checkout:\n%s", m.Day, d)
		}
	}
	other := openCache(t, t.TempDir())
	defer other.Close()
	for i := len(moments) - 1; i >= 0; i-- {
		if d := asOf(other, moments[i]).diff(want[i]); d != "" {
			t.Errorf("as of %s, a new cache differs from a checkout:\n%s", moments[i].Day, d)
		}
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

// Refreshes that leave the working tree out (a hook's) leave HEAD's changed
// files pending for the next scan, which needs no tree to record them: after
// an amend and a gc pruning what nothing reaches, the scan answers as a
// rebuild, uncommitted notes seen. Catches: a scan that reads the pruned
// tree, or keeps a file tracked that HEAD no longer holds (its working copy
// taken for HEAD's).
func TestPendingFilesAreRecordedAfterGitPrunedTheirTree(t *testing.T) {
	t.Parallel()
	r := seaStore(t)
	repo := openRepo(t, r.Dir)
	c := openCache(t, t.TempDir())
	defer c.Close()
	freshView(t, c, repo, index.Options{}, seaTerms)
	r.Write("notes/heron.md", "# Heron\n\nA heron memory, amended away.\n")
	r.Write("notes/seal.md", "# Seal\n\nA seal memory that the amend keeps.\n")
	r.Commit("2025-12-05T10:00:00Z", "a seal")
	freshView(t, c, repo, index.Options{}, seaTerms)
	// The heron leaves HEAD but stays in the working tree, untracked: an
	// uncommitted note, unless the scan still takes it for HEAD's.
	r.Git("rm", "-q", "--cached", "notes/heron.md")
	r.GitAt("2025-12-06T10:00:00Z", "commit", "-q", "--amend", "--no-edit")
	freshView(t, c, repo, index.Options{NoWorktree: true}, seaTerms)
	r.Git("reflog", "expire", "--expire=now", "--all")
	r.Git("gc", "-q", "--prune=now")
	r.Write("notes/otter.md", "# Otter\n\nAn otter edited, not committed.\n")
	repo = openRepo(t, r.Dir) // go-git keeps no pruned object in memory
	want := rebuild(t, r.Dir, seaTerms)
	if d := freshView(t, c, repo, index.Options{}, seaTerms).diff(want.all); d != "" {
		t.Errorf("the working tree's view differs from a rebuild:\n%s", d)
	}
	st, err := c.Status(repo)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := withoutParsed(st), withoutParsed(want.status); !reflect.DeepEqual(got, want) {
		t.Errorf("status\n%s\nwant the rebuild's\n%s", jsonOf(t, got), jsonOf(t, want))
	}
}
