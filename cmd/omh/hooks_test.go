package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"

	"github.com/omh-notes/omh/hooks"
	"github.com/omh-notes/omh/store"
	"github.com/omh-notes/omh/vault"
	"github.com/omh-notes/omh/vault/vaulttest"
)

// omhBin is the omh built for this run of the tests. Its folder leads PATH,
// so the hooks git runs find it the way they find it on a user's machine.
var omhBin string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "omh-test-bin-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	omhBin = filepath.Join(dir, "omh")
	goTool := "go"
	if _, err := exec.LookPath(goTool); err != nil {
		goTool = filepath.Join(os.Getenv("GOROOT"), "bin", "go")
	}
	// The tests run in the package's folder: "." is cmd/omh.
	build := exec.Command(goTool, "build", "-o", omhBin, ".")
	build.Stdout, build.Stderr = os.Stderr, os.Stderr
	if err := build.Run(); err != nil {
		fmt.Fprintf(os.Stderr, "building omh for the hook tests: %v\n", err)
		os.Exit(1)
	}
	os.Setenv("PATH", dir+string(os.PathListSeparator)+os.Getenv("PATH"))
	// A hook run in-process must detach the omh just built, not the test
	// binary.
	background = func(args ...string) error { return store.Detach(omhBin, args...) }
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// gitResult is one run of the git command line.
type gitResult struct {
	stdout, stderr string
	status         int
}

// runGit runs git in dir with author and committer dates set to date, the
// way a person would, hooks and all. Before the test's folders are removed
// it waits for every process the command left running (see startGit).
func runGit(t testing.TB, dir, date string, args ...string) gitResult {
	t.Helper()
	res, wait := startGit(t, dir, date, args...)
	t.Cleanup(wait)
	return res
}

// startGit runs git like runGit and also returns a function that waits
// until every process the command started has exited, a refresh a hook
// detached included: each inherits the write end of a pipe, and reading the
// other end meets its end only when the last of them is gone. Tests wait
// for a refresh the documented way, with omh index; this wait is for
// cleaning up, and for proving what a detached refresh did by itself.
func startGit(t testing.TB, dir, date string, args ...string) (gitResult, func()) {
	t.Helper()
	rd, wr, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_AUTHOR_DATE="+date, "GIT_COMMITTER_DATE="+date)
	cmd.ExtraFiles = []*os.File{wr}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err = cmd.Run()
	wr.Close()
	var once sync.Once
	wait := func() {
		once.Do(func() {
			io.Copy(io.Discard, rd)
			rd.Close()
		})
	}
	res := gitResult{stdout.String(), stderr.String(), 0}
	if err != nil {
		exit, ok := err.(*exec.ExitError)
		if !ok {
			wait()
			t.Fatalf("git %s: %v", strings.Join(args, " "), err)
		}
		res.status = exit.ExitCode()
	}
	return res, wait
}

const gitDate = "2026-01-01T12:00:00Z"

// mustGit runs git and fails the test unless it succeeds.
func mustGit(t testing.TB, dir string, args ...string) string {
	t.Helper()
	return mustGitAt(t, dir, gitDate, args...)
}

func mustGitAt(t testing.TB, dir, date string, args ...string) string {
	t.Helper()
	res := runGit(t, dir, date, args...)
	if res.status != 0 {
		t.Fatalf("git %s: exit %d\n%s%s", strings.Join(args, " "), res.status, res.stdout, res.stderr)
	}
	return strings.TrimSpace(res.stdout)
}

// commitAll stages everything and commits it at date through runGit, so
// the hooks run as they would for a person.
func commitAll(t testing.TB, dir, date, message string) string {
	t.Helper()
	mustGitAt(t, dir, date, "add", "-A")
	mustGitAt(t, dir, date, "commit", "-q", "--allow-empty", "-m", message)
	return headOf(t, dir)
}

