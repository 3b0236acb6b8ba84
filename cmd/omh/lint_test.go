package main

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/omh-notes/omh/store"
	"github.com/omh-notes/omh/vault/vaulttest"
)

func lintJSON(t *testing.T, dir string, args ...string) (store.LintReport, result) {
	t.Helper()
	res := omh(t, dir, append([]string{"--json", "lint"}, args...)...)
	var rep store.LintReport
	if err := json.Unmarshal([]byte(res.stdout), &rep); err != nil {
		t.Fatalf("%v\n%s\n%s", err, res.stdout, res.stderr)
	}
	return rep, res
}

func rulesOf(rep store.LintReport) []string {
	var out []string
	for _, f := range rep.Findings {
		out = append(out, f.Rule+"@"+f.Key)
	}
	return out
}

// Exit statuses: 0 when clean or with warnings only, 1 with errors or,
// under --strict, with warnings; the JSON reply counts both and names
// each finding's rule, note, layer, path, line and fix.
func TestLintExitStatusesAndJSON(t *testing.T) {
	t.Parallel()
	r := vaulttest.New(t)
	r.Write("a.md", "# A\n\n[[b]]\n")
	r.Write("b.md", "# B\n\n[[a]]\n")
	r.Commit("2026-01-02T10:00:00Z", "clean")
	if out := ok(t, r.Dir, "lint"); out != "no problems in 2 notes\n" {
		t.Errorf("%q", out)
	}
	r.Write("lonely.md", "# Lonely\n") // an orphan: a warning, checked when asked for
	if out := ok(t, r.Dir, "lint"); out != "no problems in 3 notes\n" {
		t.Errorf("orphans are advice, not checked by default: %q", out)
	}
	rep, res := lintJSON(t, r.Dir, "--rule", "orphan")
	if res.status != 0 || rep.Errors != 0 || rep.Warnings != 1 || rep.Checked != 3 || rep.Findings[0].Rule != "orphan" ||
		rep.Findings[0].Layer != "local" || rep.Findings[0].Path != "lonely.md" || rep.Findings[0].Fix == "" || rep.Commit == nil {
		t.Errorf("exit %d %+v", res.status, rep)
	}
	if _, res := lintJSON(t, r.Dir, "--strict"); res.status != exitRefused || !strings.Contains(res.stderr, `"code":"lint_failed"`) {
		t.Errorf("--strict: exit %d %s", res.status, res.stderr)
	}
	r.Write("a.md", "---\nrecorded: 2026-13-01\n---\n# A\n\n[[b]] and [[gone]]\n")
	res = omh(t, r.Dir, "lint")
	want := "a.md:2: error invalid-date: field \"recorded\" is not a valid date: \"2026-13-01\"\n    fix: write a real date as YYYY-MM-DD, or remove the field\n" +
		"a.md:6: error dangling-link: [[gone]] reaches no note\n    fix: correct the link, or write the note it names\n"
	if res.status != exitRefused || !strings.HasPrefix(res.stdout, want) || !strings.HasSuffix(res.stdout, "invalid-date         1 error in 1 note\ndangling-link        1 error in 1 note\n2 errors and 0 warnings in 1 of 3 notes\n") {
		t.Errorf("exit %d\n%s", res.status, res.stdout)
	}
	// Only the notes asked for are reported; the store still decides what
	// links reach.
	rep, res = lintJSON(t, r.Dir, "b")
	if res.status != 0 || rep.Checked != 1 || len(rep.Findings) != 0 {
		t.Errorf("b: exit %d %+v", res.status, rep)
	}
	if res := omh(t, r.Dir, "lint", "nowhere"); res.status != exitRefused || !strings.Contains(res.stderr, "no note") {
		t.Errorf("unknown key: exit %d %s", res.status, res.stderr)
	}
}

// The layered rules on a real store: a private note and an uncommitted
// file with one key are duplicates; a team note's verdict pointing at a
// private note is an error, its plain link a warning; prose in a team
// note's Answers is read from the committed blob. Catches: layers decided
// from paths instead of where the note was read, the committed version of
// an edited note reported again.
func TestLintLayeredRulesOnARealStore(t *testing.T) {
	t.Parallel()
	r := vaulttest.New(t)
	r.Write("issue/slow.md", "---\ntype: issue\n---\n# Slow\n\n## Problem\n\n[[topic/perf]]\n\n## Answers\n\nWhy is it slow?\n")
	r.Write("topic/perf.md", "---\ntype: topic\n---\n# Perf\n\n[[issue/slow]]\n\n- supersedes [[draft/fix]]\n")
	r.Write("edited.md", "---\nrecorded: 2026-02-30\n---\n# Edited\n\n[[topic/perf]]\n")
	r.Commit("2026-01-02T10:00:00Z", "team")
	r.Write("edited.md", "---\nrecorded: 2026-02-03\n---\n# Edited\n\n[[topic/perf]] and [[draft/fix]]\n")
	r.Write("draft/fix.md", "---\ntype: topic\n---\n# Fix, uncommitted\n\n[[topic/perf]]\n")
	vaulttest.WriteFile(t, filepath.Join(r.Private, "draft", "fix.md"), "---\ntype: topic\n---\n# Fix, private\n\n[[topic/perf]]\n")
	rep, res := lintJSON(t, r.Dir)
	got := strings.Join(rulesOf(rep), " ")
	want := "duplicate-key@draft/fix duplicate-key@draft/fix prose-in-list@issue/slow team-links-local@topic/perf"
	if got != want || res.status != exitRefused {
		t.Errorf("exit %d\n got %s\nwant %s\n%+v", res.status, got, want, rep.Findings)
	}
	for _, f := range rep.Findings {
		if f.Rule == "team-links-local" && f.Severity != "error" {
			t.Errorf("a verdict into the local layer is an error: %+v", f)
		}
		if f.Rule == "prose-in-list" && f.Line != 12 {
			t.Errorf("line %d", f.Line)
		}
	}
}

