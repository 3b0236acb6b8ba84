package main

import (
	"strings"
	"testing"
	"time"
)

// Progress is for people watching long work: a quick refresh draws nothing,
// a long one redraws one line and clears it when done.
func TestProgressDrawsOneLineOnlyForLongWork(t *testing.T) {
	clock := time.Unix(0, 0)
	now := func() time.Time { return clock }

	var quick strings.Builder
	p := lineProgress(&quick, now)
	p(0, 10)
	clock = clock.Add(100 * time.Millisecond)
	p(5, 10)
	p(10, 10)
	if quick.String() != "" {
		t.Errorf("a quick refresh printed %q", quick.String())
	}

	var long strings.Builder
	p = lineProgress(&long, now)
	for i := 0; i < 10; i++ {
		clock = clock.Add(300 * time.Millisecond)
		p(i*100, 1000)
	}
	p(1000, 1000)
	out := long.String()
	if strings.Count(out, "\n") != 0 || !strings.Contains(out, "\romh: indexing 900/1000 notes") || !strings.HasSuffix(out, "\r\033[K") {
		t.Errorf("long refresh drew %q", out)
	}
}
