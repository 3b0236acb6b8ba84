package store_test

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/omh-notes/omh/index"
	"github.com/omh-notes/omh/store"
	"github.com/omh-notes/omh/vault/vaulttest"
)

// concurrentQuestions are asked by the finders: without the working tree,
// because the committer writes files before committing them, and an answer
// must depend on nothing but the commit it states.
var concurrentQuestions = []store.Question{noWorktree(everything), noWorktree(question("tide step"))}

func noWorktree(q store.Question) store.Question {
	q.NoWorktree = true
	return q
}

// landStep writes step i's change: a new note, an edited one, and every
// third step a deleted one.
func landStep(t *testing.T, dir string, i int) string {
	t.Helper()
	write := func(rel, content string) {
		vaulttest.WriteFile(t, filepath.Join(dir, filepath.FromSlash(rel)), content)
	}
	write(fmt.Sprintf("notes/step%02d.md", i), fmt.Sprintf("# Step %d\n\nA step memory about the tide, number %d. See [[base%d]].\n", i, i, i%4))
	write(fmt.Sprintf("notes/base%d.md", i%4), fmt.Sprintf("# Base %d\n\nA base memory, revised at step %d with the tide.\n", i%4, i))
	if i%3 == 0 {
		if err := os.Remove(filepath.Join(dir, "notes", fmt.Sprintf("step%02d.md", i-2))); err != nil {
			t.Fatal(err)
		}
	}
	return vaulttest.CommitAll(t, dir, fmt.Sprintf("2026-02-%02dT10:00:00Z", i+1), fmt.Sprintf("step %d", i))
}

// found is one answer of a finder.
type found struct {
	question int
	answer   string
	warnings []string
	err      error
}

// find opens the store at dir, as a new omh process would, and asks it q.
func find(dir string, q store.Question) (answer string, warnings []string, err error) {
	s, err := store.Open(dir, store.Options{Warn: func(msg string) { warnings = append(warnings, msg) }}) // a read runs no hook
	if err != nil {
		return "", nil, err
	}
	defer s.Close()
	a, err := s.Ask(q)
	if err != nil {
		return "", warnings, err
	}
	answer, err = render(a)
	return answer, warnings, err
}

// waitingForARefresh is what a command says when it waits for another
// process's refresh past the grace.
var waitingForARefresh = regexp.MustCompile(`^waiting up to \S+ for another omh process that is refreshing the cache \(it holds \S+refresh\.lock\)$`)

