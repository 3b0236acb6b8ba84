package main

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/omh-notes/omh/vault"
	"github.com/omh-notes/omh/vault/vaulttest"
)

// The freshness matrix: every git operation a person runs on a notes
// repository, on a real repository with the hooks installed. After an
// operation that fires a hook, omh status says the cache is fresh at HEAD
// before any other omh command runs; after one that fires none (reset
// --hard and stash fire nothing in git 2.39), the next omh find refreshes
// by itself. Either way omh find, as a tree and as JSON, then answers byte
// for byte as a cache built from scratch on a copy of the repository does,
// and states the commit it was computed at.

// everything is a question every note of the fixtures answers, printed in
// full: it pins each note's key, layer, date and links at once.
var everything = []string{"memory", "--roots", "100"}

// freshRepo is the matrix's starting store: notes under notes/ (two in a
// subfolder), one markdown file outside the notes root, a private note, all
// dated apart, with the hooks installed and the cache built.
func freshRepo(t *testing.T) *vaulttest.Repo {
	t.Helper()
	r := vaulttest.New(t)
	r.Write(".omh/config.yaml", "notes: notes\n")
	r.Write("notes/walrus.md", "---\nrecorded: 2025-11-02\n---\n# Walrus\n\nA walrus memory: the tusks, and [[heron]].\n")
	r.Write("notes/heron.md", "# Heron\n\nA heron memory.\n\nThe heron stands still.\n")
	r.Write("notes/otter.md", "# Otter\n\nAn otter memory; see [[walrus]].\n")
	r.Write("notes/deep/krill.md", "# Krill\n\nA krill memory, deep down.\n")
	r.Write("notes/deep/squid.md", "# Squid\n\nA squid memory [[krill]].\n")
	r.Write("elsewhere/far.md", "# Far\n\nA memory outside the notes root.\n")
	r.Commit("2025-12-01T10:00:00Z", "first notes")
	vaulttest.WriteFile(t, filepath.Join(r.Private, "mine.md"), "---\nrecorded: 2025-12-20\n---\n# Mine\n\nMy private memory of the [[otter]].\n")
	return r
}

// arm installs the hooks and brings the cache up to date: what a case
// does before it is the set-up, what it does after is under test.
func arm(t *testing.T, dir string) {
	t.Helper()
	ok(t, dir, "hooks", "install")
	ok(t, dir, "index")
}

// askAll asks each question as a tree and as JSON.
func askAll(t *testing.T, dir string, questions [][]string) []string {
	t.Helper()
	var out []string
	for _, q := range questions {
		out = append(out, ok(t, dir, append([]string{"find"}, q...)...))
		out = append(out, ok(t, dir, append([]string{"find", "--json"}, q...)...))
	}
	return out
}

// rebuiltCopy copies the working tree at dir (a linked worktree with its
// main repository) without omh's cache, so answers there come from a
// cache built from the files.
func rebuiltCopy(t *testing.T, dir string) string {
	t.Helper()
	to := t.TempDir()
	// Files are hard-linked, not copied: omh never writes a repository's
	// files, and a copy of thousands of git objects would cost seconds.
	cp := func(from, into string) {
		t.Helper()
		if out, err := exec.Command("cp", "-al", from, into).CombinedOutput(); err != nil {
			os.RemoveAll(into)
			if out, err = exec.Command("cp", "-a", from, into).CombinedOutput(); err != nil {
				t.Fatalf("copying %s: %v\n%s", from, err, out)
			}
		}
	}
	if fi, err := os.Stat(filepath.Join(dir, ".git")); err == nil && fi.IsDir() {
		cp(dir, filepath.Join(to, "repo"))
		if err := os.RemoveAll(filepath.Join(to, "repo", ".git", "omh")); err != nil {
			t.Fatal(err)
		}
		return filepath.Join(to, "repo")
	}
	// A linked worktree: copy its main repository too and point the two
	// copies at each other (git worktree repair would find the originals).
	repo, err := vault.OpenRepo(dir)
	if err != nil {
		t.Fatal(err)
	}
	repo.Close()
	common, gitDir := repo.CommonDir, repo.GitDir
	name, err := filepath.Rel(filepath.Join(common, "worktrees"), gitDir)
	if err != nil || strings.Contains(name, "..") {
		t.Fatalf("%s is not a linked worktree of %s", gitDir, common)
	}
	main, wt := filepath.Join(to, "main"), filepath.Join(to, "wt")
	cp(filepath.Dir(common), main)
	cp(dir, wt)
	if err := os.RemoveAll(filepath.Join(main, ".git", "omh")); err != nil {
		t.Fatal(err)
	}
	copiedGitDir := filepath.Join(main, ".git", "worktrees", name)
	for path, content := range map[string]string{
		filepath.Join(wt, ".git"):             "gitdir: " + copiedGitDir + "\n",
		filepath.Join(copiedGitDir, "gitdir"): filepath.Join(wt, ".git") + "\n",
	} {
		os.Remove(path) // a hard link to the original's file: replace, never write through
		vaulttest.WriteFile(t, path, content)
	}
	return wt
}

