package store

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/omh-notes/omh/vault"
	"github.com/omh-notes/omh/vault/vaulttest"
)

// logged is what git log --name-status -M lists from since to HEAD for
// the notes under dir, one "commit change key[ old]" line per file, in
// git's order, but for the keys of files that are no notes: the reference
// omh changes is held to.
func logged(r *vaulttest.Repo, since, dir string, notNotes ...string) []string {
	rng := "HEAD"
	if since != "" {
		rng = since + "..HEAD"
	}
	var out []string
	commit := ""
	for _, line := range strings.Split(r.Git("log", "--name-status", "-M", "--format=@%H", rng, "--", dir), "\n") {
		if c, ok := strings.CutPrefix(line, "@"); ok {
			commit = c
			continue
		}
		f := strings.Split(line, "\t")
		key := func(p string) string { return strings.TrimSuffix(strings.TrimPrefix(p, dir+"/"), ".md") }
		switch {
		case len(f) < 2 || !strings.HasSuffix(f[len(f)-1], ".md") || slices.Contains(notNotes, key(f[len(f)-1])):
		case f[0][0] == 'R':
			out = append(out, fmt.Sprintf("%s renamed %s %s", commit, key(f[2]), key(f[1])))
		default:
			out = append(out, fmt.Sprintf("%s %s %s", commit, map[string]string{"A": "added", "M": "changed", "D": "removed"}[f[0]], key(f[1])))
		}
	}
	return out
}

// listed is omh changes' list in the same form.
func listed(c Changes) []string {
	var out []string
	for _, ch := range c.List {
		line := fmt.Sprintf("%s %s %s", CommitID(ch.Commit), ch.Kind, ch.Key)
		if ch.Kind == Renamed {
			line += " " + ch.OldKey
		}
		out = append(out, line)
	}
	return out
}

// omh changes lists, commit by commit, exactly what git log --name-status
// -M lists for the notes under the notes root, renames as renames, a
// branch's commits under a merge, newest first; since a date, from the
// last commit made before it; with each its author, date and first lines.
// Catches: a rename listed as a removal and an addition, a branch's
// commits missed, notes outside the root or files that are no notes
// listed, a day's own commits left out.
func TestChangesListWhatGitLogLists(t *testing.T) {
	t.Parallel()
	r := vaulttest.New(t)
	r.Write(".omh/config.yaml", "notes: notes\nexclude: [drafts/**]\n")
	r.Write("notes/a.md", "---\ntitle: A\n---\n\n# Alpha\n\nThe first note, long enough for git to see its rename.\nMore.\n")
	r.Write("notes/b.md", "The second note.\n")
	r.Write("notes/c.md", "The third note, which will be renamed and edited a little.\nLine two.\nLine three.\n")
	r.Write("README.md", "not a note: outside the notes root\n")
	first := r.Commit("2026-01-02T10:00:00Z", "first")
	r.Write("notes/b.md", "The second note, changed.\n")
	r.Write("notes/drafts/x.md", "excluded\n")
	r.Write("notes/image.png", "not a note\n")
	r.Commit("2026-01-05T10:00:00Z", "second")
	r.Git("checkout", "-q", "-b", "side")
	r.Write("notes/side.md", "From a branch.\n")
	r.Commit("2026-01-06T10:00:00Z", "side")
	r.Git("checkout", "-q", "main")
	if err := os.MkdirAll(filepath.Join(r.Dir, "notes", "topic"), 0o755); err != nil {
		t.Fatal(err)
	}
	r.Git("mv", "notes/a.md", "notes/topic/a.md")
	r.Git("mv", "notes/c.md", "notes/c2.md")
	r.Write("notes/c2.md", "The third note, which will be renamed and edited a little.\nLine two.\nLine three, edited.\n")
	r.Remove("notes/b.md")
	r.Commit("2026-01-07T10:00:00Z", "third")
	r.GitAt("2026-01-08T10:00:00Z", "merge", "-q", "--no-ff", "-m", "merge side", "side")
	if err := os.Symlink("topic/a.md", filepath.Join(r.Dir, "notes", "link.md")); err != nil {
		t.Fatal(err)
	}
	r.Commit("2026-01-09T10:00:00Z", "a link")
	s, _ := open(t, r.Dir)
	for _, c := range []struct{ since, from string }{{first, first}, {"2026-01-06", "second"}, {"2026-01-01", ""}, {"2026-01-08", "third"}} {
		from := c.from
		if from == "second" || from == "third" {
			from = r.Git("log", "--first-parent", "--format=%H", "--grep", "^"+from+"$", "HEAD")
		}
		got, err := s.Changes(c.since, Page{})
		if err != nil {
			t.Fatal(err)
		}
		// The config excludes drafts/; a symbolic link is no note.
		if want := logged(r, from, "notes", "drafts/x", "link"); !slices.Equal(listed(got), want) {
			t.Errorf("--since %s:\n got %q\nwant %q", c.since, listed(got), want)
		}
		if CommitID(got.From) != from {
			t.Errorf("--since %s counts from %q, want %q", c.since, CommitID(got.From), from)
		}
	}
	all, err := s.Changes(first, Page{})
	if err != nil {
		t.Fatal(err)
	}
	for _, ch := range all.List {
		if ch.Author != "Test Author" || !vault.Date(ch.Date).Valid() || ch.Path == "" || ch.Uncommitted {
			t.Errorf("%+v lacks its author, date or path", ch)
		}
		if ch.Key == "topic/a" && ch.Excerpt != "# Alpha\nThe first note, long enough for git to see its rename.\nMore." {
			t.Errorf("topic/a's excerpt %q", ch.Excerpt)
		}
		if ch.Kind == Removed && ch.Key == "b" && ch.Excerpt != "The second note, changed." {
			t.Errorf("a removed note's excerpt is its last lines, not %q", ch.Excerpt)
		}
	}
}

