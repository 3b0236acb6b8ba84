package store

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/go-git/go-git/v5/plumbing"
	"golang.org/x/text/unicode/norm"

	"github.com/omh-notes/omh/reply"
	"github.com/omh-notes/omh/vault"
	"github.com/omh-notes/omh/vault/disk"
	"github.com/omh-notes/omh/vault/gitcli"
	"github.com/omh-notes/omh/vault/rename"
	"github.com/omh-notes/omh/vault/template"
)

// Draft is a note to write: what omh new is given.
type Draft struct {
	Type    string
	Title   string
	Answers []string // questions the note answers
	Links   []string // notes it links to, as "KEY" or "VERB:KEY"
	Body    []byte   // its text; nil for none
	Source  string   // who or what wrote it; "" for $OMH_SOURCE, else git's user
	Key     string   // the key to write it under; "" derives one from the type and title
	// IfExists says what to do when a note holds the key already, in
	// either layer: "error" (or ""), "skip" (report the note there),
	// "suffix" (add -2, -3, ... to the key).
	IfExists string
}

// Written is what omh new did; one value for people and programs.
type Written struct {
	SchemaVersion int `json:"schema_version"`

	Key      string `json:"key"`
	Path     string `json:"path"`
	Layer    string `json:"layer"`
	Type     string `json:"type"`
	Created  bool   `json:"created"` // false when IfExists skip found the key taken
	Template string `json:"template"`
	// TeamNamesakes are the team notes that have the note's key, or go by
	// its title or the last part of its key (a name a link would reach
	// them by): the note may repeat one of them, and a copy of a team note
	// with no content of its own only gets in the way of the original.
	TeamNamesakes []Namesake `json:"team_namesakes"`
}

// Namesake is a team note that goes by a new note's name, and which name:
// "key" (the same key), "title" or the key's last part ("name").
type Namesake struct {
	Key  string `json:"key"`
	Path string `json:"path"`
	By   string `json:"by"`
}

// New writes a note to the private folder from its type's template, under
// <type>/<slug of the title> or d.Key. The file is written to a temporary
// name and linked into place, so a note is never half written and never
// replaces another.
func (s *Store) New(d Draft) (Written, error) {
	typ := strings.ToLower(strings.TrimSpace(d.Type))
	if !vault.KnownType(typ) {
		return Written{}, invalid(fmt.Errorf("unknown note type %q (want one of %s)", d.Type, strings.Join(vault.TypeNames(false), ", ")))
	}
	title, err := oneLine("title", d.Title)
	if err != nil {
		return Written{}, err
	}
	if title == "" {
		return Written{}, invalid(errors.New("the title is empty"))
	}
	answers := make([]string, len(d.Answers))
	for i, a := range d.Answers {
		if answers[i], err = oneLine("answer", a); err != nil {
			return Written{}, err
		}
	}
	key, err := draftKey(d.Key, typ, title)
	if err != nil {
		return Written{}, err
	}
	body, err := draftBody(d.Body)
	if err != nil {
		return Written{}, err
	}
	var rep Written
	err = s.read("", s.readOptions(false), func(v *view) error {
		links, err := s.draftLinks(v, d.Links, key)
		if err != nil {
			return err
		}
		private, err := v.snap.PrivateDir()
		if err != nil {
			return err
		}
		tmpl, from, err := template.LoadTemplate(s.Repo.Root, typ)
		if err != nil {
			return refuse(reply.BadTemplate, err)
		}
		draft := template.Draft{Type: typ, Title: title, Recorded: today(), Source: s.source(d.Source), Body: body,
			Answers: answers, Links: links}
		rep = Written{SchemaVersion: reply.SchemaVersion, Layer: "local", Type: typ, Template: from}
		for n := 1; ; n++ {
			k := key
			if n > 1 {
				k = fmt.Sprintf("%s-%d", key, n)
			}
			path := filepath.Join(private, filepath.FromSlash(k)+vault.NoteExt)
			if err := checkTarget(private, k+vault.NoteExt, true); err != nil {
				return err
			}
			taken, err := takenLocally(v, k, path)
			if err != nil {
				return err
			}
			team := ""
			if taken == "" {
				// A private note under a team note's key would be a second
				// note links never reach (they reach the team note) and
				// promote refuses: the key is taken.
				if team, err = teamPath(v, k); err != nil {
					return err
				}
				taken = team
			}
			if taken == "" {
				draft.Key = k
				content, err := template.RenderNote(tmpl, draft)
				if err != nil {
					return refuse(reply.BadTemplate, fmt.Errorf("template %s: %w", from, err))
				}
				err = s.create(k, path, content)
				switch {
				case errors.Is(err, fs.ErrExist):
					taken = path // written by another process since the look
				case err != nil:
					return err
				default:
					rep.Key, rep.Path, rep.Created = k, path, true
					rep.TeamNamesakes, err = teamNamesakes(v, k, title)
					return err
				}
			}
			switch {
			case d.IfExists == "skip" && team != "":
				rep.Key, rep.Path, rep.Layer, rep.TeamNamesakes = k, team, "team", []Namesake{}
				return nil
			case d.IfExists == "skip":
				rep.Key, rep.Path = k, taken
				rep.TeamNamesakes, err = teamNamesakes(v, k, title)
				return err
			case d.IfExists == "suffix" && n < 1000:
				continue
			case team != "":
				return refuse(reply.KeyTaken, fmt.Errorf("the key %s is taken in the team layer by %s; add to that note, or choose another key with --key, or use --if-exists suffix (or skip, to be told the note there)", k, team))
			}
			return refuse(reply.KeyTaken, fmt.Errorf("the key %s is taken in the local layer by %s; choose another with --key, or use --if-exists skip or suffix", k, taken))
		}
	})
	return rep, err
}

