package store

import (
	"fmt"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/omh-notes/omh/index"
	"github.com/omh-notes/omh/internal/safefile"
	"github.com/omh-notes/omh/journal"
	"github.com/omh-notes/omh/reply"
	"github.com/omh-notes/omh/vault"
	"github.com/omh-notes/omh/vault/disk"
	"github.com/omh-notes/omh/vault/gitcli"
	"github.com/omh-notes/omh/vault/gitrepo"
	"golang.org/x/text/unicode/norm"
)

// Promote moves private notes into the notes root at the same key and
// stages them with git add, all or nothing. Nothing changes unless every
// note can move: it must exist in the private folder under exactly one
// key, be neither in the team layer nor anywhere in the working tree or
// git's index, and link to no note that would stay on this machine (a note
// promoted in the same batch is fine). The copies are written and synced
// and staged before any private file is removed; a failing step takes the
// copies back out (and out of the index).
func (s *Store) Promote(keys []string) (Promoted, error) {
	for _, k := range keys {
		if err := vault.CheckKey(norm.NFC.String(k)); err != nil {
			return Promoted{}, refuse(reply.BadKey, err)
		}
	}
	t, err := s.begin("omh promote " + strings.Join(keys, " "))
	if err != nil {
		return Promoted{}, err
	}
	defer t.Close()
	var rep Promoted
	err = s.read("", s.readOptions(false), func(v *view) error {
		notes, err := v.snap.Notes()
		if err != nil {
			return err
		}
		cfg, err := s.config()
		if err != nil {
			return err
		}
		private, err := v.snap.PrivateDir()
		if err != nil {
			return err
		}
		batch, problems := s.planPromotion(v, keys, notes, cfg, private)
		if len(problems) > 0 {
			var msgs []string
			for _, p := range problems {
				msgs = append(msgs, p.msg)
			}
			return refuse(problems[0].code, fmt.Errorf("nothing was promoted: %s", strings.Join(msgs, "; ")))
		}
		if err := promote(t, s.Repo.Root, batch); err != nil {
			return err
		}
		rep = Promoted{SchemaVersion: reply.SchemaVersion, Promoted: batch, Commit: commitCommand(s.dir, s.Repo.Root, batch)}
		return nil
	})
	return rep, err
}

// maxPromoted bounds a private note promote copies; far above any note.
const maxPromoted = 1 << 30

// Promotion is one private note on its way into the notes root.
type Promotion struct {
	Key     string `json:"key"`
	From    string `json:"from"` // the private file, absolute
	To      string `json:"to"`   // the new file, relative to the repository root
	content []byte
	private string // the private folder From is in
}

// Promoted is what omh promote did; one value for people and programs.
type Promoted struct {
	SchemaVersion int `json:"schema_version"`

	Promoted []Promotion `json:"promoted"`
	Commit   string      `json:"commit"` // the command that commits them
}

// problem is one reason to refuse a promotion, with the error code it is
// reported under.
type problem struct {
	code, msg string
}

