package store_test

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/omh-notes/omh/store"
	"github.com/omh-notes/omh/vault/vaulttest"
)

// The freshness matrix: every git operation a person runs on a notes
// repository, on a real repository with the hooks installed (they call the
// helper omh, which runs the store's RunHook). After an operation that
// fires a hook, the status says the cache is fresh at HEAD before any
// other use case runs; after one that fires none (reset --hard and stash
// fire nothing in git 2.39), the next question refreshes by itself. Either
// way the answer, as a tree, as cards and as JSON, is then byte for byte
// what a cache built from scratch on a copy of the repository gives, and
// states the commit it was computed at.

// freshRepo is the matrix's starting store: notes under notes/ (two in a
// subfolder), one markdown file outside the notes root, a private note, all
// dated apart. The hooks are not installed yet: see arm.
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
	installHooks(t, dir)
	refresh(t, dir)
}

// hooked: the operation fired a hook, so the cache is fresh at HEAD before
// any other use case runs, and answers as a rebuild does.
func hooked(t *testing.T, step string, dir string, questions ...store.Question) {
	t.Helper()
	st := statusOf(t, dir)
	if head := vaulttest.Head(t, dir); !st.Fresh || st.Indexed != head {
		t.Errorf("%s: after the hook the cache is not fresh at HEAD %s: %+v", step, head, st)
	}
	sameAnswersAsARebuild(t, step, []string{dir}, append(questions, everything)...)
}

// unhooked: the operation fired no hook and changed the store, so the
// cache is stale until the next question, which refreshes it by itself.
func unhooked(t *testing.T, step string, dir string, questions ...store.Question) {
	t.Helper()
	if st := statusOf(t, dir); st.Fresh {
		t.Errorf("%s: the cache claims to be fresh, yet no hook ran and the store changed", step)
	}
	sameAnswersAsARebuild(t, step, []string{dir}, append(questions, everything)...)
	if st := statusOf(t, dir); !st.Fresh {
		t.Errorf("%s: the question did not leave the cache fresh: %+v", step, st)
	}
}

