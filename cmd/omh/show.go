package main

import (
	"github.com/omh-notes/omh/store"
)

// ShowCmd is `omh show`.
type ShowCmd struct {
	Key      string    `arg:"" complete:"key" help:"The note's key: its path under the notes root without .md."`
	Layer    string    `name:"layer" enum:"team,local," default:"" placeholder:"team|local" help:"Only the note of this layer."`
	Lines    string    `name:"lines" placeholder:"A-B" help:"Only these lines of the note, counted from 1 at its first line: A-B, or L65-67 as a card names them; A- runs to the end."`
	MaxChars int       `name:"max-chars" default:"${show_chars}" placeholder:"N" help:"The most characters of the note's text shown (default ${default}), cut at a line's end; the reply names the lines left out for --lines."`
	Stores   StoreFlag `embed:""`
}

func (c *ShowCmd) Run(e *env) error {
	var lines store.Lines
	if c.Lines != "" {
		var err error
		if lines, err = store.ParseLines(c.Lines); err != nil {
			return err
		}
	}
	sc, err := c.Stores.scope(c.Layer)
	if err != nil {
		return err
	}
	return e.withStore(func(s *store.Store) error {
		shown, err := s.Show(c.Key, sc, lines, c.MaxChars)
		if err != nil {
			return err
		}
		return e.print(shown)
	})
}
