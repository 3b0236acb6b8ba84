package store_test

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/omh-notes/omh/store"
	"github.com/omh-notes/omh/vault/vaulttest"
)

// dendronBundle is a real note vault's history (3,824 commits), kept beside
// the checkout with the other shared data.
const dendronBundle = "../../shared/data/vaults/dendron-site.bundle"

// TestFindAsOfEqualsAFreshCheckoutOfThatCommit replays a real history: for
// several past days, a question asked as of DAY must answer exactly, hit
// for hit and in order, what the question answers now in a fresh checkout
// of the commit it names (git worktree add), and that commit must be the
// last one of HEAD's first-parent history made on or before the day.
func TestFindAsOfEqualsAFreshCheckoutOfThatCommit(t *testing.T) {
	t.Parallel()
	bundle, err := filepath.Abs(dendronBundle)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(bundle); err != nil {
		t.Skip("the shared data is not beside the checkout:", err)
	}
	if testing.Short() {
		t.Skip("indexes a real vault at several commits")
	}
	dir := filepath.Join(t.TempDir(), "dendron")
	git := func(dir string, args ...string) string {
		t.Helper()
		out, err := exec.Command("git", append([]string{"-C", dir}, args...)...).CombinedOutput()
		if err != nil {
			t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		return strings.TrimSpace(string(out))
	}
	if out, err := exec.Command("git", "clone", "-q", bundle, dir).CombinedOutput(); err != nil {
		t.Fatalf("cloning the bundle: %v\n%s", err, out)
	}
	// A private folder of its own, shared by the worktrees below.
	git(dir, "config", "omh.local", filepath.Join(t.TempDir(), "private"))
	// Each first-parent commit, newest first, with its committer day in its
	// own offset.
	var history [][2]string
	for _, line := range strings.Split(git(dir, "log", "--first-parent", "--format=%H %cI"), "\n") {
		id, when, _ := strings.Cut(line, " ")
		history = append(history, [2]string{id, when[:10]})
	}
	questions := []string{"how do i publish my notes", "schema templates", "lookup hierarchy", "sync a workspace with git"}
	for _, day := range []string{"2020-12-07", "2021-06-15", "2022-03-01"} {
		// The commit the day names: the first, walking back from HEAD, made
		// on or before it.
		want := ""
		for _, c := range history {
			if c[1] <= day {
				want = c[0]
				break
			}
		}
		wt := filepath.Join(t.TempDir(), "at-"+day)
		git(dir, "worktree", "add", "-q", "--detach", wt, want)
		// The past commits hold no .omh/config.yaml, so --as-of reads them
		// with today's (the one the first command wrote, from what it
		// detected at HEAD); the checkout is given the same, or it would
		// detect its own from the older notes (Dendron's vault was renamed).
		refresh(t, dir)
		if cfg, err := os.ReadFile(filepath.Join(dir, ".omh", "config.yaml")); err == nil {
			vaulttest.WriteFile(t, filepath.Join(wt, ".omh", "config.yaml"), string(cfg))
		}
		answered := 0
		for _, q := range questions {
			asked := withRoots(question(q), 10)
			past := replyOf(t, dir, asOf(asked, day))
			fresh := replyOf(t, wt, asked)
			if past.Commit == nil || *past.Commit != want {
				t.Fatalf("as of %s the answer names commit %v; the history says %s", day, past.Commit, want)
			}
			if !reflect.DeepEqual(past.Hits, fresh.Hits) || past.Omitted != fresh.Omitted {
				t.Errorf("as of %s, %q:\n as-of %+v\n fresh %+v", day, q, past.Hits, fresh.Hits)
			}
			if len(past.Hits) > 0 {
				answered++
			}
		}
		if answered < 2 {
			t.Errorf("as of %s only %d questions found anything; the comparison says little", day, answered)
		}
	}
}

func asOf(q store.Question, moment string) store.Question {
	q.AsOf = moment
	return q
}

// answerJSON is an answer as omh find --json gives it.
type answerJSON struct {
	Commit  *string
	Hits    []map[string]any
	Omitted int
}

// replyOf opens the store at dir, asks it q and reads the answer's JSON.
func replyOf(t *testing.T, dir string, q store.Question) answerJSON {
	t.Helper()
	s, _ := openStore(t, dir)
	a, err := s.Ask(q)
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(a.JSON())
	if err != nil {
		t.Fatal(err)
	}
	var r answerJSON
	if err := json.Unmarshal(b, &r); err != nil {
		t.Fatal(err)
	}
	return r
}
