package index

import "github.com/omh-notes/omh/internal/crashpoint"

// CrashEnv names the environment variable that makes a refresh exit hard
// (status 99, no cleanup) just before its k-th write, counting from 1: how
// the tests prove that a crash at any point of a refresh loses nothing and
// the next command recovers by itself. Nothing else reads it, and only a
// build that turns the switches on (see package crashpoint).
const CrashEnv = "OMH_CRASH_BEFORE_WRITE"

var crash = crashpoint.New(CrashEnv)
