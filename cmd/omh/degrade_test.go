package main

import (
	"bytes"
	"encoding/json"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/omh-notes/omh/vault/vaulttest"
)

// statusJSON runs omh status --json.
func statusJSON(t *testing.T, dir string) struct {
	Fresh   bool
	Skipped []string
	Notes   struct{ Team, Local int }
} {
	t.Helper()
	var st struct {
		Fresh   bool
		Skipped []string
		Notes   struct{ Team, Local int }
	}
	if err := json.Unmarshal([]byte(ok(t, dir, "--json", "status")), &st); err != nil {
		t.Fatal(err)
	}
	return st
}

// keys lists the keys of a find --json reply.
func keys(t *testing.T, dir string, question ...string) string {
	t.Helper()
	var ks []string
	for _, h := range findJSON(t, dir, question...).Hits {
		ks = append(ks, h.Key)
	}
	return strings.Join(ks, " ")
}

// looseObject is the file of a loose object of the repository at dir.
func looseObject(dir, id string) string {
	return filepath.Join(dir, ".git", "objects", id[:2], id[2:])
}

// A committed note whose blob is missing (a partial clone, a damaged
// object store) is left out with one warning naming it; the rest answers,
// exit 0; status counts it; once the blob is back, the next command reads
// it. Catches: one missing blob making every command exit 3; a skipped
// note never read again.
func TestAMissingBlobCostsOneWarning(t *testing.T) {
	t.Parallel()
	r := vaulttest.New(t)
	r.Write("walrus.md", "# Walrus\n\nThe walrus swims.\n")
	r.Write("heron.md", "# Heron\n\nThe heron swims too.\n")
	r.Commit("2026-01-02T10:00:00Z", "notes")
	blob := r.Git("rev-parse", "HEAD:heron.md")
	saved, err := os.ReadFile(looseObject(r.Dir, blob))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(looseObject(r.Dir, blob)); err != nil {
		t.Fatal(err)
	}
	res := omh(t, r.Dir, "find", "swims")
	if res.status != 0 || strings.Count(res.stderr, "\n") != 1 || !strings.Contains(res.stderr, "heron.md skipped") {
		t.Fatalf("omh find: exit %d, warnings %q; want exit 0 and one warning naming heron.md", res.status, res.stderr)
	}
	if got := keys(t, r.Dir, "swims"); got != "walrus" {
		t.Errorf("hits %q, want walrus", got)
	}
	if st := statusJSON(t, r.Dir); len(st.Skipped) != 1 || st.Skipped[0] != "heron.md" || st.Notes.Team != 1 {
		t.Errorf("status %+v, want heron.md skipped and one team note", st)
	}
	vaulttest.WriteFile(t, looseObject(r.Dir, blob), string(saved))
	if got := keys(t, r.Dir, "swims"); got != "heron walrus" && got != "walrus heron" {
		t.Errorf("with the blob back, hits %q, want both", got)
	}
	if st := statusJSON(t, r.Dir); len(st.Skipped) != 0 || !st.Fresh {
		t.Errorf("status %+v, want nothing skipped, fresh", st)
	}
}

// A clone without the trees of older commits (git clone --filter=tree:0)
// answers at HEAD, dating notes by the oldest commit it can read, with a
// warning; --as-of a commit whose tree it lacks is refused with a message
// that says why; nothing is fetched from the clone's remote. Catches: every
// command exiting 3 in a treeless clone; git log fetching the old trees.
func TestAPartialCloneAnswersAtHead(t *testing.T) {
	t.Parallel()
	src := vaulttest.New(t)
	src.Git("config", "uploadpack.allowFilter", "true")
	for i, day := range []string{"2026-01-02", "2026-02-02", "2026-03-02"} {
		src.Write("a.md", "# A\n\nwalrus, version "+day+"\n")
		src.Write("b"+string(rune('1'+i))+".md", "# B\n\nwalrus b\n")
		src.Commit(day+"T10:00:00Z", "step")
	}
	for _, filter := range []string{"tree:0", "blob:none"} {
		t.Run(filter, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "clone")
			src.Git("clone", "-q", "--filter="+filter, "file://"+src.Dir, dir)
			objects := func() string {
				out, err := exec.Command("git", "-C", dir, "count-objects", "-v").Output()
				if err != nil {
					t.Fatal(err)
				}
				return string(out)
			}
			before := objects()
			res := omh(t, dir, "find", "walrus")
			if res.status != 0 || !strings.Contains(res.stdout, "a  ") {
				t.Errorf("omh find at HEAD: exit %d\n%s%s", res.status, res.stdout, res.stderr)
			}
			res = omh(t, dir, "find", "--as-of", "2026-01-15", "walrus")
			switch filter {
			case "tree:0":
				if res.status != 3 || !strings.Contains(res.stderr, "partial clone") {
					t.Errorf("--as-of in a treeless clone: exit %d %s", res.status, res.stderr)
				}
			case "blob:none":
				if res.status != 0 || !strings.Contains(res.stderr, "a.md skipped") || !strings.Contains(res.stdout, "b1") {
					t.Errorf("--as-of in a blobless clone: exit %d\n%s%s", res.status, res.stdout, res.stderr)
				}
			}
			// git log in a partial clone fetches what is missing from the
			// remote; omh reads only what is here.
			if after := objects(); after != before {
				t.Errorf("omh fetched objects into the clone:\nbefore %s\nafter %s", before, after)
			}
		})
	}
}

