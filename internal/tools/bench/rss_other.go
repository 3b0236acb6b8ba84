//go:build !unix

package main

import "os"

// maxRSSKB is unknown where the system gives no rusage.
func maxRSSKB(*os.ProcessState) int64 { return 0 }
