package index_test

import (
	"github.com/omh-notes/omh/find"
	"github.com/omh-notes/omh/index"
	"github.com/omh-notes/omh/proof"
	"github.com/omh-notes/omh/retrieve"
)

// A snapshot is what ranking, the proof lifecycle and cards read. index
// imports none of them, so the interfaces they declare are checked here.
var (
	_ retrieve.Corpus = (*index.Snapshot)(nil)
	_ proof.Snapshot  = (*index.Snapshot)(nil)
	_ find.Snapshot   = (*index.Snapshot)(nil)
)
