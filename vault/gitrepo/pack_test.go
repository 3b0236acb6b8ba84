package gitrepo

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/omh-notes/omh/vault/vaulttest"
)

// deltaRepo makes a repository whose notes change a little in each of many
// commits, packed by git with deep delta chains, so its packs hold whole
// objects and deltas of every kind git writes.
func deltaRepo(t *testing.T, gitArgs ...string) *vaulttest.Repo {
	t.Helper()
	r := vaulttest.New(t)
	rng := rand.New(rand.NewPCG(1, 2))
	lines := make([]string, 200)
	for i := range lines {
		lines[i] = fmt.Sprintf("line %d of the note, %d", i, rng.IntN(1000))
	}
	for c := range 12 {
		for n := range 5 {
			lines[rng.IntN(len(lines))] = fmt.Sprintf("changed in commit %d: %d", c, rng.IntN(1000))
			r.Write(fmt.Sprintf("notes/n%d.md", n), strings.Join(lines, "\n")+fmt.Sprintf("\nnote %d\n", n))
		}
		r.Commit("2026-01-01T12:00:00Z", fmt.Sprintf("commit %d", c))
	}
	r.Git(append(gitArgs, "repack", "-adf", "--depth=50", "--window=50")...)
	return r
}

// allObjects lists every object git holds, with its type.
func allObjects(t *testing.T, dir string) map[plumbing.Hash]string {
	t.Helper()
	out := vaulttest.MustGit(t, dir, "", "cat-file", "--batch-all-objects", "--batch-check=%(objectname) %(objecttype)")
	objs := map[plumbing.Hash]string{}
	for _, line := range strings.Split(out, "\n") {
		id, typ, _ := strings.Cut(line, " ")
		objs[plumbing.NewHash(id)] = typ
	}
	return objs
}

// omh reads every object of git's packs itself, deltas on an offset or on
// a name, and each is the object git has under that name: go-git decoded
// the whole pack index, a quarter of building one reply's cards.
func TestEveryPackedObjectIsReadAsGitHasIt(t *testing.T) {
	t.Parallel()
	for _, kind := range []struct {
		name string
		args []string
	}{{"offset deltas", nil}, {"name deltas", []string{"-c", "repack.useDeltaBaseOffset=false"}}} {
		t.Run(kind.name, func(t *testing.T) {
			t.Parallel()
			r := deltaRepo(t, kind.args...)
			repo, err := Open(r.Dir)
			if err != nil {
				t.Fatal(err)
			}
			defer repo.Close()
			objs := allObjects(t, r.Dir)
			deltas := 0
			for id, typ := range objs {
				p, err := repo.Objects.packs.read(plumbing.AnyObject, id)
				if err != nil {
					t.Fatalf("%s %s: %v", typ, id, err)
				}
				cmd := exec.Command("git", "cat-file", typ, id.String())
				cmd.Dir = r.Dir
				want, err := cmd.Output()
				if err != nil {
					t.Fatal(err)
				}
				if p.typ.String() != typ || !bytes.Equal(p.content, want) {
					t.Fatalf("%s %s: read as %s of %d bytes, git has %d bytes", typ, id, p.typ, len(p.content), len(want))
				}
				if plumbing.ComputeHash(p.typ, p.content) != id {
					t.Fatalf("%s %s: the content read hashes to another name", typ, id)
				}
			}
			verify := vaulttest.MustGit(t, r.Dir, "", "verify-pack", "-v", packIndex(t, r.Dir))
			for _, line := range strings.Split(verify, "\n") {
				if f := strings.Fields(line); len(f) == 7 { // a delta: id type size packed offset depth base
					deltas++
				}
			}
			if deltas < 20 {
				t.Fatalf("the pack holds %d deltas; the test needs chains to read", deltas)
			}
		})
	}
}

func packIndex(t *testing.T, dir string) string {
	t.Helper()
	idx, err := filepath.Glob(filepath.Join(dir, ".git", "objects", "pack", "*.idx"))
	if err != nil || len(idx) != 1 {
		t.Fatalf("want one pack index, have %v (%v)", idx, err)
	}
	return idx[0]
}

