package hooks

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/omh-notes/omh/journal"
	"github.com/omh-notes/omh/vault/gitrepo"
	"github.com/omh-notes/omh/vault/vaulttest"
)

// place finds the hooks folder of the repository at dir.
func place(t *testing.T, dir string) *Place {
	t.Helper()
	r, err := gitrepo.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	p, err := FindPlace(r)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// install installs the hooks through the journal, as omh does.
func install(t *testing.T, dir string) *Report {
	t.Helper()
	return throughJournal(t, dir, "omh hooks install", (*Place).Install)
}

// throughJournal runs Install or Uninstall with a journal and commits it.
func throughJournal(t *testing.T, dir, command string, do func(*Place, Writer) (*Report, error)) *Report {
	t.Helper()
	p := place(t, dir)
	r, err := gitrepo.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	tx, err := journal.Begin(r.CommonDir, r.Root, "", command, journal.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Close()
	rep, err := do(p, tx)
	if err == nil {
		err = tx.Commit()
	}
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

func uninstall(t *testing.T, dir string) *Report {
	t.Helper()
	return throughJournal(t, dir, "omh hooks uninstall", (*Place).Uninstall)
}

func status(t *testing.T, dir string) *Report {
	t.Helper()
	rep, err := place(t, dir).Status()
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

// states lists each hook's state in the order of Names.
func states(rep *Report) string {
	var s []string
	for _, h := range rep.Hooks {
		s = append(s, h.Name+"="+string(h.State))
	}
	return strings.Join(s, " ")
}

func gitHooks(dir string) string { return filepath.Join(dir, ".git", "hooks") }

// runGit runs git in dir with a PATH that has no omh, returning its exit
// status: the shims then say omh is missing and keep the user's status.
func runGit(t *testing.T, dir string, args ...string) int {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "PATH=/usr/bin:/bin:/usr/local/bin", "GIT_AUTHOR_DATE=2026-01-02T10:00:00Z",
		"GIT_COMMITTER_DATE=2026-01-02T10:00:00Z")
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	if exit, ok := err.(*exec.ExitError); ok {
		return exit.ExitCode()
	}
	if err != nil {
		t.Fatalf("git %v: %v", args, err)
	}
	return 0
}

// The shims kept in the repository's .githooks are exactly what install
// writes, so a person may use either. Catches: editing one and not the
// other; a shim that is not executable or not valid sh.
func TestTheRepositoryShimsAreTheInstalledOnes(t *testing.T) {
	t.Parallel()
	for _, name := range Names {
		path := filepath.Join("..", ".githooks", name)
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if string(b) != Shim(name) {
			t.Errorf("%s differs from what omh hooks install writes:\n%s", path, Shim(name))
		}
		if fi, err := os.Stat(path); err != nil {
			t.Errorf("%s: %v", path, err)
		} else if fi.Mode()&0o111 != 0o111 {
			t.Errorf("%s is not executable by everyone: %v", path, fi.Mode())
		}
		if out, err := exec.Command("sh", "-n", path).CombinedOutput(); err != nil {
			t.Errorf("%s: sh -n: %v %s", path, err, out)
		}
		if !strings.Contains(string(b), `exec $lower omh hooks run --detached `+name+` "$@"`) || !strings.Contains(string(b), ") </dev/null >/dev/null 2>&1 &") || !isShim(b) {
			t.Errorf("%s does not start omh hooks run --detached %s \"$@\" in the background under a version header", path, name)
		}
	}
}

// Install writes into the folder git runs hooks from, wherever that is,
// executable, and a second install changes nothing. Catches: hard-coding
// .git/hooks (core.hooksPath, a linked worktree's git directory); a shim
// git cannot run (mode); a second install that rewrites anything.
func TestInstallUsesTheFolderGitReports(t *testing.T) {
	t.Parallel()
	for _, where := range []string{"default", "local core.hooksPath", "linked worktree"} {
		t.Run(where, func(t *testing.T) {
			t.Parallel()
			r := vaulttest.New(t)
			r.Write("notes/walrus.md", "# Walrus\n")
			r.Commit("2026-01-02T10:00:00Z", "first")
			dir, want := r.Dir, gitHooks(r.Dir)
			switch where {
			case "local core.hooksPath":
				want = filepath.Join(r.Dir, ".git", "my-hooks")
				r.Git("config", "core.hooksPath", want)
			case "linked worktree":
				dir = filepath.Join(t.TempDir(), "wt")
				r.Git("worktree", "add", "-q", "-b", "other", dir)
			}
			if rep := install(t, dir); !*rep.Changed || rep.HooksDir != want {
				t.Errorf("install: changed %v in %s, want %s", *rep.Changed, rep.HooksDir, want)
			}
			for _, name := range Names {
				path := filepath.Join(want, name)
				b, err := os.ReadFile(path)
				if err != nil || string(b) != Shim(name) {
					t.Fatalf("%s not installed in %s (%v)", name, want, err)
				}
				if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o755 {
					t.Errorf("%s has mode %v", path, fi.Mode())
				}
			}
			before := vaulttest.Tree(t, want)
			if rep := install(t, dir); *rep.Changed {
				t.Errorf("a second install changed something: %+v", rep.Hooks)
			}
			vaulttest.SameTree(t, "second install", before, vaulttest.Tree(t, want))
			if st := status(t, dir); st.HooksDir != want || states(st) != "post-commit=installed post-merge=installed post-checkout=installed post-rewrite=installed" {
				t.Errorf("status: %s in %s", states(st), st.HooksDir)
			}
		})
	}
}

// A user's hook is never overwritten: it is chained, runs first with git's
// arguments and standard input, keeps its exit status, and uninstall puts
// it back byte for byte with its mode. Catches: overwriting; running the
// user's hook after the shim's part or not at all; losing its status (git
// checkout exits 1 when post-checkout fails); a restore that changes bytes
// or mode; a second install or uninstall that changes anything.
func TestInstallChainsAUsersHookAndUninstallRestoresIt(t *testing.T) {
	t.Parallel()
	r := vaulttest.New(t)
	r.Write("notes/walrus.md", "# Walrus\n")
	first := r.Commit("2026-01-02T10:00:00Z", "first")
	dir := gitHooks(r.Dir)
	log := filepath.Join(t.TempDir(), "log")
	users := map[string]string{
		"post-checkout": "#!/bin/sh\necho \"checkout $*\" >> " + log + "\nexit 7\n",
		"post-rewrite":  "#!/bin/sh\necho \"rewrite $* $(cat)\" >> " + log + "\n",
	}
	for name, text := range users {
		vaulttest.WriteFile(t, filepath.Join(dir, name), text)
		os.Chmod(filepath.Join(dir, name), 0o750)
	}
	original := vaulttest.Tree(t, dir)

	if got := states(install(t, r.Dir)); got != "post-commit=installed post-merge=installed post-checkout=chained post-rewrite=chained" {
		t.Errorf("install: %s", got)
	}
	for name, text := range users {
		if b, _ := os.ReadFile(filepath.Join(dir, name+ChainedSuffix)); string(b) != text {
			t.Errorf("%s was not moved aside intact: %q", name, b)
		}
	}
	installed := vaulttest.Tree(t, dir)
	if rep := install(t, r.Dir); *rep.Changed {
		t.Errorf("a second install changed something: %+v", rep.Hooks)
	}
	vaulttest.SameTree(t, "second install", installed, vaulttest.Tree(t, dir))

	r.Write("notes/heron.md", "# Heron\n")
	second := r.Commit("2026-01-03T10:00:00Z", "heron")
	// git checkout fails (exit 1) when post-checkout does, as it does with
	// the user's hook alone; the shim itself exits with the hook's 7.
	if status := runGit(t, r.Dir, "checkout", "-q", first); status != 1 {
		t.Errorf("git checkout exited %d, want 1 from the user's failing hook", status)
	}
	runGit(t, r.Dir, "checkout", "-q", "main")
	shimRun := exec.Command(filepath.Join(dir, "post-checkout"), first, first, "0")
	shimRun.Dir = r.Dir
	if err := shimRun.Run(); err == nil || shimRun.ProcessState.ExitCode() != 7 {
		t.Errorf("the shim exited %v, want the user's hook's 7", err)
	}
	r.Write("notes/heron.md", "# Heron, amended\n")
	runGit(t, r.Dir, "commit", "-q", "-a", "--amend", "-m", "heron amended")
	amended := r.Git("rev-parse", "HEAD")
	b, _ := os.ReadFile(log)
	want := fmt.Sprintf("checkout %s %s 1\ncheckout %s %s 1\ncheckout %s %s 0\nrewrite amend %s %s\n", second, first, first, second, first, first, second, amended)
	if string(b) != want {
		t.Errorf("the user's hooks saw:\n%s\nwant:\n%s", b, want)
	}

	if rep := uninstall(t, r.Dir); !*rep.Changed {
		t.Error("uninstall changed nothing")
	}
	vaulttest.SameTree(t, "uninstall", original, vaulttest.Tree(t, dir))
	if rep := uninstall(t, r.Dir); *rep.Changed {
		t.Errorf("a second uninstall changed something: %+v", rep.Hooks)
	}
	if st := status(t, r.Dir); states(st) != "post-commit=missing post-merge=missing post-checkout=missing post-rewrite=missing" {
		t.Errorf("after uninstall: %s", states(st))
	}
}

// Install never moves a user's hook over another file: when the chained
// name is taken it refuses for that hook and changes nothing there.
func TestInstallRefusesWhenTheChainedNameIsTaken(t *testing.T) {
	t.Parallel()
	r := vaulttest.New(t)
	dir := gitHooks(r.Dir)
	vaulttest.WriteFile(t, filepath.Join(dir, "post-merge"), "#!/bin/sh\necho mine\n")
	vaulttest.WriteFile(t, filepath.Join(dir, "post-merge"+ChainedSuffix), "#!/bin/sh\necho older\n")
	before := vaulttest.Tree(t, dir)
	rep := install(t, r.Dir)
	if !rep.Refused() || !strings.Contains(rep.Hooks[1].Note, "post-merge.omh-chained already exists") {
		t.Errorf("%+v", rep.Hooks[1])
	}
	after := vaulttest.Tree(t, dir)
	for _, name := range []string{"post-merge", "post-merge" + ChainedSuffix} {
		p := filepath.Join(dir, name)
		if after[p] != before[p] {
			t.Errorf("%s changed", name)
		}
	}
}

// Where a hook manager owns the hooks, nothing is written and the line to
// add is reported. Catches: writing into husky's folder, a global hooks
// folder every repository shares, or over the pre-commit framework's
// script; reporting nothing a person can act on.
func TestInstallLeavesManagedHooksAlone(t *testing.T) {
	cases := []struct {
		name, manager string
		setup         func(t *testing.T, r *vaulttest.Repo) string // returns the folder to watch
	}{
		{"husky", "husky", func(t *testing.T, r *vaulttest.Repo) string {
			r.Write(".husky/_/h", "#!/usr/bin/env sh\n")
			r.Write(".husky/pre-commit", "npm test\n")
			r.Git("config", "core.hooksPath", ".husky/_")
			return filepath.Join(r.Dir, ".husky")
		}},
		{"pre-commit", "pre-commit", func(t *testing.T, r *vaulttest.Repo) string {
			for _, name := range Names {
				vaulttest.WriteFile(t, filepath.Join(gitHooks(r.Dir), name), "#!/usr/bin/env bash\n# File generated by pre-commit: https://pre-commit.com\n# ID: 138fd403232d2ddd5efb44317e38bf03\n")
			}
			return gitHooks(r.Dir)
		}},
		{"global core.hooksPath", "global core.hooksPath", func(t *testing.T, r *vaulttest.Repo) string {
			shared := filepath.Join(t.TempDir(), "shared-hooks")
			vaulttest.WriteFile(t, filepath.Join(shared, "post-commit"), "#!/bin/sh\necho shared\n")
			r.Git("config", "--global", "core.hooksPath", shared)
			return shared
		}},
		// A local core.hooksPath outside the repository was written into,
		// reaching every repository that shares the folder.
		{"local core.hooksPath outside the repository", "outside the repository", func(t *testing.T, r *vaulttest.Repo) string {
			shared := filepath.Join(t.TempDir(), "my-hooks")
			vaulttest.WriteFile(t, filepath.Join(shared, "post-commit"), "#!/bin/sh\necho mine\n")
			r.Git("config", "core.hooksPath", shared)
			return shared
		}},
		{"hooks committed in the working tree", "working tree", func(t *testing.T, r *vaulttest.Repo) string {
			r.Write("tools/hooks/post-merge", "#!/bin/sh\necho team hook\n")
			r.Git("config", "core.hooksPath", "tools/hooks")
			return filepath.Join(r.Dir, "tools")
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if c.name == "global core.hooksPath" {
				// Serial, with a home of its own: it writes git's global
				// config, which every other test's git reads.
				vaulttest.Isolate(t)
			} else {
				t.Parallel()
			}
			r := vaulttest.New(t)
			watched := c.setup(t, r)
			before, inGit := vaulttest.Tree(t, watched), vaulttest.Tree(t, gitHooks(r.Dir))
			rep := install(t, r.Dir)
			if rep.Refused() || *rep.Changed {
				t.Fatalf("install: %+v", rep)
			}
			vaulttest.SameTree(t, "install", before, vaulttest.Tree(t, watched))
			vaulttest.SameTree(t, "install (.git/hooks)", inGit, vaulttest.Tree(t, gitHooks(r.Dir)))
			for _, h := range status(t, r.Dir).Hooks {
				if h.State != Managed || !strings.Contains(h.Manager, c.manager) || h.Add == "" || h.AddTo == "" {
					t.Fatalf("%s: %+v", h.Name, h)
				}
				if !strings.Contains(h.Add, "omh hooks run "+h.Name) {
					t.Errorf("%s: the line to add %q does not run omh", h.Name, h.Add)
				}
				if c.name == "husky" && h.Name == "post-commit" && !strings.HasSuffix(h.AddTo, filepath.Join(".husky", "post-commit")) {
					t.Errorf("husky: add to %s, want .husky/post-commit", h.AddTo)
				}
			}
		})
	}
}

// A hook that reaches a manager's file already calling omh is reported as
// such, with no line to add.
func TestAManagedHookThatCallsOmhNeedsNothing(t *testing.T) {
	t.Parallel()
	r := vaulttest.New(t)
	r.Write(".husky/post-commit", managerLine("post-commit")+"\n")
	r.Git("config", "core.hooksPath", ".husky")
	st := status(t, r.Dir)
	if h := st.Hooks[0]; h.State != Managed || !h.CallsOmh || h.Add != "" {
		t.Errorf("%+v", h)
	}
	if h := st.Hooks[1]; h.CallsOmh || h.Add == "" {
		t.Errorf("%+v", h)
	}
}

// The shim starts omh only once git, its parent, has exited: the shim is
// run by a parent that then waits on its standard input, and an omh on
// PATH records whether that parent was alive when it started. While the
// parent waits, no omh starts; once it exits, omh does. Catches: the
// background refresh starting while git finishes the commit, taking the
// CPU from it on a busy machine (1.13× the cost of an empty hook).
func TestTheShimStartsOmhOnlyOnceGitHasExited(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	record, pidFile := filepath.Join(dir, "record"), filepath.Join(dir, "pid")
	vaulttest.WriteFile(t, filepath.Join(dir, "bin", "omh"), `#!/bin/sh
if kill -0 "$(cat "$PIDFILE")" 2>/dev/null; then s=alive; else s=gone; fi
echo "$s $*" > "$RECORD.tmp" && mv "$RECORD.tmp" "$RECORD"
`)
	shim := filepath.Join(dir, "post-commit")
	vaulttest.WriteFile(t, shim, Shim("post-commit"))
	for _, f := range []string{shim, filepath.Join(dir, "bin", "omh")} {
		if err := os.Chmod(f, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	parent := exec.Command("sh", "-c", `echo $$ > "$PIDFILE"; "$0" arg; echo returned; read -r line || true`, shim)
	parent.Env = append(os.Environ(), "PATH="+filepath.Join(dir, "bin")+":/usr/bin:/bin", "RECORD="+record, "PIDFILE="+pidFile)
	stdin, err := parent.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := parent.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := parent.Start(); err != nil {
		t.Fatal(err)
	}
	var line string
	if _, err := fmt.Fscan(stdout, &line); err != nil || line != "returned" {
		t.Fatalf("the parent said %q, %v", line, err)
	}
	// An omh started at once records "alive" while the parent waits; one
	// that waits for the parent (up to 10 s) records nothing in the 2 s
	// given here. A slow machine can only pass a broken shim, never fail a
	// good one.
	for i := 0; i < 200; i++ {
		if b, err := os.ReadFile(record); err == nil {
			t.Fatalf("omh started while git was still running: %q", b)
		}
		time.Sleep(10 * time.Millisecond)
	}
	stdin.Close()
	if err := parent.Wait(); err != nil {
		t.Fatal(err)
	}
	if got := waitForFile(t, record); got != "gone hooks run --detached post-commit arg\n" {
		t.Errorf("omh started with %q, want it started once its parent had exited", got)
	}
}

// waitForFile returns the content of path once it exists: what a process
// left running in the background wrote.
func waitForFile(t *testing.T, path string) string {
	t.Helper()
	for i := 0; i < 6000; i++ {
		if b, err := os.ReadFile(path); err == nil {
			return string(b)
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("%s was never written", path)
	return ""
}
