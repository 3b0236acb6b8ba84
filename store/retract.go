package store

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"golang.org/x/text/unicode/norm"

	"github.com/omh-notes/omh/journal"
	"github.com/omh-notes/omh/reply"
	"github.com/omh-notes/omh/vault"
	"github.com/omh-notes/omh/vault/corpus"
	"github.com/omh-notes/omh/vault/gitrepo"
)

// Retraction is what omh proof retract did. Its JSON fields are in the
// order replies have always had.
type Retraction struct {
	Key             string `json:"key"`
	Path            string `json:"path"`
	Day             string `json:"retracted"`
	RetractedReason string `json:"retracted_reason"`
	SchemaVersion   int    `json:"schema_version"`
	Tracked         bool   `json:"tracked"` // git tracks the file: the edit shows in git diff
}

// Retract withdraws the record with key: it sets retracted (today) and
// retracted_reason in its frontmatter, as a text edit that keeps every
// other byte. The record's working copy is edited when it has one (that is
// what the user sees); a record git tracks is edited only with team.
func (s *Store) Retract(key, reason string, team bool) (Retraction, error) {
	reason = strings.TrimSpace(reason)
	if reason == "" {
		return Retraction{}, invalid(errors.New("--reason must say why"))
	}
	key = norm.NFC.String(key)
	if err := vault.CheckKey(key); err != nil {
		return Retraction{}, refuse(reply.BadKey, err)
	}
	day := today()
	t, err := s.begin("omh proof retract " + key)
	if err != nil {
		return Retraction{}, err
	}
	defer t.Close()
	var rep Retraction
	err = s.read("", s.readOptions(false), func(v *view) error {
		docs, err := v.snap.Find(key, 0)
		if err != nil {
			return err
		}
		if len(docs) == 0 {
			return v.unknownKey(key, 0)
		}
		target, tracked, err := retractTarget(v, docs)
		if err != nil {
			return err
		}
		if tracked && !team {
			return refuse(reply.TeamRecord, fmt.Errorf("%s is a team record (git tracks %s); give --team to edit it, and review the change with git diff", key, target.Path))
		}
		path := target.Path
		if !filepath.IsAbs(path) {
			path = filepath.Join(s.Repo.Root, filepath.FromSlash(path))
		}
		if err := retractFile(t, path, day, reason); err != nil {
			return err
		}
		rep = Retraction{SchemaVersion: reply.SchemaVersion, Key: target.Key, Path: target.Path, Tracked: tracked,
			Day: string(day), RetractedReason: reason}
		return nil
	})
	return rep, err
}

// retractTarget picks the file a retraction edits: the record's working
// copy (the local layer, when there is one: that is what the user sees),
// else the team record's file. tracked says whether git tracks the path.
func retractTarget(v *view, docs []uint32) (corpus.Note, bool, error) {
	var notes []corpus.Note
	for _, d := range docs {
		n, err := v.snap.Note(d)
		if err != nil {
			return n, false, err
		}
		if !vault.IsProofType(n.Type) {
			return n, false, notARecord(n)
		}
		notes = append(notes, n)
	}
	sort.SliceStable(notes, func(i, j int) bool { return notes[i].Layer == vault.Local && notes[j].Layer != vault.Local })
	target := notes[0]
	tracked := false
	for _, n := range notes {
		if n.Layer == vault.Team && n.Path == target.Path {
			tracked = true
		}
	}
	return target, tracked, nil
}

// retractFile edits a record's frontmatter in place: the file is read, its
// edit checked, and the result written over it through the journal, with
// its mode. A file that changed meanwhile is left alone.
func retractFile(t *journal.Txn, path string, day vault.Date, reason string) error {
	info, err := os.Lstat(path)
	if err != nil {
		return fmt.Errorf("reading the record: %w", err)
	}
	if !info.Mode().IsRegular() {
		return refuse(reply.NotARecord, fmt.Errorf("%s is not a regular file (a symbolic link?); edit it by hand", path))
	}
	content, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("reading the record: %w", err)
	}
	if p := vault.Parse(content); p.Retracted != "" {
		return refuse(reply.AlreadyRetracted, fmt.Errorf("%s was retracted on %s already (%s)", path, p.Retracted, p.RetractedReason))
	}
	edited, err := vault.SetRetracted(content, day, reason)
	if err != nil {
		return refuse(reply.Unrewritable, fmt.Errorf("%s: %w", path, err))
	}
	if err := t.Put(path, gitrepo.HashBytes(content), edited, info.Mode().Perm()); err != nil {
		return fmt.Errorf("writing the record: %w", err)
	}
	return commit(t, "nothing was written")
}