// What omh's reader does not serve, go-git reads as before: a loose
// object, a blob past largeObject (streamed), an object of another type
// than asked (not found).
func TestObjectsNotInAPackOrTooLargeAreGoGits(t *testing.T) {
	t.Parallel()
	r := deltaRepo(t)
	big := bytes.Repeat([]byte("0123456789abcdef"), largeObject/16+1)
	r.Write("notes/big.md", string(big))
	r.Commit("2026-01-02T12:00:00Z", "a big note")
	r.Git("repack", "-d")
	r.Write("notes/loose.md", "a loose note\n")
	r.Git("add", "notes/loose.md")
	repo, err := Open(r.Dir)
	if err != nil {
		t.Fatal(err)
	}
	defer repo.Close()
	bigID, looseID := HashBytes(big), HashBytes([]byte("a loose note\n"))
	for _, id := range []plumbing.Hash{bigID, looseID} {
		if _, err := repo.Objects.packs.read(plumbing.AnyObject, id); !errors.Is(err, errNotServed) {
			t.Errorf("%s: read by omh's reader (%v)", id, err)
		}
	}
	head, size, err := repo.ReadBlob(bigID, 100)
	if err != nil || size != int64(len(big)) || !bytes.Equal(head, big[:100]) {
		t.Errorf("the big blob: %d bytes of %d, %v", len(head), size, err)
	}
	loose, _, err := repo.ReadBlob(looseID, 100)
	if err != nil || string(loose) != "a loose note\n" {
		t.Errorf("the loose blob: %q, %v", loose, err)
	}
	commit := plumbing.NewHash(r.Git("rev-parse", "HEAD~1"))
	if _, err := repo.Objects.EncodedObject(plumbing.BlobObject, commit); !errors.Is(err, plumbing.ErrObjectNotFound) {
		t.Errorf("a commit asked for as a blob: %v, want not found", err)
	}
	obj, err := repo.Objects.EncodedObject(plumbing.CommitObject, commit)
	if err != nil {
		t.Fatal(err)
	}
	rd, _ := obj.Reader()
	body, _ := io.ReadAll(rd)
	if !strings.Contains(string(body), "\ncommit 11\n") {
		t.Errorf("HEAD~1 read as %q", body)
	}
}

// BenchmarkReadBlob reads a note's blob in a repository opened anew, as
// a command does: by omh's pack reader, and by go-git alone.
func BenchmarkReadBlob(b *testing.B) {
	dir := b.TempDir()
	for _, args := range [][]string{{"init", "-q"}, {"config", "user.name", "b"}, {"config", "user.email", "b@example.com"}} {
		vaulttest.MustGit(b, dir, "", args...)
	}
	var ids []plumbing.Hash
	for i := range 2000 {
		content := fmt.Sprintf("# note %d\n\n%s\n", i, strings.Repeat(fmt.Sprintf("line of note %d\n", i), 20))
		vaulttest.WriteFile(b, filepath.Join(dir, fmt.Sprintf("n%04d.md", i)), content)
		ids = append(ids, HashBytes([]byte(content)))
	}
	vaulttest.CommitAll(b, dir, "2026-01-01T12:00:00Z", "notes")
	vaulttest.MustGit(b, dir, "", "repack", "-adq")
	for _, reader := range []string{"omh", "go-git"} {
		b.Run(reader, func(b *testing.B) {
			for i := 0; b.Loop(); i++ {
				repo, err := Open(dir)
				if err != nil {
					b.Fatal(err)
				}
				id := ids[i%len(ids)]
				if reader == "omh" {
					_, err = repo.Objects.EncodedObject(plumbing.BlobObject, id)
				} else {
					_, err = repo.Objects.Storage.EncodedObject(plumbing.BlobObject, id)
				}
				if err != nil {
					b.Fatal(err)
				}
				repo.Close()
			}
		})
	}
}

// A delta comes from a pack on disk, which may be damaged: whatever its
// bytes, applying it returns an error or an object of exactly the size it
// names, never a panic or a read past its base.
func FuzzApplyDelta(f *testing.F) {
	f.Add([]byte("hello, world"), []byte{12, 5, 0x91, 0, 5, 3, '!', '!', '!'})
	f.Add([]byte("abc"), []byte{3, 3, 0x90, 3})
	f.Add([]byte(""), []byte{0, 2, 2, 'h', 'i'})
	f.Add([]byte("base"), []byte{4, 0x80, 0x80, 0x80, 0x01})
	f.Fuzz(func(t *testing.T, base, delta []byte) {
		out, err := applyDelta(base, delta)
		if err != nil || out == nil {
			return
		}
		_, rest, _ := deltaSize(delta)
		want, _, _ := deltaSize(rest)
		if uint64(len(out)) != want {
			t.Fatalf("an object of %d bytes from a delta naming %d", len(out), want)
		}
	})
}