func TestFreshnessMatrix(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name string
		run  func(t *testing.T, r *vaulttest.Repo)
	}{
		{"commit", func(t *testing.T, r *vaulttest.Repo) {
			arm(t, r.Dir)
			r.Write("notes/narwhal.md", "# Narwhal\n\nA narwhal memory with a tusk.\n")
			vaulttest.CommitAll(t, r.Dir, "2026-01-05T10:00:00Z", "narwhal")
			hooked(t, "commit", r.Dir, question("narwhal tusk"))
		}},
		{"amend", func(t *testing.T, r *vaulttest.Repo) {
			r.Write("notes/heron.md", "# Heron\n\nA heron memory.\n\nThe heron fishes at dawn.\n")
			vaulttest.CommitAll(t, r.Dir, "2026-01-05T10:00:00Z", "heron fishes")
			arm(t, r.Dir)
			r.Write("notes/heron.md", "# Heron\n\nA heron memory.\n\nThe heron fishes at dusk.\n")
			vaulttest.MustGit(t, r.Dir, "2026-01-06T10:00:00Z", "commit", "-q", "-a", "--amend", "-m", "heron fishes at dusk")
			hooked(t, "amend", r.Dir, question("heron dusk dawn"))
		}},
		{"rebase", func(t *testing.T, r *vaulttest.Repo) {
			mustGit(t, r.Dir, "switch", "-q", "-c", "side")
			r.Write("notes/otter.md", "# Otter\n\nAn otter memory; see [[walrus]]. Otters juggle pebbles.\n")
			vaulttest.CommitAll(t, r.Dir, "2026-01-05T10:00:00Z", "otter juggles")
			r.Write("notes/pebble.md", "# Pebble\n\nA pebble memory.\n")
			vaulttest.CommitAll(t, r.Dir, "2026-01-06T10:00:00Z", "pebble")
			mustGit(t, r.Dir, "switch", "-q", "main")
			r.Write("notes/walrus.md", "---\nrecorded: 2025-11-02\n---\n# Walrus\n\nA walrus memory: the tusks, the pebbles, and [[heron]].\n")
			vaulttest.CommitAll(t, r.Dir, "2026-01-07T10:00:00Z", "walrus pebbles")
			arm(t, r.Dir)
			vaulttest.MustGit(t, r.Dir, "2026-01-08T10:00:00Z", "rebase", "-q", "main", "side")
			hooked(t, "rebase", r.Dir, question("pebbles juggle"))
		}},
		{"merge with a resolved conflict", func(t *testing.T, r *vaulttest.Repo) {
			mustGit(t, r.Dir, "switch", "-q", "-c", "side")
			r.Write("notes/heron.md", "# Heron\n\nA heron memory.\n\nThe heron stands on one leg.\n")
			vaulttest.CommitAll(t, r.Dir, "2026-01-05T10:00:00Z", "one leg")
			mustGit(t, r.Dir, "switch", "-q", "main")
			r.Write("notes/heron.md", "# Heron\n\nA heron memory.\n\nThe heron stands in the reeds.\n")
			vaulttest.CommitAll(t, r.Dir, "2026-01-06T10:00:00Z", "reeds")
			arm(t, r.Dir)
			if res := vaulttest.RunGit(t, r.Dir, "2026-01-07T10:00:00Z", "merge", "-q", "side"); res.Status == 0 {
				t.Fatal("the merge did not conflict")
			}
			r.Write("notes/heron.md", "# Heron\n\nA heron memory.\n\nThe heron stands on one leg in the reeds.\n")
			mustGit(t, r.Dir, "add", "notes/heron.md")
			vaulttest.MustGit(t, r.Dir, "2026-01-07T10:00:00Z", "commit", "-q", "--no-edit")
			hooked(t, "merge", r.Dir, question("heron leg reeds"))
		}},
		{"fast-forward pull from a second clone", func(t *testing.T, r *vaulttest.Repo) {
			clone := filepath.Join(t.TempDir(), "clone")
			mustGit(t, r.Dir, "clone", "-q", r.Dir, clone)
			r.SharePrivate(clone)
			arm(t, clone)
			r.Write("notes/seal.md", "# Seal\n\nA seal memory, pulled from upstream.\n")
			r.Write("notes/otter.md", "# Otter\n\nAn otter memory, upstream.\n")
			vaulttest.CommitAll(t, r.Dir, "2026-01-05T10:00:00Z", "seal")
			mustGit(t, clone, "pull", "-q", "--ff-only")
			hooked(t, "pull", clone, question("seal upstream"))
		}},
		{"checkout of an old commit and back", func(t *testing.T, r *vaulttest.Repo) {
			r.Write("notes/deep/krill.md", "# Krill\n\nA krill memory, risen to the surface.\n")
			r.Write("notes/surface.md", "# Surface\n\nA surface memory: [[krill]] rise at night.\n")
			r.Remove("notes/otter.md")
			vaulttest.CommitAll(t, r.Dir, "2026-01-05T10:00:00Z", "krill surfaces")
			arm(t, r.Dir)
			mustGit(t, r.Dir, "checkout", "-q", "--detach", "HEAD~1")
			hooked(t, "old commit", r.Dir, question("krill surface"))
			mustGit(t, r.Dir, "checkout", "-q", "main")
			hooked(t, "back", r.Dir, question("krill surface"))
		}},
		{"branch switch", func(t *testing.T, r *vaulttest.Repo) {
			mustGit(t, r.Dir, "switch", "-q", "-c", "other")
			r.Write("notes/orca.md", "# Orca\n\nAn orca memory on another branch.\n")
			r.Remove("notes/otter.md")
			vaulttest.CommitAll(t, r.Dir, "2026-01-05T10:00:00Z", "orca")
			arm(t, r.Dir)
			mustGit(t, r.Dir, "switch", "-q", "main")
			hooked(t, "switch to main", r.Dir, question("orca otter"))
			mustGit(t, r.Dir, "switch", "-q", "other")
			hooked(t, "switch to other", r.Dir, question("orca otter"))
		}},
		{"stash and pop", func(t *testing.T, r *vaulttest.Repo) {
			arm(t, r.Dir)
			r.Write("notes/walrus.md", "# Walrus\n\nA walrus memory, edited and not committed: blubber.\n")
			r.Write("notes/new-idea.md", "# New idea\n\nA blubber memory not yet committed.\n")
			mustGit(t, r.Dir, "add", "notes/new-idea.md")
			sameAnswersAsARebuild(t, "edited", []string{r.Dir}, question("blubber"), everything)
			mustGit(t, r.Dir, "stash", "-q")
			unhooked(t, "stash", r.Dir, question("blubber"))
			mustGit(t, r.Dir, "stash", "pop", "-q")
			unhooked(t, "pop", r.Dir, question("blubber"))
		}},
		{"reset --hard", func(t *testing.T, r *vaulttest.Repo) {
			arm(t, r.Dir)
			r.Write("notes/otter.md", "# Otter\n\nAn otter memory that will be reset away: kelp.\n")
			vaulttest.CommitAll(t, r.Dir, "2026-01-05T10:00:00Z", "kelp")
			hooked(t, "commit", r.Dir, question("kelp"))
			mustGit(t, r.Dir, "reset", "-q", "--hard", "HEAD~1")
			unhooked(t, "reset", r.Dir, question("kelp otter"))
		}},
		{"a renamed note", func(t *testing.T, r *vaulttest.Repo) {
			arm(t, r.Dir)
			mustGit(t, r.Dir, "mv", "notes/otter.md", "notes/river-otter.md")
			vaulttest.CommitAll(t, r.Dir, "2026-01-05T10:00:00Z", "rename")
			hooked(t, "rename", r.Dir, question("otter"))
		}},
		{"a deleted note", func(t *testing.T, r *vaulttest.Repo) {
			arm(t, r.Dir)
			mustGit(t, r.Dir, "rm", "-q", "notes/heron.md")
			vaulttest.CommitAll(t, r.Dir, "2026-01-05T10:00:00Z", "delete")
			hooked(t, "delete", r.Dir, question("heron"))
		}},
		{"a note deleted and moved, not committed", func(t *testing.T, r *vaulttest.Repo) {
			arm(t, r.Dir)
			r.Remove("notes/heron.md")
			unhooked(t, "deleted", r.Dir, question("heron"))
			mustGit(t, r.Dir, "mv", "notes/otter.md", "notes/sea-otter.md")
			unhooked(t, "moved", r.Dir, question("otter walrus"))
			mustGit(t, r.Dir, "reset", "-q", "--hard")
			unhooked(t, "restored", r.Dir, question("heron otter"))
		}},
		{"a note moved out of the notes root", func(t *testing.T, r *vaulttest.Repo) {
			arm(t, r.Dir)
			mustGit(t, r.Dir, "mv", "notes/deep/squid.md", "elsewhere/squid.md")
			vaulttest.CommitAll(t, r.Dir, "2026-01-05T10:00:00Z", "move out")
			hooked(t, "move out", r.Dir, question("squid krill"))
		}},
		{"a second worktree with its own HEAD", func(t *testing.T, r *vaulttest.Repo) {
			arm(t, r.Dir)
			wt := filepath.Join(t.TempDir(), "wt")
			mustGit(t, r.Dir, "worktree", "add", "-q", "-b", "other", wt)
			hooked(t, "worktree added", wt, question("walrus"))
			vaulttest.WriteFile(t, filepath.Join(wt, "notes", "beluga.md"), "# Beluga\n\nA beluga memory only the worktree has.\n")
			vaulttest.WriteFile(t, filepath.Join(wt, "notes", "walrus.md"), "# Walrus\n\nThe worktree's walrus memory.\n")
			vaulttest.CommitAll(t, wt, "2026-01-05T10:00:00Z", "beluga")
			hooked(t, "commit in the worktree", wt, question("beluga walrus"))
			hooked(t, "main after the worktree's commit", r.Dir, question("beluga walrus"))
			r.Write("notes/walrus.md", "# Walrus\n\nThe main walrus memory.\n")
			vaulttest.CommitAll(t, r.Dir, "2026-01-06T10:00:00Z", "main walrus")
			hooked(t, "commit in main", r.Dir, question("walrus"))
			hooked(t, "worktree after main's commit", wt, question("walrus"))
		}},
		{"a submodule present", func(t *testing.T, r *vaulttest.Repo) {
			arm(t, r.Dir)
			sub := filepath.Join(t.TempDir(), "sub")
			mustGit(t, r.Dir, "init", "-q", "-b", "main", sub)
			vaulttest.WriteFile(t, filepath.Join(sub, "notes", "theirs.md"), "# Theirs\n\nA submodule memory.\n")
			mustGit(t, sub, "-c", "user.name=Sub", "-c", "user.email=sub@example.com", "add", "-A")
			mustGit(t, sub, "-c", "user.name=Sub", "-c", "user.email=sub@example.com", "commit", "-q", "-m", "theirs")
			mustGit(t, r.Dir, "-c", "protocol.file.allow=always", "submodule", "add", "-q", sub, "notes/vendor")
			vaulttest.CommitAll(t, r.Dir, "2026-01-05T10:00:00Z", "submodule")
			hooked(t, "submodule added", r.Dir, question("submodule"))
			r.Write("notes/otter.md", "# Otter\n\nAn otter memory beside a submodule.\n")
			vaulttest.CommitAll(t, r.Dir, "2026-01-06T10:00:00Z", "otter")
			hooked(t, "commit beside a submodule", r.Dir, question("submodule otter"))
		}},
		{"a shallow clone", func(t *testing.T, r *vaulttest.Repo) {
			r.Write("notes/heron.md", "# Heron\n\nA heron memory, second version.\n")
			vaulttest.CommitAll(t, r.Dir, "2026-01-05T10:00:00Z", "heron again")
			shallow := filepath.Join(t.TempDir(), "shallow")
			mustGit(t, r.Dir, "clone", "-q", "--depth", "1", "file://"+r.Dir, shallow)
			r.SharePrivate(shallow)
			mustGit(t, shallow, "config", "user.name", "Test Author")
			mustGit(t, shallow, "config", "user.email", "author@example.com")
			arm(t, shallow)
			if !statusOf(t, shallow).Shallow {
				t.Error("status does not say the clone is shallow")
			}
			r.Write("notes/seal.md", "# Seal\n\nA seal memory for the shallow clone.\n")
			vaulttest.CommitAll(t, r.Dir, "2026-01-06T10:00:00Z", "seal")
			mustGit(t, shallow, "pull", "-q", "--ff-only")
			hooked(t, "pull into a shallow clone", shallow, question("seal heron"))
			vaulttest.WriteFile(t, filepath.Join(shallow, "notes", "walrus.md"), "# Walrus\n\nA walrus memory written in the shallow clone.\n")
			vaulttest.CommitAll(t, shallow, "2026-01-07T10:00:00Z", "walrus")
			hooked(t, "commit in a shallow clone", shallow, question("walrus shallow"))
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			c.run(t, freshRepo(t))
		})
	}
}

