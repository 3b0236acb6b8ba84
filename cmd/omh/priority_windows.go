package main

import "golang.org/x/sys/windows"

// runInBackground gives this process, a hook's refresh that a shim started in
// the background, a low claim on the CPU: git is still finishing the
// command that ran the hook, and the refresh must not slow it down.
func runInBackground() {
	windows.SetPriorityClass(windows.CurrentProcess(), windows.BELOW_NORMAL_PRIORITY_CLASS)
}
