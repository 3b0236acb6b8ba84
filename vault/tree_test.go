package vault

import (
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"

	"github.com/omh-notes/omh/vault/vaulttest"
)

// DiffNotes walks two trees' raw entries in git's order. Names that sort
// differently as files and as folders ("a" as a folder sorts as "a/", after
// "a-b.md" and "a.md", before "a0.md") are where a merge walk goes wrong;
// each commit's diff must equal the difference of the two commits' full
// file lists.
func TestDiffNotesEqualsTheDifferenceOfFullListings(t *testing.T) {
	t.Parallel()
	r := vaulttest.New(t)
	steps := []func(){
		func() {
			for _, p := range []string{"a-b.md", "a/b.md", "a0.md", "ab/c.md", "é.md", "z/y/x.md", "b.txt"} {
				r.Write(p, "# "+p+"\n")
			}
		},
		func() { // "a-b.md" and the folder "a" meet in the walk
			r.Remove("a-b.md")
			r.Write("a/b.md", "# changed\n")
			r.Write("a/c.md", "# new in a folder\n")
		},
		func() {
			r.Write("a.md", "# a note beside the folder a\n")
			r.Write("z/y/w.md", "# deeper\n")
			r.Write("é.md", "# edited\n")
		},
		func() { // a note replaced by a folder of the same name
			r.Remove("a.md")
			r.Write("a.md/x.md", "# a folder named like a note\n")
		},
		func() { // a folder replaced by a file of the same name
			r.Remove("a/b.md")
			r.Remove("a/c.md")
			if err := os.Remove(filepath.Join(r.Dir, "a")); err != nil {
				t.Fatal(err)
			}
			r.Write("a", "a file where a folder was\n")
		},
	}
	repo, err := OpenRepo(r.Dir)
	if err != nil {
		t.Fatal(err)
	}
	defer repo.Close()
	prev := plumbing.ZeroHash
	for i, step := range steps {
		step()
		repo.Close()
		r.Commit("2026-01-0"+string(rune('1'+i))+"T10:00:00Z", "step")
		if repo, err = OpenRepo(r.Dir); err != nil {
			t.Fatal(err)
		}
		head, err := repo.Head()
		if err != nil {
			t.Fatal(err)
		}
		tree, err := repo.NotesTree(head, "")
		if err != nil {
			t.Fatal(err)
		}
		changes, _, err := repo.DiffNotes(prev, tree, "", nil)
		if err != nil {
			t.Fatal(err)
		}
		got := map[string]string{}
		for _, c := range changes {
			path := c.New.Path
			if c.New.Blob.IsZero() {
				path = c.Old.Path
			}
			got[path] = c.Old.Blob.String()[:7] + ">" + c.New.Blob.String()[:7]
		}
		before, after := notesIn(t, repo, prev), notesIn(t, repo, tree)
		want := map[string]string{}
		for _, p := range slices.Sorted(maps.Keys(union(before, after))) {
			if before[p] != after[p] {
				want[p] = before[p].String()[:7] + ">" + after[p].String()[:7]
			}
		}
		if !maps.Equal(got, want) {
			t.Errorf("step %d: DiffNotes\n%v\nwant\n%v", i, got, want)
		}
		prev = tree
	}
}

// notesIn lists a tree's note files by go-git's own walk.
func notesIn(t *testing.T, repo *Repo, tree plumbing.Hash) map[string]plumbing.Hash {
	out := map[string]plumbing.Hash{}
	if tree.IsZero() {
		return out
	}
	tr, err := object.GetTree(repo.Objects, tree)
	if err != nil {
		t.Fatal(err)
	}
	files := tr.Files()
	for {
		f, err := files.Next()
		if err == io.EOF {
			return out
		}
		if err != nil {
			t.Fatal(err)
		}
		if strings.HasSuffix(f.Name, NoteExt) {
			out[f.Name] = f.Hash
		}
	}
}

func union[V any](a, b map[string]V) map[string]V {
	out := maps.Clone(a)
	maps.Copy(out, b)
	return out
}

func TestAMalformedTreeEntryIsAnError(t *testing.T) {
	id := strings.Repeat("\x01", 20)
	for _, raw := range []string{"", "100644", "100644 ", "100644 a", "100644 a\x00" + id[:19], " a\x00" + id, "10x644 a\x00" + id, "100644 \x00" + id} {
		if _, _, err := nextEntry([]byte(raw)); err == nil {
			t.Errorf("%q parsed", raw)
		}
	}
	e, rest, err := nextEntry([]byte("40000 dir\x00" + id + "tail"))
	if err != nil || string(e.name) != "dir" || e.mode.String() != "0040000" || string(rest) != "tail" {
		t.Errorf("got %+v %q %v", e, rest, err)
	}
}
