package crashpoint

import (
	"errors"
	"os"
	"os/exec"
	"syscall"
	"testing"
)

const (
	childEnv = "CRASHPOINT_TEST_CHILD" // "plain" or "enabled"
	stepEnv  = "CRASHPOINT_TEST_STEP"
)

func TestMain(m *testing.M) {
	if mode := os.Getenv(childEnv); mode != "" {
		if mode == "enabled" || mode == "fault" {
			Enable()
		}
		if mode == "fault" {
			os.Exit(failingCall())
		}
		New(stepEnv).Step()
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// An omh built for use ignores the crash switches: only a build with the
// crashpoints tag, or a test binary that enabled them, exits at the step
// asked for. Catches: OMH_CRASH_BEFORE_JOURNAL_STEP=1 making a released
// omh exit 99 half way through a change.
func TestTheCrashSwitchesAreOffUnlessEnabled(t *testing.T) {
	t.Parallel()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	status := func(mode string) int {
		cmd := exec.Command(self)
		cmd.Env = append(os.Environ(), childEnv+"="+mode, stepEnv+"=1")
		err := cmd.Run()
		if exit, ok := err.(*exec.ExitError); ok {
			return exit.ExitCode()
		}
		if err != nil {
			t.Fatal(err)
		}
		return 0
	}
	want := 0
	if tagged {
		want = 99
	}
	if got := status("plain"); got != want {
		t.Errorf("without Enable the step exited %d, want %d (crashpoints tag: %v)", got, want, tagged)
	}
	if got := status("enabled"); got != 99 {
		t.Errorf("enabled, the step exited %d, want 99", got)
	}
}

// failingCall makes three calls of a Fault and returns which one failed
// with EIO (1 to 3), 0 when none did, 9 for a failure of another kind.
func failingCall() int {
	f := NewFault(stepEnv)
	failed := 0
	for call := 1; call <= 3; call++ {
		switch err := f.Fail(); {
		case err == nil:
		case !errors.Is(err, syscall.EIO) || failed != 0:
			return 9
		default:
			failed = call
		}
	}
	return failed
}

// A Fault fails the one call its variable names, with EIO, and no other.
// Catches: a fault that fails every call after the k-th (the caller's
// undo then fails too, which a failing disk need not do), or one of a
// kind no caller looks for.
func TestAFaultFailsTheCallAskedForWithEIO(t *testing.T) {
	t.Parallel()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"1", "2", "3", "4"} {
		cmd := exec.Command(self)
		cmd.Env = append(os.Environ(), childEnv+"=fault", stepEnv+"="+k)
		err := cmd.Run()
		got := 0
		if exit, ok := err.(*exec.ExitError); ok {
			got = exit.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		want := map[string]int{"1": 1, "2": 2, "3": 3, "4": 0}[k]
		if got != want {
			t.Errorf("with %s=%s the failing call was %d, want %d (9: not EIO, or more than one)", stepEnv, k, got, want)
		}
	}
}
