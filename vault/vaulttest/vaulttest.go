// Package vaulttest builds real git repositories in temporary folders for
// tests, driving the git command line the way a user would.
package vaulttest

import (
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// Repo is a git working tree made for one test.
type Repo struct {
	t   testing.TB
	Dir string
	// Private is the private notes folder of this repository: its git
	// config omh.local under Main, else OMH_LOCAL_DIR (Isolate).
	Private string
}

// isolated is set by Main: the whole test binary already runs in an
// isolated environment, so New leaves the environment alone (a test that
// sets one variable cannot run in parallel) and names each repository's
// private folder in its own git config instead.
var isolated bool

// Main runs a package's tests in an environment of their own: HOME, the
// XDG folders and git's global config point at a temporary home made for
// this run, and OMH_LOCAL_DIR and OMH_SOURCE are unset, so nothing of the
// developer's settings leaks in and no test needs t.Setenv to get that.
// Repositories New makes then give themselves a private folder through
// git config omh.local, so tests running in parallel never share one even
// when their root commits are the same. A package adopts it with
//
//	func TestMain(m *testing.M) { vaulttest.Main(m) }
//
// or calls Setup first when its TestMain does more.
func Main(m *testing.M) {
	cleanup, err := Setup()
	if err != nil {
		fmt.Fprintln(os.Stderr, "vaulttest:", err)
		os.Exit(1)
	}
	code := m.Run()
	cleanup()
	os.Exit(code)
}

// Setup isolates the process's environment as Main does and returns what
// removes the temporary home.
func Setup() (cleanup func(), err error) {
	home, err := os.MkdirTemp("", "vaulttest-home-")
	if err != nil {
		return nil, err
	}
	env := IsolatedEnv(home, "")
	for k, v := range goEnv() {
		env[k] = v
	}
	for k, v := range env {
		if v == "" {
			err = os.Unsetenv(k)
		} else {
			err = os.Setenv(k, v)
		}
		if err != nil {
			os.RemoveAll(home)
			return nil, err
		}
	}
	isolated = true
	return func() { os.RemoveAll(home) }, nil
}

// goEnv is where the go command keeps its caches and settings now, so
// that tests which run go (a build, go list) find them under the new home
// rather than building every dependency again in an empty cache.
func goEnv() map[string]string {
	env := map[string]string{}
	keep := func(name string, dflt func() (string, error)) {
		if v := os.Getenv(name); v != "" {
			env[name] = v
		} else if v, err := dflt(); err == nil && v != "" {
			env[name] = v
		}
	}
	keep("GOCACHE", func() (string, error) {
		dir, err := os.UserCacheDir()
		return filepath.Join(dir, "go-build"), err
	})
	keep("GOENV", func() (string, error) {
		dir, err := os.UserConfigDir()
		return filepath.Join(dir, "go", "env"), err
	})
	keep("GOPATH", func() (string, error) {
		home, err := os.UserHomeDir()
		return filepath.Join(home, "go"), err
	})
	keep("GOMODCACHE", func() (string, error) {
		return filepath.Join(filepath.SplitList(env["GOPATH"])[0], "pkg", "mod"), nil
	})
	return env
}

// Isolate points HOME, the XDG folders and git's global config at empty
// temporary folders, so a developer's own settings never leak into a test.
// It also sets OMH_LOCAL_DIR to a fresh private folder and returns it.
// Being t.Setenv, it keeps the test serial: tests of the environment
// itself use it; others run under Main.
func Isolate(t testing.TB) string {
	t.Helper()
	home := t.TempDir()
	for k, v := range IsolatedEnv(home, filepath.Join(home, "private")) {
		t.Setenv(k, v)
	}
	return os.Getenv("OMH_LOCAL_DIR")
}

// IsolatedEnv is the environment Isolate sets: HOME at home, the XDG
// folders and git's global config under it, private notes in private.
func IsolatedEnv(home, private string) map[string]string {
	return map[string]string{
		"HOME":                home,
		"XDG_CONFIG_HOME":     filepath.Join(home, ".config"),
		"XDG_DATA_HOME":       filepath.Join(home, ".local", "share"),
		"XDG_CACHE_HOME":      filepath.Join(home, ".cache"),
		"GIT_CONFIG_NOSYSTEM": "1",
		"GIT_CONFIG_GLOBAL":   filepath.Join(home, ".gitconfig"),
		"OMH_LOCAL_DIR":       private,
		"OMH_SOURCE":          "",
	}
}

// New makes an empty repository (no commits) in an isolated environment:
// under Main, with a private folder of its own in its git config, which a
// parallel test may use; otherwise, or when the test called Isolate
// itself, the private folder is OMH_LOCAL_DIR's.
func New(t testing.TB) *Repo {
	t.Helper()
	r := &Repo{t: t, Dir: t.TempDir()}
	own := isolated && os.Getenv("OMH_LOCAL_DIR") == ""
	switch {
	case own:
		r.Private = filepath.Join(t.TempDir(), "private")
	case isolated:
		r.Private = os.Getenv("OMH_LOCAL_DIR")
	default:
		r.Private = Isolate(t)
	}
	r.Git("init", "-q", "-b", "main")
	r.Git("config", "user.name", "Test Author")
	r.Git("config", "user.email", "author@example.com")
	r.Git("config", "commit.gpgsign", "false")
	if own {
		r.Git("config", "omh.local", r.Private)
	}
	return r
}

// SharePrivate gives the repository at dir (a clone of r, say) r's
// private folder, as OMH_LOCAL_DIR gave every repository of a test: git
// clone copies no config, and a clone left to the default folder, keyed by
// the root commit, would share it with other tests' clones of the same
// history. Under Isolate, OMH_LOCAL_DIR already does this, and it does
// nothing. A linked worktree shares its repository's config and needs no
// call.
func (r *Repo) SharePrivate(dir string) {
	r.t.Helper()
	if !isolated || os.Getenv("OMH_LOCAL_DIR") != "" {
		return
	}
	cmd := exec.Command("git", "-C", dir, "config", "omh.local", r.Private)
	if out, err := cmd.CombinedOutput(); err != nil {
		r.t.Fatalf("git config omh.local in %s: %v\n%s", dir, err, out)
	}
}

// Git runs git in the repository and returns its trimmed output.
func (r *Repo) Git(args ...string) string {
	r.t.Helper()
	return r.GitAt("2026-01-01T12:00:00Z", args...)
}

// GitAt runs git with author and committer dates set to date.
func (r *Repo) GitAt(date string, args ...string) string {
	r.t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = r.Dir
	cmd.Env = append(os.Environ(), "GIT_AUTHOR_DATE="+date, "GIT_COMMITTER_DATE="+date)
	out, err := cmd.CombinedOutput()
	if err != nil {
		r.t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return strings.TrimSpace(string(out))
}

// GitResult is one run of the git command line by RunGit or StartGit.
type GitResult struct {
	Stdout, Stderr string
	Status         int
}

// RunGit runs git in dir with author and committer dates set to date, the
// way a person would, hooks and all, and returns what it printed and its
// exit status once every process the command left running has exited too
// (the refresh a hook starts in the background: see StartGit), so what
// the hooks did is done.
func RunGit(t testing.TB, dir, date string, args ...string) GitResult {
	t.Helper()
	res, wait := StartGit(t, dir, date, args...)
	wait()
	return res
}

// StartGit runs git like RunGit and also returns a function that waits
// until every process the command started has exited, a refresh a hook
// detached included: each inherits the write end of a pipe, and reading the
// other end meets its end only when the last of them is gone. Tests wait
// for a refresh the documented way, with omh index; this wait is for
// cleaning up, and for proving what a detached refresh did by itself.
func StartGit(t testing.TB, dir, date string, args ...string) (GitResult, func()) {
	t.Helper()
	rd, wr, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_AUTHOR_DATE="+date, "GIT_COMMITTER_DATE="+date)
	cmd.ExtraFiles = []*os.File{wr}
	var stdout, stderr strings.Builder
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
	res := GitResult{stdout.String(), stderr.String(), 0}
	if err != nil {
		exit, ok := err.(*exec.ExitError)
		if !ok {
			wait()
			t.Fatalf("git %s: %v", strings.Join(args, " "), err)
		}
		res.Status = exit.ExitCode()
	}
	return res, wait
}

// MustGit runs git like RunGit and fails the test unless it exits 0,
// returning its trimmed standard output.
func MustGit(t testing.TB, dir, date string, args ...string) string {
	t.Helper()
	res := RunGit(t, dir, date, args...)
	if res.Status != 0 {
		t.Fatalf("git %s: exit %d\n%s%s", strings.Join(args, " "), res.Status, res.Stdout, res.Stderr)
	}
	return strings.TrimSpace(res.Stdout)
}

// CommitAll stages everything in dir and commits it at date through
// MustGit, so the hooks run as they would for a person, and returns the
// new commit's id.
func CommitAll(t testing.TB, dir, date, message string) string {
	t.Helper()
	MustGit(t, dir, date, "add", "-A")
	MustGit(t, dir, date, "commit", "-q", "--allow-empty", "-m", message)
	return Head(t, dir)
}

// Head is the id of the commit HEAD names in dir.
func Head(t testing.TB, dir string) string {
	t.Helper()
	return MustGit(t, dir, "", "rev-parse", "HEAD")
}

// Write creates or replaces a file of the working tree.
func (r *Repo) Write(path, content string) {
	r.t.Helper()
	WriteFile(r.t, filepath.Join(r.Dir, filepath.FromSlash(path)), content)
}

// Settle dates every file of the working tree and of the private folder
// an hour back, as in a vault last edited a while ago: a scan checks a file
// changed within the last moments again every time (its stat data cannot
// yet tell a later change), so its memory never settles.
func (r *Repo) Settle() {
	r.t.Helper()
	at := time.Now().Add(-time.Hour)
	for _, dir := range []string{r.Dir, r.Private} {
		err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() && d.Name() == ".git" {
				return err
			}
			if d.IsDir() {
				return nil
			}
			return os.Chtimes(path, at, at)
		})
		if err != nil && !os.IsNotExist(err) {
			r.t.Fatal(err)
		}
	}
}