// Uncommitted changes come first, by key, without a commit, dated by their
// file: an edit, a new untracked note, a deletion, a rename staged in git's
// index, and a note staged then deleted (nothing). Catches: the working
// tree left out, an untracked note or a deletion missed, a staged rename
// split in two.
func TestChangesListUncommittedFirst(t *testing.T) {
	t.Parallel()
	r := vaulttest.New(t)
	r.Write("a.md", "A note.\n")
	r.Write("b.md", "Another note.\n")
	r.Write("c.md", "A third note, which is renamed in git's index.\n")
	r.Write("d.md", "A fourth, deleted.\n")
	head := r.Commit("2026-01-02T10:00:00Z", "first")
	r.Write("a.md", "A note, edited.\n")
	r.Write("new.md", "A new note.\n")
	r.Git("mv", "c.md", "c2.md")
	r.Remove("d.md")
	r.Write("gone.md", "staged then deleted\n")
	r.Git("add", "gone.md")
	r.Remove("gone.md")
	s, _ := open(t, r.Dir)
	got, err := s.Changes(head, Page{})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{" changed a", " renamed c2 c", " removed d", " added new"}
	if !slices.Equal(listed(got), want) {
		t.Errorf("got %q, want %q", listed(got), want)
	}
	for _, ch := range got.List {
		if (ch.Date == "") != (ch.Kind == Removed) || ch.Excerpt == "" || !ch.Uncommitted || ch.Commit != nil {
			t.Errorf("%+v: a date only where a file is, an excerpt always", ch)
		}
	}
	// Before the first commit, every note is an uncommitted addition.
	empty := vaulttest.New(t)
	empty.Write("first.md", "The first note.\n")
	s, _ = open(t, empty.Dir)
	got, err = s.Changes("", Page{})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(listed(got), []string{" added first"}) || got.Commit != nil || got.Since != "" || got.From != nil {
		t.Errorf("before the first commit: %q %+v", listed(got), got)
	}
}

// Without --since the reply lists the week of commits up to the last
// commit's day, however long ago; a page lists its part and counts the
// rest, the pages together the whole list. Catches: a quiet store's
// default reply empty, a page losing or repeating a change.
func TestChangesDefaultWeekAndPages(t *testing.T) {
	t.Parallel()
	r := vaulttest.New(t)
	for i, day := range []string{"2025-03-01", "2025-03-20", "2025-03-24", "2025-03-26"} {
		r.Write(fmt.Sprintf("n%d.md", i), "A note.\n")
		r.Commit(day+"T10:00:00Z", "note")
	}
	s, _ := open(t, r.Dir)
	got, err := s.Changes("", Page{})
	if err != nil {
		t.Fatal(err)
	}
	var keys []string
	for _, ch := range got.List {
		keys = append(keys, ch.Key)
	}
	if !got.Default || got.Since != "2025-03-20" || !slices.Equal(keys, []string{"n3", "n2", "n1"}) {
		t.Errorf("the default: since %s (default %v), %q", got.Since, got.Default, keys)
	}
	all, err := s.Changes("2025-01-01", Page{})
	if err != nil {
		t.Fatal(err)
	}
	var paged []string
	for offset := 0; ; offset += 3 {
		page, err := s.Changes("2025-01-01", Page{Offset: offset, Limit: 3})
		if err != nil {
			t.Fatal(err)
		}
		paged = append(paged, listed(page)...)
		if page.More != len(all.List)-len(paged) {
			t.Errorf("offset %d: %d more, %d left", offset, page.More, len(all.List)-len(paged))
		}
		if page.More == 0 {
			break
		}
	}
	if !slices.Equal(paged, listed(all)) {
		t.Errorf("the pages %q, the whole %q", paged, listed(all))
	}
	if _, err := s.Changes("yesterday", Page{}); code(err) != "bad_since" {
		t.Errorf("a bad --since: %v", err)
	}
}