// headOf reads HEAD's commit the way omh does, without starting git.
func headOf(t testing.TB, dir string) string {
	t.Helper()
	r, err := vault.OpenRepo(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	h, err := r.Head()
	if err != nil {
		t.Fatal(err)
	}
	return h.String()
}

// proc is one run of the omh binary.
func omhProc(t testing.TB, dir string, env []string, args ...string) result {
	t.Helper()
	cmd := exec.Command(omhBin, append([]string{"-C", dir}, args...)...)
	cmd.Env = append(os.Environ(), env...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	res := result{stdout.String(), stderr.String(), 0}
	if err != nil {
		exit, ok := err.(*exec.ExitError)
		if !ok {
			t.Fatalf("omh %s: %v", strings.Join(args, " "), err)
		}
		res.status = exit.ExitCode()
	}
	return res
}

// hookRepo is a small store with the hooks installed and its cache built.
func hookRepo(t *testing.T) *vaulttest.Repo {
	t.Helper()
	r := vaulttest.New(t)
	r.Write(".omh/config.yaml", "notes: notes\n")
	r.Write("notes/walrus.md", "# Walrus\n\nThe walrus keeps the tusks clean.\n")
	r.Write("notes/heron.md", "# Heron\n\nThe heron waits by the [[walrus]].\n")
	r.Commit("2026-01-02T10:00:00Z", "first notes")
	ok(t, r.Dir, "hooks", "install")
	ok(t, r.Dir, "index")
	return r
}

func hooksDir(t *testing.T, dir string) string {
	return filepath.Join(dir, ".git", "hooks")
}

type hooksJSON struct {
	HooksDir string  `json:"hooks_dir"`
	Manager  *string `json:"manager"`
	Changed  *bool   `json:"changed"`
	Hooks    []struct {
		Name, State, Path, Change, Note string
		Chained, Manager, Add           *string
		AddTo                           *string `json:"add_to"`
		CallsOmh                        bool    `json:"calls_omh"`
	} `json:"hooks"`
}

func hooksStatus(t *testing.T, dir string) hooksJSON {
	t.Helper()
	var st hooksJSON
	out := ok(t, dir, "hooks", "status", "--json")
	if err := json.Unmarshal([]byte(out), &st); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if len(st.Hooks) != len(hooks.Names) {
		t.Fatalf("status lists %d hooks: %s", len(st.Hooks), out)
	}
	return st
}

func states(st hooksJSON) string {
	var s []string
	for _, h := range st.Hooks {
		s = append(s, h.Name+"="+h.State)
	}
	return strings.Join(s, " ")
}

// omh hooks install writes into the folder git runs hooks from, wherever
// that is, and the hooks then refresh the cache (package hooks tests the
// files themselves). Catches: hard-coding .git/hooks (core.hooksPath, a
// linked worktree's git directory); a shim git does not run; a hook that
// does not reach omh.
func TestInstalledHooksRefreshTheCache(t *testing.T) {
	for _, where := range []string{"default", "local core.hooksPath", "linked worktree"} {
		t.Run(where, func(t *testing.T) {
			r := vaulttest.New(t)
			r.Write("notes/walrus.md", "# Walrus\n")
			r.Commit("2026-01-02T10:00:00Z", "first")
			dir, want := r.Dir, hooksDir(t, r.Dir)
			switch where {
			case "local core.hooksPath":
				want = filepath.Join(t.TempDir(), "my-hooks")
				r.Git("config", "core.hooksPath", want)
			case "linked worktree":
				dir = filepath.Join(t.TempDir(), "wt")
				r.Git("worktree", "add", "-q", "-b", "other", dir)
			}
			out := ok(t, dir, "hooks", "install")
			for _, name := range hooks.Names {
				b, err := os.ReadFile(filepath.Join(want, name))
				if err != nil || string(b) != hooks.Shim(name) {
					t.Fatalf("%s not installed in %s (%v)\n%s", name, want, err, out)
				}
			}
			before := vaulttest.Tree(t, want)
			if out := ok(t, dir, "hooks", "install"); !strings.Contains(out, "nothing changed") {
				t.Errorf("second install: %s", out)
			}
			vaulttest.SameTree(t, "second install", before, vaulttest.Tree(t, want))
			if st := hooksStatus(t, dir); st.HooksDir != want || !strings.Contains(states(st), "post-commit=installed post-merge=installed post-checkout=installed post-rewrite=installed") {
				t.Errorf("status: %s in %s", states(st), st.HooksDir)
			}
			ok(t, dir, "index")
			vaulttest.WriteFile(t, filepath.Join(dir, "notes", "narwhal.md"), "# Narwhal\n")
			head := commitAll(t, dir, "2026-01-03T10:00:00Z", "narwhal")
			if st := status(t, dir); !st.Fresh || st.Indexed == nil || *st.Indexed != head {
				t.Errorf("after a commit the hook did not refresh: %+v", st)
			}
		})
	}
}

// With a user's hook chained, git runs both: the user's first, with
// git's arguments and its exit status kept, then omh's refresh (package
// hooks tests the chaining itself). Catches: omh's part skipped when the
// user's hook fails; the user's hook not run through omh's shim.
func TestAChainedHookRunsFirstAndOmhStillRefreshes(t *testing.T) {
	r := vaulttest.New(t)
	r.Write("notes/walrus.md", "# Walrus\n")
	first := r.Commit("2026-01-02T10:00:00Z", "first")
	dir := hooksDir(t, r.Dir)
	log := filepath.Join(t.TempDir(), "log")
	vaulttest.WriteFile(t, filepath.Join(dir, "post-checkout"), "#!/bin/sh\necho \"checkout $*\" >> "+log+"\nexit 7\n")
	os.Chmod(filepath.Join(dir, "post-checkout"), 0o750)
	ok(t, r.Dir, "hooks", "install")
	ok(t, r.Dir, "index")
	r.Write("notes/heron.md", "# Heron\n")
	second := commitAll(t, r.Dir, gitDate, "heron")
	if res := runGit(t, r.Dir, gitDate, "checkout", "-q", first); res.status != 1 {
		t.Errorf("git checkout exited %d, want 1 from the user's failing hook (stderr %q)", res.status, res.stderr)
	}
	if st := status(t, r.Dir); !st.Fresh || *st.Indexed != first {
		t.Errorf("omh's part did not run after the user's hook: %+v", st)
	}
	if b, _ := os.ReadFile(log); string(b) != fmt.Sprintf("checkout %s %s 1\n", second, first) {
		t.Errorf("the user's hook saw %q", b)
	}
}

// install never moves a user's hook over another file: when the chained
// name is taken it refuses for that hook and changes nothing there.
func TestInstallRefusesWhenTheChainedNameIsTaken(t *testing.T) {
	r := vaulttest.New(t)
	dir := hooksDir(t, r.Dir)
	vaulttest.WriteFile(t, filepath.Join(dir, "post-merge"), "#!/bin/sh\necho mine\n")
	vaulttest.WriteFile(t, filepath.Join(dir, "post-merge"+hooks.ChainedSuffix), "#!/bin/sh\necho older\n")
	before := vaulttest.Tree(t, dir)
	res := omh(t, r.Dir, "hooks", "install")
	if res.status != exitRefused || !strings.Contains(res.stdout, "post-merge.omh-chained already exists") {
		t.Errorf("exit %d\n%s%s", res.status, res.stdout, res.stderr)
	}
	after := vaulttest.Tree(t, dir)
	for _, name := range []string{"post-merge", "post-merge" + hooks.ChainedSuffix} {
		p := filepath.Join(dir, name)
		if after[p] != before[p] {
			t.Errorf("%s changed", name)
		}
	}
}

// Where a hook manager owns the hooks, omh hooks install writes nothing,
// exits 0 and prints, for each hook, the line to add and where (package
// hooks tests each manager). Catches: a managed folder reported as a
// failure; printing nothing a person can act on.
func TestInstallPrintsTheLineToAddWhereAManagerOwnsTheHooks(t *testing.T) {
	r := vaulttest.New(t)
	r.Write(".husky/_/h", "#!/usr/bin/env sh\n")
	r.Git("config", "core.hooksPath", ".husky/_")
	before := vaulttest.Tree(t, filepath.Join(r.Dir, ".husky"))
	res := omh(t, r.Dir, "hooks", "install")
	if res.status != 0 {
		t.Fatalf("exit %d: %s", res.status, res.stderr)
	}
	vaulttest.SameTree(t, "install", before, vaulttest.Tree(t, filepath.Join(r.Dir, ".husky")))
	for _, name := range hooks.Names {
		want := fmt.Sprintf("%-14s %-10s by husky; add this line to %s:\n%26scommand -v omh >/dev/null 2>&1 && omh hooks run %s \"$@\" || true\n",
			name, "managed", filepath.Join(".husky", name), "", name)
		if !strings.Contains(res.stdout, want) {
			t.Errorf("%s: want\n%s\nin\n%s", name, want, res.stdout)
		}
	}
}

// A hook never fails or blocks git, and says at most one line: without omh
// on PATH, with an omh that fails loudly, and with a store omh refuses.
// Catches: a shim that exits non-zero (git checkout would fail), that
// prints a stack of lines, or that swallows the user's hook's status.
func TestAHookNeverFailsGit(t *testing.T) {
	r := hookRepo(t)
	noOmh := t.TempDir()
	loud := t.TempDir()
	vaulttest.WriteFile(t, filepath.Join(loud, "omh"), "#!/bin/sh\necho one >&2\necho two >&2\necho three >&2\nexit 3\n")
	os.Chmod(filepath.Join(loud, "omh"), 0o755)
	for _, c := range []struct{ name, path, said string }{
		{"omh missing", noOmh + ":/usr/bin:/bin:/usr/local/bin", "omh: post-checkout hook: omh is not on PATH; the next omh command refreshes the cache\n"},
		{"omh failing", loud + ":" + os.Getenv("PATH"), "one\n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			sh := filepath.Join(hooksDir(t, r.Dir), "post-checkout")
			cmd := exec.Command("sh", sh, "a", "b", "1")
			cmd.Dir = r.Dir
			cmd.Env = append(os.Environ(), "PATH="+c.path)
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			if err := cmd.Run(); err != nil {
				t.Errorf("the shim failed: %v", err)
			}
			if stderr.String() != c.said {
				t.Errorf("stderr %q, want the one line %q", stderr.String(), c.said)
			}
		})
	}
	t.Run("a store omh refuses", func(t *testing.T) {
		r.Write(".omh/config.yaml", "notes: [1, 2]\n")
		r.Write("notes/x.md", "# X\n")
		res := runGit(t, r.Dir, gitDate, "commit", "-q", "-a", "-m", "bad config")
		if res.status != 0 || lines(res.stderr) != 1 || !strings.Contains(res.stderr, "post-commit hook") {
			t.Errorf("git commit: exit %d, stderr %q", res.status, res.stderr)
		}
		if res := omh(t, r.Dir, "hooks", "run", "post-merge", "0"); res.status != 0 || lines(res.stderr) != 1 {
			t.Errorf("omh hooks run: exit %d, stderr %q", res.status, res.stderr)
		}
	})
	t.Run("no such hook", func(t *testing.T) {
		if res := omh(t, r.Dir, "hooks", "run", "pre-push"); res.status != 0 || lines(res.stderr) != 1 {
			t.Errorf("exit %d, stderr %q", res.status, res.stderr)
		}
	})
}

// What a hook leaves alone: a checkout of files (post-checkout's third
// argument 0), an amend's post-rewrite (its post-commit came first), the
// commits a rebase picks (its post-rewrite refreshes), and
// a repository omh was never used in (a hooks folder shared by many
// repositories must not build caches in all of them).
func TestHooksRefreshOnlyWhenItHelps(t *testing.T) {
	r := hookRepo(t)
	r.Write("notes/narwhal.md", "# Narwhal\n")
	r.Git("add", "-A")
	r.Git("-c", "core.hooksPath=/nonexistent", "commit", "-q", "-m", "behind omh's back")
	if status(t, r.Dir).Fresh {
		t.Fatal("the cache is fresh without a refresh")
	}
	ok(t, r.Dir, "hooks", "run", "post-checkout", "abc", "abc", "0")
	if status(t, r.Dir).Fresh {
		t.Error("a checkout of files refreshed the cache")
	}
	ok(t, r.Dir, "hooks", "run", "post-rewrite", "amend")
	if status(t, r.Dir).Fresh {
		t.Error("an amend's post-rewrite refreshed the cache again")
	}
	rebasing := filepath.Join(r.Dir, ".git", "rebase-merge")
	os.Mkdir(rebasing, 0o755)
	ok(t, r.Dir, "hooks", "run", "post-commit")
	if status(t, r.Dir).Fresh {
		t.Error("a post-commit during a rebase refreshed the cache")
	}
	ok(t, r.Dir, "hooks", "run", "post-rewrite", "rebase")
	if !status(t, r.Dir).Fresh {
		t.Error("the rebase's post-rewrite did not refresh the cache")
	}
	os.Remove(rebasing)

	unused := vaulttest.New(t)
	unused.Write("a.md", "# A\n")
	unused.Commit(gitDate, "a")
	ok(t, unused.Dir, "hooks", "run", "post-commit")
	if _, err := os.Stat(filepath.Join(unused.Dir, ".git", "omh")); err == nil {
		t.Error("a hook made a cache in a repository omh was never used in")
	}
}

// A refresh facing more than store.DetachAbove changed notes runs detached and
// git returns at once; omh index then waits for it and the cache is at
// HEAD. And while another process holds the refresh lock, a hook neither
// waits for it nor loses the commit: a background refresh queues behind.
// Catches: a hook that blocks git for a long refresh or on a busy lock; a
// skipped refresh that leaves the cache behind HEAD.
func TestALongOrContendedRefreshRunsInTheBackground(t *testing.T) {
	r := hookRepo(t)
	for i := 0; i <= store.DetachAbove; i++ {
		r.Write(fmt.Sprintf("notes/many/n%03d.md", i), fmt.Sprintf("# Note %d\n\nA plankton count of %d.\n", i, i))
	}
	mustGit(t, r.Dir, "add", "-A")
	res := runGit(t, r.Dir, gitDate, "commit", "-q", "-m", "many")
	if res.status != 0 || !strings.Contains(res.stderr, fmt.Sprintf("%d notes changed; refreshing the cache in the background", store.DetachAbove+1)) {
		t.Fatalf("exit %d, stderr %q", res.status, res.stderr)
	}
	ok(t, r.Dir, "index") // the documented wait
	head := headOf(t, r.Dir)
	if st := status(t, r.Dir); !st.Fresh || *st.Indexed != head || st.Notes.Team != store.DetachAbove+3 {
		t.Errorf("after omh index: %+v", st)
	}
	sameAnswersAsARebuild(t, "detached refresh", []string{r.Dir}, [][]string{{"plankton", "count", "--roots", "3"}})

	// Hold the refresh lock as another omh process would.
	lock, err := os.OpenFile(filepath.Join(r.Dir, ".git", "omh", "refresh.lock"), os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	if err := syscall.Flock(int(lock.Fd()), syscall.LOCK_EX); err != nil {
		t.Fatal(err)
	}
	r.Write("notes/walrus.md", "# Walrus\n\nThe walrus sleeps on ice floes.\n")
	mustGit(t, r.Dir, "add", "-A")
	res, wait := startGit(t, r.Dir, gitDate, "commit", "-q", "-m", "floes") // returns although the lock is held
	t.Cleanup(wait)
	head = headOf(t, r.Dir)
	if res.status != 0 || res.stderr != "" {
		t.Fatalf("git commit: exit %d, stderr %q", res.status, res.stderr)
	}
	if st := status(t, r.Dir); st.Fresh {
		t.Error("the cache is fresh while the lock was held throughout")
	}
	lock.Close()
	// Only the refresh the hook queued can bring the cache to HEAD now.
	wait()
	if st := status(t, r.Dir); !st.Fresh || *st.Indexed != head {
		t.Errorf("the hook's queued refresh did not bring the cache to HEAD: %+v", st)
	}
	sameAnswersAsARebuild(t, "queued refresh", []string{r.Dir}, [][]string{{"walrus", "floes"}})
}

// repoFiles is every file of the working tree and of .git/hooks, with its
// mode: what omh init may change.
func repoFiles(t *testing.T, r *vaulttest.Repo) map[string]string {
	t.Helper()
	files := vaulttest.Tree(t, hooksDir(t, r.Dir))
	for p, v := range vaulttest.Files(t, r.Dir) {
		files[p] = v
	}
	return files
}

// omh init writes the config with the notes root, creates the folder,
// installs the hooks and says so; run again it changes nothing and says
// that. Catches: a second run that rewrites the config or a hook; a
// --notes that disagrees with the config overwriting it; a refusal that
// does not say what differs.
func TestInitSetsUpOnceAndThenChangesNothing(t *testing.T) {
	r := vaulttest.New(t)
	out := ok(t, r.Dir, "init", "--notes", "docs/notes")
	for _, want := range []string{"wrote .omh/config.yaml", "created the notes folder docs/notes/", "post-commit    installed"} {
		if !strings.Contains(out, want) {
			t.Errorf("omh init does not say %q:\n%s", want, out)
		}
	}
	cfg, err := os.ReadFile(filepath.Join(r.Dir, ".omh", "config.yaml"))
	if err != nil || !strings.Contains(string(cfg), "\nnotes: docs/notes\n") {
		t.Fatalf("config %q (%v)", cfg, err)
	}
	if fi, err := os.Stat(filepath.Join(r.Dir, "docs", "notes")); err != nil || !fi.IsDir() {
		t.Errorf("the notes folder was not created: %v", err)
	}
	if st := hooksStatus(t, r.Dir); states(st) != "post-commit=installed post-merge=installed post-checkout=installed post-rewrite=installed" {
		t.Errorf("hooks: %s", states(st))
	}
	r.Write("docs/notes/walrus.md", "# Walrus\n")
	r.Write("README.md", "# Not a note about the walrus\n")
	if reply := findJSON(t, r.Dir, "walrus"); len(reply.Hits) != 1 || reply.Hits[0].Key != "walrus" {
		t.Errorf("the notes root is not docs/notes: %+v", reply.Hits)
	}

	before := repoFiles(t, r)
	for _, args := range [][]string{{"init", "--notes", "docs/notes"}, {"init", "--notes", "./docs/notes/"}, {"init"}} {
		if out := ok(t, r.Dir, args...); !strings.Contains(out, "nothing changed") || !strings.Contains(out, "kept .omh/config.yaml") {
			t.Errorf("omh %v: %s", args, out)
		}
	}
	var rep struct{ Changed bool }
	if err := json.Unmarshal([]byte(ok(t, r.Dir, "init", "--json")), &rep); err != nil || rep.Changed {
		t.Errorf("omh init --json says changed: %v", err)
	}
	res := omh(t, r.Dir, "init", "--notes", "notes")
	if res.status != exitRefused || !strings.Contains(res.stderr, "notes root to docs/notes, and --notes asks for notes") {
		t.Errorf("a different --notes: exit %d, stderr %q", res.status, res.stderr)
	}
	vaulttest.SameTree(t, "omh init again", before, repoFiles(t, r))
}

// Without --notes the config names no notes root (the default rule
// applies), --no-hooks leaves the hooks alone, and a notes root outside
// the repository or a config omh cannot read is refused with nothing
// written.
func TestInitWithoutNotesOrHooksAndItsRefusals(t *testing.T) {
	r := vaulttest.New(t)
	for _, bad := range []string{"../elsewhere", "/", ".git/notes"} {
		if res := omh(t, r.Dir, "init", "--notes", bad); res.status != exitRefused || lines(res.stderr) != 1 {
			t.Errorf("--notes %s: exit %d, stderr %q", bad, res.status, res.stderr)
		}
	}
	if _, err := os.Stat(filepath.Join(r.Dir, ".omh")); err == nil {
		t.Fatal("a refused omh init wrote something")
	}
	out := ok(t, r.Dir, "init", "--no-hooks")
	if !strings.Contains(out, "notes root: the default") || !strings.Contains(out, "hooks left alone") {
		t.Errorf("%s", out)
	}
	if st := status(t, r.Dir); st.NotesRoot != "" {
		t.Errorf("notes root %q, want the repository root", st.NotesRoot)
	}
	if st := hooksStatus(t, r.Dir); states(st) != "post-commit=missing post-merge=missing post-checkout=missing post-rewrite=missing" {
		t.Errorf("--no-hooks installed hooks: %s", states(st))
	}
	if out := ok(t, r.Dir, "init", "--no-hooks"); !strings.Contains(out, "nothing changed") {
		t.Errorf("second run: %s", out)
	}
	r.Write(".omh/config.yaml", "notes: [a, b]\n")
	if res := omh(t, r.Dir, "init"); res.status != exitRefused || !strings.Contains(res.stderr, "notes") {
		t.Errorf("a bad config: exit %d, stderr %q", res.status, res.stderr)
	}
	if b, _ := os.ReadFile(filepath.Join(r.Dir, ".omh", "config.yaml")); string(b) != "notes: [a, b]\n" {
		t.Errorf("the bad config was rewritten: %q", b)
	}
}

// A hook that finds the cache damaged does not fail git and does not make
// it wait for a rebuild: it says so in one line and rebuilds in the
// background, after which the cache is at HEAD.
func TestAHookRebuildsADamagedCacheInTheBackground(t *testing.T) {
	r := hookRepo(t)
	files, _ := filepath.Glob(filepath.Join(r.Dir, ".git", "omh", "cache-*.db"))
	if len(files) != 1 {
		t.Fatalf("cache files %v", files)
	}
	for _, suffix := range []string{"-wal", "-shm"} {
		os.Remove(files[0] + suffix)
	}
	if err := os.WriteFile(files[0], bytes.Repeat([]byte("garbage!"), 4096), 0o644); err != nil {
		t.Fatal(err)
	}
	r.Write("notes/narwhal.md", "# Narwhal\n\nA narwhal memory.\n")
	mustGit(t, r.Dir, "add", "-A")
	res, wait := startGit(t, r.Dir, gitDate, "commit", "-q", "-m", "narwhal")
	t.Cleanup(wait)
	if res.status != 0 || lines(res.stderr) != 1 || !strings.Contains(res.stderr, "damaged") {
		t.Errorf("git commit: exit %d, stderr %q", res.status, res.stderr)
	}
	// Two processes replacing a damaged cache at once can lose the rebuild
	// (see TestConcurrentRepairsOfADamagedCacheAgree), so the background
	// rebuild is let finish before omh index runs.
	wait()
	ok(t, r.Dir, "index")
	head := headOf(t, r.Dir)
	if st := status(t, r.Dir); !st.Fresh || *st.Indexed != head {
		t.Errorf("after omh index: %+v", st)
	}
	sameAnswersAsARebuild(t, "rebuilt", []string{r.Dir}, [][]string{{"narwhal", "walrus"}})
}
