package index_test

import (
	"fmt"
	"os"
	"os/exec"
	"testing"

	"github.com/omh-notes/omh/index"
	"github.com/omh-notes/omh/internal/crashpoint"
	"github.com/omh-notes/omh/vault/gitrepo"
	"github.com/omh-notes/omh/vault/vaulttest"
)

// TestMain runs the tests with this test binary first on PATH as omh
// (vaulttest.MainWithOmh): started under that name it does one thing to
// the cache of a working tree and exits (see runHelper), for the tests
// that kill a refresh at a crash point: index.CrashEnv exits the whole
// process, so it must not be the process of the test.
func TestMain(m *testing.M) {
	vaulttest.MainWithOmh(m, func() int {
		crashpoint.Enable()
		if len(os.Args) != 3 {
			fmt.Fprintln(os.Stderr, "helper: want MODE DIR")
			return 2
		}
		if err := runHelper(os.Args[1], os.Args[2]); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		return 0
	})
}

// runHelper does mode ("fresh" or "rebuild") to the cache of the working
// tree at dir.
func runHelper(mode, dir string) error {
	repo, err := gitrepo.Open(dir)
	if err != nil {
		return err
	}
	defer repo.Close()
	c, err := index.Open(repo.CommonDir)
	if err != nil {
		return err
	}
	defer func() { c.Close() }()
	switch mode {
	case "fresh":
		s, _, err := c.Fresh(repo, index.Options{})
		if err != nil {
			return err
		}
		return s.Close()
	case "rebuild":
		c, _, err = c.Rebuild(repo, index.Options{})
		return err
	}
	return fmt.Errorf("unknown helper mode %q", mode)
}

// helper runs the test binary as omh in a helper mode on the working tree
// at dir, with extra environment variables, and returns its exit status.
func helper(t *testing.T, mode, dir string, env ...string) (status int, stderr string) {
	t.Helper()
	cmd := exec.Command(vaulttest.Omh(t), mode, dir)
	cmd.Env = append(os.Environ(), env...)
	out, err := cmd.CombinedOutput()
	if exit, ok := err.(*exec.ExitError); ok {
		return exit.ExitCode(), string(out)
	}
	if err != nil {
		t.Fatalf("running the test binary as a helper: %v", err)
	}
	return 0, string(out)
}
