// Package corpus is the read model of the notes: what the cache (index)
// hands to ranking (retrieve), the proof lifecycle and cards (find) about a
// note, in the note model's own terms, so the cache and its readers share
// them without importing each other.
package corpus

import (
	"github.com/go-git/go-git/v5/plumbing"

	"github.com/omh-notes/omh/vault"
)

// Note is what an answer prints about a note.
type Note struct {
	Key        string
	Layer      vault.Layer
	Path       string
	Date       vault.Date
	DateSource vault.DateSource
	Title      string
	Type       string
	Blob       plumbing.Hash // git blob id of the content the answer was computed from
}

// DocInfo is what ranking needs of every candidate: enough to filter and to
// break ties without loading the note.
type DocInfo struct {
	Present  bool // false for ids the corpus does not currently hold
	Layer    vault.Layer
	Type     string
	Day      int // the note's date as YYYYMMDD, so newer is larger
	Inbound  int // distinct notes, of either layer, linking to this note's key
	NameRank int // position of (key, layer, path) in the corpus's sorted order
	Words    int // words in the note's body
	// Retracted is the note's own retracted date as YYYYMMDD; 0 when none.
	Retracted int
	// Scaffold marks a note that is only a template's scaffolding (see
	// vault.Parsed.Scaffold): it ranks below every note with content.
	Scaffold bool
}

// Ref is one end of a link: a note with its own provenance, and the verb
// of a typed link.
type Ref struct {
	Doc       uint32
	Key       string
	Layer     vault.Layer
	Date      vault.Date
	Verb      string
	Retracted vault.Date // set on a proof record retracted at the reply's moment
}

// Detail is what a card needs of a note beyond its hit.
type Detail struct {
	BodyStart int   // where the markdown body starts, after the frontmatter
	Links     []Ref // notes it links to, in the order its links appear
	In        []Ref // notes linking to it
	// Units are the body's passage units and Headings its headings, which
	// units name by index.
	Units    []vault.Unit
	Headings []vault.Heading
}
