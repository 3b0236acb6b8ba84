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
	"github.com/omh-notes/omh/internal/safefile"
	"github.com/omh-notes/omh/journal"
	"github.com/omh-notes/omh/reply"
	"github.com/omh-notes/omh/vault"
	"github.com/omh-notes/omh/vault/detect"
	"github.com/omh-notes/omh/vault/disk"
	"github.com/omh-notes/omh/vault/gitcli"
	"github.com/omh-notes/omh/vault/gitrepo"
	"go.yaml.in/yaml/v3"
)

// Initialized says what omh init found and did; one value for people and
// programs.
type Initialized struct {
	SchemaVersion int `json:"schema_version"`

	Config struct {
		Path   string `json:"path"`
		Change string `json:"change"` // written or kept
	} `json:"config"`
	NotesRoot struct {
		Path   string `json:"path"`   // "" for the repository root
		Change string `json:"change"` // created, exists, or default (nothing to create)
	} `json:"notes_root"`
	Dialect struct {
		Name string `json:"name"`
		What string `json:"what"` // what the dialect reads, for people
	} `json:"dialect"`
	// Detected says, one line a choice, what omh found when it wrote the
	// config and what each choice rests on; empty when the config was kept
	// or every choice was asked for.
	Detected []string     `json:"detected"`
	Hooks    *HooksReport `json:"hooks"` // null with --no-hooks
	Changed  bool         `json:"changed"`
}

