package main

import (
	"github.com/omh-notes/omh/store"
)

// LinksCmd is `omh links`.
type LinksCmd struct {
	Key    string    `arg:"" complete:"key" help:"The note's key: its path under the notes root without .md."`
	In     bool      `name:"in" xor:"direction" help:"Only the notes linking to it."`
	Out    bool      `name:"out" xor:"direction" help:"Only the notes it links to."`
	Layer  string    `name:"layer" enum:"team,local," default:"" placeholder:"team|local" help:"Only the note of this layer."`
	Limit  int       `name:"limit" default:"${links_limit}" placeholder:"N" help:"How many links each way a reply lists (default ${default}; 0 lists them all); the reply counts the rest."`
	Offset int       `name:"offset" default:"0" placeholder:"K" help:"Skip the first K links each way: the next page starts where the reply says."`
	Stores StoreFlag `embed:""`
}

func (c *LinksCmd) Run(e *env) error {
	dir := store.BothWays
	switch {
	case c.In:
		dir = store.LinksIn
	case c.Out:
		dir = store.LinksOut
	}
	sc, err := c.Stores.scope(c.Layer)
	if err != nil {
		return err
	}
	page, err := store.NewPage(c.Offset, c.Limit)
	if err != nil {
		return err
	}
	return e.withStore(func(s *store.Store) error {
		linked, err := s.Links(c.Key, sc, dir, page)
		if err != nil {
			return err
		}
		return e.print(linked)
	})
}
