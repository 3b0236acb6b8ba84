package journal

import "github.com/omh-notes/omh/internal/crashpoint"

// CrashEnv names the environment variable that makes a change exit hard
// (status 99, no cleanup) just before its k-th step, counting from 1: how
// the tests prove that a crash at any point leaves the store as it was or
// as the change makes it, never between. Nothing else reads it, and only a
// build that turns the switches on (see package crashpoint).
const CrashEnv = "OMH_CRASH_BEFORE_JOURNAL_STEP"

var crash = crashpoint.New(CrashEnv)