// oneLine reads a field of a new note that is one line of text (its
// title, an answer): each run of white space, line breaks included, is one
// space, and any other control character is refused. Written raw, a NUL
// made the note a binary file every command then skipped, and an escape
// sequence is a command to the terminal of whoever lists it.
func oneLine(what, s string) (string, error) {
	s = strings.Join(strings.Fields(s), " ")
	if i := strings.IndexFunc(s, unicode.IsControl); i >= 0 {
		r, _ := utf8.DecodeRuneInString(s[i:])
		return "", invalid(fmt.Errorf("the %s holds the control character %U; it is one line of text", what, r))
	}
	return s, nil
}

// create writes the new note key at path through the journal; fs.ErrExist when
// the name is taken.
func (s *Store) create(key, path string, content []byte) error {
	t, err := s.begin("omh new " + key)
	if err != nil {
		return err
	}
	defer t.Close()
	if err := t.Put(path, plumbing.ZeroHash, content, 0o644); err != nil {
		return err
	}
	return t.Commit()
}

// draftKey is the key asked for, checked, or the key the type and title
// derive.
func draftKey(asked, typ, title string) (string, error) {
	if asked == "" {
		key, err := vault.KeyFor(typ, title)
		if err != nil {
			return "", refuse(reply.BadKey, err)
		}
		return key, nil
	}
	key := norm.NFC.String(strings.TrimSuffix(strings.TrimSpace(asked), vault.NoteExt))
	if err := checkNewKey(key); err != nil {
		return "", err
	}
	return key, nil
}

