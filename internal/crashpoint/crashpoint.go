// Package crashpoint lets tests kill a process at a chosen step of a
// change: a Point reads k from an environment variable and exits hard
// (status 99, no cleanup, as kill -9 would leave things) just before the
// k-th step it counts. Unset, it does nothing. A Fault, read the same way,
// makes the k-th call of one operation fail as a failing disk would (EIO),
// so a test can see what the caller does with the error.
//
// The switches are off in omh as built for use: a binary honours them only
// when built with the crashpoints tag (go build -tags crashpoints, as the
// kill loop script does) or when a test binary, started again as the
// process to crash, calls Enable first. An omh a user runs never exits on
// an environment variable.
package crashpoint

import (
	"fmt"
	"os"
	"strconv"
	"sync"
	"syscall"
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
	if p.reached() {
		os.Exit(99)
	}
}

// reached counts one step and reports whether it is the one asked for.
func (p *Point) reached() bool {
	if !enabled {
		return false
	}
	p.read.Do(func() { p.at, _ = strconv.Atoi(os.Getenv(p.env)) })
	if p.at == 0 {
		return false
	}
	p.seen++
	return p.seen == p.at
}

// A Fault counts the calls of one operation.
type Fault struct{ p Point }

// NewFault returns the fault set by the environment variable env.
func NewFault(env string) *Fault { return &Fault{Point{env: env}} }

// Fail counts one call and returns the error a failing disk gives (EIO)
// when it is the one asked for, else nil.
func (f *Fault) Fail() error {
	if f.p.reached() {
		return fmt.Errorf("%s=%d: %w", f.p.env, f.p.at, syscall.EIO)
	}
	return nil
}
