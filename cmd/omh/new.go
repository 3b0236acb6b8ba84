package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"golang.org/x/text/unicode/norm"

	"github.com/omh-notes/omh/index"
	"github.com/omh-notes/omh/vault"
)

// NewCmd is `omh new`.
type NewCmd struct {
	Type     string   `arg:"" name:"type" help:"The kind of note: surprise, topic, stub, note, finding, decision, issue, citation or blob."`
	Title    []string `arg:"" name:"title" help:"The note's title or first sentence, in one or more words; its key is derived from it."`
	Answers  []string `name:"answers" sep:"none" placeholder:"Q" help:"A question the note answers; repeat for several."`
	Link     []string `name:"link" sep:"none" placeholder:"[VERB:]KEY" help:"A note this one links to, with a typed-link verb such as resolves:KEY when given; repeat for several."`
	Body     string   `name:"body" placeholder:"-|FILE" help:"The note's text, read from standard input (-) or a file."`
	Source   string   `name:"source" placeholder:"S" help:"Who or what wrote it (default $OMH_SOURCE, else git's user.name and user.email)."`
	Key      string   `name:"key" placeholder:"K" help:"The key to write the note under, instead of <type>/<slug of the title>."`
	IfExists string   `name:"if-exists" enum:"error,skip,suffix" default:"error" placeholder:"error|skip|suffix" help:"When the key is taken in the local layer: refuse, print the note there, or add -2, -3, ... to the key."`
}

// Help is the detail under `omh new --help`.
func (c *NewCmd) Help() string {
	return `The note goes to the private folder (OMH_LOCAL_DIR, else git config omh.local, else $XDG_DATA_HOME/omh/<root commit>/) under the key <type>/<slug>: the title's letters and digits, lower-cased, every other run of characters one "-", cut near 80 characters at a "-". Its frontmatter says type, recorded (today, local time) and source; its sections come from the type's template, .omh/templates/<type>.md in the working tree when there is one, else omh's own. Placeholders: {{title}} {{type}} {{key}} {{recorded}} {{source}} {{body}} {{answers}} {{links}}.

Sections each type must have (omh lint checks them): surprise Expected, Observed, Evidence, Answers; finding Claim, Evidence, Answers; decision Decision, Context, Answers; issue Problem, Answers; citation Source, Answers; stub Answers; topic, note and blob none.

The file is written to a temporary name and linked into place, so a note is never half written and never replaces another. Run omh promote KEY to move it into the notes root for review.`
}

// newReport is what omh new did; one value for people and programs.
type newReport struct {
	Key      string `json:"key"`
	Path     string `json:"path"`
	Layer    string `json:"layer"`
	Type     string `json:"type"`
	Created  bool   `json:"created"` // false when --if-exists skip found the key taken
	Template string `json:"template"`
}

