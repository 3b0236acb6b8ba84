package store

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/omh-notes/omh/internal/safefile"
	"github.com/omh-notes/omh/vault/vaulttest"
)

// secret is a file outside every store, that no command may read or write.
func secret(t *testing.T) (dir, file string) {
	t.Helper()
	dir = t.TempDir()
	file = filepath.Join(dir, "passwd")
	vaulttest.WriteFile(t, file, "root:x:0:0:SECRET\n")
	return dir, file
}

func symlink(t *testing.T, target, link string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(link), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
}

func fifo(t *testing.T, path string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(path, 0o644); err != nil {
		t.Fatal(err)
	}
}

// noSecretIn fails when a file under dirs holds the secret's content.
func noSecretIn(t *testing.T, dirs ...string) {
	t.Helper()
	for path, content := range vaulttest.Files(t, dirs...) {
		if strings.Contains(content, "SECRET") {
			t.Errorf("%s holds the content of a file outside the store", path)
		}
	}
}

// A template that is a symbolic link (to a file or through a linked
// folder) or a FIFO is refused with one line naming it, and no note is
// written. Catches: omh new copying /etc/passwd into a private note (that
// promote would then stage); a FIFO that hangs omh new for ever.
func TestATemplateThatIsNotARegularFileIsRefused(t *testing.T) {
	t.Parallel()
	outside, passwd := secret(t)
	vaulttest.WriteFile(t, filepath.Join(outside, "surprise.md"), "# {{title}} SECRET\n")
	for name, plant := range map[string]func(root string){
		"a link to a file":     func(root string) { symlink(t, passwd, filepath.Join(root, ".omh", "templates", "surprise.md")) },
		"a linked folder":      func(root string) { symlink(t, outside, filepath.Join(root, ".omh", "templates")) },
		"a FIFO":               func(root string) { fifo(t, filepath.Join(root, ".omh", "templates", "surprise.md")) },
		"a linked .omh folder": func(root string) { symlink(t, filepath.Dir(outside), filepath.Join(root, ".omh")) },
	} {
		t.Run(name, func(t *testing.T) {
			r := vaulttest.New(t)
			r.Write("team.md", "# Team\n")
			r.Commit("2026-01-02T10:00:00Z", "notes")
			plant(r.Dir)
			if name == "a linked .omh folder" {
				vaulttest.WriteFile(t, filepath.Join(filepath.Dir(outside), "templates", "surprise.md"), "# SECRET\n")
			}
			s, _ := open(t, r.Dir)
			_, err := s.New(Draft{Type: "surprise", Title: "x", Source: "test"})
			want := "bad_template"
			if name == "a linked .omh folder" { // the config is read through it first
				want = "bad_config"
			}
			if code(err) != want || !errors.Is(err, safefile.ErrNotRegular) {
				t.Errorf("omh new = %v, want %s naming a file that is not regular", err, want)
			}
			if strings.Contains(err.Error(), "\n") {
				t.Errorf("the refusal is not one line: %q", err)
			}
			noSecretIn(t, r.Private, r.Dir)
		})
	}
}

// A config that is a symbolic link or a FIFO is a config error (exit 1,
// bad_config), not read through and not waited on. Catches: settings read
// from a file outside the repository; every command hanging on a FIFO.
func TestAConfigThatIsNotARegularFileIsABadConfig(t *testing.T) {
	t.Parallel()
	_, passwd := secret(t)
	for name, plant := range map[string]func(path string){
		"a link": func(path string) { symlink(t, passwd, path) },
		"a FIFO": func(path string) { fifo(t, path) },
	} {
		t.Run(name, func(t *testing.T) {
			r := vaulttest.New(t)
			r.Write("team.md", "# Team\n")
			r.Commit("2026-01-02T10:00:00Z", "notes")
			plant(filepath.Join(r.Dir, ".omh", "config.yaml"))
			s, _ := open(t, r.Dir)
			if _, err := s.Index(false); code(err) != "bad_config" || !errors.Is(err, safefile.ErrNotRegular) {
				t.Errorf("omh index = %v, want bad_config", err)
			}
		})
	}
}