// sameAnswersAsARebuild asks the questions in each working tree and on a
// cache-less copy of it, and requires the same bytes. It asks first, so on
// a stale cache the question is what refreshes it.
func sameAnswersAsARebuild(t *testing.T, step string, dirs []string, questions [][]string) {
	t.Helper()
	for _, dir := range dirs {
		got := askAll(t, dir, questions)
		want := askAll(t, rebuiltCopy(t, dir), questions)
		for i := range got {
			if got[i] != want[i] {
				t.Errorf("%s: omh find %v in %s differs from a rebuild:\n%s\n--- rebuild:\n%s", step, questions[i/2], filepath.Base(dir), got[i], want[i])
			}
		}
		head := headOf(t, dir)
		answersState(t, step, head, got)
	}
}

// answersState requires every answer, tree or JSON, to name head as the
// commit it reflects.
func answersState(t *testing.T, step, head string, answers []string) {
	t.Helper()
	for i, a := range answers {
		if i%2 == 0 {
			if !strings.HasSuffix(a, "\n@ "+head+"\n") {
				t.Errorf("%s: the tree does not end at @ %s:\n%s", step, head, a)
			}
			continue
		}
		var reply struct{ Commit *string }
		if err := json.Unmarshal([]byte(a), &reply); err != nil || reply.Commit == nil || *reply.Commit != head {
			t.Errorf("%s: the JSON reply does not state commit %s (%v):\n%s", step, head, err, a)
		}
	}
}

// hooked: the operation fired a hook, so the cache is fresh at HEAD before
// any other omh command runs, and answers as a rebuild does.
func hooked(t *testing.T, step string, dir string, questions ...[]string) {
	t.Helper()
	st := status(t, dir)
	head := headOf(t, dir)
	if !st.Fresh || st.Indexed == nil || *st.Indexed != head {
		t.Errorf("%s: after the hook the cache is not fresh at HEAD %s: %+v", step, head, st)
	}
	sameAnswersAsARebuild(t, step, []string{dir}, append(questions, everything))
}

// unhooked: the operation fired no hook and changed the store, so the
// cache is stale until the next omh find, which refreshes it by itself.
func unhooked(t *testing.T, step string, dir string, questions ...[]string) {
	t.Helper()
	if st := status(t, dir); st.Fresh {
		t.Errorf("%s: the cache claims to be fresh, yet no hook ran and the store changed", step)
	}
	sameAnswersAsARebuild(t, step, []string{dir}, append(questions, everything))
	if st := status(t, dir); !st.Fresh {
		t.Errorf("%s: omh find did not leave the cache fresh: %+v", step, st)
	}
}

