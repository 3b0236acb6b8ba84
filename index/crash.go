package index

import (
	"os"
	"strconv"
)

// CrashEnv names the environment variable that makes a refresh exit hard
// (status 99, no cleanup) just before its k-th write, counting from 1: how
// the tests prove that a crash at any point of a refresh loses nothing and
// the next command recovers by itself. Nothing else reads it.
const CrashEnv = "OMH_CRASH_BEFORE_WRITE"

var crash = struct {
	at, seen int
}{at: crashPoint()}

func crashPoint() int {
	n, _ := strconv.Atoi(os.Getenv(CrashEnv))
	return n
}

// writeStep counts one write and exits when the configured one is reached.
func writeStep() {
	if crash.at == 0 {
		return
	}
	crash.seen++
	if crash.seen == crash.at {
		os.Exit(99)
	}
}
