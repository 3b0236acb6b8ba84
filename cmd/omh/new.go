package main

import (
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/omh-notes/omh/reply"
	"github.com/omh-notes/omh/store"
)

// NewCmd is `omh new`.
type NewCmd struct {
	Type     string   `arg:"" name:"type" complete:"type" help:"The kind of note: ${note_types}."`
	Title    []string `arg:"" name:"title" help:"The note's title or first sentence, in one or more words; its key is derived from it."`
	Answers  []string `name:"answers" sep:"none" placeholder:"Q" help:"A question the note answers; repeat for several."`
	Link     []string `name:"link" sep:"none" placeholder:"[VERB:]KEY" help:"A note this one links to, with a typed-link verb such as resolves:KEY when given; repeat for several."`
	Body     string   `name:"body" placeholder:"-|FILE" complete:"file" help:"The note's text, read from standard input (-) or a file."`
	Source   string   `name:"source" placeholder:"S" help:"Who or what wrote it (default $OMH_SOURCE, else git's user.name and user.email)."`
	Key      string   `name:"key" placeholder:"K" help:"The key to write the note under, instead of <type>/<slug of the title>."`
	IfExists string   `name:"if-exists" enum:"error,skip,suffix" default:"error" placeholder:"error|skip|suffix" help:"When a note has the key already (a private note, an uncommitted file or a team note): refuse (error, the default), print the note there (skip), or add -2, -3, ... to the key (suffix)."`
}

// Help is the detail under `omh new --help`.
func (c *NewCmd) Help() string {
	return strings.Replace(newHelp, "SECTIONS", store.TypeSections(), 1)
}

const newHelp = `The note goes to the private folder (OMH_LOCAL_DIR, else git config omh.local, else $XDG_DATA_HOME/omh/<root commit>/) under the key <type>/<slug>: the title's letters and digits, lower-cased, every other run of characters one "-", cut near 80 characters at a "-". The title and each answer are one line of text: a run of white space is one space, and any other control character is refused. Its frontmatter says type, recorded (today, local time) and source; its sections come from the type's template, .omh/templates/<type>.md in the working tree when there is one, else omh's own. Placeholders: {{title}} {{type}} {{key}} {{recorded}} {{source}} {{body}} {{answers}} {{links}}. A body whose headings name the type's sections fills them, each once and in the type's order; its text before the first heading goes where the template says {{body}} (a finding's Claim, a decision's Decision, an issue's Problem, a citation's Source; under the title for the other types); a heading the type lacks stays a section of its own where it stood; --link items go to the links section, never into the statement.

Sections each type must have (omh lint checks them): SECTIONS.

The file is written to a temporary name and linked into place, so a note is never half written and never replaces another. Run omh promote KEY to move it into the notes root for review.`

func (c *NewCmd) Run(e *env) error {
	body, err := c.readBody(e.stdin)
	if err != nil {
		return err
	}
	d := store.Draft{Type: c.Type, Title: strings.Join(c.Title, " "), Answers: c.Answers, Links: c.Link, Body: body,
		Source: c.Source, Key: c.Key, IfExists: c.IfExists}
	return e.withStore(func(s *store.Store) error {
		rep, err := s.New(d)
		if err != nil {
			return err
		}
		return e.print(rep)
	})
}

// readBody reads --body: "-" is standard input, anything else a file; nil
// when there is none.
func (c *NewCmd) readBody(stdin io.Reader) ([]byte, error) {
	var b []byte
	var err error
	switch c.Body {
	case "":
		return nil, nil
	case "-":
		b, err = io.ReadAll(stdin)
	default:
		b, err = os.ReadFile(c.Body)
	}
	if err != nil {
		return nil, refuse(reply.BadBody, fmt.Errorf("reading the body: %w", err))
	}
	if b == nil {
		b = []byte{}
	}
	return b, nil
}