func TestFreshnessMatrix(t *testing.T) {
	cases := []struct {
		name string
		run  func(t *testing.T, r *vaulttest.Repo)
	}{
		{"commit", func(t *testing.T, r *vaulttest.Repo) {
			arm(t, r.Dir)
			r.Write("notes/narwhal.md", "# Narwhal\n\nA narwhal memory with a tusk.\n")
			commitAll(t, r.Dir, "2026-01-05T10:00:00Z", "narwhal")
			hooked(t, "commit", r.Dir, []string{"narwhal", "tusk"})
		}},
		{"amend", func(t *testing.T, r *vaulttest.Repo) {
			r.Write("notes/heron.md", "# Heron\n\nA heron memory.\n\nThe heron fishes at dawn.\n")
			commitAll(t, r.Dir, "2026-01-05T10:00:00Z", "heron fishes")
			arm(t, r.Dir)
			r.Write("notes/heron.md", "# Heron\n\nA heron memory.\n\nThe heron fishes at dusk.\n")
			mustGitAt(t, r.Dir, "2026-01-06T10:00:00Z", "commit", "-q", "-a", "--amend", "-m", "heron fishes at dusk")
			hooked(t, "amend", r.Dir, []string{"heron", "dusk", "dawn"})
		}},
		{"rebase", func(t *testing.T, r *vaulttest.Repo) {
			mustGit(t, r.Dir, "switch", "-q", "-c", "side")
			r.Write("notes/otter.md", "# Otter\n\nAn otter memory; see [[walrus]]. Otters juggle pebbles.\n")
			commitAll(t, r.Dir, "2026-01-05T10:00:00Z", "otter juggles")
			r.Write("notes/pebble.md", "# Pebble\n\nA pebble memory.\n")
			commitAll(t, r.Dir, "2026-01-06T10:00:00Z", "pebble")
			mustGit(t, r.Dir, "switch", "-q", "main")
			r.Write("notes/walrus.md", "---\nrecorded: 2025-11-02\n---\n# Walrus\n\nA walrus memory: the tusks, the pebbles, and [[heron]].\n")
			commitAll(t, r.Dir, "2026-01-07T10:00:00Z", "walrus pebbles")
			arm(t, r.Dir)
			mustGitAt(t, r.Dir, "2026-01-08T10:00:00Z", "rebase", "-q", "main", "side")
			hooked(t, "rebase", r.Dir, []string{"pebbles", "juggle"})
		}},
		{"merge with a resolved conflict", func(t *testing.T, r *vaulttest.Repo) {
			mustGit(t, r.Dir, "switch", "-q", "-c", "side")
			r.Write("notes/heron.md", "# Heron\n\nA heron memory.\n\nThe heron stands on one leg.\n")
			commitAll(t, r.Dir, "2026-01-05T10:00:00Z", "one leg")
			mustGit(t, r.Dir, "switch", "-q", "main")
			r.Write("notes/heron.md", "# Heron\n\nA heron memory.\n\nThe heron stands in the reeds.\n")
			commitAll(t, r.Dir, "2026-01-06T10:00:00Z", "reeds")
			arm(t, r.Dir)
			if res := runGit(t, r.Dir, "2026-01-07T10:00:00Z", "merge", "-q", "side"); res.status == 0 {
				t.Fatal("the merge did not conflict")
			}
			r.Write("notes/heron.md", "# Heron\n\nA heron memory.\n\nThe heron stands on one leg in the reeds.\n")
			mustGit(t, r.Dir, "add", "notes/heron.md")
			mustGitAt(t, r.Dir, "2026-01-07T10:00:00Z", "commit", "-q", "--no-edit")
			hooked(t, "merge", r.Dir, []string{"heron", "leg", "reeds"})
		}},
		{"fast-forward pull from a second clone", func(t *testing.T, r *vaulttest.Repo) {
			clone := filepath.Join(t.TempDir(), "clone")
			mustGit(t, r.Dir, "clone", "-q", r.Dir, clone)
			arm(t, clone)
			r.Write("notes/seal.md", "# Seal\n\nA seal memory, pulled from upstream.\n")
			r.Write("notes/otter.md", "# Otter\n\nAn otter memory, upstream.\n")
			commitAll(t, r.Dir, "2026-01-05T10:00:00Z", "seal")
			mustGit(t, clone, "pull", "-q", "--ff-only")
			hooked(t, "pull", clone, []string{"seal", "upstream"})
		}},
		{"checkout of an old commit and back", func(t *testing.T, r *vaulttest.Repo) {
			r.Write("notes/deep/krill.md", "# Krill\n\nA krill memory, risen to the surface.\n")
			r.Write("notes/surface.md", "# Surface\n\nA surface memory: [[krill]] rise at night.\n")
			r.Remove("notes/otter.md")
			commitAll(t, r.Dir, "2026-01-05T10:00:00Z", "krill surfaces")
			arm(t, r.Dir)
			mustGit(t, r.Dir, "checkout", "-q", "--detach", "HEAD~1")
			hooked(t, "old commit", r.Dir, []string{"krill", "surface"})
			mustGit(t, r.Dir, "checkout", "-q", "main")
			hooked(t, "back", r.Dir, []string{"krill", "surface"})
		}},
		{"branch switch", func(t *testing.T, r *vaulttest.Repo) {
			mustGit(t, r.Dir, "switch", "-q", "-c", "other")
			r.Write("notes/orca.md", "# Orca\n\nAn orca memory on another branch.\n")
			r.Remove("notes/otter.md")
			commitAll(t, r.Dir, "2026-01-05T10:00:00Z", "orca")
			arm(t, r.Dir)
			mustGit(t, r.Dir, "switch", "-q", "main")
			hooked(t, "switch to main", r.Dir, []string{"orca", "otter"})
			mustGit(t, r.Dir, "switch", "-q", "other")
			hooked(t, "switch to other", r.Dir, []string{"orca", "otter"})
		}},
		{"stash and pop", func(t *testing.T, r *vaulttest.Repo) {
			arm(t, r.Dir)
			r.Write("notes/walrus.md", "# Walrus\n\nA walrus memory, edited and not committed: blubber.\n")
			r.Write("notes/new-idea.md", "# New idea\n\nA blubber memory not yet committed.\n")
			mustGit(t, r.Dir, "add", "notes/new-idea.md")
			sameAnswersAsARebuild(t, "edited", []string{r.Dir}, [][]string{{"blubber"}, everything})
			mustGit(t, r.Dir, "stash", "-q")
			unhooked(t, "stash", r.Dir, []string{"blubber"})
			mustGit(t, r.Dir, "stash", "pop", "-q")
			unhooked(t, "pop", r.Dir, []string{"blubber"})
		}},
		{"reset --hard", func(t *testing.T, r *vaulttest.Repo) {
			arm(t, r.Dir)
			r.Write("notes/otter.md", "# Otter\n\nAn otter memory that will be reset away: kelp.\n")
			commitAll(t, r.Dir, "2026-01-05T10:00:00Z", "kelp")
			hooked(t, "commit", r.Dir, []string{"kelp"})
			mustGit(t, r.Dir, "reset", "-q", "--hard", "HEAD~1")
			unhooked(t, "reset", r.Dir, []string{"kelp", "otter"})
		}},
		{"a renamed note", func(t *testing.T, r *vaulttest.Repo) {
			arm(t, r.Dir)
			mustGit(t, r.Dir, "mv", "notes/otter.md", "notes/river-otter.md")
			commitAll(t, r.Dir, "2026-01-05T10:00:00Z", "rename")
			hooked(t, "rename", r.Dir, []string{"otter"})
		}},
		{"a deleted note", func(t *testing.T, r *vaulttest.Repo) {
			arm(t, r.Dir)
			mustGit(t, r.Dir, "rm", "-q", "notes/heron.md")
			commitAll(t, r.Dir, "2026-01-05T10:00:00Z", "delete")
			hooked(t, "delete", r.Dir, []string{"heron"})
		}},
		{"a note moved out of the notes root", func(t *testing.T, r *vaulttest.Repo) {
			arm(t, r.Dir)
			mustGit(t, r.Dir, "mv", "notes/deep/squid.md", "elsewhere/squid.md")
			commitAll(t, r.Dir, "2026-01-05T10:00:00Z", "move out")
			hooked(t, "move out", r.Dir, []string{"squid", "krill"})
		}},
		{"a second worktree with its own HEAD", func(t *testing.T, r *vaulttest.Repo) {
			arm(t, r.Dir)
			wt := filepath.Join(t.TempDir(), "wt")
			mustGit(t, r.Dir, "worktree", "add", "-q", "-b", "other", wt)
			hooked(t, "worktree added", wt, []string{"walrus"})
			vaulttest.WriteFile(t, filepath.Join(wt, "notes", "beluga.md"), "# Beluga\n\nA beluga memory only the worktree has.\n")
			vaulttest.WriteFile(t, filepath.Join(wt, "notes", "walrus.md"), "# Walrus\n\nThe worktree's walrus memory.\n")
			commitAll(t, wt, "2026-01-05T10:00:00Z", "beluga")
			hooked(t, "commit in the worktree", wt, []string{"beluga", "walrus"})
			hooked(t, "main after the worktree's commit", r.Dir, []string{"beluga", "walrus"})
			r.Write("notes/walrus.md", "# Walrus\n\nThe main walrus memory.\n")
			commitAll(t, r.Dir, "2026-01-06T10:00:00Z", "main walrus")
			hooked(t, "commit in main", r.Dir, []string{"walrus"})
			hooked(t, "worktree after main's commit", wt, []string{"walrus"})
		}},
		{"a submodule present", func(t *testing.T, r *vaulttest.Repo) {
			arm(t, r.Dir)
			sub := filepath.Join(t.TempDir(), "sub")
			mustGit(t, r.Dir, "init", "-q", "-b", "main", sub)
			vaulttest.WriteFile(t, filepath.Join(sub, "notes", "theirs.md"), "# Theirs\n\nA submodule memory.\n")
			mustGit(t, sub, "-c", "user.name=Sub", "-c", "user.email=sub@example.com", "add", "-A")
			mustGit(t, sub, "-c", "user.name=Sub", "-c", "user.email=sub@example.com", "commit", "-q", "-m", "theirs")
			mustGit(t, r.Dir, "-c", "protocol.file.allow=always", "submodule", "add", "-q", sub, "notes/vendor")
			commitAll(t, r.Dir, "2026-01-05T10:00:00Z", "submodule")
			hooked(t, "submodule added", r.Dir, []string{"submodule"})
			r.Write("notes/otter.md", "# Otter\n\nAn otter memory beside a submodule.\n")
			commitAll(t, r.Dir, "2026-01-06T10:00:00Z", "otter")
			hooked(t, "commit beside a submodule", r.Dir, []string{"submodule", "otter"})
		}},
		{"a shallow clone", func(t *testing.T, r *vaulttest.Repo) {
			r.Write("notes/heron.md", "# Heron\n\nA heron memory, second version.\n")
			commitAll(t, r.Dir, "2026-01-05T10:00:00Z", "heron again")
			shallow := filepath.Join(t.TempDir(), "shallow")
			mustGit(t, r.Dir, "clone", "-q", "--depth", "1", "file://"+r.Dir, shallow)
			mustGit(t, shallow, "config", "user.name", "Test Author")
			mustGit(t, shallow, "config", "user.email", "author@example.com")
			arm(t, shallow)
			if !status(t, shallow).Shallow {
				t.Error("status does not say the clone is shallow")
			}
			r.Write("notes/seal.md", "# Seal\n\nA seal memory for the shallow clone.\n")
			commitAll(t, r.Dir, "2026-01-06T10:00:00Z", "seal")
			mustGit(t, shallow, "pull", "-q", "--ff-only")
			hooked(t, "pull into a shallow clone", shallow, []string{"seal", "heron"})
			vaulttest.WriteFile(t, filepath.Join(shallow, "notes", "walrus.md"), "# Walrus\n\nA walrus memory written in the shallow clone.\n")
			commitAll(t, shallow, "2026-01-07T10:00:00Z", "walrus")
			hooked(t, "commit in a shallow clone", shallow, []string{"walrus", "shallow"})
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			c.run(t, freshRepo(t))
		})
	}
}

