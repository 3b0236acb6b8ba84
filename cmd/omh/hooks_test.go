package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/omh-notes/omh/hooks"
	"github.com/omh-notes/omh/store"
	"github.com/omh-notes/omh/vault/vaulttest"
)

// omhBin is the omh built for this run of the tests. Its folder leads PATH,
// so the hooks git runs find it the way they find it on a user's machine.
var omhBin string

func TestMain(m *testing.M) {
	cleanup, err := vaulttest.Setup()
	if err == nil {
		var code int
		code, err = runWithOmh(m)
		cleanup()
		if err == nil {
			os.Exit(code)
		}
	}
	fmt.Fprintln(os.Stderr, err)
	os.Exit(1)
}

// runWithOmh builds omh, puts it first on PATH and runs the tests.
func runWithOmh(m *testing.M) (int, error) {
	dir, err := os.MkdirTemp("", "omh-test-bin-")
	if err != nil {
		return 0, err
	}
	defer os.RemoveAll(dir)
	omhBin = filepath.Join(dir, "omh")
	goTool := "go"
	if _, err := exec.LookPath(goTool); err != nil {
		goTool = filepath.Join(os.Getenv("GOROOT"), "bin", "go")
	}
	// The tests run in the package's folder: "." is cmd/omh. The
	// crashpoints tag turns on the crash switches a test kills omh with.
	build := exec.Command(goTool, "build", "-tags", "crashpoints", "-o", omhBin, ".")
	build.Stdout, build.Stderr = os.Stderr, os.Stderr
	if err := build.Run(); err != nil {
		return 0, fmt.Errorf("building omh for the hook tests: %w", err)
	}
	os.Setenv("PATH", dir+string(os.PathListSeparator)+os.Getenv("PATH"))
	// A hook run in-process must detach the omh just built, not the test
	// binary.
	background = func(args ...string) error { return store.Detach(omhBin, args...) }
	return m.Run(), nil
}

// runGit runs git in dir the way a person would, hooks and all, waiting
// at the test's end for what the command left running.
func runGit(t testing.TB, dir, date string, args ...string) vaulttest.GitResult {
	t.Helper()
	return vaulttest.RunGit(t, dir, date, args...)
}

const gitDate = "2026-01-01T12:00:00Z"

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
	t.Parallel()
	for _, where := range []string{"default", "local core.hooksPath", "linked worktree"} {
		t.Run(where, func(t *testing.T) {
			t.Parallel()
			r := vaulttest.New(t)
			r.Write("notes/walrus.md", "# Walrus\n")
			r.Commit("2026-01-02T10:00:00Z", "first")
			dir, want := r.Dir, hooksDir(t, r.Dir)
			switch where {
			case "local core.hooksPath":
				want = filepath.Join(r.Dir, ".git", "my-hooks")
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
			head := vaulttest.CommitAll(t, dir, "2026-01-03T10:00:00Z", "narwhal")
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
	t.Parallel()
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
	second := vaulttest.CommitAll(t, r.Dir, gitDate, "heron")
	if res := runGit(t, r.Dir, gitDate, "checkout", "-q", first); res.Status != 1 {
		t.Errorf("git checkout exited %d, want 1 from the user's failing hook (stderr %q)", res.Status, res.Stderr)
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
	t.Parallel()
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
	t.Parallel()
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
// on PATH (that line), with an omh that fails and with a store omh refuses
// (nothing: omh runs in the background, its output on /dev/null; run by
// hand, omh hooks run --detached says one line and exits 0). Catches: a
// shim that exits non-zero (git checkout would fail), that prints a stack
// of lines, that lets omh's output reach git's late, or that swallows the
// user's hook's status.
func TestAHookNeverFailsGit(t *testing.T) {
	t.Parallel()
	r := hookRepo(t)
	noOmh := t.TempDir()
	loud := t.TempDir()
	vaulttest.WriteFile(t, filepath.Join(loud, "omh"), "#!/bin/sh\necho one >&2\nexit 3\n")
	os.Chmod(filepath.Join(loud, "omh"), 0o755)
	for _, c := range []struct{ name, path, said string }{
		{"omh missing", noOmh + ":/usr/bin:/bin:/usr/local/bin", "omh: post-checkout hook: omh is not on PATH; the next omh command refreshes the cache\n"},
		{"omh failing", loud + ":" + os.Getenv("PATH"), ""},
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
		if res.Status != 0 || res.Stderr != "" {
			t.Errorf("git commit: exit %d, stderr %q", res.Status, res.Stderr)
		}
		res2 := omh(t, r.Dir, "hooks", "run", "--detached", "post-merge", "0")
		if res2.status != 0 || lines(res2.stderr) != 1 || !strings.Contains(res2.stderr, "post-merge hook") {
			t.Errorf("omh hooks run --detached: exit %d, stderr %q", res2.status, res2.stderr)
		}
	})
	t.Run("no such hook", func(t *testing.T) {
		if res := omh(t, r.Dir, "hooks", "run", "pre-push"); res.status != 0 || lines(res.stderr) != 1 {
			t.Errorf("exit %d, stderr %q", res.status, res.stderr)
		}
	})
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
	t.Parallel()
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
	t.Parallel()
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

// Since shim version 2 nothing cuts what omh hooks run writes to git's
// standard error: it keeps to one line itself, through firstLine, and a
// panic becomes that line rather than a stack. Catches: a second warning,
// or a line written in pieces, reaching git's output past the first line;
// a short write count stopping the writer early; a crash printed whole.
func TestAHookRunSaysAtMostOneLine(t *testing.T) {
	t.Parallel()
	var out bytes.Buffer
	w := &firstLine{w: &out}
	for _, p := range []string{"omh: a warning ", "in two writes\nthen more", " and more\n", "omh: another\n"} {
		if n, err := w.Write([]byte(p)); n != len(p) || err != nil {
			t.Errorf("Write(%q) = %d, %v; want %d, nil", p, n, err, len(p))
		}
	}
	if got, want := out.String(), "omh: a warning in two writes\n"; got != want {
		t.Errorf("passed on %q, want %q", got, want)
	}
	err := noPanic(func() error { panic("a bug") })
	if err == nil || err.Error() != "omh crashed: a bug" {
		t.Errorf("a panic came back as %v", err)
	}
	if err := noPanic(func() error { return nil }); err != nil {
		t.Errorf("no panic came back as %v", err)
	}
}