// Init sets omh up in a repository. It only adds: a config that exists is
// kept as it is (and a --notes or --dialect that disagrees with it is
// refused); a new config holds the notes root and the dialect asked for,
// else those omh detects (vault.Detect); the notes folder is created when
// missing, and the hooks are installed the way omh hooks install does. A
// second run changes nothing and says so.
func (s *Store) Init(notesDir, dialect string, noHooks bool) (Initialized, error) {
	r := s.Repo
	s.configChecked = true // init writes the config itself
	var err error
	rep := Initialized{SchemaVersion: reply.SchemaVersion}
	rep.Config.Path = vault.ConfigPath
	notes, asked := "", notesDir != ""
	if asked {
		if notes, err = initNotesDir(r.Root, notesDir); err != nil {
			return rep, refuse(reply.BadNotes, err)
		}
	}
	if dialect != "" && !vault.KnownDialect(dialect) {
		return rep, invalid(fmt.Errorf("--dialect %s: the dialects are %s", dialect, vault.OrList(vault.DialectNames())))
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
			return rep, refuse(reply.ConfigDiffers, fmt.Errorf("%s already sets the notes root to %s, and --notes asks for %s; it was left as it is (edit it, or run omh init without --notes)",
				vault.ConfigPath, DescribeNotes(cfg.Notes), DescribeNotes(notes)))
		}
		if dialect != "" && cfg.Dialect.String() != dialect {
			return rep, refuse(reply.ConfigDiffers, fmt.Errorf("%s already sets the dialect to %s, and --dialect asks for %s; it was left as it is (edit it, or run omh init without --dialect)",
				vault.ConfigPath, cfg.Dialect, dialect))
		}
		notes = cfg.Notes
		rep.Dialect.Name, rep.Dialect.What = cfg.Dialect.String(), cfg.Dialect.Describe()
		rep.Config.Change = "kept"
	case errors.Is(err, fs.ErrNotExist):
		det, err := s.detect(notes, asked, dialect)
		if err != nil {
			return rep, err
		}
		if err := writeConfig(t, r.Root, det); err != nil {
			return rep, err
		}
		notes = det.Notes
		rep.Dialect.Name, rep.Dialect.What = det.Dialect.String(), det.Dialect.Describe()
		rep.Detected = det.Why
		rep.Config.Change, rep.Changed = "written", true
	default:
		return rep, fmt.Errorf("looking at %s: %w", vault.ConfigPath, err)
	}
	if rep.Detected == nil {
		rep.Detected = []string{}
	}

	rep.NotesRoot.Path, rep.NotesRoot.Change = notes, "default"
	if notes != "" {
		dir := filepath.Join(r.Root, filepath.FromSlash(notes))
		fi, err := os.Stat(dir)
		switch {
		case err == nil && fi.IsDir():
			rep.NotesRoot.Change = "exists"
		case err == nil:
			return rep, refuse(reply.BadNotes, fmt.Errorf("the notes root %s is a file, not a folder", notes))
		default:
			t.Mkdir(dir)
			rep.NotesRoot.Change, rep.Changed = "created", true
		}
	}

	if !noHooks {
		place, err := s.hookPlace()
		if err != nil {
			return rep, err
		}
		installed, err := place.Install(t)
		if err != nil {
			return rep, err
		}
		rep.Hooks = hooksReport(installed, 0)
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

// detect works out what the config should say: what was asked for (a notes
// root, a dialect), and for the rest what vault.Detect finds.
func (s *Store) detect(notes string, askedNotes bool, dialect string) (detect.Detected, error) {
	det, err := detect.Detect(s.Repo.Root, gitcli.Shown)
	if err != nil {
		return det, fmt.Errorf("looking at the notes: %w", err)
	}
	var why []string
	if askedNotes {
		det.Notes = notes
		why = append(why, "notes root "+DescribeNotes(notes)+": asked for with --notes")
	}
	if dialect != "" {
		det.Dialect = vault.Dialect{Name: dialect}
		why = append(why, "dialect "+dialect+": asked for with --dialect")
	}
	for _, w := range det.Why {
		// A choice asked for replaces what was found for it.
		if (askedNotes && strings.HasPrefix(w, "notes root ")) || (dialect != "" && !strings.HasPrefix(w, "notes root ")) {
			continue
		}
		why = append(why, w)
	}
	det.Why = why
	return det, nil
}

// writeConfig adds the config for what was detected to the change t; it
// fails with fs.ErrExist, when t commits, if another process wrote one
// first.
func writeConfig(t *journal.Txn, root string, det detect.Detected) error {
	text, err := configText(det)
	if err != nil {
		return err
	}
	if err := t.Put(filepath.Join(root, filepath.FromSlash(vault.ConfigPath)), plumbing.ZeroHash, text, 0o644); err != nil {
		return fmt.Errorf("writing %s: %w", vault.ConfigPath, err)
	}
	return nil
}

// configText is the config omh writes: the notes root and the dialect with
// what goes with it, and the other settings as comments to fill in.
func configText(det detect.Detected) ([]byte, error) {
	var b bytes.Buffer
	b.WriteString("# omh settings for this repository, shared with everyone who clones it.\n")
	b.WriteString("# Settings for one machine (such as the private notes folder) never go here.\n")
	setting := func(name string, value any) error {
		line, err := yaml.Marshal(map[string]any{name: value})
		if err != nil {
			return err
		}
		b.Write(line)
		return nil
	}
	if det.Notes != "" {
		if err := setting("notes", det.Notes); err != nil {
			return nil, err
		}
	} else {
		b.WriteString("# notes: notes        # the notes root (default: .omh/notes when it exists, else the repository root)\n")
	}
	b.WriteString("# dialect: how the notes write links and how they resolve: " + strings.Join(vault.DialectNames(), ", ") + "\n")
	if err := setting("dialect", det.Dialect.String()); err != nil {
		return nil, err
	}
	if len(det.Dialect.Vaults) > 0 {
		b.WriteString("# vaults: Dendron vault names and their folders under the notes root, for dendron://vault/note links\n")
		if err := setting("vaults", det.Dialect.Vaults); err != nil {
			return nil, err
		}
	}
	if det.Dialect.Site != "" {
		b.WriteString("# site: where the notes are published; site-absolute links under it start at the notes root, others lead off the site\n")
		if err := setting("site", det.Dialect.Site); err != nil {
			return nil, err
		}
	}
	b.WriteString("# exclude:            # markdown files that are not notes\n")
	b.WriteString("#   - README.md\n")
	b.WriteString("#   - .github/**\n")
	b.WriteString("# lint:\n")
	b.WriteString("#   disable: [orphan]          # rules omh lint leaves out\n")
	b.WriteString("#   ignore: [\"/answers/**\"]    # links omh lint does not check, by the name they are written with\n")
	return b.Bytes(), nil
}

// detectedConfig is the file in the cache folder that holds the settings
// omh detected for a repository without a config: the notes root and
// dialect, or nothing when omh's defaults apply. It spares every later
// command the look (a sample of up to 2,000 files) until the cache is
// deleted, and keeps what a reading command finds out of the working tree.
const detectedConfig = "detected-config.yaml"

// ensureConfig makes sure a repository without a config is read as what
// it is, once per Store: omh detects the notes root and the dialect and,
// when they are not omh's defaults, reads the notes by them (Repo.Detected)
// and says, once, what it chose and that omh init writes it down. Nothing
// is written into the working tree: only omh init writes the config.
func (s *Store) ensureConfig() {
	if s.configChecked {
		return
	}
	s.configChecked = true
	if _, err := os.Lstat(filepath.Join(s.Repo.Root, filepath.FromSlash(vault.ConfigPath))); !errors.Is(err, fs.ErrNotExist) {
		return
	}
	var remembered string
	if c, err := s.openCache(); err == nil {
		remembered = filepath.Join(c.Dir, detectedConfig)
		raw, err := safefile.ReadInside(c.Dir, detectedConfig, 1<<16)
		if text, ok := recalled(raw); err == nil && ok {
			s.Repo.Detected = text
			return
		}
		if err == nil && !olderRecord(raw, s.Repo.Root) {
			s.warn("omh's record of the settings it detected, %s, is damaged; it looks at the notes again", remembered)
		}
	}
	det, err := s.detect("", false, "")
	if err != nil {
		s.warn("there is no %s, and omh could not look at the notes (%v); it reads them with its defaults", vault.ConfigPath, err)
		return
	}
	var text []byte
	if !det.Default() {
		if text, err = configText(det); err != nil {
			s.warn("there is no %s, and omh could not describe what it found (%v); it reads the notes with its defaults", vault.ConfigPath, err)
			return
		}
		s.Repo.Detected = text
		s.warn("there is no %s, so omh reads the notes as it found them: %s; omh init writes this down, to edit and to share", vault.ConfigPath, strings.Join(det.Why, "; "))
	}
	if remembered != "" {
		disk.WriteFile(remembered, remembering(text), 0o644) // a cache that cannot remember looks again next time
	}
}

// detectedSum heads the remembered settings with the blob id of the rest:
// a cache file damaged in any byte (a bad disk, a stray write) is then
// detected again, not read as settings the user never wrote.
const detectedSum = "# omh detected, blob "

// remembering is the content of detectedConfig for the settings text.
func remembering(text []byte) []byte {
	return append([]byte(detectedSum+gitrepo.HashBytes(text).String()+"\n"), text...)
}

// olderRecord reports whether raw is an earlier omh's detectedConfig:
// settings without the header. It is looked at again without a word, as
// nothing is wrong with it.
func olderRecord(raw []byte, root string) bool {
	if bytes.HasPrefix(raw, []byte(detectedSum)) {
		return false
	}
	_, err := vault.ParseConfig(raw, root)
	return err == nil
}

// recalled is the settings text a detectedConfig file holds, and whether
// it is whole.
func recalled(raw []byte) ([]byte, bool) {
	head, text, ok := bytes.Cut(raw, []byte("\n"))
	sum, found := bytes.CutPrefix(head, []byte(detectedSum))
	if !ok || !found || string(sum) != gitrepo.HashBytes(text).String() {
		return nil, false
	}
	return text, true
}
