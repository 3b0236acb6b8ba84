package main

import (
	"fmt"
	"io"
	"os"
	"time"
)

// progress returns a reporter for long refreshes that redraws one line on
// standard error, or nil when standard error is not a terminal (a hook, a
// pipe, an agent): then nothing is printed.
func (e *env) progress() func(done, total int) {
	f, ok := e.stderr.(*os.File)
	if !ok || e.cli.Quiet {
		return nil
	}
	if fi, err := f.Stat(); err != nil || fi.Mode()&os.ModeCharDevice == 0 {
		return nil
	}
	return lineProgress(f, time.Now)
}

// lineProgress draws "omh: indexing N/M notes" at most every 200 ms once
// the work has run for half a second, so quick refreshes print nothing.
func lineProgress(w io.Writer, now func() time.Time) func(done, total int) {
	start, last := now(), time.Time{}
	drawn := false
	return func(done, total int) {
		if done >= total {
			if drawn {
				fmt.Fprint(w, "\r\033[K") // leave the line as it was
			}
			return
		}
		t := now()
		if t.Sub(start) < 500*time.Millisecond || t.Sub(last) < 200*time.Millisecond {
			return
		}
		last, drawn = t, true
		fmt.Fprintf(w, "\romh: indexing %d/%d notes", done, total)
	}
}
