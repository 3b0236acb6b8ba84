package store_test

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/omh-notes/omh/store"
	"github.com/omh-notes/omh/vault/vaulttest"
)

// A linked worktree has its own HEAD and its own snapshot, in the cache the
// clone shares.
func TestALinkedWorktreeAnswersFromItsOwnHead(t *testing.T) {
	t.Parallel()
	r := vaulttest.New(t)
	r.Write("plan.md", "# Plan\n\nShip the walrus feature.\n")
	r.Commit("2026-01-01T10:00:00Z", "plan")
	wt := filepath.Join(t.TempDir(), "wt")
	r.Git("worktree", "add", "-q", "-b", "other", wt)
	vaulttest.WriteFile(t, filepath.Join(wt, "plan.md"), "# Plan\n\nShip the narwhal feature instead.\n")
	r.GitAt("2026-02-01T10:00:00Z", "-C", wt, "commit", "-q", "-am", "other plan")

	if hits := hitsOf(t, wt, "narwhal"); len(hits) == 0 || hits[0] != "plan team 2026-02-01" {
		t.Errorf("worktree: %q", hits)
	}
	if hits := hitsOf(t, r.Dir, "narwhal"); len(hits) != 0 {
		t.Errorf("main saw the worktree's commit: %q", hits)
	}
	if hits := hitsOf(t, wt, "walrus"); len(hits) != 0 {
		t.Errorf("worktree saw main's text: %q", hits)
	}
	if _, err := os.Stat(filepath.Join(r.Dir, ".git", "omh")); err != nil {
		t.Errorf("the cache is not in the common git directory: %v", err)
	}
	if entries, _ := os.ReadDir(filepath.Join(r.Dir, ".git", "worktrees", "wt")); hasOmh(entries) {
		t.Error("the worktree made a cache of its own")
	}
}

func hasOmh(entries []os.DirEntry) bool {
	for _, e := range entries {
		if e.Name() == "omh" {
			return true
		}
	}
	return false
}

// A submodule's notes belong to the submodule, not to this store.
func TestASubmoduleIsNotPartOfTheStore(t *testing.T) {
	t.Parallel()
	sub := vaulttest.New(t)
	sub.Write("theirs.md", "# Their note about penguins\n")
	sub.Commit("2026-01-01T10:00:00Z", "theirs")
	r := vaulttest.New(t)
	r.Write("ours.md", "# Our note about penguins\n")
	r.Commit("2026-01-02T10:00:00Z", "ours")
	r.Git("-c", "protocol.file.allow=always", "submodule", "add", "-q", sub.Dir, "vendor/sub")
	r.Commit("2026-01-03T10:00:00Z", "submodule")
	if hits := hitsOf(t, r.Dir, "penguins"); len(hits) != 1 || !strings.HasPrefix(hits[0], "ours ") {
		t.Errorf("got %q", hits)
	}
}

// git's index only saves hashing; an index go-git cannot read (damaged, or
// a sparse index) must not change an answer.
func TestAnUnreadableGitIndexOnlyCostsHashing(t *testing.T) {
	t.Parallel()
	for name, spoil := range map[string]func(t *testing.T, r *vaulttest.Repo){
		"damaged": func(t *testing.T, r *vaulttest.Repo) {
			vaulttest.WriteFile(t, filepath.Join(r.Dir, ".git", "index"), "DIRC garbage that is not an index")
		},
		"sparse": func(t *testing.T, r *vaulttest.Repo) {
			r.Git("sparse-checkout", "init", "--cone", "--sparse-index")
			r.Git("sparse-checkout", "set", "notes")
		},
		// Read, the index marks the files left out skip-worktree: they
		// are not deleted.
		"sparse, a full index": func(t *testing.T, r *vaulttest.Repo) {
			r.Git("sparse-checkout", "init", "--cone")
			r.Git("sparse-checkout", "set", "notes")
		},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			r := vaulttest.New(t)
			r.Write("notes/kept.md", "# Kept note about herons\n")
			r.Write("notes/edited.md", "# Edited note about herons\n")
			r.Write("elsewhere/far.md", "# Far note about herons\n")
			r.Commit("2026-01-01T10:00:00Z", "notes")
			spoil(t, r)
			r.Write("notes/edited.md", "# Edited note about herons, changed\n")
			got := map[string]string{}
			s, _ := openStore(t, r.Dir)
			a, err := s.Ask(question("herons"))
			if err != nil {
				t.Fatal(err)
			}
			for _, h := range a.Result.Hits {
				got[h.Note.Key+" "+h.Note.Layer.String()] = h.Note.Path
			}
			// A file a sparse checkout left out of the working tree is still
			// a team note; it is simply not local.
			want := map[string]string{
				"notes/kept team": "notes/kept.md", "notes/edited team": "notes/edited.md",
				"notes/edited local": "notes/edited.md", "elsewhere/far team": "elsewhere/far.md",
			}
			if len(got) != len(want) {
				t.Errorf("got %v, want %v", got, want)
			}
			for k, v := range want {
				if got[k] != v {
					t.Errorf("%s: got %q, want %q (all: %v)", k, got[k], v, got)
				}
			}
		})
	}
}

