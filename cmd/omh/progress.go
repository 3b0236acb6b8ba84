package main

import (
	"fmt"
	"io"
	"os"
	"strconv"
	"time"
)

// progress returns what a refresh reports its work to: on a terminal, one
// line redrawn as notes are read; anywhere else (a pipe, a script, an
// agent), one line said once the work turns out long, so whoever waits
// knows why. --quiet: nothing. A base that names a Progress (a test's,
// whose output must not hang on how long a refresh took) is heard instead.
func (e *env) progress() func(done, total int, first bool) {
	if e.cli.Quiet {
		return nil
	}
	if e.base.Progress != nil {
		return e.base.Progress
	}
	if f, ok := e.stderr.(*os.File); ok {
		if fi, err := f.Stat(); err == nil && fi.Mode()&os.ModeCharDevice != 0 {
			return lineProgress(f, time.Now)
		}
	}
	return longWorkNotice(e.stderr, time.Now)
}

// lineProgress draws "omh: indexing N/M notes, R a second" at most every
// 200 ms once the work has run for half a second, so quick refreshes print
// nothing.
func lineProgress(w io.Writer, now func() time.Time) func(done, total int, first bool) {
	start, last := now(), time.Time{}
	drawn := false
	return func(done, total int, _ bool) {
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
		fmt.Fprintf(w, "\romh: indexing %d/%d notes, %s a second\033[K", done, total, thousands(rate(done, t.Sub(start))))
	}
}

// longWork is how long a refresh may run before it says what it is doing.
// A first build of firstNotice notes or more says so at once: a cold index
// takes about half a millisecond a note on the two-core development
// machine (10,000 notes in 4.3-6.3 s), so those take longer anyway.
const (
	longWork      = 2 * time.Second
	longWorkEvery = 10 * time.Second
	firstNotice   = 4000
)

// rate is how many notes a second done in elapsed makes, 0 before any
// time has passed.
func rate(done int, elapsed time.Duration) int {
	if elapsed <= 0 {
		return 0
	}
	return int(float64(done) / elapsed.Seconds())
}

// longWorkNotice says in one line that a refresh is indexing many notes:
// at once for a large first build, else when the work has run for
// longWork and is not done; then, while it goes on, a line every
// longWorkEvery with the count so far and the rate, so an agent waiting
// on a minute-long build sees it move.
func longWorkNotice(w io.Writer, now func() time.Time) func(done, total int, first bool) {
	start, said := now(), time.Time{}
	return func(done, total int, first bool) {
		t := now()
		if done >= total {
			return
		}
		if !said.IsZero() {
			if t.Sub(said) >= longWorkEvery {
				said = t
				fmt.Fprintf(w, "omh: indexed %s of %s notes so far, %s a second\n", thousands(done), thousands(total), thousands(rate(done, t.Sub(start))))
			}
			return
		}
		if t.Sub(start) < longWork && !(first && total >= firstNotice) {
			return
		}
		said = t
		if first {
			fmt.Fprintf(w, "omh: indexing %s notes for the first time…\n", thousands(total))
			return
		}
		fmt.Fprintf(w, "omh: indexing %s changed notes…\n", thousands(total))
	}
}

// thousands writes n with commas between groups of three digits.
func thousands(n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0 && s[i-1] != '-'; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