// Remove deletes a file of the working tree.
func (r *Repo) Remove(path string) {
	r.t.Helper()
	if err := os.Remove(filepath.Join(r.Dir, filepath.FromSlash(path))); err != nil {
		r.t.Fatal(err)
	}
}

// Commit stages everything and commits it at date (RFC 3339), returning
// the new commit's id.
func (r *Repo) Commit(date, message string) string {
	r.t.Helper()
	r.GitAt(date, "add", "-A")
	r.GitAt(date, "commit", "-q", "--allow-empty", "-m", message)
	return r.Git("rev-parse", "HEAD")
}

// Conflict leaves path in a merge conflict on main: a branch commits
// theirs, main commits ours, and main merges the branch, which must
// conflict (the file then holds git's markers).
func (r *Repo) Conflict(path, ours, theirs string) {
	r.t.Helper()
	r.Git("switch", "-q", "-c", "theirs")
	r.Write(path, theirs)
	r.Commit("2026-01-03T10:00:00Z", "theirs")
	r.Git("switch", "-q", "main")
	r.Write(path, ours)
	r.Commit("2026-01-04T10:00:00Z", "ours")
	if res := RunGit(r.t, r.Dir, "2026-01-05T10:00:00Z", "merge", "-q", "theirs"); res.Status == 0 {
		r.t.Fatal("the merge did not conflict")
	}
}