// hitsOf opens the store at dir, asks it the question and lists the hits
// as "KEY LAYER DATE", in the answer's order.
func hitsOf(t *testing.T, dir, text string) []string {
	t.Helper()
	return hitsFor(t, dir, question(text))
}

// hitsFor is hitsOf for a question asked in full.
func hitsFor(t *testing.T, dir string, q store.Question) []string {
	t.Helper()
	s, _ := openStore(t, dir)
	a, err := s.Ask(q)
	if err != nil {
		t.Fatal(err)
	}
	var hits []string
	for _, h := range a.Result.Hits {
		hits = append(hits, h.Note.Key+" "+h.Note.Layer.String()+" "+string(h.Note.Date))
	}
	return hits
}

// keysOf asks the store at dir q and lists the hits as "KEY LAYER", sorted.
func keysOf(t *testing.T, dir string, q store.Question) []string {
	t.Helper()
	var out []string
	for _, h := range hitsFor(t, dir, q) {
		out = append(out, h[:strings.LastIndexByte(h, ' ')])
	}
	slices.Sort(out)
	return out
}

// A committed note deleted in the working tree, not committed, answers as
// deleted: left out of find, show and links say so naming git's ways back,
// status lists it; --no-worktree and --as-of answer from the commit as
// before. A note moved and not committed answers under its new key alone
// (local), the old key gone; restored, the note is a team note again.
// Catches: a deleted file answering as the team note it was, with its
// path, nothing in the reply saying the file is gone.
func TestANoteDeletedInTheWorkingTreeAnswersAsDeleted(t *testing.T) {
	t.Parallel()
	r := vaulttest.New(t)
	r.Write("notes/heron.md", "# Heron\n\nA heron memory.\n")
	r.Write("notes/otter.md", "# Otter\n\nAn otter memory, see [[heron]].\n")
	r.Write("notes/seal.md", "# Seal\n\nA seal memory.\n")
	head := r.Commit("2026-01-01T10:00:00Z", "notes")
	everyMemory := withRoots(question("memory"), 100)
	all := []string{"notes/heron team", "notes/otter team", "notes/seal team"}
	if got := keysOf(t, r.Dir, everyMemory); !slices.Equal(got, all) {
		t.Fatalf("before: %q", got)
	}
	r.Remove("notes/heron.md")
	if got := keysOf(t, r.Dir, everyMemory); !slices.Equal(got, []string{"notes/otter team", "notes/seal team"}) {
		t.Errorf("deleted: %q", got)
	}
	s, _ := openStore(t, r.Dir)
	_, err := s.Show("notes/heron", 0, store.Lines{}, store.DefaultShowChars)
	var refused *store.Error
	if !errors.As(err, &refused) || refused.Code != "not_found" || !strings.Contains(err.Error(), "deleted in the working tree") || !strings.Contains(err.Error(), "git restore notes/heron.md") {
		t.Errorf("show: %v", err)
	}
	linked, err := s.Links("notes/otter", 0, store.LinksOut, store.Page{})
	if err != nil || len(linked.Notes) != 1 || len(*linked.Notes[0].Links) != 0 {
		t.Errorf("links out of otter reach the deleted note: %+v %v", linked, err)
	}
	if st, err := s.Status(); err != nil || !slices.Equal(st.Deleted, []string{"notes/heron"}) || st.Notes.Team != 2 {
		t.Errorf("status: %+v %v", st, err)
	}
	noWorktree := everyMemory
	noWorktree.NoWorktree = true
	if got := keysOf(t, r.Dir, noWorktree); !slices.Equal(got, all) {
		t.Errorf("--no-worktree: %q", got)
	}
	if got := keysOf(t, r.Dir, asOf(everyMemory, head)); !slices.Equal(got, all) {
		t.Errorf("--as-of HEAD: %q", got)
	}
	mustGit(t, r.Dir, "mv", "notes/seal.md", "notes/fur-seal.md")
	if got := keysOf(t, r.Dir, everyMemory); !slices.Equal(got, []string{"notes/fur-seal local", "notes/otter team"}) {
		t.Errorf("moved: %q", got)
	}
	mustGit(t, r.Dir, "reset", "-q", "--hard")
	if got := keysOf(t, r.Dir, everyMemory); !slices.Equal(got, all) {
		t.Errorf("restored: %q", got)
	}
}
