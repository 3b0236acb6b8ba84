package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/omh-notes/omh/find"
	"github.com/omh-notes/omh/retrieve"
	"github.com/omh-notes/omh/vault"
)

// ShowCmd is `omh show`.
type ShowCmd struct {
	Key   string `arg:"" help:"The note's key: its path under the notes root without .md."`
	Layer string `name:"layer" enum:"team,local," default:"" placeholder:"team|local" help:"Only the note of this layer."`
}

// shownNote is one note of omh show's JSON reply: the fields of a find hit,
// where the note lives, its links both ways and its content.
type shownNote struct {
	retrieve.JSONHit
	Where   string         `json:"where"`  // head, worktree (an uncommitted copy) or private
	Source  string         `json:"source"` // frontmatter source: who or what wrote it
	Links   []find.JSONRef `json:"links"`
	In      []find.JSONRef `json:"in"`
	Content string         `json:"content"`
}

func (c *ShowCmd) Run(e *env) error {
	return e.withKey(c.Key, c.Layer, "", func(s *store, docs []uint32) error {
		var shown []shownNote
		for _, d := range docs {
			sn, err := showNote(s, d)
			if err != nil {
				return err
			}
			shown = append(shown, sn)
		}
		if e.cli.JSON {
			return writeJSON(e.stdout, s.jsonReply("notes", shown))
		}
		for i, n := range shown {
			if i > 0 {
				fmt.Fprintln(e.stdout)
			}
			printShown(e.stdout, n, s.snap.Commit())
		}
		fmt.Fprintf(e.stdout, "@ %s\n", retrieve.CommitLabel(s.snap.Commit()))
		return nil
	})
}

// showNote gathers what omh show prints of one document.
func showNote(s *store, d uint32) (shownNote, error) {
	n, err := s.snap.Note(d)
	if err != nil {
		return shownNote{}, err
	}
	meta, err := s.snap.Meta(d)
	if err != nil {
		return shownNote{}, err
	}
	detail, err := s.snap.Detail(d)
	if err != nil {
		return shownNote{}, err
	}
	content, err := readNote(s.repo, n)
	if err != nil {
		return shownNote{}, err
	}
	j := retrieve.ToJSON(retrieve.Result{Hits: []retrieve.Hit{{Note: n, Parent: -1}}}, "").Hits[0]
	return shownNote{JSONHit: j, Where: noteWhere(s, n), Source: meta.Source,
		Links: find.JSONRefs(detail.Links), In: find.JSONRefs(find.OrderIn(detail.In)), Content: string(content)}, nil
}

// whereOf says where a note was read from: HEAD's tree, an uncommitted
// working copy, or the private folder.
func noteWhere(s *store, n retrieve.Note) string {
	switch {
	case n.Layer == vault.Team:
		return "head"
	case filepath.IsAbs(n.Path):
		return "private"
	}
	return "worktree"
}

// notFound refuses an unknown key, naming the note a link written that way
// would reach when there is one.
func refuseUnknownKey(s *store, key string, layer vault.Layer) error {
	err := fmt.Errorf("no note has the key %q", key)
	if layer != 0 {
		err = fmt.Errorf("no %s note has the key %q", layer, key)
	}
	res, rerr := vault.Resolve(vault.Link{Kind: vault.WikiLink, Target: key}, "", s.snap.Names())
	switch {
	case rerr != nil:
	case res.Key != "" && res.Key != key:
		err = fmt.Errorf("%w; did you mean %s?", err, res.Key)
	case len(res.Candidates) > 1:
		err = fmt.Errorf("%w; it could be any of %s", err, strings.Join(res.Candidates, ", "))
	}
	return refuse("not_found", err)
}

func printShown(w io.Writer, n shownNote, commit string) {
	fmt.Fprintf(w, "%s  %s · %s\n", n.Key, n.Layer, n.Date)
	printShownFields(w, n, commit)
}

// printShownFields prints what omh show says of a note after its first
// line: labelled fields, links both ways, then the content.
func printShownFields(w io.Writer, n shownNote, commit string) {
	where := map[string]string{
		"head":     "committed at " + shortCommitID(commit),
		"worktree": "an uncommitted working copy",
		"private":  "the private folder, on this machine only",
	}[n.Where]
	field := func(name, value string) { fmt.Fprintf(w, "%-8s %s\n", name, value) }
	field("type", n.Type)
	field("title", n.Title)
	field("layer", n.Layer+": "+where)
	field("date", n.Date+" (from "+n.DateSource+")")
	if n.Source != "" {
		field("source", n.Source)
	}
	field("path", n.Path)
	field("blob", n.Blob)
	refLines(w, "links", n.Links, false)
	refLines(w, "in", n.In, true)
	fmt.Fprintln(w)
	fmt.Fprint(w, n.Content)
	if len(n.Content) > 0 && !strings.HasSuffix(n.Content, "\n") {
		fmt.Fprintln(w)
	}
}

// refLines prints links one a line under a label: "verb key" out,
// "key verb" in, each with its own layer and date.
func refLines(w io.Writer, label string, refs []find.JSONRef, incoming bool) {
	if len(refs) == 0 {
		fmt.Fprintf(w, "%-8s (none)\n", label)
		return
	}
	for i, r := range refs {
		name := r.Key
		switch {
		case r.Verb != "" && incoming:
			name = r.Key + " " + r.Verb
		case r.Verb != "":
			name = r.Verb + " " + r.Key
		}
		if i > 0 {
			label = ""
		}
		retracted := ""
		if r.Retracted != "" {
			retracted = " (retracted " + r.Retracted + ")"
		}
		fmt.Fprintf(w, "%-8s %s  %s · %s%s\n", label, name, r.Layer, r.Date, retracted)
	}
}

func shortCommitID(c string) string {
	if c == "" {
		return "no commit"
	}
	return c[:min(len(c), 12)]
}

// readNote returns the content the snapshot indexed: a team note's blob
// from git, a local note's file.
func readNote(r *vault.Repo, n retrieve.Note) ([]byte, error) {
	if n.Layer == vault.Team {
		b, _, err := r.ReadBlob(n.Blob, 1<<40)
		return b, err
	}
	path := n.Path
	if !filepath.IsAbs(path) {
		path = filepath.Join(r.Root, filepath.FromSlash(path))
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", path, err)
	}
	return b, nil
}