// A notes root equal to the repository root, among thousands of files
// that are not notes: the hooks keep it fresh and the scan of the working
// tree still finds exactly the notes.
func TestFreshnessWithTheRepositoryRootAsNotesRoot(t *testing.T) {
	files := 2000
	if testing.Short() {
		files = 500
	}
	r := vaulttest.New(t)
	for i := 0; i < files; i++ {
		r.Write(fmt.Sprintf("src/pkg%02d/file%04d.go", i%40, i), fmt.Sprintf("package pkg%02d // memory %d\n", i%40, i))
	}
	r.Write("README.txt", "memory\n")
	r.Write("walrus.md", "# Walrus\n\nA walrus memory at the root.\n")
	r.Write("docs/heron.md", "# Heron\n\nA heron memory in docs, see [[walrus]].\n")
	r.Write("src/pkg01/design.md", "# Design\n\nA design memory beside the code.\n")
	r.Commit("2025-12-01T10:00:00Z", "code and notes")
	ok(t, r.Dir, "hooks", "install")
	ok(t, r.Dir, "index")
	if st := status(t, r.Dir); st.NotesRoot != "" || st.Notes.Team != 3 {
		t.Fatalf("notes root %q with %d team notes", st.NotesRoot, st.Notes.Team)
	}
	r.Write("src/pkg02/design.md", "# Another design\n\nA design memory for pkg02.\n")
	r.Write("src/pkg02/file9999.go", "package pkg02 // more memory\n")
	r.Write("walrus.md", "# Walrus\n\nA walrus memory at the root, revised.\n")
	commitAll(t, r.Dir, "2026-01-05T10:00:00Z", "more")
	hooked(t, "commit among code", r.Dir, []string{"design"}, []string{"walrus", "revised"})
	mustGit(t, r.Dir, "checkout", "-q", "--detach", "HEAD~1")
	hooked(t, "checkout among code", r.Dir, []string{"design"})
}

