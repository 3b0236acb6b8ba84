package procs

import (
	"runtime"
	"testing"
)

// A command held to one processor gets them back when a step asks for
// workers, and only then: parsing 10,000 notes on one core would take twice
// as long on two.
func TestWorkersGiveBackTheProcessorsHoldOneHeld(t *testing.T) {
	t.Setenv("GOMAXPROCS", "") // the test's own processors are not the point
	all := runtime.GOMAXPROCS(0)
	defer runtime.GOMAXPROCS(all)
	HoldOne()
	if n := runtime.GOMAXPROCS(0); n != 1 {
		t.Fatalf("held: %d processors, want 1", n)
	}
	if n := Workers(1); n != 1 || runtime.GOMAXPROCS(0) != 1 {
		t.Fatalf("one piece of work: %d workers on %d processors, want 1 on 1", n, runtime.GOMAXPROCS(0))
	}
	runtime.SetDefaultGOMAXPROCS()
	def := runtime.GOMAXPROCS(0)
	HoldOne()
	if n := Workers(1000); n != def || runtime.GOMAXPROCS(0) != def {
		t.Fatalf("much work: %d workers on %d processors, want %d on %d", n, runtime.GOMAXPROCS(0), def, def)
	}
	if n := Workers(0); n != 1 {
		t.Fatalf("no work: %d workers, want 1", n)
	}
}

// GOMAXPROCS, when set, is the user's choice and stays.
func TestHoldOneLeavesGOMAXPROCSAsSet(t *testing.T) {
	t.Setenv("GOMAXPROCS", "2")
	before := runtime.GOMAXPROCS(0)
	HoldOne()
	if n := runtime.GOMAXPROCS(0); n != before || held.Load() {
		t.Fatalf("GOMAXPROCS=2 set: %d processors after HoldOne (held %v), want %d", n, held.Load(), before)
	}
}
