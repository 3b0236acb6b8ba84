package store

import (
	"os"
	"testing"

	"github.com/omh-notes/omh/find"
	"github.com/omh-notes/omh/retrieve"
)

// BenchmarkAsk answers a question in-process, the store opened and closed
// each time as a command does, with and without the working-tree check:
// what a find costs without the process around it (start-up, page faults
// of a fresh heap), for profiling. OMH_BENCH_STORE names a store with a
// warm cache, OMH_BENCH_QUESTION the question:
//
//	OMH_BENCH_STORE=/tmp/omh-bench/vault-s1-n10000 go test ./store -run '^$' -bench Ask -cpuprofile cpu.out
func BenchmarkAsk(b *testing.B) {
	dir := os.Getenv("OMH_BENCH_STORE")
	if dir == "" {
		b.Skip("OMH_BENCH_STORE names no store")
	}
	question := os.Getenv("OMH_BENCH_QUESTION")
	if question == "" {
		question = "why does the option close"
	}
	for _, c := range []struct {
		name              string
		noWorktree, cards bool
	}{{"worktree", false, false}, {"no-worktree", true, false}, {"cards-no-worktree", true, true}} {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				s, err := Open(dir, Options{})
				if err != nil {
					b.Fatal(err)
				}
				q := Question{Phrasings: []string{question}, Roots: retrieve.DefaultRoots, MaxChars: find.DefaultMaxChars, Ranker: retrieve.DefaultRanker,
					NoWorktree: c.noWorktree, Cards: c.cards}
				if _, err := s.Ask(q); err != nil {
					b.Fatal(err)
				}
				s.Close()
			}
		})
	}
}
