package gitcli

import (
	"slices"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/omh-notes/omh/vault/gitrepo"
	"github.com/omh-notes/omh/vault/vaulttest"
)

// Log and Status give paths as git holds them, whatever characters they
// carry (quotes, tabs, newlines, non-ASCII letters, which git quotes
// outside -z), with each change's letter, modes and blob ids, and a
// rename's path before. Catches: a path read in git's quoted form, a
// rename's two paths read as two files, a blob taken from the wrong side.
func TestLogAndStatusReadPathsAsGitHoldsThem(t *testing.T) {
	t.Parallel()
	r := vaulttest.New(t)
	odd := "a \"quoted\"\tname\nwith a newline, café.md"
	r.Write(odd, "A note with an odd name, long enough for a rename to be seen.\n")
	r.Write("plain.md", "A plain note.\n")
	first := r.Commit("2026-01-02T10:00:00Z", "first")
	r.Git("mv", odd, "renamed café.md")
	r.Write("plain.md", "A plain note, changed.\n")
	second := r.Commit("2026-01-03T10:00:00+09:00", "second")
	repo, err := gitrepo.Open(r.Dir)
	if err != nil {
		t.Fatal(err)
	}
	defer repo.Close()
	commits, err := Log(repo, plumbing.NewHash(first), plumbing.NewHash(second), "")
	if err != nil {
		t.Fatal(err)
	}
	if len(commits) != 1 || commits[0].ID.String() != second || commits[0].Author != "Test Author" || commits[0].Date != "2026-01-03" {
		t.Fatalf("commits %+v", commits)
	}
	blob := func(path string) plumbing.Hash { return plumbing.NewHash(r.Git("rev-parse", second+":"+path)) }
	want := []FileChange{
		{Status: 'M', Path: "plain.md", OldMode: "100644", NewMode: "100644", OldBlob: plumbing.NewHash(r.Git("rev-parse", first+":plain.md")), NewBlob: blob("plain.md")},
		{Status: 'R', Path: "renamed café.md", OldPath: odd, OldMode: "100644", NewMode: "100644", OldBlob: blob("renamed café.md"), NewBlob: blob("renamed café.md")},
	}
	if !slices.Equal(commits[0].Files, want) {
		t.Errorf("files\n got %+v\nwant %+v", commits[0].Files, want)
	}
	r.Write(odd, "Untracked again.\n")
	r.Git("mv", "renamed café.md", "again café.md")
	r.Remove("plain.md")
	got, err := Status(r.Dir, "")
	if err != nil {
		t.Fatal(err)
	}
	var summary []string
	for _, f := range got {
		summary = append(summary, string(f.Status)+" "+f.OldPath+" -> "+f.Path)
	}
	if want := []string{"R renamed café.md -> again café.md", "D  -> plain.md", "A  -> " + odd}; !slices.Equal(summary, want) {
		t.Errorf("status %q, want %q", summary, want)
	}
}