// checkNewKey refuses a key a note may not be written under: one CheckKey
// refuses, or one a wiki link could not name.
func checkNewKey(key string) error {
	if err := vault.CheckKey(key); err != nil {
		return refuse(reply.BadKey, err)
	}
	if strings.ContainsAny(key, "[]|#^") {
		return refuse(reply.BadKey, fmt.Errorf("key %q holds a character a wiki link cannot name ([ ] | # ^)", key))
	}
	if strings.Contains(key, `\`) {
		return refuse(reply.BadKey, fmt.Errorf("key %q holds a backslash, which Windows reads as a folder separator", key))
	}
	return nil
}

// checkTarget refuses to write a note's file at rel under root (the
// repository or the private folder) through a symbolic link, into git's
// folder, or beside a name it differs from only in Unicode normalisation
// (or, with foldCase, in case).
func checkTarget(root, rel string, foldCase bool) error {
	if err := disk.CheckTarget(root, rel, foldCase); err != nil {
		return refuse(reply.BadTarget, fmt.Errorf("nothing was written: %w", err))
	}
	return nil
}

// draftBody checks a note's text: text, with no frontmatter of its own
// (fields come from the flags or a template), line ends made LF.
func draftBody(b []byte) (string, error) {
	if b == nil {
		return "", nil
	}
	if bytes.IndexByte(b, 0) >= 0 {
		return "", refuse(reply.BadBody, errors.New("the body is not text"))
	}
	body := strings.ReplaceAll(string(b), "\r\n", "\n")
	if p := vault.Parse([]byte(body)); p.FrontmatterLines > 0 || len(p.Problems) > 0 {
		return "", refuse(reply.BadBody, errors.New("the body has frontmatter of its own; give fields with the flags, or in a template under "+template.TemplatesDir))
	}
	return body, nil
}

// draftLinks resolves each "[VERB:]KEY" to the one key it names, as a wiki
// link from the new note would, and writes the link as the vault's dialect
// does.
func (s *Store) draftLinks(v *view, args []string, from string) ([]template.DraftLink, error) {
	if len(args) == 0 {
		return nil, nil
	}
	cfg, err := s.config()
	if err != nil {
		return nil, err
	}
	var out []template.DraftLink
	for _, arg := range args {
		verb, target := "", strings.TrimSpace(arg)
		if vb, rest, ok := strings.Cut(target, ":"); ok && vault.IsVerb(vb) {
			verb, target = vb, strings.TrimSpace(rest)
		}
		target = strings.TrimSuffix(target, vault.NoteExt)
		if target == "" {
			return nil, invalid(fmt.Errorf("--link %q names no note", arg))
		}
		res, err := vault.Resolve(vault.Link{Kind: vault.WikiLink, Target: target}, from, v.snap.Names())
		switch {
		case err != nil:
			return nil, err
		case len(res.Candidates) > 1:
			return nil, refuse(reply.Ambiguous, fmt.Errorf("--link %s could mean %s; give the full key", target, strings.Join(res.Candidates, ", ")))
		case res.Key == "":
			return nil, refuse(reply.NotFound, fmt.Errorf("--link %s reaches no note", target))
		}
		title, err := linkTitle(v, res.Key, cfg.Dialect)
		if err != nil {
			return nil, err
		}
		l := template.DraftLink{Verb: verb, Key: res.Key, Text: rename.NewLink(cfg.Dialect, res.Key, title, from, v.snap.Names())}
		if !slices.Contains(out, l) {
			out = append(out, l)
		}
	}
	return out, nil
}

// linkTitle is the title a link to key is written with: the note's own
// title, where the dialect writes links with one (a markdown link's text, a
// Logseq page's name), and not a first heading on Logseq, where only a
// title property names a page.
func linkTitle(v *view, key string, d vault.Dialect) (string, error) {
	if d.String() != vault.DialectMarkdown && d.String() != vault.DialectLogseq {
		return "", nil
	}
	docs, err := v.snap.Find(key, 0)
	if err != nil || len(docs) == 0 {
		return "", err
	}
	meta, err := v.snap.Meta(docs[0])
	if err != nil || (meta.TitleFromH1 && d.String() == vault.DialectLogseq) {
		return "", err
	}
	return meta.Title, nil
}

// source is the source asked for, else $OMH_SOURCE, else git's user as
// "name <email>".
func (s *Store) source(asked string) string {
	if src := strings.TrimSpace(asked); src != "" {
		return src
	}
	if src := strings.TrimSpace(os.Getenv("OMH_SOURCE")); src != "" {
		return src
	}
	name := gitcli.GitSetting(s.Repo.Root, "user.name")
	email := gitcli.GitSetting(s.Repo.Root, "user.email")
	switch {
	case name != "" && email != "":
		return name + " <" + email + ">"
	case name != "":
		return name
	}
	return email
}

// takenLocally returns the path of the local note that holds key already:
// the file in the private folder, or any local note the snapshot holds
// under it (an uncommitted file). "" when the key is free.
func takenLocally(v *view, key, privatePath string) (string, error) {
	if _, err := os.Lstat(privatePath); err == nil {
		return privatePath, nil
	}
	docs, err := v.snap.Find(key, vault.Local)
	if err != nil || len(docs) == 0 {
		return "", err
	}
	n, err := v.snap.Note(docs[0])
	if err != nil {
		return "", err
	}
	return n.Path, nil
}

// teamPath returns the path of the team note holding key; "" when none
// does.
func teamPath(v *view, key string) (string, error) {
	docs, err := v.snap.Find(key, vault.Team)
	if err != nil || len(docs) == 0 {
		return "", err
	}
	n, err := v.snap.Note(docs[0])
	return n.Path, err
}

// teamNamesakes lists the team notes a note written under key with title
// may repeat: the team note with the same key, then those a link written
// as the title, or as the key's last part, would reach (by the last part
// of their key or an alias), each once, in key order.
func teamNamesakes(v *view, key, title string) ([]Namesake, error) {
	out := []Namesake{}
	seen := map[string]bool{}
	add := func(k, by string) error {
		if seen[k] {
			return nil
		}
		seen[k] = true
		docs, err := v.snap.Find(k, vault.Team)
		if err != nil || len(docs) == 0 {
			return err
		}
		n, err := v.snap.Note(docs[0])
		if err != nil {
			return err
		}
		out = append(out, Namesake{Key: k, Path: n.Path, By: by})
		return nil
	}
	if err := add(key, "key"); err != nil {
		return nil, err
	}
	for _, name := range []struct{ text, by string }{{title, "title"}, {key[strings.LastIndexByte(key, '/')+1:], "name"}} {
		found, err := v.snap.Names().Lookup(strings.ToLower(norm.NFC.String(name.text)))
		if err != nil {
			return nil, err
		}
		var keys []string
		for _, f := range found {
			if f.Kind != vault.PartName { // a part of a file name (zk's) is no namesake
				keys = append(keys, f.Key)
			}
		}
		slices.Sort(keys)
		for _, k := range slices.Compact(keys) {
			if err := add(k, name.by); err != nil {
				return nil, err
			}
		}
	}
	return out, nil
}
