package vaulttest

import (
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
)

func TestMain(m *testing.M) { Main(m) }

// A repository New makes holds the settings git config reads back: the
// author, no signing, its own private folder; a value with the characters
// git's config file quotes reads back as written, and Commit returns the
// commit HEAD names. Catches: New writing its config file by hand in a
// form git reads otherwise, or not at all.
func TestNewConfiguresTheRepositoryAsGitConfigWould(t *testing.T) {
	t.Parallel()
	r := New(t)
	for key, want := range map[string]string{"user.name": "Test Author", "user.email": "author@example.com",
		"commit.gpgsign": "false", "omh.local": r.Private} {
		if got := r.Git("config", key); got != want {
			t.Errorf("git config %s: %q, want %q", key, got, want)
		}
	}
	odd := `C:\notes "mine"; #1 \t`
	path := filepath.Join(t.TempDir(), "config")
	WriteFile(t, path, "[omh]\n\tlocal = "+configValue(odd)+"\n")
	if out, err := exec.Command("git", "config", "--file", path, "omh.local").Output(); err != nil || strings.TrimSuffix(string(out), "\n") != odd {
		t.Errorf("git reads %q back as %q (%v)", odd, out, err)
	}
	r.Write("a.md", "# A\n")
	if id, head := r.Commit("2026-01-02T10:00:00Z", "a"), Head(t, r.Dir); id != head {
		t.Errorf("Commit returned %s; HEAD is %s", id, head)
	}
	if _, err := os.Stat(filepath.Join(r.Dir, ".git", "refs", "heads", "main")); err != nil {
		t.Errorf("the branch has no file of its own, so Commit asked git: %v", err)
	}
}

// Under Main a package runs testsPerProcessor parallel tests per
// processor, unless the command line says how many. Catches: the default
// set after the flags were read, where go test's one per processor wins.
func TestMainRunsSeveralTestsPerProcessor(t *testing.T) {
	t.Parallel()
	for _, arg := range os.Args[1:] {
		if strings.HasPrefix(arg, "-test.parallel") {
			t.Skipf("the command line sets %s", arg)
		}
	}
	want := strconv.Itoa(testsPerProcessor * runtime.GOMAXPROCS(0))
	if got := flag.Lookup("test.parallel").Value.String(); got != want {
		t.Errorf("-test.parallel is %s, want %s", got, want)
	}
}