// A vault with many findings gets a first page that fits a screen, then a
// line per rule with its counts; --rule lists every finding of its rules,
// and an unknown rule is a usage error naming the rules.
func TestLintOutputFitsAScreenWithASummaryPerRule(t *testing.T) {
	t.Parallel()
	r := vaulttest.New(t)
	var body strings.Builder
	for i := 0; i < 40; i++ {
		fmt.Fprintf(&body, "[[gone-%d]]\n", i)
	}
	r.Write("a.md", "---\nrecorded: 2026-02-30\n---\n# A\n\n"+body.String())
	r.Write("b.md", "# B\n\n[[a]] [[also-gone]]\n")
	r.Commit("2026-01-02T10:00:00Z", "notes")
	res := omh(t, r.Dir, "lint")
	lines := strings.Split(strings.TrimSuffix(res.stdout, "\n"), "\n")
	if res.status != exitRefused || len(lines) > 24 {
		t.Errorf("exit %d, %d lines:\n%s", res.status, len(lines), res.stdout)
	}
	tail := "(9 of 42 findings shown; omh lint --rule ID lists every finding of a rule, --json all of them)\n" +
		"invalid-date         1 error in 1 note\ndangling-link        41 errors in 2 notes\n42 errors and 0 warnings in 2 of 2 notes\n"
	if !strings.HasSuffix(res.stdout, tail) {
		t.Errorf("%s", res.stdout)
	}
	res = omh(t, r.Dir, "lint", "--rule", "dangling-link")
	if got := strings.Count(res.stdout, "error dangling-link"); got != 41 || strings.Contains(res.stdout, "invalid-date:") {
		t.Errorf("--rule dangling-link listed %d:\n%s", got, res.stdout)
	}
	if res := omh(t, r.Dir, "lint", "--rule", "nope"); res.status != exitUsage || !strings.Contains(res.stderr, "dangling-link") {
		t.Errorf("--rule nope: exit %d %q", res.status, res.stderr)
	}
}

// omh lint --staged checks what a commit would hold: an edit git has not
// staged is left out, a staged one is in, and a note in a merge conflict
// is read as its working copy, markers and all; the JSON says staged.
// Catches: a pre-commit hook passing a commit whose index holds a
// dangling link, or failing one over an edit the commit leaves out.
func TestLintStagedChecksWhatACommitWouldHold(t *testing.T) {
	t.Parallel()
	r := vaulttest.New(t)
	r.Write("a.md", "# A\n\nSee [[b]].\n")
	r.Write("b.md", "# B\n\nSee [[a]].\n")
	r.Commit("2026-01-02T10:00:00Z", "a and b")
	r.Write("a.md", "# A\n\nSee [[b]] and [[nowhere]].\n")
	if rep, res := lintJSON(t, r.Dir); res.status != exitRefused || !slices.Equal(rulesOf(rep), []string{"dangling-link@a"}) {
		t.Errorf("lint: exit %d %v", res.status, rulesOf(rep))
	}
	if rep, res := lintJSON(t, r.Dir, "--staged"); res.status != 0 || len(rep.Findings) != 0 || !rep.Staged || rep.Checked != 2 {
		t.Errorf("--staged with the edit unstaged: exit %d %+v", res.status, rep)
	}
	r.Write("c.md", "# C\n\nSee [[a]] and [[gone]].\n")
	r.Git("add", "c.md")
	if rep, res := lintJSON(t, r.Dir, "--staged"); res.status != exitRefused || !slices.Equal(rulesOf(rep), []string{"dangling-link@c"}) {
		t.Errorf("--staged with c staged: exit %d %v", res.status, rulesOf(rep))
	}
	r.Git("rm", "-q", "--cached", "c.md")
	r.Git("checkout", "-q", "a.md")
	r.Conflict("b.md", "# B\n\nSee [[a]]. Throughput is 5000 jobs per second.\n", "# B\n\nSee [[a]]. Throughput is 6000 jobs per second.\n")
	for _, args := range [][]string{nil, {"--staged"}} {
		rep, res := lintJSON(t, r.Dir, args...)
		if res.status != exitRefused || !slices.Contains(rulesOf(rep), "conflict-markers@b") {
			t.Errorf("lint %v in a merge conflict: exit %d %v", args, res.status, rulesOf(rep))
		}
	}
	// find reads both sides, not a heading made of "=======".
	for _, q := range []string{"5000 jobs", "6000 jobs"} {
		if hits := findJSON(t, r.Dir, q).Hits; len(hits) == 0 || hits[0].Key != "b" {
			t.Errorf("find %q: %+v", q, hits)
		}
	}
}
