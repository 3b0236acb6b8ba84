package main

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/omh-notes/omh/vault/vaulttest"
)

// benchQuestions are asked in turn: words of several rarities from the
// vault internal/tools/bench generates (seed 1), so the answers are not all alike.
var benchQuestions = []string{
	"why does the option close",
	"kromtaistai kuweamam gairplaibrean",
	"client request remote filter",
	"flevi flouzilioveat stage",
}

// BenchmarkFind asks the same questions of a warm MCP server (the built
// omh over stdio, started once) and of omh find --json as a process per
// question, in the same run, so the ratio holds however busy the machine
// is. OMH_BENCH_STORE names the store; make the 10,000-note one with
//
//	go run ./internal/tools/bench -generate-only -n 10000 -work /tmp/agents-bench
//	OMH_BENCH_STORE=/tmp/agents-bench/vault-s1-n10000 go test ./cmd/omh -run '^$' -bench Find
//
// It also reports the size of the default reply: the cards' characters
// (what an agent reads) and the structured JSON's bytes.
func BenchmarkFind(b *testing.B) {
	dir := os.Getenv("OMH_BENCH_STORE")
	if dir == "" {
		b.Skip("OMH_BENCH_STORE names no store")
	}
	ok := func(out []byte, err error) []byte {
		if err != nil {
			b.Fatalf("%v\n%s", err, out)
		}
		return out
	}
	ok(exec.Command(vaulttest.Omh(b), "-C", dir, "index").CombinedOutput()) // a warm cache for both
	b.Run("mcp", func(b *testing.B) {
		ctx := context.Background()
		cs, err := mcp.NewClient(&mcp.Implementation{Name: "bench"}, nil).Connect(ctx,
			&mcp.CommandTransport{Command: exec.Command(vaulttest.Omh(b), "-C", dir, "mcp")}, nil)
		if err != nil {
			b.Fatal(err)
		}
		defer cs.Close()
		call := func(q string) *mcp.CallToolResult {
			res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "find", Arguments: map[string]any{"question": q}})
			if err != nil || res.IsError {
				b.Fatalf("find %q: %v %v", q, err, res)
			}
			return res
		}
		var chars, bytes int
		for _, q := range benchQuestions { // warm the server; measure the replies
			res := call(q)
			js, _ := json.Marshal(res.StructuredContent)
			chars += utf8.RuneCountInString(res.Content[0].(*mcp.TextContent).Text)
			bytes += len(js)
		}
		b.ResetTimer()
		for i := 0; b.Loop(); i++ {
			call(benchQuestions[i%len(benchQuestions)])
		}
		b.ReportMetric(float64(chars)/float64(len(benchQuestions)), "cards-chars/reply")
		b.ReportMetric(float64(bytes)/float64(len(benchQuestions)), "json-bytes/reply")
	})
	b.Run("process", func(b *testing.B) {
		for i := 0; b.Loop(); i++ {
			q := strings.Fields(benchQuestions[i%len(benchQuestions)])
			ok(exec.Command(vaulttest.Omh(b), append([]string{"-C", dir, "--json", "find"}, q...)...).CombinedOutput())
		}
	})
}
