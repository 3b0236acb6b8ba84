package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/omh-notes/omh/index"
	"github.com/omh-notes/omh/vault/vaulttest"
)

var cacheQuestions = [][]string{
	{"find", "credentials"},
	{"find", "--json", "mount", "volume"},
	{"find", "--json", "rotation", "tokens", "--also", "deploy"},
	{"find", "sandbox", "uid"},
	{"find", "--no-worktree", "--json", "credentials", "sandbox"},
	{"find", "--cards", "deploy", "tokens", "credentials"},
}

// answers asks the cache questions and returns every reply.
func answers(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	for _, q := range cacheQuestions {
		out = append(out, ok(t, dir, q...))
	}
	return out
}

// freshAnswers copies the repository without its cache and answers there:
// what a rebuild from the files says.
func freshAnswers(t *testing.T, dir string) []string {
	t.Helper()
	copyDir := filepath.Join(t.TempDir(), "copy")
	if out, err := exec.Command("cp", "-a", dir, copyDir).CombinedOutput(); err != nil {
		t.Fatalf("copying the repository: %v\n%s", err, out)
	}
	if err := os.RemoveAll(filepath.Join(copyDir, ".git", "omh")); err != nil {
		t.Fatal(err)
	}
	return answers(t, copyDir)
}

func status(t *testing.T, dir string) index.Status {
	t.Helper()
	var st index.Status
	if err := json.Unmarshal([]byte(ok(t, dir, "status", "--json")), &st); err != nil {
		t.Fatal(err)
	}
	return st
}

// parsedByRefresh refreshes and returns how many blobs that refresh parsed.
func parsedByRefresh(t *testing.T, dir string) int {
	t.Helper()
	ok(t, dir, "index")
	return status(t, dir).Parsed
}

func cacheRepo(t *testing.T) *vaulttest.Repo {
	r := vaulttest.New(t)
	r.Write("notes/credentials.md", "# Credentials\n\nThey live in a named volume; see [[mount]] and [[tokens]].\n")
	r.Write("notes/mount.md", "# Mount returns EBUSY\n\nA bind-mounted credentials file cannot be renamed over.\n")
	r.Write("notes/tokens.md", "# Token rotation\n\nDeploy tokens rotate weekly. See [[credentials]].\n")
	r.Write("notes/sandbox.md", "# Sandbox\n\nThe sandbox user is uid 1000; credentials are mounted.\n")
	r.Write("notes/ci.md", "# CI cache\n\nKeyed by the lockfile.\n")
	r.Write(".omh/config.yaml", "notes: notes\n")
	r.Commit("2026-01-01T10:00:00Z", "first notes")
	vaulttest.WriteFile(t, filepath.Join(r.Private, "mine.md"), "---\nrecorded: 2026-01-05\n---\n# My sandbox checklist\n\nIs the credentials volume mounted? [[sandbox]]\n")
	return r
}

// Deleting the cache is always safe: every answer comes back byte for byte.
func TestDeletingTheCacheChangesNoAnswer(t *testing.T) {
	r := cacheRepo(t)
	r.Write("notes/tokens.md", "# Token rotation\n\nDeploy tokens rotate daily now. See [[credentials]].\n")
	before := answers(t, r.Dir)
	if err := os.RemoveAll(filepath.Join(r.Dir, ".git", "omh")); err != nil {
		t.Fatal(err)
	}
	after := answers(t, r.Dir)
	for i := range before {
		if before[i] != after[i] {
			t.Errorf("question %v changed after deleting the cache:\n%s\n---\n%s", cacheQuestions[i], before[i], after[i])
		}
	}
	rebuilt := ok(t, r.Dir, "index", "--rebuild")
	if rebuilt == "" || answers(t, r.Dir)[0] != before[0] {
		t.Error("omh index --rebuild changed an answer")
	}
}

// Through a scripted history the incrementally refreshed cache answers
// exactly as a cache built from scratch, and each refresh parses only blobs
// it never saw: one for a one-note commit, none for a rename or a return
// to a commit seen before.
func TestIncrementalRefreshAnswersAsARebuildAndParsesOnlyNewBlobs(t *testing.T) {
	r := cacheRepo(t)
	check := func(step string, wantParsed int) {
		t.Helper()
		if got := parsedByRefresh(t, r.Dir); got != wantParsed {
			t.Errorf("%s: the refresh parsed %d blobs, want %d", step, got, wantParsed)
		}
		inc, fresh := answers(t, r.Dir), freshAnswers(t, r.Dir)
		for i := range inc {
			if inc[i] != fresh[i] {
				t.Errorf("%s: %v differs from a rebuild:\n%s\n---\n%s", step, cacheQuestions[i], inc[i], fresh[i])
			}
		}
	}
	check("first index", 6)
	first := r.Git("rev-parse", "HEAD")

	r.Write("notes/mount.md", "# Mount returns EBUSY\n\nA bind-mounted credentials file cannot be renamed over; use a volume.\n")
	r.Commit("2026-02-01T10:00:00Z", "one note changed")
	check("one-note commit", 1)

	r.Git("mv", "notes/ci.md", "notes/ci-cache.md")
	r.Commit("2026-03-01T10:00:00Z", "rename")
	check("rename", 0)

	r.Write("notes/deploy.md", "# Deploy\n\nDeploy tokens come from the vault.\n")
	r.Remove("notes/sandbox.md")
	r.Commit("2026-04-01T10:00:00Z", "add and delete")
	check("add and delete", 1)

	// Changed, then changed back in a later commit: HEAD's blob is an old
	// one, so nothing is parsed, but the note's git date is the newer
	// commit's, which only the history walk can tell.
	r.Write("notes/tokens.md", "# Token rotation\n\nDeploy tokens rotate hourly.\n")
	r.Commit("2026-05-01T10:00:00Z", "change")
	r.Write("notes/tokens.md", "# Token rotation\n\nDeploy tokens rotate weekly. See [[credentials]].\n")
	r.Commit("2026-06-01T10:00:00Z", "change back")
	check("change and change back", 0)
	for _, h := range findJSON(t, r.Dir, "rotation").Hits {
		if h.Key == "tokens" && (h.Date != "2026-06-01" || h.DateSource != "git") {
			t.Errorf("tokens dated %s from %s, want 2026-06-01 from git", h.Date, h.DateSource)
		}
	}

	r.Git("checkout", "-q", "--detach", first)
	check("checkout of the first commit", 0)
	r.Git("checkout", "-q", "main")
	check("back to main", 0)

	r.Git("reset", "-q", "--hard", "HEAD~2")
	check("reset two commits back", 0)

	r.Write("notes/credentials.md", "# Credentials\n\nUncommitted: they moved to a secret store. [[tokens]]\n")
	check("an uncommitted edit", 1)
}