// omh mv refuses a new name reached through a committed symbolic link to
// a folder outside, or inside git's folder, for a tracked, an untracked
// and a private note, and changes nothing. Catches: a note written outside
// the repository by omh's own rename; a note moved into .git/hooks, where
// it vanishes from the store and may be run by git.
func TestMoveRefusesATargetThroughALinkOrInsideGit(t *testing.T) {
	t.Parallel()
	outside, _ := secret(t)
	r := vaulttest.New(t)
	r.Write("topic/a.md", "# A\n")
	r.Commit("2026-01-02T10:00:00Z", "notes")
	symlink(t, outside, filepath.Join(r.Dir, "linkdir"))
	r.Git("add", "linkdir")
	r.Commit("2026-01-03T10:00:00Z", "a link")
	r.Write("topic/untracked.md", "# Untracked\n")
	vaulttest.WriteFile(t, filepath.Join(r.Private, "mine.md"), "# Mine\n")
	symlink(t, outside, filepath.Join(r.Private, "privlink"))
	s, _ := open(t, r.Dir)
	for _, c := range []struct{ from, to, says string }{
		{"topic/a", "linkdir/pwned", "symbolic link"},
		{"topic/untracked", "linkdir/pwned", "symbolic link"},
		{"topic/a", "linkdir/deeper/pwned", "symbolic link"},
		{"mine", "privlink/pwned", "symbolic link"},
		{"topic/a", ".git/hooks/post-commit", "git's own folder"},
		{"topic/a", "sub/.GIT/x", "git's own folder"},
		{"topic/a", "sub/.git./x", "git's own folder"},
		{"topic/a", "git~1/x", "git's own folder"},
	} {
		before := writeStateOf(t, r)
		if _, err := s.Move(c.from, c.to); code(err) != "bad_target" || !strings.Contains(err.Error(), c.says) {
			t.Errorf("omh mv %s %s = %v, want bad_target saying %s", c.from, c.to, err, c.says)
		}
		sameWriteState(t, "mv "+c.from+" "+c.to, before, writeStateOf(t, r))
	}
	if entries, _ := os.ReadDir(outside); len(entries) != 1 {
		t.Errorf("the folder outside holds %d files, want only its own", len(entries))
	}
}

// Keys with a backslash, and names that differ from an existing folder or
// file only in Unicode normalisation (new and promote: or in case) are
// refused. Catches: a store that checks out on Windows or macOS as one
// file where Linux had two.
func TestNewRefusesKeysThatCollideOnOtherSystems(t *testing.T) {
	t.Parallel()
	r := vaulttest.New(t)
	r.Write("team.md", "# Team\n")
	r.Commit("2026-01-02T10:00:00Z", "notes")
	vaulttest.WriteFile(t, filepath.Join(r.Private, "cafe\u0301", "old.md"), "# Old\n")
	vaulttest.WriteFile(t, filepath.Join(r.Private, "surprise", "old.md"), "# Old\n")
	s, _ := open(t, r.Dir)
	for _, c := range []struct{ key, code, says string }{
		{`topic\evil`, "bad_key", "backslash"},
		{"caf\u00e9/new", "bad_target", "normalisation"},
		{"Surprise/new", "bad_target", "case"},
	} {
		before := writeStateOf(t, r)
		if _, err := s.New(Draft{Type: "surprise", Title: "x", Key: c.key, Source: "test"}); code(err) != c.code || !strings.Contains(err.Error(), c.says) {
			t.Errorf("omh new --key %q = %v, want %s saying %s", c.key, err, c.code, c.says)
		}
		sameWriteState(t, "new "+c.key, before, writeStateOf(t, r))
	}
	if _, err := s.New(Draft{Type: "surprise", Title: "x", Key: "surprise/new", Source: "test"}); err != nil {
		t.Errorf("a key in the existing folder, spelt as it is: %v", err)
	}
}

// omh promote refuses a note whose place under the notes root is reached
// through a symbolic link, and never copies a private note that is a
// link. Catches: a private note promoted into a folder outside; a linked
// private note's target staged for commit.
func TestPromoteRefusesLinks(t *testing.T) {
	t.Parallel()
	outside, passwd := secret(t)
	r := vaulttest.New(t)
	r.Write(".omh/config.yaml", "notes: notes\n")
	r.Write("notes/team.md", "# Team\n")
	r.Commit("2026-01-02T10:00:00Z", "notes")
	symlink(t, outside, filepath.Join(r.Dir, "notes", "linkdir"))
	vaulttest.WriteFile(t, filepath.Join(r.Private, "linkdir", "x.md"), "# X\n")
	symlink(t, passwd, filepath.Join(r.Private, "stolen.md"))
	s, _ := open(t, r.Dir)
	before := writeStateOf(t, r)
	if _, err := s.Promote([]string{"linkdir/x"}); code(err) != "bad_target" || !strings.Contains(err.Error(), "symbolic link") {
		t.Errorf("promote through a linked folder = %v", err)
	}
	if _, err := s.Promote([]string{"stolen"}); code(err) != "not_found" {
		t.Errorf("promote of a linked private note = %v, want not_found", err)
	}
	sameWriteState(t, "promote", before, writeStateOf(t, r))
	noSecretIn(t, r.Dir)
}
