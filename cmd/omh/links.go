package main

import (
	"fmt"
	"io"

	"github.com/omh-notes/omh/find"
	"github.com/omh-notes/omh/retrieve"
	"github.com/omh-notes/omh/store"
)

// LinksCmd is `omh links`.
type LinksCmd struct {
	Key   string `arg:"" complete:"key" help:"The note's key: its path under the notes root without .md."`
	In    bool   `name:"in" xor:"direction" help:"Only the notes linking to it."`
	Out   bool   `name:"out" xor:"direction" help:"Only the notes it links to."`
	Layer string `name:"layer" enum:"team,local," default:"" placeholder:"team|local" help:"Only the note of this layer."`
}

func (c *LinksCmd) Run(e *env) error {
	dir := store.BothWays
	switch {
	case c.In:
		dir = store.LinksIn
	case c.Out:
		dir = store.LinksOut
	}
	return e.withStore(func(s *store.Store) error {
		linked, err := s.Links(c.Key, layerFlag(c.Layer), dir)
		if err != nil {
			return err
		}
		if e.cli.JSON {
			return writeJSON(e.stdout, linked)
		}
		printLinks(e.stdout, linked)
		return nil
	})
}

// printLinks prints omh links' reply for people, then the commit.
func printLinks(w io.Writer, linked store.Linked) {
	for i, n := range linked.Notes {
		if i > 0 {
			fmt.Fprintln(w)
		}
		printLinked(w, n)
	}
	fmt.Fprintf(w, "@ %s\n", retrieve.CommitLabel(store.CommitID(linked.Commit)))
}

// printLinked prints a note's header line, then the notes it links to
// ("verb key", in the order its links appear) and the notes linking to it
// ("key verb", verdicts first), each with its own layer and date.
func printLinked(w io.Writer, n store.LinkedNote) {
	fmt.Fprintf(w, "%s  %s · %s\n", n.Key, n.Layer, n.Date)
	section := func(title string, refs []find.JSONRef, incoming bool) {
		fmt.Fprintf(w, "%s (%d):\n", title, len(refs))
		for _, r := range refs {
			fmt.Fprintf(w, "  %s  %s · %s\n", refName(r, incoming), r.Layer, r.Date)
		}
	}
	if n.Links != nil {
		section("links out", *n.Links, false)
	}
	if n.In != nil {
		section("links in", *n.In, true)
	}
}
