package journal

import (
	"os"
	"strconv"
)

// CrashEnv names the environment variable that makes a change exit hard
// (status 99, no cleanup) just before its k-th step, counting from 1: how
// the tests prove that a crash at any point leaves the store as it was or
// as the change makes it, never between. Nothing else reads it.
const CrashEnv = "OMH_CRASH_BEFORE_JOURNAL_STEP"

var crash = struct {
	at, seen int
}{at: crashPoint()}

func crashPoint() int {
	n, _ := strconv.Atoi(os.Getenv(CrashEnv))
	return n
}

// step counts one step of a change and exits when the configured one is
// reached.
func step() {
	if crash.at == 0 {
		return
	}
	crash.seen++
	if crash.seen == crash.at {
		os.Exit(99)
	}
}
