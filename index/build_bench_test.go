package index_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/omh-notes/omh/index"
	"github.com/omh-notes/omh/vault/gitrepo"
	"github.com/omh-notes/omh/vault/vaulttest"
)

// benchVaultEnv names a repository to measure instead of the generated
// one, e.g. a clone of a real vault: OMH_BENCH_VAULT=/tmp/vba go test
// -run '^$' -bench ColdBuild ./index.
const benchVaultEnv = "OMH_BENCH_VAULT"

// benchStore is the repository a build benchmark reads: the one
// OMH_BENCH_VAULT names, else n generated notes in one commit, each with a
// title, headings, a list, a table, a code block and links to others.
func benchStore(b *testing.B, n int) string {
	b.Helper()
	if dir := os.Getenv(benchVaultEnv); dir != "" {
		return dir
	}
	r := vaulttest.New(b)
	words := strings.Fields("walrus heron otter krill squid seal memory tusks cold index cache parse token posting " +
		"list table heading link commit refresh snapshot blob term field body title answer")
	for i := 0; i < n; i++ {
		w := func(k int) string { return words[(i*7+k*13)%len(words)] }
		var body strings.Builder
		fmt.Fprintf(&body, "---\ntype: note\n---\n# %s %s %d\n\n", w(1), w(2), i)
		for s := 0; s < 4; s++ {
			fmt.Fprintf(&body, "## %s %s\n\nThe %s of a %s meets the %s; see [[n%d]] and [the %s](n%d.md).\n\n",
				w(s+3), w(s+4), w(s+5), w(s+6), w(s+7), (i+s+1)%n, w(s+8), (i*3+s)%n)
			fmt.Fprintf(&body, "- %s %s\n- %s %s\n\n| %s | %s |\n|---|---|\n| %s | %s |\n\n", w(s), w(s+9), w(s+10), w(s+11), w(s+12), w(s+13), w(s+14), w(s+15))
		}
		fmt.Fprintf(&body, "```\n%s := %s(%d)\n```\n", w(16), w(17), i)
		r.Write(fmt.Sprintf("n%d.md", i), body.String())
	}
	r.Commit("2025-12-01T10:00:00Z", "notes")
	return r.Dir
}

// BenchmarkColdBuild times building a snapshot from nothing, as `omh index
// --rebuild` or the first command on a fresh clone does: every note parsed,
// every table written.
func BenchmarkColdBuild(b *testing.B) {
	dir := benchStore(b, 2000)
	repo, err := gitrepo.Open(dir)
	if err != nil {
		b.Fatal(err)
	}
	defer repo.Close()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		c, err := index.Open(b.TempDir())
		if err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		s, _, err := c.Fresh(repo, index.Options{NoWorktree: true})
		if err != nil {
			b.Fatal(err)
		}
		s.Close()
		b.StopTimer()
		c.Close()
		// The cache's size, for the levers that shrink it.
		if fi, err := os.Stat(c.Path); err == nil {
			b.ReportMetric(float64(fi.Size()), "cache-B")
		}
		b.StartTimer()
	}
}

// BenchmarkOneNoteCommitRefresh times what the post-commit hook does after
// a one-note commit: the refresh of the team layer, the working tree left
// for the next command.
func BenchmarkOneNoteCommitRefresh(b *testing.B) {
	dir := benchStore(b, 2000)
	repo, err := gitrepo.Open(dir)
	if err != nil {
		b.Fatal(err)
	}
	defer repo.Close()
	c, err := index.Open(b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	defer c.Close()
	fresh := func() {
		s, _, err := c.Fresh(repo, index.Options{NoWorktree: true})
		if err != nil {
			b.Fatal(err)
		}
		s.Close()
	}
	fresh()                       // the first build
	refresh := func() { fresh() } // profiled apart from the first build
	// Under the notes root wherever the store keeps it; the content differs
	// in each run, as b.N grows.
	note := filepath.Join(dir, "omh-bench-commit.md")
	if _, err := os.Stat(filepath.Join(dir, "notes")); err == nil {
		note = filepath.Join(dir, "notes", "omh-bench-commit.md")
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		vaulttest.WriteFile(b, note, fmt.Sprintf("# Bench commit %d\n\nA note changed by commit %d.\n", b.N, i))
		vaulttest.MustGit(b, dir, "2025-12-02T10:00:00Z", "add", note)
		vaulttest.MustGit(b, dir, "2025-12-02T10:00:00Z", "commit", "-q", "-m", "bench")
		repo.Close()
		if repo, err = gitrepo.Open(dir); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		refresh()
	}
}
