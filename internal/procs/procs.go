// Package procs lets a short command run on one processor and gives a
// command its processors back when it has parallel work to do.
//
// A command that answers in tens of milliseconds spent a fifth of its CPU
// on the second processor Go starts with: threads woken to look for work
// and finding none, the collector's workers, the interrupts that keep both
// processors' view of memory in step. omh find --cards at 10,000 notes took
// 20.4 ms on two processors and 16.1 on one. The few steps that spread work
// over the cores (parsing many notes, stat-ing a large working tree) ask for
// their workers here, which gives the processors back first.
package procs

import (
	"os"
	"runtime"
	"sync/atomic"
)

// held is whether HoldOne holds the process to one processor.
var held atomic.Bool

// HoldOne runs the process on one processor until Workers asks for more,
// unless GOMAXPROCS says how many to use.
func HoldOne() {
	if os.Getenv("GOMAXPROCS") != "" {
		return
	}
	runtime.GOMAXPROCS(1)
	held.Store(true)
}

// Workers is how many goroutines to spread want pieces of work over: at
// most one a processor. Asking for more than one gives back the processors
// HoldOne held.
func Workers(want int) int {
	if want > 1 && held.CompareAndSwap(true, false) {
		runtime.SetDefaultGOMAXPROCS()
	}
	return max(1, min(want, runtime.GOMAXPROCS(0)))
}
