package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/omh-notes/omh/find"
	"github.com/omh-notes/omh/index"
	"github.com/omh-notes/omh/retrieve"
	"github.com/omh-notes/omh/vault"
)

// ProofCmd is `omh proof`: claim and evidence records.
type ProofCmd struct {
	Find    ProofFindCmd    `cmd:"" help:"Find the claim and evidence records that answer a question, with where each stands."`
	Show    ProofShowCmd    `cmd:"" help:"Print a record, where it stands and why, and its typed links both ways."`
	Retract ProofRetractCmd `cmd:"" help:"Withdraw a record: set retracted and retracted_reason in its frontmatter."`
}

// ProofFindCmd is `omh proof find`.
type ProofFindCmd struct {
	Question  []string `arg:"" name:"question" help:"The question, in one or more words (no quotes needed); - reads it from standard input."`
	Also      []string `name:"also" sep:"none" placeholder:"Q" help:"Another phrasing of the same question; each is scored alone and a record keeps its best."`
	Roots     int      `name:"roots" default:"8" placeholder:"N" help:"How many ranked records to print; the rest are counted."`
	Layer     string   `name:"layer" enum:"team,local," default:"" placeholder:"team|local" help:"Only records of this layer."`
	Type      string   `name:"type" enum:"finding,decision,issue,citation,blob," default:"" placeholder:"T" help:"Only ranked records of this type: finding, decision, issue, citation or blob."`
	MaxChars  int      `name:"max-chars" default:"6000" placeholder:"N" help:"Size the reply aims at; passages that do not fit are counted."`
	AsOf      string   `name:"as-of" placeholder:"DATE|COMMIT" help:"Answer from the records as they stood then: the team layer at that commit (for a date, the last commit on or before it), private records recorded by then."`
	Retracted string   `name:"retracted" enum:"exclude,include,only" default:"exclude" placeholder:"exclude|include|only" help:"Records withdrawn by then: left out (exclude), shown marked (include), or alone (only)."`
}

func (c *ProofFindCmd) Run(e *env) error {
	q, err := newQuery(e, c.Question, c.Also, c.Roots, c.Layer, c.Type, "default", c.MaxChars)
	if err != nil {
		return err
	}
	mode, err := find.ParseRetraction(c.Retracted)
	if err != nil {
		return &cmdError{exitUsage, "usage", err}
	}
	err = e.withStoreAt(c.AsOf, index.Options{LockWait: lockWait, Progress: e.progress()}, func(s *store) error {
		proof := s.proof(mode)
		q.Keep = proof.KeepRecords
		res, err := s.search(q)
		if err != nil {
			return err
		}
		return e.writeCards(s, res, c.MaxChars, proof)
	})
	return e.absent(err, q.Phrasings, c.AsOf)
}

// ProofShowCmd is `omh proof show`.
type ProofShowCmd struct {
	Key   string `arg:"" help:"The record's key: its path under the notes root without .md."`
	Layer string `name:"layer" enum:"team,local," default:"" placeholder:"team|local" help:"Only the record of this layer."`
	AsOf  string `name:"as-of" placeholder:"DATE|COMMIT" help:"The record as it stood then, with the verdicts made by then."`
}

// shownRecord is one record of omh proof show's JSON reply: what omh show
// gives, with where the record stands and the records that decided it.
type shownRecord struct {
	shownNote
	State           string         `json:"state"`
	By              []find.JSONRef `json:"by"` // the records that overturned it, with their verbs
	Retracted       string         `json:"retracted,omitempty"`
	RetractedReason string         `json:"retracted_reason,omitempty"`
	Issue           string         `json:"issue,omitempty"` // issues: "open" or "resolved"
	ResolvedBy      []find.JSONRef `json:"resolved_by,omitempty"`
}

