package main

import (
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
	layer, err := store.ParseLayer(c.Layer)
	if err != nil {
		return err
	}
	return e.withStore(func(s *store.Store) error {
		linked, err := s.Links(c.Key, layer, dir)
		if err != nil {
			return err
		}
		return e.print(linked)
	})
}