// planPromotion checks every key and returns the promotions, or every
// reason to refuse.
func (s *Store) planPromotion(v *view, keys []string, notes []index.StoredNote, cfg vault.Config, private string) ([]Promotion, []problem) {
	var problems []problem
	refuseOne := func(code, format string, args ...any) {
		problems = append(problems, problem{code, fmt.Sprintf(format, args...)})
	}
	names := vault.MemNames{}
	privateNames := vault.MemNames{}
	team := map[string]bool{}
	where := map[string]string{} // key → where its local-only copy lives
	for _, n := range notes {
		names.Add(n.Note.Key, n.Parsed.Aliases)
		switch {
		case n.Note.Layer == vault.Team:
			team[n.Note.Key] = true
		case n.Private:
			privateNames.Add(n.Note.Key, nil)
			where[n.Note.Key] = "a private note"
		default:
			if _, ok := where[n.Note.Key]; !ok {
				where[n.Note.Key] = "an uncommitted file; commit it first"
			}
		}
	}
	notesDir := v.snap.NotesDir()
	var batch []Promotion
	seen := map[string]bool{}
	for _, arg := range keys {
		key := norm.NFC.String(arg)
		res, err := vault.Resolve(vault.Link{Kind: vault.WikiLink, Target: key}, "", privateNames)
		switch {
		case err != nil:
			refuseOne(reply.Internal, "%v", err)
			continue
		case len(res.Candidates) > 1:
			refuseOne(reply.Ambiguous, "%s could mean the private notes %s", arg, strings.Join(res.Candidates, ", "))
			continue
		case res.Key == "":
			msg := fmt.Sprintf("no private note has the key %s", arg)
			if team[key] {
				msg += " (it is a team note already)"
			} else if _, ok := where[key]; ok {
				msg += " (it is an uncommitted file in the notes root already; stage it with git add)"
			} else if name, _, ok := vault.SplitQualified(arg); ok && slices.Contains(s.storeNames(cfg), name) {
				msg += fmt.Sprintf(" (it is a note of the store %s: promote moves this repository's own private notes into its team layer, never another store's)", name)
			}
			refuseOne(reply.NotFound, "%s", msg)
			continue
		}
		key = res.Key
		if seen[key] {
			continue
		}
		seen[key] = true
		files := filesOf(notes, key, true)
		if len(files) > 1 {
			refuseOne(reply.Ambiguous, "%s", normalisationTwins(key, files))
			continue
		}
		from := filepath.Join(private, filepath.FromSlash(key)+vault.NoteExt)
		if len(files) == 1 {
			from = files[0] // its own name, which may be spelt decomposed
		}
		content, err := safefile.ReadInside(private, filepath.ToSlash(strings.TrimPrefix(from, private+string(filepath.Separator))), maxPromoted)
		if err != nil {
			refuseOne(reply.NotFound, "the private note %s cannot be read: %v", key, err)
			continue
		}
		rel := key + vault.NoteExt
		to := path.Join(notesDir, rel)
		switch {
		case team[key]:
			refuseOne(reply.KeyTaken, "%s is a team note already; rename the private one with omh mv first", key)
			continue
		case cfg.Exclude.Match(rel):
			refuseOne(reply.Excluded, "%s would be excluded from the store by %s", to, vault.ConfigPath)
			continue
		}
		if _, err := os.Lstat(filepath.Join(s.Repo.Root, filepath.FromSlash(to))); err == nil {
			refuseOne(reply.KeyTaken, "%s exists in the working tree already", to)
			continue
		}
		if err := disk.CheckTarget(s.Repo.Root, to, true); err != nil {
			refuseOne(reply.BadTarget, "%v", err)
			continue
		}
		batch = append(batch, Promotion{Key: key, From: from, To: to, content: content, private: private})
	}
	if len(problems) > 0 {
		return nil, problems
	}
	// Staged but absent from the working tree: git add would not tell.
	var paths []string
	for _, p := range batch {
		paths = append(paths, p.To)
	}
	if staged, err := gitcli.Tracked(s.Repo.Root, paths...); err != nil {
		refuseOne(reply.GitFailed, "%v", err)
	} else if len(staged) > 0 {
		refuseOne(reply.KeyTaken, "git's index holds %s already", strings.Join(staged, ", "))
	}
	// An ignored path cannot be added: git add would add the others and
	// fail, leaving the index to be repaired.
	if ignored := gitcli.Ignored(s.Repo.Root, paths); len(ignored) > 0 {
		refuseOne(reply.Ignored, "git ignores %s; change .gitignore or promote under another key", strings.Join(ignored, ", "))
	}
	// Links: resolved over the store as it is; a target is fine when the
	// team has it or it moves in this batch.
	for _, p := range batch {
		parsed := vault.ParseNote(p.content)
		reported := map[string]bool{}
		for _, l := range parsed.Links {
			res, err := cfg.Dialect.Resolve(l, p.Key, names)
			if err != nil {
				refuseOne(reply.Internal, "%v", err)
				continue
			}
			k := res.Key
			if k == "" || k == p.Key || team[k] || seen[k] || reported[k] {
				continue
			}
			reported[k] = true
			refuseOne(reply.LinksLocal, "%s links to %s, which would stay on this machine (%s); promote both together or drop the link",
				p.Key, k, where[k])
		}
	}
	if len(problems) > 0 {
		return nil, problems
	}
	return batch, nil
}

// promote writes every note under the notes root, stages them and removes
// the private files, through the journal: all of it or, when a private
// note changed since it was read or a name was taken, none of it.
func promote(t *journal.Txn, root string, batch []Promotion) error {
	const nothing = "nothing was promoted"
	var paths []string
	for _, p := range batch {
		abs := filepath.Join(root, filepath.FromSlash(p.To))
		if err := t.Put(abs, plumbing.ZeroHash, p.content, 0o644); err != nil {
			return fmt.Errorf("%s: %w", nothing, err)
		}
		paths = append(paths, p.To)
	}
	t.Add(paths...)
	for _, p := range batch {
		t.Remove(p.From, gitrepo.HashBytes(p.content), p.private)
	}
	return commit(t, nothing)
}

// commitCommand is the git command that commits the promoted notes and
// nothing else, runnable from where omh was started.
func commitCommand(here, root string, batch []Promotion) string {
	msg := "Promote " + batch[0].Key
	if len(batch) > 1 {
		msg = fmt.Sprintf("Promote %d notes", len(batch))
	}
	cmd := []string{"git"}
	if here, err := filepath.Abs(here); err != nil || filepath.Clean(here) != filepath.Clean(root) {
		cmd = append(cmd, "-C", shellQuote(root))
	}
	cmd = append(cmd, "commit", "-m", shellQuote(msg), "--")
	for _, p := range batch {
		cmd = append(cmd, shellQuote(p.To))
	}
	return strings.Join(cmd, " ")
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
