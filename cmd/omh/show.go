package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/omh-notes/omh/find"
	"github.com/omh-notes/omh/retrieve"
	"github.com/omh-notes/omh/store"
	"github.com/omh-notes/omh/vault"
)

// ShowCmd is `omh show`.
type ShowCmd struct {
	Key   string `arg:"" complete:"key" help:"The note's key: its path under the notes root without .md."`
	Layer string `name:"layer" enum:"team,local," default:"" placeholder:"team|local" help:"Only the note of this layer."`
	Lines string `name:"lines" placeholder:"A-B" help:"Only these lines of the note, counted from 1 at its first line; A- runs to the end."`
}

func (c *ShowCmd) Run(e *env) error {
	var lines store.Lines
	if c.Lines != "" {
		var err error
		if lines, err = store.ParseLines(c.Lines); err != nil {
			return err
		}
	}
	return e.withStore(func(s *store.Store) error {
		shown, err := s.Show(c.Key, layerFlag(c.Layer), lines)
		if err != nil {
			return err
		}
		if e.cli.JSON {
			return writeJSON(e.stdout, shown)
		}
		printShown(e.stdout, shown)
		return nil
	})
}

// printShown prints omh show's reply for people: each note's provenance,
// links and content, then the commit.
func printShown(w io.Writer, shown store.Shown) {
	commit := store.CommitID(shown.Commit)
	for i, n := range shown.Notes {
		if i > 0 {
			fmt.Fprintln(w)
		}
		fmt.Fprintf(w, "%s  %s · %s\n", n.Key, n.Layer, n.Date)
		printShownFields(w, n, commit)
	}
	fmt.Fprintf(w, "@ %s\n", retrieve.CommitLabel(commit))
}

// layerFlag reads a --layer that kong has checked already: "" is both.
func layerFlag(s string) vault.Layer {
	l, _ := vault.ParseLayer(s)
	return l
}

// printShownFields prints what omh show says of a note after its first
// line: labelled fields, links both ways, then the content.
func printShownFields(w io.Writer, n store.ShownNote, commit string) {
	where := map[string]string{
		"head":     "committed at " + shortCommitID(commit),
		"worktree": "an uncommitted working copy",
		"private":  "the private folder, on this machine only",
	}[n.Where]
	field := func(name, value string) { fmt.Fprintf(w, "%-8s %s\n", name, oneLine(value)) }
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
	if n.LineStart > 0 {
		field("lines", fmt.Sprintf("%d-%d of %d", n.LineStart, n.LineEnd, n.LineCount))
	}
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
		if i > 0 {
			label = ""
		}
		retracted := ""
		if r.Retracted != "" {
			retracted = " (retracted " + r.Retracted + ")"
		}
		fmt.Fprintf(w, "%-8s %s  %s · %s%s\n", label, refName(r, incoming), r.Layer, r.Date, retracted)
	}
}

// refName is a link end as lists show it: "verb key" out, "key verb" in.
func refName(r find.JSONRef, incoming bool) string {
	switch {
	case r.Verb != "" && incoming:
		return r.Key + " " + r.Verb
	case r.Verb != "":
		return r.Verb + " " + r.Key
	}
	return r.Key
}

func shortCommitID(c string) string {
	if c == "" {
		return "no commit"
	}
	return c[:min(len(c), 12)]
}
