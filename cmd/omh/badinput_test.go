package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/omh-notes/omh/retrieve"
	"github.com/omh-notes/omh/vault/vaulttest"
)

func lines(s string) int { return strings.Count(strings.TrimSpace(s), "\n") + 1 }

func TestOutsideARepositoryIsARefusalWithOneLine(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	r := omh(t, dir, "find", "anything")
	if r.status != exitRefused || lines(r.stderr) != 1 || !strings.Contains(r.stderr, "not a git repository") {
		t.Errorf("exit %d, stderr %q", r.status, r.stderr)
	}
	r = omh(t, dir, "--json", "find", "anything")
	var e struct {
		Error struct{ Code, Message string }
	}
	if err := json.Unmarshal([]byte(r.stderr), &e); err != nil || e.Error.Code != "not_a_repository" || r.status != exitRefused {
		t.Errorf("--json error %q (%v), exit %d", r.stderr, err, r.status)
	}
}

func TestUsageErrorsExitTwoAndSpeakJSONWhenAsked(t *testing.T) {
	t.Parallel()
	r := vaulttest.New(t)
	for _, args := range [][]string{{"find"}, {"bogus"}, {"find", "--roots", "many", "q"}, {"find", "--layer", "nowhere", "q"}, {"find", "--roots", "-1", "q"}} {
		res := omh(t, r.Dir, args...)
		if res.status != exitUsage || res.stderr == "" {
			t.Errorf("omh %v: exit %d, stderr %q", args, res.status, res.stderr)
		}
		res = omh(t, r.Dir, append([]string{"--json"}, args...)...)
		var e struct{ Error struct{ Code string } }
		if json.Unmarshal([]byte(res.stderr), &e) != nil || e.Error.Code != "usage" || res.status != exitUsage {
			t.Errorf("omh --json %v: exit %d, stderr %q", args, res.status, res.stderr)
		}
	}
}

// Before the first commit every note is local, and the answer says there
// is no commit yet.
func TestARepositoryWithoutCommitsAnswersFromItsLocalNotes(t *testing.T) {
	t.Parallel()
	r := vaulttest.New(t)
	r.Write("idea.md", "# An idea about caching\n")
	out := ok(t, r.Dir, "find", "caching")
	if out != "answered: the first note leads clearly\nidea  local · "+today(t, r, "idea.md")+"\n@ no commits\n" {
		t.Errorf("got %q", out)
	}
	if reply := findJSON(t, r.Dir, "caching"); reply.Commit != nil || len(reply.Hits) != 1 {
		t.Errorf("commit %v hits %v, want null and one hit", reply.Commit, reply.Hits)
	}
}

// today is the modification date (UTC) a local note without a frontmatter
// date carries.
func today(t *testing.T, r *vaulttest.Repo, path string) string {
	fi, err := os.Stat(filepath.Join(r.Dir, path))
	if err != nil {
		t.Fatal(err)
	}
	return fi.ModTime().UTC().Format("2006-01-02")
}

func TestADetachedHeadIsJustACommit(t *testing.T) {
	t.Parallel()
	r := vaulttest.New(t)
	r.Write("a.md", "# Alpha note\n")
	first := r.Commit("2026-01-01T10:00:00Z", "a")
	r.Write("b.md", "# Beta note\n")
	r.Commit("2026-02-01T10:00:00Z", "b")
	r.Git("checkout", "-q", "--detach", first)
	reply := findJSON(t, r.Dir, "note")
	if reply.Commit == nil || *reply.Commit != first || len(reply.Hits) != 1 || reply.Hits[0].Key != "a" {
		t.Errorf("got %+v", reply)
	}
}

// A shallow clone answers from the history it has: a note older than the
// clone's boundary is dated by the boundary commit, as git log would say.
func TestAShallowCloneAnswers(t *testing.T) {
	t.Parallel()
	src := vaulttest.New(t)
	src.Write("old.md", "# Old note about volumes\n")
	src.Commit("2026-01-01T10:00:00Z", "old")
	src.Write("new.md", "# New note about volumes\n")
	src.Commit("2026-03-01T10:00:00Z", "new")
	dst := filepath.Join(t.TempDir(), "shallow")
	src.Git("clone", "-q", "--depth", "1", "file://"+src.Dir, dst)
	dates := map[string]string{}
	for _, h := range findJSON(t, dst, "volumes").Hits {
		dates[h.Key] = h.Date
	}
	if !reflect.DeepEqual(dates, map[string]string{"old": "2026-03-01", "new": "2026-03-01"}) {
		t.Errorf("dates %v", dates)
	}
	if !status(t, dst).Shallow {
		t.Error("status does not say the clone is shallow")
	}
}

func TestAMissingNotesRootIsSaidOnceAndTheStoreIsEmpty(t *testing.T) {
	t.Parallel()
	r := vaulttest.New(t)
	r.Write(".omh/config.yaml", "notes: docs/notes\n")
	r.Write("elsewhere.md", "# Not under the notes root\n")
	r.Commit("2026-01-01T10:00:00Z", "config")
	res := omh(t, r.Dir, "find", "root")
	if res.status != 0 || !strings.HasPrefix(res.stdout, "none: the store has no notes yet") ||
		lines(res.stderr) != 1 || !strings.Contains(res.stderr, "docs/notes") {
		t.Errorf("exit %d\nstdout %q\nstderr %q", res.status, res.stdout, res.stderr)
	}
}

func TestABadConfigIsARefusalNamingTheKey(t *testing.T) {
	t.Parallel()
	r := vaulttest.New(t)
	r.Write(".omh/config.yaml", "notes: [a, b]\n")
	res := omh(t, r.Dir, "find", "x")
	if res.status != exitRefused || !strings.Contains(res.stderr, `"notes"`) {
		t.Errorf("exit %d stderr %q", res.status, res.stderr)
	}
}