// unprivileged runs the omh built for the tests as an ordinary user when
// the tests run as root (root reads a file of mode 000), with the folders
// it needs opened to that user.
func unprivileged(t *testing.T, dirs []string, dir string, args ...string) result {
	t.Helper()
	cmd := exec.Command(vaulttest.Omh(t), append([]string{"-C", dir}, args...)...)
	if os.Geteuid() == 0 {
		for _, d := range dirs {
			for p := d; p != "/" && p != os.TempDir(); p = filepath.Dir(p) {
				os.Chmod(p, 0o777)
			}
			filepath.WalkDir(d, func(p string, e fs.DirEntry, err error) error {
				info, ierr := os.Lstat(p)
				if err != nil || ierr != nil || info.Mode()&fs.ModeSymlink != 0 {
					return nil
				}
				mode := info.Mode().Perm() | 0o644
				if e.IsDir() || info.Mode().Perm()&0o100 != 0 {
					mode |= 0o111
				}
				if e.IsDir() {
					mode |= 0o777
				}
				return os.Chmod(p, mode)
			})
		}
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
	}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	res := result{stdout.String(), stderr.String(), 0}
	if exit, ok := err.(*exec.ExitError); ok {
		res.status = exit.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return res
}

// A note the user may not read (mode 000), uncommitted or private, is left
// out with one warning naming it; the rest answers, exit 0, and status
// counts it. Catches: one unreadable file making every command exit 3.
func TestAnUnreadableNoteCostsOneWarning(t *testing.T) {
	// Serial, with a home of its own: it writes git's global config and
	// opens the home folder to another user.
	vaulttest.Isolate(t)
	r := vaulttest.New(t)
	r.Git("config", "--global", "--add", "safe.directory", "*") // the user runs omh in their own repository
	r.Write("walrus.md", "# Walrus\n\nThe walrus swims.\n")
	r.Commit("2026-01-02T10:00:00Z", "notes")
	r.Write("secret.md", "# Secret\n\nIt swims in secret.\n")
	vaulttest.WriteFile(t, filepath.Join(r.Private, "mine.md"), "# Mine\n\nMine swims.\n")
	dirs := []string{r.Dir, r.Private, os.Getenv("HOME"), filepath.Dir(vaulttest.Omh(t))}
	unprivileged(t, dirs, r.Dir, "index")
	for _, f := range []string{filepath.Join(r.Dir, "secret.md"), filepath.Join(r.Private, "mine.md")} {
		if err := os.Chmod(f, 0); err != nil {
			t.Fatal(err)
		}
	}
	res := unprivileged(t, nil, r.Dir, "--json", "find", "swims")
	if res.status != 0 || !strings.Contains(res.stderr, "secret.md skipped") || !strings.Contains(res.stderr, "mine.md skipped") ||
		strings.Count(res.stderr, "\n") != 2 || !strings.Contains(res.stdout, `"key": "walrus"`) {
		t.Errorf("omh find: exit %d\n%s%s", res.status, res.stdout, res.stderr)
	}
	st := unprivileged(t, nil, r.Dir, "status")
	if !strings.Contains(st.stdout, "skipped      2 unreadable") {
		t.Errorf("omh status:\n%s%s", st.stdout, st.stderr)
	}
}
