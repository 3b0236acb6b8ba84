package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"golang.org/x/text/unicode/norm"

	"github.com/omh-notes/omh/index"
	"github.com/omh-notes/omh/vault"
)

// PromoteCmd is `omh promote`.
type PromoteCmd struct {
	Keys []string `arg:"" name:"key" help:"Keys of private notes to move into the notes root, all or none."`
}

// Help is the detail under `omh promote --help`.
func (c *PromoteCmd) Help() string {
	return `Each note moves to the same key under the notes root and is staged with git add; the command that commits exactly these files is printed, so the commit stays the review. Nothing changes (files and git's index stay as they were) when any note is missing from the private folder, is ambiguous, already exists in the team layer, the working tree or git's index, or links to a note that would stay on this machine: a private note or an uncommitted file not promoted in the same batch.

The private folder may be on another file system: every note is copied and synced and staged before any private file is removed; a failing step takes the copies back out.`
}

// promotion is one private note on its way into the notes root.
type promotion struct {
	Key     string `json:"key"`
	From    string `json:"from"` // the private file, absolute
	To      string `json:"to"`   // the new file, relative to the repository root
	content []byte
	private string // the private folder From is in
}

// promoteReport is what omh promote did; one value for people and
// programs.
type promoteReport struct {
	Promoted []promotion `json:"promoted"`
	Commit   string      `json:"commit"` // the command that commits them
}

// promoteProblem is one reason to refuse a promotion, with the error code
// it is reported under.
type promoteProblem struct {
	code, msg string
}

// Run moves private notes into the notes root at the same key and stages
// them with git add, all or nothing. Nothing changes unless every note can
// move: it must exist in the private folder under exactly one key, be
// neither in the team layer nor anywhere in the working tree or git's
// index, and link to no note that would stay on this machine (a note
// promoted in the same batch is fine). The copies are written and synced
// and staged before any private file is removed; a failing step takes the
// copies back out (and out of the index).
func (c *PromoteCmd) Run(e *env) error {
	for _, k := range c.Keys {
		if err := vault.CheckKey(norm.NFC.String(k)); err != nil {
			return refuse("bad_key", err)
		}
	}
	return e.withStore(index.Options{LockWait: lockWait, Progress: e.progress()}, func(s *store) error {
		notes, err := s.snap.Notes()
		if err != nil {
			return err
		}
		cfg, err := vault.LoadConfig(s.repo.Root)
		if err != nil {
			return err
		}
		private, err := s.snap.PrivateDir()
		if err != nil {
			return err
		}
		batch, problems := c.plan(s, notes, cfg, private)
		if len(problems) > 0 {
			var msgs []string
			for _, p := range problems {
				msgs = append(msgs, p.msg)
			}
			return refuse(problems[0].code, fmt.Errorf("nothing was promoted: %s", strings.Join(msgs, "; ")))
		}
		if err := promote(s.repo.Root, batch); err != nil {
			return err
		}
		rep := promoteReport{Promoted: batch, Commit: commitCommand(e, s.repo.Root, batch)}
		if e.cli.JSON {
			return writeJSON(e.stdout, rep)
		}
		for _, p := range batch {
			fmt.Fprintf(e.stdout, "promoted %s -> %s (staged)\n", p.Key, p.To)
		}
		fmt.Fprintf(e.stdout, "commit with:\n  %s\n", rep.Commit)
		return nil
	})
}