func (c *ProofShowCmd) Run(e *env) error {
	err := e.withKey(c.Key, c.Layer, c.AsOf, func(s *store, docs []uint32) error {
		proof := s.proof(find.IncludeRetracted)
		var shown []shownRecord
		for _, d := range docs {
			if !proof.IsRecord(d) {
				n, err := s.snap.Note(d)
				if err != nil {
					return err
				}
				return refuse("not_a_record", fmt.Errorf("%s is a %s note, not a proof record (finding, decision, issue, citation or blob)", n.Key, n.Type))
			}
			r, err := showRecord(s, d, proof)
			if err != nil {
				return err
			}
			shown = append(shown, r)
		}
		if e.cli.JSON {
			reply := s.jsonReply("records", shown)
			if day := s.asOf(); day != "" {
				reply["as_of"] = day
			}
			return writeJSON(e.stdout, reply)
		}
		for i, r := range shown {
			if i > 0 {
				fmt.Fprintln(e.stdout)
			}
			printRecord(e.stdout, r, s.snap.Commit())
		}
		_, err := io.WriteString(e.stdout, retrieve.Footer(s.snap.Commit(), s.asOf()))
		return err
	})
	return e.absent(err, []string{c.Key}, c.AsOf)
}

// showRecord gathers what omh proof show prints of one record.
func showRecord(s *store, d uint32, proof *find.Proof) (shownRecord, error) {
	standing, _, err := proof.Standing(d)
	if err != nil {
		return shownRecord{}, err
	}
	retracted := proof.Retracted(d)
	sn, err := showNote(s, d)
	if err != nil {
		return shownRecord{}, err
	}
	meta, err := s.snap.Meta(d)
	if err != nil {
		return shownRecord{}, err
	}
	detail, err := s.snap.Detail(d)
	if err != nil {
		return shownRecord{}, err
	}
	// Link ends carry their own retraction dates.
	sn.Links, sn.In = find.JSONRefs(proof.Mark(detail.Links)), find.JSONRefs(proof.Mark(find.OrderIn(detail.In)))
	r := shownRecord{shownNote: sn, State: string(standing.State), By: []find.JSONRef{}, Retracted: string(retracted)}
	if retracted != "" {
		r.RetractedReason = meta.RetractedReason
	}
	// The deciding records, with the verbs they decided by, from the links
	// in: the lifecycle names them, the links carry layer and date.
	deciders := func(keys []string, verbs ...string) []find.JSONRef {
		out := []find.JSONRef{}
		for _, ref := range find.OrderIn(detail.In) {
			if slices.Contains(keys, ref.Key) && slices.Contains(verbs, ref.Verb) {
				out = append(out, find.JSONRefs([]find.Ref{ref})...)
			}
		}
		return out
	}
	r.By = deciders(standing.By, "supersedes", "invalidates", "rejects")
	switch {
	case len(standing.ResolvedBy) > 0:
		r.Issue, r.ResolvedBy = "resolved", deciders(standing.ResolvedBy, "resolves")
	case standing.Open:
		r.Issue = "open"
	}
	return r, nil
}

// printRecord prints a record for people: its provenance and standing,
// then what omh show prints.
func printRecord(w io.Writer, r shownRecord, commit string) {
	state := r.State
	if r.Retracted != "" {
		state = "retracted " + r.Retracted
		if r.RetractedReason != "" {
			state += ": " + r.RetractedReason
		}
	}
	fmt.Fprintf(w, "%s  %s · %s\n", r.Key, r.Layer, r.Date)
	fmt.Fprintf(w, "%-8s %s\n", "state", state)
	for _, by := range r.By {
		fmt.Fprintf(w, "%-8s %s %s  %s · %s\n", "", by.Key, by.Verb, by.Layer, by.Date)
	}
	if r.Issue != "" {
		fmt.Fprintf(w, "%-8s %s\n", "issue", r.Issue)
		for _, by := range r.ResolvedBy {
			fmt.Fprintf(w, "%-8s %s %s  %s · %s\n", "", by.Key, by.Verb, by.Layer, by.Date)
		}
	}
	printShownFields(w, r.shownNote, commit)
}