func (c *NewCmd) Run(e *env) error {
	typ := strings.ToLower(strings.TrimSpace(c.Type))
	if !vault.KnownType(typ) {
		return &cmdError{exitUsage, "usage", fmt.Errorf("unknown note type %q (want one of %s)", c.Type, strings.Join(vault.NoteTypes, ", "))}
	}
	title := strings.Join(strings.Fields(strings.Join(c.Title, " ")), " ")
	if title == "" {
		return &cmdError{exitUsage, "usage", errors.New("the title is empty")}
	}
	key, err := c.key(typ, title)
	if err != nil {
		return err
	}
	body, err := c.readBody(e.stdin)
	if err != nil {
		return err
	}
	return e.withStore(index.Options{LockWait: lockWait, Progress: e.progress()}, func(s *store) error {
		links, err := c.links(s, key)
		if err != nil {
			return err
		}
		private, err := s.snap.PrivateDir()
		if err != nil {
			return err
		}
		tmpl, from, err := vault.LoadTemplate(s.repo.Root, typ)
		if err != nil {
			return refuse("bad_template", err)
		}
		d := vault.Draft{Type: typ, Title: title, Recorded: vault.Date(time.Now().Format("2006-01-02")),
			Source: c.source(s.repo), Body: body, Answers: c.Answers, Links: links}
		rep := newReport{Layer: "local", Type: typ, Template: from}
	keys:
		for n := 1; ; n++ {
			k := key
			if n > 1 {
				k = fmt.Sprintf("%s-%d", key, n)
			}
			path := filepath.Join(private, filepath.FromSlash(k)+vault.NoteExt)
			taken, err := takenLocally(s, k, path)
			if err != nil {
				return err
			}
			if taken == "" {
				d.Key = k
				content, err := vault.RenderNote(tmpl, d)
				if err != nil {
					return refuse("bad_template", fmt.Errorf("template %s: %w", from, err))
				}
				_, err = writeNewFile(path, content)
				switch {
				case errors.Is(err, fs.ErrExist):
					taken = path // written by another process since the look
				case err != nil:
					return err
				default:
					rep.Key, rep.Path, rep.Created = k, path, true
					if team, _ := s.snap.Find(k, vault.Team); len(team) > 0 {
						e.warn("a team note has the key %s too; rename one of them before promoting this one", k)
					}
					break keys
				}
			}
			switch {
			case c.IfExists == "skip":
				rep.Key, rep.Path = k, taken
				break keys
			case c.IfExists == "suffix" && n < 1000:
				continue
			}
			return refuse("key_taken", fmt.Errorf("the key %s is taken in the local layer by %s; choose another with --key, or use --if-exists skip or suffix", k, taken))
		}
		if e.cli.JSON {
			return writeJSON(e.stdout, rep)
		}
		verb := "wrote"
		if !rep.Created {
			verb = "exists"
		}
		fmt.Fprintf(e.stdout, "%s %s\npath: %s\n", verb, rep.Key, rep.Path)
		return nil
	})
}

// key is --key, checked, or the key the type and title derive.
func (c *NewCmd) key(typ, title string) (string, error) {
	if c.Key == "" {
		key, err := vault.KeyFor(typ, title)
		if err != nil {
			return "", refuse("bad_key", err)
		}
		return key, nil
	}
	key := norm.NFC.String(strings.TrimSuffix(strings.TrimSpace(c.Key), vault.NoteExt))
	if err := vault.CheckKey(key); err != nil {
		return "", refuse("bad_key", err)
	}
	if strings.ContainsAny(key, "[]|#^") {
		return "", refuse("bad_key", fmt.Errorf("key %q holds a character a wiki link cannot name ([ ] | # ^)", key))
	}
	return key, nil
}

// readBody reads --body: "-" is standard input, anything else a file.
func (c *NewCmd) readBody(stdin io.Reader) (string, error) {
	var b []byte
	var err error
	switch c.Body {
	case "":
		return "", nil
	case "-":
		b, err = io.ReadAll(stdin)
	default:
		b, err = os.ReadFile(c.Body)
	}
	if err != nil {
		return "", refuse("bad_body", fmt.Errorf("reading the body: %w", err))
	}
	if vault.LooksBinary(b) {
		return "", refuse("bad_body", errors.New("the body is not text"))
	}
	body := strings.ReplaceAll(string(b), "\r\n", "\n")
	if p := vault.Parse([]byte(body)); p.FrontmatterLines > 0 || len(p.Problems) > 0 {
		return "", refuse("bad_body", errors.New("the body has frontmatter of its own; give fields with the flags, or in a template under "+vault.TemplatesDir))
	}
	return body, nil
}

// links resolves each --link to the one key it names, as a wiki link from
// the new note would.
func (c *NewCmd) links(s *store, from string) ([]vault.DraftLink, error) {
	var out []vault.DraftLink
	for _, arg := range c.Link {
		verb, target := "", strings.TrimSpace(arg)
		if v, rest, ok := strings.Cut(target, ":"); ok && slices.Contains(vault.Verbs, v) {
			verb, target = v, strings.TrimSpace(rest)
		}
		target = strings.TrimSuffix(target, vault.NoteExt)
		if target == "" {
			return nil, &cmdError{exitUsage, "usage", fmt.Errorf("--link %q names no note", arg)}
		}
		res, err := vault.Resolve(vault.Link{Kind: vault.WikiLink, Target: target}, from, s.snap.Names())
		switch {
		case err != nil:
			return nil, err
		case len(res.Candidates) > 1:
			return nil, refuse("ambiguous", fmt.Errorf("--link %s could mean %s; give the full key", target, strings.Join(res.Candidates, ", ")))
		case res.Key == "":
			return nil, refuse("not_found", fmt.Errorf("--link %s reaches no note", target))
		}
		l := vault.DraftLink{Verb: verb, Key: res.Key}
		if !slices.Contains(out, l) {
			out = append(out, l)
		}
	}
	return out, nil
}

