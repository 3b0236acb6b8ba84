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

// helperEnv makes the test binary, started again by a test, do one thing
// to the cache of the working tree named by helperDirEnv and exit, instead
// of running the tests: a refresh that index.CrashEnv kills exits its
// whole process, so it must not be the process of the test.
const (
	helperEnv    = "INDEX_TEST_HELPER" // "fresh" or "rebuild"
	helperDirEnv = "INDEX_TEST_DIR"
)

func TestMain(m *testing.M) {
	if mode := os.Getenv(helperEnv); mode != "" {
		crashpoint.Enable()
		if err := runHelper(mode, os.Getenv(helperDirEnv)); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	vaulttest.Main(m)
}

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

// helper runs the test binary in a helper mode on the working tree at dir,
// with extra environment variables, and returns its exit status.
func helper(t *testing.T, mode, dir string, env ...string) (status int, stderr string) {
	t.Helper()
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), append([]string{helperEnv + "=" + mode, helperDirEnv + "=" + dir}, env...)...)
	out, err := cmd.CombinedOutput()
	if exit, ok := err.(*exec.ExitError); ok {
		return exit.ExitCode(), string(out)
	}
	if err != nil {
		t.Fatalf("running the test binary as a helper: %v", err)
	}
	return 0, string(out)
}
