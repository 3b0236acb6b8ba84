package store_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/omh-notes/omh/store"
	"github.com/omh-notes/omh/vault/vaulttest"
)

// cacheQuestions ask in every way omh find does: a question, a phrasing
// added, without the working tree, as cards.
var cacheQuestions = []store.Question{
	question("credentials"),
	question("mount volume"),
	alsoAsked(question("rotation tokens"), "deploy"),
	question("sandbox uid"),
	noWorktree(question("credentials sandbox")),
	question("deploy tokens credentials"),
}

func alsoAsked(q store.Question, phrasings ...string) store.Question {
	q.Phrasings = append(q.Phrasings, phrasings...)
	return q
}

// answers asks the cache questions and returns every answer rendered.
func answers(t *testing.T, dir string) []string {
	t.Helper()
	return askAll(t, dir, cacheQuestions...)
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

// parsedByRefresh refreshes and returns how many blobs that refresh parsed.
func parsedByRefresh(t *testing.T, dir string) int {
	t.Helper()
	refresh(t, dir)
	return statusOf(t, dir).Parsed
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
	t.Parallel()
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
	s, _ := openStore(t, r.Dir)
	if _, err := s.Index(true); err != nil {
		t.Fatal(err)
	}
	if after := answers(t, r.Dir); after[0] != before[0] {
		t.Error("a rebuild changed an answer")
	}
}

// Through a scripted history the incrementally refreshed cache answers
// exactly as a cache built from scratch, and each refresh parses only blobs
// it never saw: one for a one-note commit, none for a rename or a return
// to a commit seen before.
func TestIncrementalRefreshAnswersAsARebuildAndParsesOnlyNewBlobs(t *testing.T) {
	t.Parallel()
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
	s, _ := openStore(t, r.Dir)
	a, err := s.Ask(question("rotation"))
	if err != nil {
		t.Fatal(err)
	}
	for _, h := range a.Result.Hits {
		if h.Note.Key == "tokens" && (string(h.Note.Date) != "2026-06-01" || h.Note.DateSource.String() != "git") {
			t.Errorf("tokens dated %s from %s, want 2026-06-01 from git", h.Note.Date, h.Note.DateSource)
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

// A cache file that is a folder or a link to /dev/null is replaced by a
// working one, with one line, and the answer is the same. Catches: every
// command exiting 3 with "unable to open database file" or "disk I/O
// error" until the user deleted .git/omh by hand.
func TestACachePathThatIsNotAFileIsHealed(t *testing.T) {
	t.Parallel()
	for _, kind := range []string{"a folder", "a link to /dev/null"} {
		t.Run(kind, func(t *testing.T) {
			t.Parallel()
			r := vaulttest.New(t)
			r.Write("walrus.md", "# Walrus\n\nThe walrus swims.\n")
			r.Commit("2026-01-02T10:00:00Z", "notes")
			want, _ := ask(t, r.Dir, question("walrus"))
			files, _ := filepath.Glob(filepath.Join(r.Dir, ".git", "omh", "cache-*.db"))
			if len(files) != 1 {
				t.Fatalf("cache files %v", files)
			}
			for _, suffix := range []string{"", "-wal", "-shm"} {
				os.Remove(files[0] + suffix)
			}
			var err error
			if kind == "a folder" {
				err = os.Mkdir(files[0], 0o755)
			} else {
				err = os.Symlink(os.DevNull, files[0])
			}
			if err != nil {
				t.Fatal(err)
			}
			if got, warnings := ask(t, r.Dir, question("walrus")); got != want || len(warnings) != 1 {
				t.Errorf("%s%q", got, warnings)
			}
			if _, warnings := ask(t, r.Dir, question("walrus")); len(warnings) != 0 {
				t.Errorf("the next command warned: %q", warnings)
			}
		})
	}
}

// A damaged cache is replaced with one note for people, and the
// answer is what a healthy cache gives.
func TestADamagedCacheIsRebuiltWithOneLine(t *testing.T) {
	t.Parallel()
	for name, damage := range map[string]func(path string) error{
		"garbage": func(p string) error { return os.WriteFile(p, bytes.Repeat([]byte("garbage!"), 4096), 0o644) },
		"truncated": func(p string) error {
			fi, err := os.Stat(p)
			if err != nil {
				return err
			}
			return os.Truncate(p, fi.Size()/2)
		},
		"empty": func(p string) error { return os.Truncate(p, 0) },
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			r := cacheRepo(t)
			want, _ := ask(t, r.Dir, question("credentials"))
			files, _ := filepath.Glob(filepath.Join(r.Dir, ".git", "omh", "cache-*.db"))
			if len(files) != 1 {
				t.Fatalf("cache files %v", files)
			}
			for _, suffix := range []string{"-wal", "-shm"} {
				os.Remove(files[0] + suffix)
			}
			if err := damage(files[0]); err != nil {
				t.Fatal(err)
			}
			if got, warnings := ask(t, r.Dir, question("credentials")); got != want || len(warnings) != 1 || !strings.Contains(warnings[0], "damaged") {
				t.Errorf("got %q\nwant %q\nwarnings %q", got, want, warnings)
			}
			if again, warnings := ask(t, r.Dir, question("credentials")); len(warnings) != 0 || again != want {
				t.Errorf("the rebuilt cache is not healthy: %q %q", again, warnings)
			}
		})
	}
}

// Another repository's .git/omh copied in, with the notes root omh
// detected there, does not make this repository's notes vanish: its
// folder is replaced, the notes are read by what this repository holds,
// and no warning blames a config that does not exist. Catches: "the store
// holds nothing" from another vault's detected notes root, kept by
// omh index --rebuild, and a warning naming a missing .omh/config.yaml.
func TestAnotherRepositorysCacheFolderIsNotTrusted(t *testing.T) {
	t.Parallel()
	other := vaulttest.New(t)
	other.Write("vault/.obsidian/app.json", "{}\n")
	for _, n := range []string{"one", "two", "three"} {
		other.Write("vault/"+n+".md", "# "+n+"\n\n[[one]]\n")
	}
	other.Write("README.md", "# Readme\n")
	other.Commit("2026-01-02T10:00:00Z", "a vault under vault/")
	if st := statusOf(t, other.Dir); st.NotesRoot != "vault" {
		t.Fatalf("the other repository's notes root was detected as %q, want vault", st.NotesRoot)
	}
	r := vaulttest.New(t)
	r.Write("a.md", "# A\n")
	r.Write("b.md", "# B\n\n[[a]]\n")
	r.Commit("2026-01-02T10:00:00Z", "notes at the root")
	vaulttest.CopyTree(t, filepath.Join(other.Dir, ".git", "omh"), filepath.Join(r.Dir, ".git", "omh"))
	s, warnings := openStore(t, r.Dir)
	if _, err := s.Index(false); err != nil {
		t.Fatal(err)
	}
	st, err := s.Status()
	if err != nil {
		t.Fatal(err)
	}
	if st.Notes.Team != 2 || st.NotesRoot != "" {
		t.Errorf("with another repository's cache folder: %d team notes under %q, want 2 under the root", st.Notes.Team, st.NotesRoot)
	}
	for _, w := range *warnings {
		if strings.Contains(w, "exists neither") {
			t.Errorf("warning: %s", w)
		}
	}
}

// With no room for the cache's writes (a full disk; here a process that
// may grow no file, ulimit -f 0), a command that only reads still
// answers, as it would with room, uncommitted edits and all, saying once
// that nothing is saved; omh index, whose job is saving, fails. Catches:
// every omh find exiting 3 with 16 KB free ("reading the cache: disk I/O
// error"), since even a read grows SQLite's shared-memory file.
func TestAReadWithNoRoomForTheCacheStillAnswers(t *testing.T) {
	t.Parallel()
	r := vaulttest.New(t)
	r.Write("a.md", "# A\n\nThe sync engine.\n")
	r.Write("b.md", "# B\n\nAnother sync note.\n")
	r.Commit("2026-01-02T10:00:00Z", "notes")
	r.Write("c.md", "# C\n\nAn uncommitted sync note.\n")
	want := omhProc(t, r.Dir, nil, "--quiet", "find", "sync")
	if want.status != 0 || strings.Count(want.stdout, "\n") != 3 {
		t.Fatalf("find with room: exit %d, %q %s", want.status, want.stdout, want.stderr)
	}
	for _, pass := range []string{"no cache saved yet", "a cache of its own"} {
		if pass == "no cache saved yet" {
			os.RemoveAll(filepath.Join(r.Dir, ".git", "omh"))
		}
		for _, args := range [][]string{{"find", "sync"}, {"status"}} {
			cmd := exec.Command("sh", append([]string{"-c", `ulimit -f 0 && exec "$0" "$@"`, omhBin, "-C", r.Dir}, args...)...)
			var stdout, stderr strings.Builder
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			if err := cmd.Run(); err != nil {
				t.Errorf("%s: omh %s with no room: %v\n%s", pass, args[0], err, stderr.String())
				continue
			}
			if args[0] == "find" && stdout.String() != want.stdout {
				t.Errorf("%s: find with no room answered %q, with room %q", pass, stdout.String(), want.stdout)
			}
			if lines := strings.Split(strings.TrimSpace(stderr.String()), "\n"); len(lines) != 1 || !strings.Contains(lines[0], "cannot be saved") {
				t.Errorf("%s: omh %s with no room said %q, want one line saying nothing is saved", pass, args[0], stderr.String())
			}
		}
		// A cache saved by a process of its own, which leaves no
		// shared-memory file behind to read through.
		if res := omhProc(t, r.Dir, nil, "--quiet", "index"); res.status != 0 {
			t.Fatalf("index: %s", res.stderr)
		}
	}
	r.Write("d.md", "# D\n\nA note omh index must save.\n")
	cmd := exec.Command("sh", "-c", `ulimit -f 0 && exec "$0" "$@"`, omhBin, "-C", r.Dir, "--quiet", "index")
	if err := cmd.Run(); err == nil {
		t.Error("omh index with no room to save the cache exited 0")
	}
}