// plan checks every key and returns the promotions, or every reason to
// refuse.
func (c *PromoteCmd) plan(s *store, notes []index.StoredNote, cfg vault.Config, private string) ([]promotion, []promoteProblem) {
	var problems []promoteProblem
	refuseOne := func(code, format string, args ...any) {
		problems = append(problems, promoteProblem{code, fmt.Sprintf(format, args...)})
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
	notesDir := s.snap.NotesDir()
	var batch []promotion
	seen := map[string]bool{}
	for _, arg := range c.Keys {
		key := norm.NFC.String(arg)
		res, err := vault.Resolve(vault.Link{Kind: vault.WikiLink, Target: key}, "", privateNames)
		switch {
		case err != nil:
			refuseOne("internal", "%v", err)
			continue
		case len(res.Candidates) > 1:
			refuseOne("ambiguous", "%s could mean the private notes %s", arg, strings.Join(res.Candidates, ", "))
			continue
		case res.Key == "":
			msg := fmt.Sprintf("no private note has the key %s", arg)
			if team[key] {
				msg += " (it is a team note already)"
			} else if _, ok := where[key]; ok {
				msg += " (it is an uncommitted file in the notes root already; stage it with git add)"
			}
			refuseOne("not_found", "%s", msg)
			continue
		}
		key = res.Key
		if seen[key] {
			continue
		}
		seen[key] = true
		from := filepath.Join(private, filepath.FromSlash(key)+vault.NoteExt)
		content, err := os.ReadFile(from)
		if err != nil {
			refuseOne("not_found", "the private note %s cannot be read: %v", key, err)
			continue
		}
		rel := key + vault.NoteExt
		to := path.Join(notesDir, rel)
		switch {
		case team[key]:
			refuseOne("key_taken", "%s is a team note already; rename the private one with omh mv first", key)
			continue
		case vault.Excluded(cfg.Exclude, rel):
			refuseOne("excluded", "%s would be excluded from the store by %s", to, vault.ConfigPath)
			continue
		}
		if _, err := os.Lstat(filepath.Join(s.repo.Root, filepath.FromSlash(to))); err == nil {
			refuseOne("key_taken", "%s exists in the working tree already", to)
			continue
		}
		batch = append(batch, promotion{Key: key, From: from, To: to, content: content, private: private})
	}
	if len(problems) > 0 {
		return nil, problems
	}
	// Staged but absent from the working tree: git add would not tell.
	var paths []string
	for _, p := range batch {
		paths = append(paths, p.To)
	}
	if out, err := gitIn(s.repo.Root, append([]string{"ls-files", "--cached", "-z", "--"}, paths...)...); err != nil {
		refuseOne("git_failed", "%v", err)
	} else if staged := strings.Trim(out, "\x00"); staged != "" {
		refuseOne("key_taken", "git's index holds %s already", strings.Join(strings.Split(staged, "\x00"), ", "))
	}
	// An ignored path cannot be added: git add would add the others and
	// fail, leaving the index to be repaired. Paths go on standard input,
	// where git reads them as paths, not patterns.
	if out, _ := gitInput(s.repo.Root, strings.Join(paths, "\x00")+"\x00", "check-ignore", "--stdin", "-z"); strings.Trim(out, "\x00") != "" {
		refuseOne("ignored", "git ignores %s; change .gitignore or promote under another key", strings.Join(strings.Split(strings.Trim(out, "\x00"), "\x00"), ", "))
	}
	// Links: resolved over the store as it is; a target is fine when the
	// team has it or it moves in this batch.
	for _, p := range batch {
		parsed := vault.Parse(p.content)
		reported := map[string]bool{}
		for _, l := range parsed.Links {
			res, err := vault.Resolve(l, p.Key, names)
			if err != nil {
				refuseOne("internal", "%v", err)
				continue
			}
			k := res.Key
			if k == "" || k == p.Key || team[k] || seen[k] || reported[k] {
				continue
			}
			reported[k] = true
			refuseOne("links_local", "%s links to %s, which would stay on this machine (%s); promote both together or drop the link",
				p.Key, k, where[k])
		}
	}
	if len(problems) > 0 {
		return nil, problems
	}
	return batch, nil
}

// promote copies, syncs and stages every note, then removes the private
// files. Until the last step nothing is lost: a failure removes the copies
// (and their index entries) and leaves the private notes as they were.
func promote(root string, batch []promotion) error {
	var written []string
	var dirs []string
	rollback := func() {
		for i := len(written) - 1; i >= 0; i-- {
			os.Remove(written[i])
		}
		for i := len(dirs) - 1; i >= 0; i-- {
			os.Remove(dirs[i])
		}
	}
	for _, p := range batch {
		abs := filepath.Join(root, filepath.FromSlash(p.To))
		created, err := writeNewFile(abs, p.content)
		if err != nil {
			rollback()
			return fmt.Errorf("nothing was promoted: %w", err)
		}
		written = append(written, abs)
		dirs = append(dirs, created...)
	}
	// A private note edited meanwhile would lose the edit when removed.
	for _, p := range batch {
		now, err := os.ReadFile(p.From)
		if err != nil || !bytes.Equal(now, p.content) {
			rollback()
			return refuse("changed", fmt.Errorf("nothing was promoted: %s changed while it was being promoted; run omh promote again", p.From))
		}
	}
	var paths []string
	for _, p := range batch {
		paths = append(paths, p.To)
	}
	if _, err := gitIn(root, append([]string{"add", "--"}, paths...)...); err != nil {
		gitIn(root, append([]string{"rm", "--cached", "-q", "--ignore-unmatch", "--"}, paths...)...)
		rollback()
		return refuse("git_failed", fmt.Errorf("nothing was promoted: %w", err))
	}
	var failed []string
	for _, p := range batch {
		if err := os.Remove(p.From); err != nil {
			failed = append(failed, err.Error())
			continue
		}
		removeEmptyParents(filepath.Dir(p.From), p.private)
	}
	if len(failed) > 0 {
		return fmt.Errorf("the notes were promoted and staged, but some private copies could not be removed: %s", strings.Join(failed, "; "))
	}
	return nil
}

// removeEmptyParents removes dir and its parents while they are empty,
// stopping at top, which is kept.
func removeEmptyParents(dir, top string) {
	top = filepath.Clean(top)
	for d := filepath.Clean(dir); d != top && strings.HasPrefix(d, top+string(filepath.Separator)); d = filepath.Dir(d) {
		if os.Remove(d) != nil {
			return
		}
	}
}

// commitCommand is the git command that commits the promoted notes and
// nothing else, runnable from where omh was started.
func commitCommand(e *env, root string, batch []promotion) string {
	msg := "Promote " + batch[0].Key
	if len(batch) > 1 {
		msg = fmt.Sprintf("Promote %d notes", len(batch))
	}
	cmd := []string{"git"}
	if here, err := filepath.Abs(e.cli.Dir); err != nil || filepath.Clean(here) != filepath.Clean(root) {
		cmd = append(cmd, "-C", shellQuote(root))
	}
	cmd = append(cmd, "commit", "-m", shellQuote(msg), "--")
	for _, p := range batch {
		cmd = append(cmd, shellQuote(p.To))
	}
	return strings.Join(cmd, " ")
}

// gitIn runs git in the working tree at root and returns its output; a
// failure carries git's own message.
func gitIn(root string, args ...string) (string, error) {
	// Paths are paths, never patterns: a note may be called "[draft].md".
	return gitInput(root, "", append([]string{"--literal-pathspecs"}, args...)...)
}

// gitInput runs git in the working tree at root with input on its
// standard input.
func gitInput(root, input string, args ...string) (string, error) {
	cmd := exec.Command("git", args...)
	cmd.Dir = root
	cmd.Stdin = strings.NewReader(input)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		msg := strings.TrimSpace(stderr.String())
		if msg == "" {
			msg = err.Error()
		}
		sub := "" // the subcommand, after git's own options
		if i := slices.IndexFunc(args, func(a string) bool { return !strings.HasPrefix(a, "-") }); i >= 0 {
			sub = args[i]
		}
		return stdout.String(), fmt.Errorf("git %s: %s", sub, msg)
	}
	return stdout.String(), nil
}
