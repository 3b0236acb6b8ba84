package main

import (
	"testing"
	"time"
)

func TestProcCPUCountsFieldsAfterTheLastParenthesisOfTheName(t *testing.T) {
	t.Parallel()
	for name, tc := range map[string]struct {
		stat string
		want time.Duration
	}{
		"plain":           {"4242 (omh) S 1 4242 4242 0 -1 4194560 900 0 0 0 37 5 0 0 20 0 9 0 100 0 0", 420 * time.Millisecond},
		"name with space": {"7 (omh mcp) R 1 7 7 0 -1 0 0 0 0 0 1 2 0 0 20 0 1 0 5 0 0", 30 * time.Millisecond},
		"name with paren": {"7 (a) b) R 1 7 7 0 -1 0 0 0 0 0 100 0 0 0 20 0 1 0 5 0 0", time.Second},
		"cut short":       {"7 (omh) R 1 7", 0},
	} {
		if got := procCPU([]byte(tc.stat)); got != tc.want {
			t.Errorf("%s: procCPU = %v, want %v", name, got, tc.want)
		}
	}
}
