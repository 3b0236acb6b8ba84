package index_test

import (
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/omh-notes/omh/index"
	"github.com/omh-notes/omh/token"
	"github.com/omh-notes/omh/vault/gitrepo"
	"github.com/omh-notes/omh/vault/vaulttest"
)

// tideTerms are the terms of the tide store's views.
var tideTerms = token.Terms("tide base step memory revised")

// tideStep lands step i of the tide store's history: a new note linking to
// a base note, an edit of that base note, and every third step the
// deletion of an older step's note. The same step on the same parent with
// the same dates makes the same commit.
func tideStep(r *vaulttest.Repo, i int) string {
	r.Write(fmt.Sprintf("notes/step%02d.md", i), fmt.Sprintf("# Step %d\n\nA step memory about the tide, number %d. See [[base%d]].\n", i, i, i%4))
	r.Write(fmt.Sprintf("notes/base%d.md", i%4), fmt.Sprintf("# Base %d\n\nA base memory, revised at step %d with the tide.\n", i%4, i))
	if i%3 == 0 {
		r.Remove(fmt.Sprintf("notes/step%02d.md", i-2))
	}
	return r.Commit(fmt.Sprintf("2026-02-%02dT10:00:00Z", i+1), fmt.Sprintf("step %d", i))
}

// readerOptions leave the working tree out: the committer writes files
// before committing them, so only what is committed (and the private
// notes, which do not change) decides a view.
var readerOptions = index.Options{NoWorktree: true, LockWait: time.Millisecond}

// Readers, each with a cache of its own opened on the same files (as
// separate processes have), take snapshots while commits land and a writer
// refreshes after each; a reader that finds the cache stale refreshes it
// itself when no one else is, and answers from the last snapshot when
// someone is. Every snapshot any of them sees is consistent with itself and
// equals, whole, the view a rebuild gives of the commit it states. At the
// end the cache is at HEAD. Catches: a reader seeing a half-written
// snapshot, a snapshot that mixes two commits, a snapshot stating a commit
// it does not hold, two refreshes racing, and a lock or busy error.
func TestReadersDuringRefreshesSeeWholeSnapshotsOfTheCommitTheyState(t *testing.T) {
	t.Parallel()
	const steps, readers = 6, 3
	r := vaulttest.New(t)
	r.Write(".omh/config.yaml", "notes: notes\n")
	for i := 0; i < 4; i++ {
		r.Write(fmt.Sprintf("notes/base%d.md", i), fmt.Sprintf("# Base %d\n\nA base memory number %d.\n", i, i))
	}
	first := r.Commit("2026-02-01T09:00:00Z", "bases")
	writePrivate(t, r, "mine.md", "---\nrecorded: 2026-01-15\n---\n# Mine\n\nMy private memory of the tide, [[base1]].\n")

	// The view of every commit, each from a cache built from scratch; then
	// the history is undone, to be replayed while the readers read.
	expected := map[string]view{first: rebuild(t, r.Dir, tideTerms).base}
	commits := []string{first}
	for i := 1; i <= steps; i++ {
		c := tideStep(r, i)
		commits = append(commits, c)
		expected[c] = rebuild(t, r.Dir, tideTerms).base
	}
	r.Git("reset", "-q", "--hard", first)
	writer := openRepo(t, r.Dir)
	wc := openCache(t, writer.CommonDir)
	defer wc.Close()
	freshView(t, wc, writer, readerOptions, tideTerms)

	var (
		wg      sync.WaitGroup
		done    = make(chan struct{})
		mu      sync.Mutex
		seen    = map[string]int{}
		stale   int // snapshots read while another cache was refreshing
		reports []string
	)
	failf := func(format string, args ...any) {
		mu.Lock()
		defer mu.Unlock()
		if len(reports) < 10 {
			reports = append(reports, fmt.Sprintf(format, args...))
		}
	}
	for n := 0; n < readers; n++ {
		// A reader's repository and cache are its own, and opened here:
		// Fatal may not be called from the reader's goroutine.
		repo, err := gitrepo.Open(r.Dir)
		if err != nil {
			t.Fatal(err)
		}
		defer repo.Close()
		c := openCache(t, repo.CommonDir)
		defer c.Close()
		wg.Add(1)
		go func() {
			defer wg.Done()
			for after := 0; after < 2; {
				select {
				case <-done:
					after++ // two more reads once the last commit landed
				default:
				}
				s, rep, err := c.Fresh(repo, readerOptions)
				if err != nil {
					failf("reader %d: %v", n, err)
					return
				}
				v, err := describe(s, tideTerms)
				commit := s.Commit()
				s.Close()
				if err != nil {
					failf("reader %d: the snapshot at %s is inconsistent: %v", n, commit, err)
					return
				}
				want, ok := expected[commit]
				if !ok {
					failf("reader %d: a snapshot states commit %q, none of the history's", n, commit)
					return
				}
				if d := v.diff(want); d != "" {
					failf("reader %d: the snapshot at %s differs from a rebuild of that commit:\n%s", n, commit, d)
					return
				}
				mu.Lock()
				seen[commit]++
				if rep.Stale {
					stale++
				}
				mu.Unlock()
			}
		}()
	}
	for i := 1; i <= steps; i++ {
		if c := tideStep(r, i); c != commits[i] {
			t.Errorf("step %d made commit %s, and %s before", i, c, commits[i])
		}
		s, _, err := wc.Fresh(writer, index.Options{NoWorktree: true})
		if err != nil {
			t.Errorf("the writer's refresh after step %d: %v", i, err)
			continue
		}
		s.Close()
	}
	close(done)
	wg.Wait()
	for _, rep := range reports {
		t.Error(rep)
	}
	t.Logf("snapshots seen per commit: %v, %d of them while another refresh ran", seen, stale)

	if d := freshView(t, wc, writer, index.Options{NoWorktree: true}, tideTerms).diff(expected[commits[steps]]); d != "" {
		t.Errorf("at the end the cache differs from a rebuild at HEAD:\n%s", d)
	}
}

