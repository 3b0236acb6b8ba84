package crashpoint

import (
	"os"
	"os/exec"
	"testing"
)

const (
	childEnv = "CRASHPOINT_TEST_CHILD" // "plain" or "enabled"
	stepEnv  = "CRASHPOINT_TEST_STEP"
)

func TestMain(m *testing.M) {
	if mode := os.Getenv(childEnv); mode != "" {
		if mode == "enabled" {
			Enable()
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
