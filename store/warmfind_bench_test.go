package store

import (
	"encoding/json"
	"testing"

	"github.com/omh-notes/omh/find"
	"github.com/omh-notes/omh/retrieve"
)

// BenchmarkWarmFind answers a real vault's questions as the MCP server's
// find does: one store opened with a watcher and kept, each reply its
// cards and its structured content (ContextJSON) encoded, after one call that warms it. OMH_BENCH_VAULT
// names the clone and OMH_BENCH_GOLD its questions; skipped without them.
func BenchmarkWarmFind(b *testing.B) {
	dir, golds := realVaultQuestions(b)
	s, err := Open(dir, Options{Watch: true})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	ask := func(question string) {
		ans, err := s.Ask(Question{Phrasings: []string{question}, Roots: retrieve.DefaultRoots, Ranker: retrieve.DefaultRanker,
			MaxChars: find.DefaultMaxChars, Cards: true})
		if err != nil {
			b.Fatal(err)
		}
		_ = ans.Cards()
		if _, err := json.Marshal(ans.ContextJSON()); err != nil {
			b.Fatal(err)
		}
	}
	ask(golds[0].Question)
	cpu := cpuTime()
	for i := 0; b.Loop(); i++ {
		ask(golds[i%len(golds)].Question)
	}
	b.ReportMetric(float64(b.Elapsed().Microseconds())/1000/float64(b.N), "ms/reply")
	b.ReportMetric(float64((cpuTime()-cpu).Microseconds())/1000/float64(b.N), "cpu-ms/reply")
}