// A snapshot opened before a refresh goes on reading the commit it was
// opened at while another cache of the same files refreshes to a new
// commit, and after; the next snapshot reads the new one. Catches: a
// snapshot whose reads are not one transaction (it would see part of the
// new state), and a refresh that waits for readers to finish.
func TestASnapshotHeldAcrossARefreshStillReadsItsCommit(t *testing.T) {
	t.Parallel()
	r := seaStore(t)
	before := rebuild(t, r.Dir, seaTerms).all
	repo := openRepo(t, r.Dir)
	c := openCache(t, repo.CommonDir)
	defer c.Close()
	held, _, err := c.Fresh(repo, index.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer held.Close()
	// Part of the snapshot is read before the refresh, all of it after.
	if _, err := held.Postings("heron"); err != nil {
		t.Fatal(err)
	}

	r.Write("notes/heron.md", "# Heron\n\nA heron memory, revised while a snapshot was open [[otter]].\n")
	r.Remove("notes/walrus.md")
	r.Commit("2025-12-05T10:00:00Z", "revised")
	after := rebuild(t, r.Dir, seaTerms).all
	other := openCache(t, repo.CommonDir)
	defer other.Close()
	if d := freshView(t, other, repo, index.Options{}, seaTerms).diff(after); d != "" {
		t.Errorf("the refresh made beside an open snapshot differs from a rebuild:\n%s", d)
	}
	if d := mustDescribe(t, held, seaTerms).diff(before); d != "" {
		t.Errorf("the snapshot held across the refresh differs from a rebuild of its commit:\n%s", d)
	}
	if d := freshView(t, c, repo, index.Options{}, seaTerms).diff(after); d != "" {
		t.Errorf("the next snapshot of the cache that held the old one differs from a rebuild:\n%s", d)
	}
}