// Many finders ask while commits land and the hooks refresh the cache
// (each finder opens a store of its own for each question, a cache opened
// on the same files as a process opens it; the refreshes run in the
// hooks' processes): none fails, and every answer is exactly the answer computed
// beforehand for the commit it states, whichever snapshot it was read from
// (a finder may answer from the last snapshot while another process
// refreshes). At the end the cache is at HEAD. Catches: a half-written
// snapshot seen by a reader, an answer mixing two commits, a commit stated
// that the answer does not reflect, a lock error, two refreshes racing.
func TestConcurrentFindsAnswerForTheCommitTheyState(t *testing.T) {
	t.Parallel()
	steps, finders := 6, 3
	if testing.Short() {
		steps = 3
	}
	ref := vaulttest.New(t)
	ref.Write(".omh/config.yaml", "notes: notes\n")
	for i := 0; i < 4; i++ {
		ref.Write(fmt.Sprintf("notes/base%d.md", i), fmt.Sprintf("# Base %d\n\nA base memory number %d.\n", i, i))
	}
	first := vaulttest.CommitAll(t, ref.Dir, "2026-02-01T09:00:00Z", "bases")
	vaulttest.WriteFile(t, filepath.Join(ref.Private, "mine.md"), "---\nrecorded: 2026-01-15\n---\n# Mine\n\nMy private memory of the tide.\n")

	// The answers for every commit, each from a cache built from scratch.
	expected := map[string][]string{}
	commits := []string{first}
	precompute := func(commit string) {
		if err := os.RemoveAll(filepath.Join(ref.Dir, ".git", "omh")); err != nil {
			t.Fatal(err)
		}
		expected[commit] = askAll(t, ref.Dir, concurrentQuestions...)
	}
	precompute(first)
	for i := 1; i <= steps; i++ {
		c := landStep(t, ref.Dir, i)
		commits = append(commits, c)
		precompute(c)
	}

	// The live repository: the same history replayed from the first
	// commit, so each commit has the same id, with the hooks installed.
	live := filepath.Join(t.TempDir(), "live")
	mustGit(t, ref.Dir, "clone", "-q", ref.Dir, live)
	ref.SharePrivate(live)
	mustGit(t, live, "reset", "-q", "--hard", first)
	mustGit(t, live, "config", "user.name", "Test Author")
	mustGit(t, live, "config", "user.email", "author@example.com")
	installHooks(t, live)
	refresh(t, live)

	var (
		mu      sync.Mutex
		answers []found
		wg      sync.WaitGroup
		done    = make(chan struct{})
	)
	for f := 0; f < finders; f++ {
		wg.Add(1)
		go func(f int) {
			defer wg.Done()
			for n := 0; ; n++ {
				select {
				case <-done:
					if n >= 2 {
						return
					}
				default:
				}
				q := (f + n) % len(concurrentQuestions)
				answer, warnings, err := find(live, concurrentQuestions[q])
				mu.Lock()
				answers = append(answers, found{q, answer, warnings, err})
				mu.Unlock()
			}
		}(f)
	}
	for i := 1; i <= steps; i++ {
		if c := landStep(t, live, i); c != commits[i] {
			close(done)
			wg.Wait()
			t.Fatalf("step %d made commit %s in the live repository, %s in the reference", i, c, commits[i])
		}
	}
	close(done)
	wg.Wait()

	seen := map[string]bool{}
	for _, a := range answers {
		q := concurrentQuestions[a.question].Phrasings
		if a.err != nil {
			t.Errorf("%q: %v\n%s", q, a.err, a.warnings)
			continue
		}
		for _, w := range a.warnings {
			// A finder may answer from the last snapshot, and says so; one
			// that waits past the grace for another process's refresh
			// (a loaded machine) says that too.
			if !strings.HasPrefix(w, "another omh process is updating the cache; answering from the snapshot at ") &&
				!waitingForARefresh.MatchString(w) {
				t.Errorf("%q warned: %q", q, w)
			}
		}
		commit := answerCommit(t, a.answer)
		want, ok := expected[commit]
		if !ok {
			t.Errorf("%q states commit %q, which is none of the history's:\n%s", q, commit, a.answer)
			continue
		}
		seen[commit] = true
		if a.answer != want[a.question] {
			t.Errorf("%q at %s differs from the answer computed for that commit:\n%s\n--- want:\n%s", q, commit, a.answer, want[a.question])
		}
	}
	t.Logf("%d answers over %d of %d commits", len(answers), len(seen), len(commits))

	refresh(t, live)
	head := commits[len(commits)-1]
	if st := statusOf(t, live); !st.Fresh || st.Indexed != head {
		t.Errorf("after the commits and omh index the cache is not at HEAD %s: %+v", head, st)
	}
	for i, got := range askAll(t, live, concurrentQuestions...) {
		if got != expected[head][i] {
			t.Errorf("%q at HEAD:\n%s\n--- want:\n%s", concurrentQuestions[i].Phrasings, got, expected[head][i])
		}
	}
}

