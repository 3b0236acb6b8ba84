package main

import (
	"testing"

	"github.com/omh-notes/omh/internal/crashpoint"
	"github.com/omh-notes/omh/store"
	"github.com/omh-notes/omh/vault"
	"github.com/omh-notes/omh/vault/vaulttest"
)

// TestMain runs the tests with this test binary first on PATH as omh
// (vaulttest.MainWithOmh), so the hooks git runs find it the way they
// find omh on a user's machine, and a test can start omh as a process.
// Started as omh it is omh, with the crash switches a test kills it with
// turned on.
func TestMain(m *testing.M) {
	vaulttest.MainWithOmh(m, func() int {
		crashpoint.Enable()
		return omhMain()
	})
}

// testDay is the day it is for a command a test runs in its own process:
// a fixed one, after every date the tests' notes hold, so that no answer
// depends on the day the tests run.
const testDay vault.Date = "2027-02-03"

// testBase is what a command a test runs in its own process takes from
// outside the command line (see env): testDay, the omh on PATH to start
// detached, never the test binary as itself, and a progress that says
// nothing: the notice of a long refresh depends on the clock, so a test
// reading standard error would fail on a loaded machine.
func testBase(t testing.TB) store.Options {
	omh := vaulttest.Omh(t)
	return store.Options{
		Today:      func() vault.Date { return testDay },
		Progress:   func(done, total int, first bool) {},
		Background: func(args ...string) error { return store.Detach(omh, args...) },
	}
}
