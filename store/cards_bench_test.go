package store

import (
	"os"
	"syscall"
	"testing"
	"time"

	"github.com/omh-notes/omh/eval"
	"github.com/omh-notes/omh/find"
	"github.com/omh-notes/omh/retrieve"
	"github.com/omh-notes/omh/vault/corpus"
)

// BenchmarkCardsOnARealVault builds the cards of a real vault's questions
// at the default roots and size aim: OMH_BENCH_VAULT names a clone (such
// as vba-docs, 38k notes) and OMH_BENCH_GOLD its questions; skipped
// without them. Each question is ranked once, outside the timing. "choice"
// times what a card costs once the note is read (scoring the units,
// choosing and rendering passages, links, the size aim), with every note's
// bytes and stored detail read ahead; "with-reads" adds reading them from
// git and the cache, as omh find does.
func BenchmarkCardsOnARealVault(b *testing.B) {
	dir, golds := realVaultQuestions(b)
	s, err := Open(dir, Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	err = s.read("", s.readOptions(false), func(v *view) error {
		var results []retrieve.Result
		for _, g := range golds {
			ans, err := v.ask(Question{Phrasings: []string{g.Question}, Roots: retrieve.DefaultRoots, Ranker: retrieve.DefaultRanker,
				MaxChars: find.DefaultMaxChars}, selection{})
			if err != nil {
				return err
			}
			results = append(results, ans.Result)
		}
		read := &readAhead{Snapshot: v.snap, content: map[uint32][]byte{}, detail: map[uint32]corpus.Detail{}, in: map[linksInCall]linksInReply{}}
		for _, r := range results {
			if _, err := find.Build(r, "", read, find.DefaultMaxChars, nil); err != nil {
				return err
			}
		}
		for _, bench := range []struct {
			name string
			snap find.Snapshot
		}{{"choice", read}, {"with-reads", v.snap}} {
			b.Run(bench.name, func(b *testing.B) {
				cpu := cpuTime()
				for i := 0; b.Loop(); i++ {
					if _, err := find.Build(results[i%len(results)], "", bench.snap, find.DefaultMaxChars, nil); err != nil {
						b.Fatal(err)
					}
				}
				// The machine is shared: the process's CPU time per reply is
				// what the work costs, the wall time what it took.
				b.ReportMetric(float64(b.Elapsed().Microseconds())/1000/float64(b.N), "ms/reply")
				b.ReportMetric(float64((cpuTime()-cpu).Microseconds())/1000/float64(b.N), "cpu-ms/reply")
			})
		}
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
}

// readAhead serves notes' bytes and details from memory once read.
type readAhead struct {
	find.Snapshot
	content map[uint32][]byte
	detail  map[uint32]corpus.Detail
	in      map[linksInCall]linksInReply
}

type linksInCall struct {
	doc          uint32
	plain, typed bool
}

type linksInReply struct {
	in []corpus.Ref
	n  int
}

func (r *readAhead) LinksIn(doc uint32, plain, typed bool) ([]corpus.Ref, int, error) {
	call := linksInCall{doc, plain, typed}
	if got, ok := r.in[call]; ok {
		return append([]corpus.Ref(nil), got.in...), got.n, nil
	}
	in, n, err := r.Snapshot.LinksIn(doc, plain, typed)
	r.in[call] = linksInReply{append([]corpus.Ref(nil), in...), n}
	return in, n, err
}

func (r *readAhead) Content(doc uint32, n corpus.Note) ([]byte, error) {
	if c, ok := r.content[doc]; ok {
		return c, nil
	}
	c, err := r.Snapshot.Content(doc, n)
	r.content[doc] = c
	return c, err
}

func (r *readAhead) CardDetail(doc uint32) (corpus.Detail, error) {
	if d, ok := r.detail[doc]; ok {
		return d, nil
	}
	d, err := r.Snapshot.CardDetail(doc)
	r.detail[doc] = d
	return d, err
}

// cpuTime is the CPU time the process has used, user and system.
func cpuTime() time.Duration {
	var u syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &u); err != nil {
		return 0
	}
	return time.Duration(u.Utime.Nano() + u.Stime.Nano())
}

// realVaultQuestions is the clone OMH_BENCH_VAULT names and the questions
// of OMH_BENCH_GOLD, or skips the benchmark without them.
func realVaultQuestions(b *testing.B) (string, []eval.Gold) {
	dir, goldPath := os.Getenv("OMH_BENCH_VAULT"), os.Getenv("OMH_BENCH_GOLD")
	if dir == "" || goldPath == "" {
		b.Skip("set OMH_BENCH_VAULT and OMH_BENCH_GOLD to a vault's clone and its questions")
	}
	f, err := os.Open(goldPath)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	golds, err := eval.ReadGold(f)
	if err != nil {
		b.Fatal(err)
	}
	return dir, golds
}