// A notes root equal to the repository root, among thousands of files
// that are not notes: the hooks keep it fresh and the scan of the working
// tree still finds exactly the notes.
func TestFreshnessWithTheRepositoryRootAsNotesRoot(t *testing.T) {
	t.Parallel()
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
	arm(t, r.Dir)
	if st := statusOf(t, r.Dir); st.NotesRoot != "" || st.Team != 3 {
		t.Fatalf("notes root %q with %d team notes", st.NotesRoot, st.Team)
	}
	r.Write("src/pkg02/design.md", "# Another design\n\nA design memory for pkg02.\n")
	r.Write("src/pkg02/file9999.go", "package pkg02 // more memory\n")
	r.Write("walrus.md", "# Walrus\n\nA walrus memory at the root, revised.\n")
	vaulttest.CommitAll(t, r.Dir, "2026-01-05T10:00:00Z", "more")
	hooked(t, "commit among code", r.Dir, question("design"), question("walrus revised"))
	mustGit(t, r.Dir, "checkout", "-q", "--detach", "HEAD~1")
	hooked(t, "checkout among code", r.Dir, question("design"))
}

// Every answer states the commit it reflects, and an answer after a
// hook's refresh states the new HEAD: after a commit, a checkout and a
// pull, as a tree and as JSON. Catches: a hook that refreshed a stale
// HEAD, or an answer that reports the commit of an older snapshot.
func TestHookRefreshedAnswersStateTheNewHead(t *testing.T) {
	t.Parallel()
	r := freshRepo(t)
	arm(t, r.Dir)
	before := vaulttest.Head(t, r.Dir)
	r.Write("notes/narwhal.md", "# Narwhal\n\nA narwhal memory.\n")
	head := vaulttest.CommitAll(t, r.Dir, "2026-01-05T10:00:00Z", "narwhal")
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
		st := statusOf(t, r.Dir)
		if !st.Fresh || st.Indexed != step.want || st.Head != step.want {
			t.Errorf("%s: status %+v, want fresh at %s", step.name, st, step.want)
		}
		answersState(t, step.name, step.want, askAll(t, r.Dir, question("narwhal"), everything))
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
	t.Parallel()
	r := vaulttest.New(t)
	r.Write("deep/krill.md", "# Krill\n\nA krill memory, deep down.\n")
	r.Write("deep/squid.md", "# Squid\n\nA squid memory: [[krill]].\n")
	r.Commit("2025-12-01T10:00:00Z", "first")
	refresh(t, r.Dir)
	r.Git("mv", "deep/krill.md", "krill.md")
	r.Commit("2026-01-05T10:00:00Z", "krill moves up")
	got := askAll(t, r.Dir, question("squid"))[0]
	if want := askAll(t, rebuiltCopy(t, r.Dir), question("squid"))[0]; got != want {
		t.Errorf("incremental:\n%s--- rebuild:\n%s", got, want)
	}
}

// With `*.md text eol=crlf`, every note checked out again (what a pull
// does; here rm, then git checkout -- .) is still one team note: status
// names no uncommitted note while git status is clean. Catches: each note
// listed as team and as an uncommitted local copy after a pull.
func TestNotesCheckedOutWithCRLFAreNotUncommitted(t *testing.T) {
	t.Parallel()
	r := vaulttest.New(t)
	r.Write(".gitattributes", "*.md text eol=crlf\n")
	for _, n := range []string{"a", "b", "c"} {
		r.Write(n+".md", "# "+strings.ToUpper(n)+"\n\nA note.\n")
	}
	r.Commit("2026-01-02T10:00:00Z", "notes")
	refresh(t, r.Dir)
	for _, n := range []string{"a", "b", "c"} {
		r.Remove(n + ".md")
	}
	r.Git("checkout", "--", ".")
	if porcelain := r.Git("status", "--porcelain"); porcelain != "" {
		t.Fatalf("git status is not clean: %q", porcelain)
	}
	refresh(t, r.Dir)
	if st := statusOf(t, r.Dir); st.Team != 3 || st.Local != 0 {
		t.Errorf("after a CRLF checkout: %d team and %d local notes, want 3 and 0", st.Team, st.Local)
	}
}
