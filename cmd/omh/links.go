package main

import (
	"fmt"
	"io"

	"github.com/omh-notes/omh/find"
	"github.com/omh-notes/omh/retrieve"
)

// LinksCmd is `omh links`.
type LinksCmd struct {
	Key   string `arg:"" help:"The note's key: its path under the notes root without .md."`
	In    bool   `name:"in" xor:"direction" help:"Only the notes linking to it."`
	Out   bool   `name:"out" xor:"direction" help:"Only the notes it links to."`
	Layer string `name:"layer" enum:"team,local," default:"" placeholder:"team|local" help:"Only the note of this layer."`
}

// linkedNote is one note of omh links' JSON reply. A list not asked for
// (--in or --out) is left out.
type linkedNote struct {
	Key   string          `json:"key"`
	Layer string          `json:"layer"`
	Date  string          `json:"date"`
	Path  string          `json:"path"`
	Links *[]find.JSONRef `json:"links,omitempty"`
	In    *[]find.JSONRef `json:"in,omitempty"`
}

func (c *LinksCmd) Run(e *env) error {
	return e.withKey(c.Key, c.Layer, "", func(s *store, docs []uint32) error {
		var notes []linkedNote
		for _, d := range docs {
			n, err := s.snap.Note(d)
			if err != nil {
				return err
			}
			detail, err := s.snap.Detail(d)
			if err != nil {
				return err
			}
			ln := linkedNote{Key: n.Key, Layer: n.Layer.String(), Date: string(n.Date), Path: n.Path}
			if !c.In {
				out := find.JSONRefs(detail.Links)
				ln.Links = &out
			}
			if !c.Out {
				in := find.JSONRefs(find.OrderIn(detail.In))
				ln.In = &in
			}
			notes = append(notes, ln)
		}
		if e.cli.JSON {
			return writeJSON(e.stdout, s.jsonReply("notes", notes))
		}
		for i, n := range notes {
			if i > 0 {
				fmt.Fprintln(e.stdout)
			}
			printLinked(e.stdout, n)
		}
		fmt.Fprintf(e.stdout, "@ %s\n", retrieve.CommitLabel(s.snap.Commit()))
		return nil
	})
}

// printLinked prints a note's header line, then the notes it links to
// ("verb key", in the order its links appear) and the notes linking to it
// ("key verb", verdicts first), each with its own layer and date.
func printLinked(w io.Writer, n linkedNote) {
	fmt.Fprintf(w, "%s  %s · %s\n", n.Key, n.Layer, n.Date)
	section := func(title string, refs []find.JSONRef, incoming bool) {
		fmt.Fprintf(w, "%s (%d):\n", title, len(refs))
		for _, r := range refs {
			name := r.Key
			switch {
			case r.Verb != "" && incoming:
				name = r.Key + " " + r.Verb
			case r.Verb != "":
				name = r.Verb + " " + r.Key
			}
			fmt.Fprintf(w, "  %s  %s · %s\n", name, r.Layer, r.Date)
		}
	}
	if n.Links != nil {
		section("links out", *n.Links, false)
	}
	if n.In != nil {
		section("links in", *n.In, true)
	}
}
