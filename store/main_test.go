package store_test

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/omh-notes/omh/internal/crashpoint"
	"github.com/omh-notes/omh/store"
	"github.com/omh-notes/omh/vault/vaulttest"
)

// helperEnv makes the test binary, started again by a test, run one store
// use case and exit instead of running the tests: a change that a crash
// point kills exits its whole process, so it must not be the process of
// the test; and a git hook needs an omh to call. Started as the omh that
// TestMain puts first on PATH, the binary reads a command line of the few
// commands the tests need (see runHelper), the way the hooks and a
// background refresh call omh.
const helperEnv = "STORE_TEST_HELPER"

// omhBin is that omh: a script that starts this test binary as the helper.
var omhBin string

func TestMain(m *testing.M) {
	if os.Getenv(helperEnv) != "" {
		crashpoint.Enable()
		os.Exit(runHelper(os.Args[1:]))
	}
	cleanup, err := vaulttest.Setup()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	code, err := runWithOmh(m)
	cleanup()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	os.Exit(code)
}

// runWithOmh runs the tests with the helper first on PATH as omh.
func runWithOmh(m *testing.M) (int, error) {
	self, err := os.Executable()
	if err != nil {
		return 0, err
	}
	dir, err := os.MkdirTemp("", "store-test-bin-")
	if err != nil {
		return 0, err
	}
	defer os.RemoveAll(dir)
	omhBin = filepath.Join(dir, "omh")
	script := fmt.Sprintf("#!/bin/sh\n%s=omh exec '%s' \"$@\"\n", helperEnv, strings.ReplaceAll(self, "'", `'\''`))
	if err := os.WriteFile(omhBin, []byte(script), 0o755); err != nil {
		return 0, err
	}
	os.Setenv("PATH", dir+string(os.PathListSeparator)+os.Getenv("PATH"))
	return m.Run(), nil
}

// runHelper runs `[-C DIR] [--quiet] COMMAND ARGS…` on the store, printing
// its notes for people on standard error as omh does, and returns the exit
// status: 0, or 1 when the use case failed. A background refresh a hook
// starts runs this executable again with the same environment, so it is a
// helper too.
func runHelper(args []string) int {
	dir, quiet := "", false
	for len(args) > 0 && strings.HasPrefix(args[0], "-") {
		switch args[0] {
		case "-C":
			dir, args = args[1], args[2:]
		case "--quiet":
			quiet, args = true, args[1:]
		default:
			fmt.Fprintf(os.Stderr, "helper: unknown flag %s\n", args[0])
			return 2
		}
	}
	warn := func(msg string) {
		if !quiet {
			fmt.Fprintf(os.Stderr, "omh: %s\n", msg)
		}
	}
	if len(args) == 1 && args[0] == "recover" {
		rec, err := store.Recover(dir, store.Options{Warn: warn})
		if err != nil {
			fmt.Fprintf(os.Stderr, "omh: %v\n", err)
			return 1
		}
		fmt.Printf("finished %q undone %q\n", rec.Finished, rec.Undone)
		return 0
	}
	s, err := store.Open(dir, store.Options{Warn: warn})
	if err == nil {
		err = helperCommand(s, args)
		s.Close()
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "omh: %v\n", err)
		return 1
	}
	return 0
}

func helperCommand(s *store.Store, args []string) error {
	if len(args) == 0 {
		return errors.New("no command")
	}
	var err error
	switch cmd, rest := args[0], args[1:]; {
	case cmd == "index":
		_, err = s.Index(false)
	case cmd == "status":
		_, err = s.Status()
	case cmd == "find" && len(rest) == 1:
		var ans store.Answer
		if ans, err = s.Ask(withRoots(question(rest[0]), 100)); err == nil {
			for _, h := range ans.Result.Hits {
				fmt.Println(h.Note.Key, h.Note.Layer)
			}
		}
	case cmd == "hooks" && len(rest) >= 3 && rest[0] == "run" && rest[1] == "--detached":
		err = s.RunDetachedHook(rest[2], rest[3:])
	case cmd == "hooks" && len(rest) >= 2 && rest[0] == "run":
		err = s.RunHook(rest[1], rest[2:])
	case cmd == "hooks" && len(rest) == 1 && rest[0] == "uninstall":
		_, err = s.UninstallHooks()
	case cmd == "mv" && len(rest) == 2:
		_, err = s.Move(rest[0], rest[1])
	case cmd == "promote":
		_, err = s.Promote(rest)
	case cmd == "retract" && len(rest) == 2:
		_, err = s.Retract(rest[0], rest[1], true)
	case cmd == "new" && len(rest) == 2:
		_, err = s.New(store.Draft{Type: rest[0], Title: rest[1], Source: "test"})
	case cmd == "init" && len(rest) == 1:
		_, err = s.Init(rest[0], "", false)
	default:
		return fmt.Errorf("the helper has no command %q", args)
	}
	return err
}

// result is one run of the helper.
type result struct {
	stdout, stderr string
	status         int
}

// omhProc runs the helper on the working tree at dir with extra
// environment variables.
func omhProc(t testing.TB, dir string, env []string, args ...string) result {
	t.Helper()
	cmd := exec.Command(omhBin, append([]string{"-C", dir}, args...)...)
	cmd.Env = append(os.Environ(), env...)
	var stdout, stderr strings.Builder
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
