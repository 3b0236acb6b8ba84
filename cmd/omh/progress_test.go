package main

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/omh-notes/omh/store"
)

// Progress is for people watching long work: a quick refresh draws nothing,
// a long one redraws one line and clears it when done.
func TestProgressDrawsOneLineOnlyForLongWork(t *testing.T) {
	t.Parallel()
	clock := time.Unix(0, 0)
	now := func() time.Time { return clock }

	var quick strings.Builder
	p := lineProgress(&quick, now)
	p(0, 10, false)
	clock = clock.Add(100 * time.Millisecond)
	p(5, 10, false)
	p(10, 10, false)
	if quick.String() != "" {
		t.Errorf("a quick refresh printed %q", quick.String())
	}

	var long strings.Builder
	p = lineProgress(&long, now)
	for i := 0; i < 10; i++ {
		clock = clock.Add(300 * time.Millisecond)
		p(i*100, 1000, false)
	}
	p(1000, 1000, false)
	out := long.String()
	if strings.Count(out, "\n") != 0 || !strings.Contains(out, "\romh: indexing 900/1000 notes, 300 a second") || !strings.HasSuffix(out, "\r\033[K") {
		t.Errorf("long refresh drew %q", out)
	}
}

// Where standard error is not a terminal (an agent, a script), a long
// refresh says why the call is slow in one line: a large first build at
// once, a catch-up once it has run for two seconds; quick work says
// nothing. Catches: a silent 20-second first find, a line per progress
// report, a notice for every small refresh.
func TestLongWorkIsSaidOnceWhereNoTerminalShowsIt(t *testing.T) {
	t.Parallel()
	clock := time.Unix(0, 0)
	now := func() time.Time { return clock }
	run := func(total int, first bool, step time.Duration) string {
		var out strings.Builder
		p := longWorkNotice(&out, now)
		for done := 0; done < total; done += 256 {
			p(done, total, first)
			clock = clock.Add(step)
		}
		p(total, total, first)
		return out.String()
	}
	if got := run(38187, true, 50*time.Millisecond); got != "omh: indexing 38,187 notes for the first time…\n" {
		t.Errorf("a large first build said %q", got)
	}
	if got := run(300, true, time.Millisecond); got != "" {
		t.Errorf("a small first build said %q", got)
	}
	if got := run(2000, false, 10*time.Millisecond); got != "" {
		t.Errorf("a catch-up done in 0.08 s said %q", got)
	}
	if got := run(2000, false, 400*time.Millisecond); got != "omh: indexing 2,000 changed notes…\n" {
		t.Errorf("a catch-up of 3 s said %q", got)
	}
}

func TestQuietSilencesTheNotice(t *testing.T) {
	t.Parallel()
	var stderr strings.Builder
	e := &env{cli: &CLI{Quiet: true}, stderr: &stderr}
	if e.progress() != nil {
		t.Error("--quiet still reports progress")
	}
	e.cli.Quiet = false
	e.progress()(0, 5000, true)
	if !strings.Contains(stderr.String(), "for the first time") {
		t.Errorf("a pipe heard %q", stderr.String())
	}
}

// A base's Progress is heard in place of the notices, and --quiet
// silences it too. Catches: TestControlCharactersAreEscapedInTextOutput
// failing on a loaded machine, where the first build of its one note
// took over two seconds and the notice joined the warning it reads.
func TestTheBasesProgressStandsInForTheNotice(t *testing.T) {
	t.Parallel()
	var stderr strings.Builder
	heard := 0
	e := &env{cli: &CLI{}, stderr: &stderr, base: store.Options{Progress: func(done, total int, first bool) { heard++ }}}
	e.progress()(0, 5000, true)
	if heard != 1 || stderr.Len() != 0 {
		t.Errorf("the base's progress heard %d calls, standard error %q", heard, stderr.String())
	}
	e.cli.Quiet = true
	if e.progress() != nil {
		t.Error("--quiet still reports progress")
	}
}

func TestThousandsAreGroupedByCommas(t *testing.T) {
	t.Parallel()
	for n, want := range map[int]string{0: "0", 999: "999", 1000: "1,000", 38187: "38,187", 1234567: "1,234,567"} {
		if got := thousands(n); got != want {
			t.Errorf("thousands(%d) = %q, want %q", n, got, want)
		}
	}
}

// A build that goes on for a minute said one line at its start and then
// nothing: an agent could not tell a slow call from a stuck one. It now
// says the count and rate every ten seconds until done.
func TestLongWorkSaysItsCountEveryTenSeconds(t *testing.T) {
	t.Parallel()
	clock := time.Unix(0, 0)
	now := func() time.Time { return clock }
	var out strings.Builder
	p := longWorkNotice(&out, now)
	for done := 0; done < 30000; done += 1000 {
		p(done, 30000, true)
		clock = clock.Add(time.Second)
	}
	p(30000, 30000, true)
	want := []string{
		"omh: indexing 30,000 notes for the first time…",
		"omh: indexed 10,000 of 30,000 notes so far, 1,000 a second",
		"omh: indexed 20,000 of 30,000 notes so far, 1,000 a second",
	}
	if got := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n"); !slices.Equal(got, want) {
		t.Errorf("a 30 s first build said\n%q\nwant\n%q", got, want)
	}
}