// ProofRetractCmd is `omh proof retract`.
type ProofRetractCmd struct {
	Key    string `arg:"" help:"The record's key."`
	Reason string `name:"reason" required:"" placeholder:"TEXT" help:"Why the record is withdrawn; kept in retracted_reason."`
	Team   bool   `name:"team" help:"Also edit a record git tracks (the team layer); the edit then shows in git diff, for review."`
}

func (c *ProofRetractCmd) Run(e *env) error {
	reason := strings.TrimSpace(c.Reason)
	if reason == "" {
		return &cmdError{exitUsage, "usage", errors.New("--reason must say why")}
	}
	if err := vault.CheckKey(c.Key); err != nil {
		return refuse("bad_key", err)
	}
	today := vault.DateOf(time.Now())
	return e.withStore(index.Options{LockWait: lockWait, Progress: e.progress()}, func(s *store) error {
		docs, err := s.snap.Find(c.Key, 0)
		if err != nil {
			return err
		}
		if len(docs) == 0 {
			return refuseUnknownKey(s, c.Key, 0)
		}
		target, tracked, err := retractTarget(s, docs)
		if err != nil {
			return err
		}
		if tracked && !c.Team {
			return refuse("team_record", fmt.Errorf("%s is a team record (git tracks %s); give --team to edit it, and review the change with git diff", c.Key, target.Path))
		}
		path := target.Path
		if !filepath.IsAbs(path) {
			path = filepath.Join(s.repo.Root, filepath.FromSlash(path))
		}
		if err := retractFile(path, today, reason); err != nil {
			return err
		}
		if e.cli.JSON {
			return writeJSON(e.stdout, map[string]any{"schema_version": retrieve.SchemaVersion, "key": target.Key,
				"path": target.Path, "tracked": tracked, "retracted": today, "retracted_reason": reason})
		}
		fmt.Fprintf(e.stdout, "retracted %s on %s\npath: %s\n", target.Key, today, target.Path)
		if tracked {
			fmt.Fprintf(e.stdout, "The edit is in the working tree: review it with git diff, then commit it.\n")
		}
		return nil
	})
}

// retractTarget picks the file a retraction edits: the record's working
// copy (the local layer, when there is one: that is what the user sees),
// else the team record's file. tracked says whether git tracks the path.
func retractTarget(s *store, docs []uint32) (retrieve.Note, bool, error) {
	var notes []retrieve.Note
	for _, d := range docs {
		n, err := s.snap.Note(d)
		if err != nil {
			return n, false, err
		}
		if !find.ProofTypes[n.Type] {
			return n, false, refuse("not_a_record", fmt.Errorf("%s is a %s note, not a proof record (finding, decision, issue, citation or blob)", n.Key, n.Type))
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

// retractFile edits a record's frontmatter in place. The file is read, its
// edit checked, and the result written through a new file renamed over the
// old one, with its mode; a file that changed meanwhile is left alone.
func retractFile(path string, day vault.Date, reason string) error {
	info, err := os.Lstat(path)
	if err != nil {
		return fmt.Errorf("reading the record: %w", err)
	}
	if !info.Mode().IsRegular() {
		return refuse("not_a_record", fmt.Errorf("%s is not a regular file (a symbolic link?); edit it by hand", path))
	}
	content, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("reading the record: %w", err)
	}
	if p := vault.Parse(content); p.Retracted != "" {
		return refuse("already_retracted", fmt.Errorf("%s was retracted on %s already (%s)", path, p.Retracted, p.RetractedReason))
	}
	edited, err := vault.SetRetracted(content, day, reason)
	if err != nil {
		return refuse("unrewritable", fmt.Errorf("%s: %w", path, err))
	}
	tmp, err := writeTemp(path, edited, info.Mode().Perm())
	if err != nil {
		return fmt.Errorf("writing the record: %w", err)
	}
	defer os.Remove(tmp)
	if now, err := os.ReadFile(path); err != nil || !bytes.Equal(now, content) {
		return refuse("changed", fmt.Errorf("%s changed while it was being edited; nothing was written", path))
	}
	if err := os.Rename(tmp, path); err != nil {
		return fmt.Errorf("writing the record: %w", err)
	}
	return nil
}
