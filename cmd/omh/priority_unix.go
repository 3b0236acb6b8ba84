//go:build !windows

package main

import "syscall"

// runInBackground gives this process, a hook's refresh that a shim started in
// the background, a session of its own (no signal meant for git's terminal
// reaches it) and a low claim on the CPU: git is still finishing the
// command that ran the hook, and the refresh must not slow it down. The
// priority is set for the process group, which reaches every thread
// (Linux lowers only the calling thread of a process named by its id).
// Measured at 10,000 notes on a loaded 2-core machine: see README, Speed.
func runInBackground() {
	syscall.Setsid() // fails, harmlessly, for a session leader already (started by omh hooks run)
	syscall.Setpriority(syscall.PRIO_PGRP, 0, 10)
}
