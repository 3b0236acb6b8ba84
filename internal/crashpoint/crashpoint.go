// Package crashpoint lets tests kill a process at a chosen step of a
// change: a Point reads k from an environment variable and exits hard
// (status 99, no cleanup, as kill -9 would leave things) just before the
// k-th step it counts. Unset, it does nothing.
package crashpoint

import (
	"os"
	"strconv"
)

// A Point counts the steps of one process.
type Point struct {
	at, seen int
}

// New returns the point set by the environment variable env.
func New(env string) *Point {
	n, _ := strconv.Atoi(os.Getenv(env))
	return &Point{at: n}
}

// Step counts one step and exits when it is the one asked for.
func (p *Point) Step() {
	if p.at == 0 {
		return
	}
	p.seen++
	if p.seen == p.at {
		os.Exit(99)
	}
}
