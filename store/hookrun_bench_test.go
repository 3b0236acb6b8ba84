package store_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/omh-notes/omh/store"
	"github.com/omh-notes/omh/vault/vaulttest"
)

// BenchmarkHookRefreshAfterOneNoteCommit times what omh hooks run
// post-commit does in-process after a one-note commit: open the store,
// weigh the lag, refresh the team layer, close. The process around it
// (start-up, the shim) is measured by the bench's hook phase.
// OMH_BENCH_STORE names a store with a warm cache to commit to (a copy:
// each round commits a sentence to one of its notes); else 2,000 notes are
// generated:
//
//	cp -a /tmp/omh-bench/vault-s1-n10000 /tmp/hook-10k
//	OMH_BENCH_STORE=/tmp/hook-10k go test ./store -run '^$' -bench HookRefresh -cpuprofile cpu.out
func BenchmarkHookRefreshAfterOneNoteCommit(b *testing.B) {
	dir := os.Getenv("OMH_BENCH_STORE")
	if dir == "" {
		dir = generatedStore(b, 2000)
	}
	notes := notesOf(b, dir)
	refresh(b, dir)
	i := 0
	for b.Loop() {
		b.StopTimer()
		note := notes[i*7919%len(notes)]
		appendLine(b, filepath.Join(dir, note), fmt.Sprintf("A sentence added by round %d of %d.", i, b.N))
		vaulttest.MustGit(b, dir, gitDate, "add", "--", note)
		vaulttest.MustGit(b, dir, gitDate, "-c", "core.hooksPath=/nonexistent", "-c", "user.name=bench", "-c", "user.email=bench@example.com", "commit", "-q", "-m", "bench")
		i++
		b.StartTimer()
		s, err := store.Open(dir, store.Options{Background: func(...string) error { b.Fatal("the hook refreshed in the background"); return nil }})
		if err != nil {
			b.Fatal(err)
		}
		if err := s.RunHook("post-commit", nil); err != nil {
			b.Fatal(err)
		}
		s.Close()
	}
}

// generatedStore is a committed store of n small linked notes under notes/.
func generatedStore(b *testing.B, n int) string {
	r := vaulttest.New(b)
	r.Write(".omh/config.yaml", "notes: notes\n")
	words := strings.Fields("walrus heron otter krill squid seal memory tusks cold index cache parse token commit refresh snapshot")
	for i := 0; i < n; i++ {
		w := func(k int) string { return words[(i*7+k*13)%len(words)] }
		r.Write(fmt.Sprintf("notes/%s/n%d.md", w(0), i), fmt.Sprintf("# %s %s %d\n\nThe %s meets the %s; see [[n%d]].\n", w(1), w(2), i, w(3), w(4), (i+1)%n))
	}
	r.Commit(gitDate, "notes")
	return r.Dir
}

// notesOf lists the note files git tracks in dir.
func notesOf(b *testing.B, dir string) []string {
	cmd := exec.Command("git", "ls-files", "-z", "--", "*.md")
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		b.Fatal(err)
	}
	var notes []string
	for f := range strings.SplitSeq(string(out), "\x00") {
		if f != "" && !strings.HasPrefix(f, ".") {
			notes = append(notes, f)
		}
	}
	if len(notes) == 0 {
		b.Fatalf("no notes in %s", dir)
	}
	return notes
}

func appendLine(b *testing.B, path, line string) {
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err == nil {
		_, err = fmt.Fprintf(f, "\n%s\n", line)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
	}
	if err != nil {
		b.Fatal(err)
	}
}