// A refresh killed before any one of its writes (the fault injection of
// index.CrashEnv) loses nothing: the next question, with no help from the
// user, answers byte for byte as a cache built from scratch. For k = 1, 2,
// … each run starts from the same cache and crashes just before its k-th
// write, until a run has fewer writes than k and completes; both for a
// first build and for an incremental refresh after a commit. Catches: a
// half-written file or snapshot that is trusted, a lost temporary file
// that blocks the next build, a crash that leaves the refresh lock held.
func TestACrashAtAnyWriteIsRecoveredByTheNextFind(t *testing.T) {
	t.Parallel()
	stride := 1
	if testing.Short() {
		stride = 4 // every fourth write, and the first and last
	}
	for _, scenario := range []string{"first build", "incremental refresh"} {
		t.Run(scenario, func(t *testing.T) {
			t.Parallel()
			r := vaulttest.New(t)
			r.Write(".omh/config.yaml", "notes: notes\n")
			r.Write("notes/walrus.md", "# Walrus\n\nA walrus memory, see [[heron]].\n")
			r.Write("notes/heron.md", "# Heron\n\nA heron memory.\n")
			r.Write("notes/deep/krill.md", "# Krill\n\nA krill memory [[walrus]].\n")
			r.Commit("2026-01-02T10:00:00Z", "notes")
			vaulttest.WriteFile(t, filepath.Join(r.Private, "mine.md"), "# Mine\n\nMy memory of the [[heron]].\n")
			cache := filepath.Join(r.Dir, ".git", "omh")
			saved := filepath.Join(t.TempDir(), "saved")
			if scenario == "incremental refresh" {
				refresh(t, r.Dir)
				vaulttest.CopyTree(t, cache, saved)
				r.Write("notes/heron.md", "# Heron\n\nA heron memory, revised.\n")
				r.Write("notes/otter.md", "# Otter\n\nAn otter memory [[heron]].\n")
				r.Remove("notes/deep/krill.md")
				r.Commit("2026-01-03T10:00:00Z", "revised")
			}
			r.Write("notes/walrus.md", "# Walrus\n\nA walrus memory, edited and not committed.\n")
			want := askAll(t, rebuiltCopy(t, r.Dir), everything)[0]

			completed := 0
			for k := 1; k <= 1000 && completed == 0; k += stride {
				if err := os.RemoveAll(cache); err != nil {
					t.Fatal(err)
				}
				if scenario == "incremental refresh" {
					vaulttest.CopyTree(t, saved, cache)
				}
				res := omhProc(t, r.Dir, []string{fmt.Sprintf("%s=%d", index.CrashEnv, k)}, "index")
				switch res.status {
				case 0:
					completed = k
				case 99:
				default:
					t.Fatalf("k=%d: omh index exited %d: %s", k, res.status, res.stderr)
				}
				if got := askAll(t, r.Dir, everything)[0]; got != want {
					t.Fatalf("k=%d: after the crash the question answers:\n%s\n--- a rebuild answers:\n%s", k, got, want)
				}
				if st := statusOf(t, r.Dir); !st.Fresh {
					t.Fatalf("k=%d: the cache is not fresh after the question", k)
				}
			}
			if completed < 2 {
				t.Fatalf("the refresh completed at k=%d: the crash points were never reached", completed)
			}
			t.Logf("%s: crashed before each of %d writes, then completed", scenario, completed-1)
		})
	}
}

// Several processes that find the cache damaged at once all succeed and
// leave it at HEAD. Catches each replacing it (withStore → Cache.Replace)
// with a generation numbered newest+1 chosen without a lock: create renamed
// its new file over the one of that number another process had just made
// and opened, and the processes wrote different files under one name,
// sharing its -wal and -shm: "disk I/O error (522)" (exit 3), or every omh
// index exited 0 with the newest generation holding no snapshot.
func TestConcurrentRepairsOfADamagedCacheAgree(t *testing.T) {
	t.Parallel()
	r := hookRepo(t)
	rounds := 30
	if testing.Short() {
		rounds = 5
	}
	for round := 0; round < rounds; round++ {
		files, _ := filepath.Glob(filepath.Join(r.Dir, ".git", "omh", "cache-*.db"))
		for _, f := range files {
			os.Remove(f + "-wal")
			os.Remove(f + "-shm")
			if err := os.WriteFile(f, bytes.Repeat([]byte("garbage!"), 4096), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		var wg sync.WaitGroup
		failures := make(chan string, 3)
		for i := 0; i < 3; i++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				cmd := exec.Command(vaulttest.Omh(t), "-C", r.Dir, "index")
				cmd.Stdout = io.Discard
				var stderr bytes.Buffer
				cmd.Stderr = &stderr
				if err := cmd.Run(); err != nil {
					failures <- fmt.Sprintf("%v: %s", err, stderr.String())
				}
			}()
		}
		wg.Wait()
		close(failures)
		for f := range failures {
			t.Errorf("round %d: omh index failed: %s", round, f)
		}
		if st := statusOf(t, r.Dir); !st.Fresh {
			t.Errorf("round %d: every omh index returned, and the cache is not fresh: %+v", round, st)
		}
	}
}