// A symbolic link is never followed, in HEAD's tree or the working tree:
// its target's words are not found and the link is reported once.
func TestSymlinkedNotesAreNeverFollowed(t *testing.T) {
	t.Parallel()
	r := vaulttest.New(t)
	outside := filepath.Join(t.TempDir(), "secret.txt")
	vaulttest.WriteFile(t, outside, "# zanzibar secret\n")
	if err := os.Symlink(outside, filepath.Join(r.Dir, "committed-link.md")); err != nil {
		t.Fatal(err)
	}
	r.Write("real.md", "# A real note\n")
	r.Commit("2026-01-01T10:00:00Z", "with a symlink")
	if err := os.Symlink(outside, filepath.Join(r.Dir, "new-link.md")); err != nil {
		t.Fatal(err)
	}
	res := omh(t, r.Dir, "find", "zanzibar")
	if res.status != 0 || !strings.HasPrefix(res.stdout, "none: no note contains") {
		t.Errorf("the link's target was read: %q", res.stdout)
	}
	for _, name := range []string{"committed-link.md", "new-link.md"} {
		if strings.Count(res.stderr, name) != 1 {
			t.Errorf("%s not reported exactly once: %q", name, res.stderr)
		}
	}
	if again := omh(t, r.Dir, "find", "zanzibar"); strings.Contains(again.stderr, "committed-link.md") {
		t.Errorf("reported again on the next command: %q", again.stderr)
	}
}

func TestABinaryFileNamedMarkdownIsSkipped(t *testing.T) {
	t.Parallel()
	r := vaulttest.New(t)
	r.Write("image.md", "\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR okapi")
	r.Write("real.md", "# Okapi notes\n")
	r.Commit("2026-01-01T10:00:00Z", "binary")
	res := omh(t, r.Dir, "find", "okapi")
	tree, err := retrieve.ParseTree(res.stdout)
	if res.status != 0 || err != nil || len(tree.Notes) != 1 || tree.Notes[0].Key != "real" || strings.Contains(res.stdout, "image") ||
		!strings.Contains(res.stderr, "image.md skipped: binary") {
		t.Errorf("exit %d\n%s\n%s", res.status, res.stdout, res.stderr)
	}
}

func TestInvalidBytesAndInvalidYAMLStillIndexTheNote(t *testing.T) {
	t.Parallel()
	r := vaulttest.New(t)
	r.Write("latin1.md", "# Caf\xe9 notes about espresso\n")
	r.Write("broken.md", "---\ntitle: [unclosed\n---\n# Broken frontmatter about espresso\n")
	r.Commit("2026-01-01T10:00:00Z", "odd notes")
	res := omh(t, r.Dir, "find", "--json", "espresso")
	var reply struct{ Hits []struct{ Key, Title string } }
	if err := json.Unmarshal([]byte(res.stdout), &reply); err != nil || len(reply.Hits) != 2 {
		t.Fatalf("got %q (%v)", res.stdout, err)
	}
	for _, h := range reply.Hits {
		if !utf8.ValidString(h.Title) {
			t.Errorf("title %q is not valid UTF-8", h.Title)
		}
	}
	if !strings.Contains(res.stderr, "broken.md:") {
		t.Errorf("the bad frontmatter was not reported: %q", res.stderr)
	}
}

func TestAKeyThatClimbsOutIsRefused(t *testing.T) {
	t.Parallel()
	r := provenanceRepo(t)
	for _, key := range []string{"../../etc/passwd", "/etc/passwd", "notes/../x", ""} {
		res := omh(t, r.Dir, "show", key)
		if res.status != exitRefused {
			t.Errorf("show %q: exit %d %q", key, res.status, res.stderr)
		}
	}
	if res := omh(t, r.Dir, "show", "no-such-note"); res.status != exitRefused || !strings.Contains(res.stderr, "no note") {
		t.Errorf("unknown key: exit %d %q", res.status, res.stderr)
	}
}

func TestShowPrintsEveryNoteOfTheKeyWithItsProvenance(t *testing.T) {
	t.Parallel()
	r := provenanceRepo(t)
	out := ok(t, r.Dir, "show", "credentials-are-a-named-volume")
	if !strings.Contains(out, "credentials-are-a-named-volume  team · 2026-06-12\n") ||
		!strings.Contains(out, "credentials-are-a-named-volume  local · 2026-07-02\n") ||
		!strings.Contains(out, "Still true") {
		t.Errorf("got %s", out)
	}
	var reply struct {
		Notes []struct{ Layer, Content string }
	}
	if err := json.Unmarshal([]byte(ok(t, r.Dir, "--json", "show", "--layer", "team", "credentials-are-a-named-volume")), &reply); err != nil ||
		len(reply.Notes) != 1 || reply.Notes[0].Layer != "team" || strings.Contains(reply.Notes[0].Content, "Still true") {
		t.Errorf("got %+v (%v)", reply, err)
	}
}

// Reading commands never write into the notes: every file of the working
// tree and the private folder is byte-identical afterwards.
func TestNoCommandChangesANote(t *testing.T) {
	t.Parallel()
	r := provenanceRepo(t)
	before := vaulttest.Files(t, r.Dir, r.Private)
	for _, args := range [][]string{
		{"find", "credentials"}, {"--json", "find", "mount"}, {"show", "mount-returns-ebusy"},
		{"status"}, {"index"}, {"index", "--rebuild"}, {"find", "--no-worktree", "x"},
	} {
		ok(t, r.Dir, args...)
	}
	if after := vaulttest.Files(t, r.Dir, r.Private); !reflect.DeepEqual(before, after) {
		t.Error("a command changed a file of the store")
	}
}