// Every answer states the commit it reflects, and an answer after a
// hook's refresh states the new HEAD: after a commit, a checkout and a
// pull, as a tree and as JSON. Catches: a hook that refreshed a stale
// HEAD, or an answer that reports the commit of an older snapshot.
func TestHookRefreshedAnswersStateTheNewHead(t *testing.T) {
	r := freshRepo(t)
	arm(t, r.Dir)
	before := headOf(t, r.Dir)
	r.Write("notes/narwhal.md", "# Narwhal\n\nA narwhal memory.\n")
	head := commitAll(t, r.Dir, "2026-01-05T10:00:00Z", "narwhal")
	if head == before {
		t.Fatal("no new commit")
	}
	for _, step := range []struct{ name, want string }{{"commit", head}, {"checkout", before}, {"back", head}} {
		switch step.name {
		case "checkout":
			mustGit(t, r.Dir, "checkout", "-q", "--detach", before)
		case "back":
			mustGit(t, r.Dir, "checkout", "-q", "main")
		}
		st := status(t, r.Dir)
		if !st.Fresh || *st.Indexed != step.want || *st.Head != step.want {
			t.Errorf("%s: status %+v, want fresh at %s", step.name, st, step.want)
		}
		answersState(t, step.name, step.want, askAll(t, r.Dir, [][]string{{"narwhal"}, everything}))
	}
}

// When one refresh removes the note a wiki link resolved to and adds the
// note the same link now resolves to, an unchanged linking note keeps the
// link, as a rebuild does. Catches writeDocs (index/apply.go) treating a
// name as unchanged because the same ord still holds it: assignOrds gives
// the added note the removed note's ord, so ("krill", ord) survives while
// it names another key, and the linking note's stored link kept naming the
// removed key.
func TestALinkFollowsItsTargetMovedInOneCommit(t *testing.T) {
	r := vaulttest.New(t)
	r.Write("deep/krill.md", "# Krill\n\nA krill memory, deep down.\n")
	r.Write("deep/squid.md", "# Squid\n\nA squid memory: [[krill]].\n")
	r.Commit("2025-12-01T10:00:00Z", "first")
	ok(t, r.Dir, "index")
	r.Git("mv", "deep/krill.md", "krill.md")
	r.Commit("2026-01-05T10:00:00Z", "krill moves up")
	got := ok(t, r.Dir, "find", "squid")
	if want := askAll(t, rebuiltCopy(t, r.Dir), [][]string{{"squid"}})[0]; got != want {
		t.Errorf("incremental:\n%s--- rebuild:\n%s", got, want)
	}
}
