package main

import (
	"slices"
	"testing"
)

// The after-commit rounds always ran this build first, so it alone paid
// for what each commit left cold and looked slower than the base.
func TestTheBinaryFirstAfterAChangeTakesTurns(t *testing.T) {
	t.Parallel()
	b := &bench{tools: tools{omh: "/new/omh", base: "/old/omh"}}
	all := b.omhs()
	firsts := map[string]int{}
	for round := range 6 {
		turn := b.omhsInTurn(round)
		if !sameSet(turn, all) {
			t.Fatalf("round %d takes %v, not each of %v once", round, turn, all)
		}
		firsts[turn[0].label]++
	}
	if firsts[toolOmh] != 3 || firsts[toolBase] != 3 {
		t.Fatalf("first in 6 rounds: %v, want each binary 3 times", firsts)
	}
}

// sameSet says whether a and b hold the same binaries, each once.
func sameSet(a, b []omhBin) bool {
	if len(a) != len(b) {
		return false
	}
	for _, o := range b {
		if !slices.Contains(a, o) {
			return false
		}
	}
	return true
}
