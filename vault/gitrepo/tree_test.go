package gitrepo

import (
	"bytes"
	"compress/zlib"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"

	"github.com/omh-notes/omh/internal/exclude"
	"github.com/omh-notes/omh/vault"
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
	repo, err := Open(r.Dir)
	if err != nil {
		t.Fatal(err)
	}
	defer repo.Close()
	prev := plumbing.ZeroHash
	for i, step := range steps {
		step()
		repo.Close()
		r.Commit("2026-01-0"+string(rune('1'+i))+"T10:00:00Z", "step")
		if repo, err = Open(r.Dir); err != nil {
			t.Fatal(err)
		}
		tree := headTree(t, repo)
		changes, _, err := repo.DiffNotes(prev, tree, "", exclude.Globs{})
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
		if strings.HasSuffix(f.Name, vault.NoteExt) {
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

// A diff reads loose trees itself, not through go-git (see looseTree): each
// reads as go-git reads it, a packed one is left to go-git, and a loose file
// that is not a whole tree is an error. Catches: a tree cut short or read
// past its size, a checksum left unchecked, another kind of object taken
// for a tree, a packed tree reported missing.
func TestALooseTreeReadsAsGoGitReadsIt(t *testing.T) {
	t.Parallel()
	r := vaulttest.New(t)
	r.Write("notes/a.md", "# A\n")
	r.Write("notes/deep/b.md", "# B\n")
	r.Commit("2026-01-01T10:00:00Z", "notes")
	repo, err := Open(r.Dir)
	if err != nil {
		t.Fatal(err)
	}
	defer repo.Close()
	var trees []plumbing.Hash
	for _, spec := range []string{"HEAD^{tree}", "HEAD:notes", "HEAD:notes/deep"} {
		trees = append(trees, plumbing.NewHash(r.Git("rev-parse", spec)))
	}
	goGit := func(repo *Repo, h plumbing.Hash) []byte {
		t.Helper()
		obj, err := repo.Objects.EncodedObject(plumbing.TreeObject, h)
		if err != nil {
			t.Fatal(err)
		}
		rd, err := obj.Reader()
		if err != nil {
			t.Fatal(err)
		}
		defer rd.Close()
		b, err := io.ReadAll(rd)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	for _, h := range trees {
		b, ok, err := repo.Objects.looseTree(h)
		if !ok || err != nil || string(b) != string(goGit(repo, h)) {
			t.Errorf("loose tree %s: ok %v, %v, %q; want go-git's %q", h, ok, err, b, goGit(repo, h))
		}
	}
	loose := func(h plumbing.Hash) string {
		return filepath.Join(r.Dir, ".git", "objects", h.String()[:2], h.String()[2:])
	}
	blob := plumbing.NewHash(r.Git("rev-parse", "HEAD:notes/a.md"))
	if _, ok, err := repo.Objects.looseTree(blob); !ok || err == nil {
		t.Errorf("a blob read as a tree: ok %v, %v", ok, err)
	}
	whole, err := os.ReadFile(loose(trees[1]))
	if err != nil {
		t.Fatal(err)
	}
	for _, damage := range []struct {
		name string
		data []byte
	}{
		{"cut short", whole[:len(whole)-6]},
		{"checksum wrong", append(whole[:len(whole)-1:len(whole)-1], whole[len(whole)-1]^1)},
	} {
		path := loose(trees[1])
		os.Chmod(path, 0o644)
		if err := os.WriteFile(path, damage.data, 0o444); err != nil {
			t.Fatal(err)
		}
		if _, ok, err := repo.Objects.looseTree(trees[1]); !ok || err == nil {
			t.Errorf("a loose tree %s: ok %v, %v", damage.name, ok, err)
		}
	}
	os.Chmod(loose(trees[1]), 0o644)
	if err := os.WriteFile(loose(trees[1]), whole, 0o444); err != nil {
		t.Fatal(err)
	}

	r.Git("gc", "-q", "--prune=now")
	packed, err := Open(r.Dir)
	if err != nil {
		t.Fatal(err)
	}
	defer packed.Close()
	for _, h := range trees {
		if _, ok, _ := packed.Objects.looseTree(h); ok {
			t.Errorf("packed tree %s read as loose", h)
		}
		w := treeDiff{repo: packed}
		if b, err := w.rawTree(h); err != nil || string(b) != string(goGit(packed, h)) {
			t.Errorf("packed tree %s: %v, %q", h, err, b)
		}
	}
}

// A loose tree's header names its size, and a damaged one can name any:
// the read must end where the stream does, not first make room for what
// the header claims (1 PiB here made the process panic).
func TestALooseTreeWhoseHeaderOverstatesItsSizeIsAnErrorNotAnAllocation(t *testing.T) {
	t.Parallel()
	r := vaulttest.New(t)
	r.Write("notes/a.md", "# A\n")
	r.Commit("2026-01-01T10:00:00Z", "notes")
	repo, err := Open(r.Dir)
	if err != nil {
		t.Fatal(err)
	}
	defer repo.Close()
	h := plumbing.NewHash(r.Git("rev-parse", "HEAD:notes"))
	path := filepath.Join(r.Dir, ".git", "objects", h.String()[:2], h.String()[2:])
	var z bytes.Buffer
	w := zlib.NewWriter(&z)
	fmt.Fprintf(w, "tree %d\x00100644 a.md\x00%s", int64(1)<<50, strings.Repeat("x", 20))
	w.Close()
	os.Chmod(path, 0o644)
	if err := os.WriteFile(path, z.Bytes(), 0o444); err != nil {
		t.Fatal(err)
	}
	if _, ok, err := repo.Objects.looseTree(h); !ok || err == nil {
		t.Fatalf("a tree whose header says 1 PiB: ok %v, %v; want an error", ok, err)
	}
}

// A committed tree deeper than vault.MaxFolderDepth is read to the bound: the
// notes within it are notes, the folder past it is skipped and said, and
// no tree below it is read. Catches: a 20,000-folder tree (made with git's
// plumbing) walked whole, quadratically in its depth: 120 s and 975 MiB
// for a refresh, where git ls-tree -r took 0.73 s.
func TestADeepCommittedTreeIsReadToTheBoundOnly(t *testing.T) {
	t.Parallel()
	r := vaulttest.New(t)
	chain := func(n int) string { return strings.Repeat("d/", n) }
	r.CommitPaths("2026-01-02T10:00:00Z", "deep", map[string]string{
		"a.md":                                  "# A\n",
		chain(vault.MaxFolderDepth) + "last.md": "# The deepest note\n",
		chain(2000) + "bottom.md":               "# Past the bound\n",
	})
	repo, err := Open(r.Dir)
	if err != nil {
		t.Fatal(err)
	}
	changes, skips, err := repo.DiffNotes(plumbing.ZeroHash, headTree(t, repo), "", exclude.Globs{})
	if err != nil {
		t.Fatal(err)
	}
	var keys []string
	for _, c := range changes {
		keys = append(keys, c.New.Key)
	}
	if want := []string{"a", chain(vault.MaxFolderDepth) + "last"}; !slices.Equal(keys, want) {
		t.Errorf("notes %d: %.40q..., want a and the note %d folders down", len(keys), keys, vault.MaxFolderDepth)
	}
	if len(skips) != 1 || skips[0].Path != chain(vault.MaxFolderDepth)+"d" || !strings.Contains(skips[0].Reason, "deeper than") {
		t.Errorf("skips: %.200v", skips)
	}
	if read := len(repo.stepTrees); read > vault.MaxFolderDepth+1 {
		t.Errorf("%d trees read, want at most the root and %d folders", read, vault.MaxFolderDepth)
	}
	if _, ok := vault.KeyOf(chain(vault.MaxFolderDepth+1) + "x.md"); ok {
		t.Errorf("a path %d folders deep is a key", vault.MaxFolderDepth+1)
	}
}

// headTree is the tree of repo's HEAD.
func headTree(t *testing.T, repo *Repo) plumbing.Hash {
	t.Helper()
	head, err := repo.Head()
	if err != nil {
		t.Fatal(err)
	}
	tree, err := repo.NotesTree(head, "")
	if err != nil {
		t.Fatal(err)
	}
	return tree
}
