package store

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"go.yaml.in/yaml/v3"

	"github.com/omh-notes/omh/hooks"
	"github.com/omh-notes/omh/vault"
)

// Initialized says what omh init found and did; one value for people and
// programs.
type Initialized struct {
	Config struct {
		Path   string `json:"path"`
		Change string `json:"change"` // written or kept
	} `json:"config"`
	NotesRoot struct {
		Path   string `json:"path"`   // "" for the repository root
		Change string `json:"change"` // created, exists, or default (nothing to create)
	} `json:"notes_root"`
	Hooks   *hooks.Report `json:"hooks"` // null with --no-hooks
	Changed bool          `json:"changed"`
}

// Init sets omh up in a repository. It only adds: a config that exists is
// kept as it is (and a --notes that disagrees with it is refused), the
// notes folder is created when missing, and the hooks are installed the
// way omh hooks install does. A second run changes nothing and says so.
func (s *Store) Init(notesDir string, noHooks bool) (Initialized, error) {
	r := s.Repo
	var err error
	var rep Initialized
	rep.Config.Path = vault.ConfigPath
	notes, asked := "", notesDir != ""
	if asked {
		if notes, err = initNotesDir(r.Root, notesDir); err != nil {
			return rep, refuse("bad_notes", err)
		}
	}
	t, err := s.begin("omh init")
	if err != nil {
		return rep, err
	}
	defer t.Close()
	configFile := filepath.Join(r.Root, filepath.FromSlash(vault.ConfigPath))
	_, err = os.Stat(configFile)
	switch {
	case err == nil:
		cfg, err := vault.LoadConfig(r.Root)
		if err != nil {
			return rep, classify(err)
		}
		if asked && cfg.Notes != notes {
			return rep, refuse("config_differs", fmt.Errorf("%s already sets the notes root to %s, and --notes asks for %s; it was left as it is (edit it, or run omh init without --notes)",
				vault.ConfigPath, DescribeNotes(cfg.Notes), DescribeNotes(notes)))
		}
		notes = cfg.Notes
		rep.Config.Change = "kept"
	case errors.Is(err, fs.ErrNotExist):
		text, err := configText(notes, asked)
		if err != nil {
			return rep, err
		}
		if err := t.Put(configFile, plumbing.ZeroHash, text, 0o644); err != nil {
			return rep, fmt.Errorf("writing %s: %w", vault.ConfigPath, err)
		}
		rep.Config.Change, rep.Changed = "written", true
	default:
		return rep, fmt.Errorf("looking at %s: %w", vault.ConfigPath, err)
	}

	rep.NotesRoot.Path, rep.NotesRoot.Change = notes, "default"
	if notes != "" {
		dir := filepath.Join(r.Root, filepath.FromSlash(notes))
		fi, err := os.Stat(dir)
		switch {
		case err == nil && fi.IsDir():
			rep.NotesRoot.Change = "exists"
		case err == nil:
			return rep, refuse("bad_notes", fmt.Errorf("the notes root %s is a file, not a folder", notes))
		default:
			t.Mkdir(dir)
			rep.NotesRoot.Change, rep.Changed = "created", true
		}
	}

	if !noHooks {
		place, err := s.HookPlace()
		if err != nil {
			return rep, err
		}
		if rep.Hooks, err = place.Install(t); err != nil {
			return rep, err
		}
		rep.Changed = rep.Changed || *rep.Hooks.Changed
	}
	if err := commit(t, "nothing was set up"); err != nil {
		return rep, err
	}
	if !noHooks {
		s.openCache() // hooks refresh only a repository with a cache folder
	}
	return rep, nil
}

// DescribeNotes names a notes root for people; "" is the default rule.
func DescribeNotes(notes string) string {
	if notes == "" {
		return "the default (.omh/notes when it exists, else the repository root)"
	}
	return notes
}

// initNotesDir checks --notes and returns it as the config writes it:
// slash-separated, relative to the repository root, "" for the root
// itself. An absolute path inside the repository is accepted too.
func initNotesDir(root, dir string) (string, error) {
	if filepath.IsAbs(dir) {
		rel, ok := vault.RelativeTo(root, dir)
		if !ok {
			return "", fmt.Errorf("--notes %s is outside the repository %s", dir, root)
		}
		dir = rel
	}
	d := path.Clean(filepath.ToSlash(strings.TrimSpace(dir)))
	switch {
	case d == ".":
		return "", nil
	case d == ".." || strings.HasPrefix(d, "../"):
		return "", fmt.Errorf("--notes %s is outside the repository", dir)
	case d == ".git" || strings.HasPrefix(d, ".git/"):
		return "", fmt.Errorf("--notes %s is inside git's own folder", dir)
	}
	return d, nil
}

// configText is the config omh init writes: the notes root when one was
// asked for, and the other settings as comments to fill in.
func configText(notes string, asked bool) ([]byte, error) {
	var b bytes.Buffer
	b.WriteString("# omh settings for this repository, shared with everyone who clones it.\n")
	b.WriteString("# Settings for one machine (such as the private notes folder) never go here.\n")
	if asked {
		value := notes
		if value == "" {
			value = "."
		}
		line, err := yaml.Marshal(map[string]string{"notes": value})
		if err != nil {
			return nil, err
		}
		b.Write(line)
	} else {
		b.WriteString("# notes: notes        # the notes root (default: .omh/notes when it exists, else the repository root)\n")
	}
	b.WriteString("# exclude:            # markdown files that are not notes\n")
	b.WriteString("#   - README.md\n")
	b.WriteString("#   - .github/**\n")
	return b.Bytes(), nil
}