// source is --source, else $OMH_SOURCE, else git's user as "name <email>".
func (c *NewCmd) source(r *vault.Repo) string {
	if s := strings.TrimSpace(c.Source); s != "" {
		return s
	}
	if s := strings.TrimSpace(os.Getenv("OMH_SOURCE")); s != "" {
		return s
	}
	name, _ := gitConfig(r.Root, "user.name")
	email, _ := gitConfig(r.Root, "user.email")
	switch {
	case name != "" && email != "":
		return name + " <" + email + ">"
	case name != "":
		return name
	}
	return email
}

// gitConfig reads one git setting as git itself resolves it (system,
// global, repository, includes).
func gitConfig(root, name string) (string, error) {
	cmd := exec.Command("git", "config", "--get", name)
	cmd.Dir = root
	out, err := cmd.Output()
	return strings.TrimSpace(string(out)), err
}

// takenLocally returns the path of the local note that holds key already:
// the file in the private folder, or any local note the snapshot holds
// under it (an uncommitted file). "" when the key is free.
func takenLocally(s *store, key, privatePath string) (string, error) {
	if _, err := os.Lstat(privatePath); err == nil {
		return privatePath, nil
	}
	docs, err := s.snap.Find(key, vault.Local)
	if err != nil || len(docs) == 0 {
		return "", err
	}
	n, err := s.snap.Note(docs[0])
	if err != nil {
		return "", err
	}
	return n.Path, nil
}

// writeNewFile writes content to path without ever replacing a file: into
// a temporary file in the same folder, synced to disk, then linked under
// its name, which fails when the name exists (fs.ErrExist). Where the file
// system has no hard links, the temporary file is renamed instead, after a
// check that the name is free. It returns the folders it had to create,
// outermost first.
func writeNewFile(path string, content []byte) ([]string, error) {
	dir := filepath.Dir(path)
	created, err := makeDirs(dir)
	if err != nil {
		return nil, err
	}
	undo := func() {
		for i := len(created) - 1; i >= 0; i-- {
			os.Remove(created[i])
		}
	}
	tmp, err := writeTemp(path, content, 0o644)
	if err == nil {
		err = os.Link(tmp, path)
		if err != nil && !errors.Is(err, fs.ErrExist) {
			if _, serr := os.Lstat(path); serr == nil {
				err = fs.ErrExist
			} else {
				err = os.Rename(tmp, path)
			}
		}
		os.Remove(tmp)
	}
	if err != nil {
		undo()
		if errors.Is(err, fs.ErrExist) {
			return nil, fmt.Errorf("%s: %w", path, fs.ErrExist)
		}
		return nil, fmt.Errorf("writing %s: %w", path, err)
	}
	syncDir(dir)
	return created, nil
}

// makeDirs creates dir and its missing parents, returning those it
// created, outermost first.
func makeDirs(dir string) ([]string, error) {
	var missing []string
	for d := dir; ; d = filepath.Dir(d) {
		if _, err := os.Lstat(d); err == nil {
			break
		}
		missing = append(missing, d)
		if filepath.Dir(d) == d {
			break
		}
	}
	slices.Reverse(missing)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("creating %s: %w", dir, err)
	}
	return missing, nil
}

// syncDir makes a folder's new entries durable; where a folder cannot be
// synced there is nothing more to do.
// writeTemp writes content, synced to disk and with mode, to a new
// temporary file beside path, and returns its name; on failure nothing is
// left behind.
func writeTemp(path string, content []byte, mode fs.FileMode) (string, error) {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return "", err
	}
	_, err = tmp.Write(content)
	if err == nil {
		err = tmp.Chmod(mode)
	}
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(tmp.Name())
		return "", err
	}
	return tmp.Name(), nil
}

func syncDir(dir string) {
	if f, err := os.Open(dir); err == nil {
		f.Sync()
		f.Close()
	}
}

// shellQuote writes s so a POSIX shell reads it back as one word.
func shellQuote(s string) string {
	safe := s != ""
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_./:@%+=,", r)) {
			safe = false
			break
		}
	}
	if safe {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
