// Package crashpoint lets tests kill a process at a chosen step of a
// change: a Point reads k from an environment variable and exits hard
// (status 99, no cleanup, as kill -9 would leave things) just before the
// k-th step it counts. Unset, it does nothing.
//
// The switches are off in omh as built for use: a binary honours them only
// when built with the crashpoints tag (go build -tags crashpoints, as the
// kill loop script does) or when a test binary, started again as the
// process to crash, calls Enable first. An omh a user runs never exits on
// an environment variable.
package crashpoint

import (
	"os"
	"strconv"
	"sync"
)

// enabled says the switches are honoured in this process.
var enabled = tagged

// Enable makes this process honour the switches: what a test binary calls
// when it runs as the process a test crashes.
func Enable() { enabled = true }

// A Point counts the steps of one process.
type Point struct {
	env      string
	read     sync.Once
	at, seen int
}

// New returns the point set by the environment variable env.
func New(env string) *Point {
	return &Point{env: env}
}

// Step counts one step and exits when it is the one asked for.
func (p *Point) Step() {
	if !enabled {
		return
	}
	p.read.Do(func() { p.at, _ = strconv.Atoi(os.Getenv(p.env)) })
	if p.at == 0 {
		return
	}
	p.seen++
	if p.seen == p.at {
		os.Exit(99)
	}
}