// CopyTree copies the regular files under from to to, keeping their modes,
// so a test can save a folder (a cache, say) and restore it before each try.
func CopyTree(t testing.TB, from, to string) {
	t.Helper()
	err := filepath.WalkDir(from, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(from, path)
		if err != nil {
			return err
		}
		dest := filepath.Join(to, rel)
		if d.IsDir() {
			return os.MkdirAll(dest, 0o755)
		}
		if !d.Type().IsRegular() {
			return nil
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		content, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(dest, content, info.Mode().Perm())
	})
	if err != nil {
		t.Fatalf("copying %s to %s: %v", from, to, err)
	}
}

// WriteFile writes content to path, creating its folders.
func WriteFile(t testing.TB, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// Read returns a file's content, failing the test when it cannot.
func Read(t testing.TB, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// Files reads every regular file under dirs, leaving out git's own folder,
// so a test can prove a command changed no note.
func Files(t testing.TB, dirs ...string) map[string]string {
	t.Helper()
	files := map[string]string{}
	for _, dir := range dirs {
		filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return nil
			}
			if d.IsDir() && d.Name() == ".git" {
				return filepath.SkipDir
			}
			if d.Type().IsRegular() {
				b, _ := os.ReadFile(path)
				files[path] = string(b)
			}
			return nil
		})
	}
	return files
}

// Tree is every file under dir with its mode and content (a link's
// target), so a test can prove nothing in a folder changed.
func Tree(t testing.TB, dir string) map[string]string {
	t.Helper()
	files := map[string]string{}
	filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return nil
		}
		fi, err := os.Lstat(path)
		if err != nil {
			return nil
		}
		content := ""
		if fi.Mode()&fs.ModeSymlink != 0 {
			content, _ = os.Readlink(path)
		} else {
			b, _ := os.ReadFile(path)
			content = string(b)
		}
		files[path] = fmt.Sprintf("%v %s", fi.Mode(), content)
		return nil
	})
	return files
}

// SameTree fails the test for each file of before that changed or is gone
// in after, and each file after adds.
func SameTree(t testing.TB, what string, before, after map[string]string) {
	t.Helper()
	for p, v := range before {
		if after[p] != v {
			t.Errorf("%s: %s changed: %q → %q", what, p, v, after[p])
		}
	}
	for p := range after {
		if _, ok := before[p]; !ok {
			t.Errorf("%s: %s appeared", what, p)
		}
	}
}
