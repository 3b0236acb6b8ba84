package index_test

import (
	"github.com/omh-notes/omh/find"
	"github.com/omh-notes/omh/index"
	"github.com/omh-notes/omh/retrieve"
)

// A snapshot is what ranking and cards read. index imports neither, so the
// interfaces they declare are checked here.
var (
	_ retrieve.Corpus = (*index.Snapshot)(nil)
	_ find.Store      = (*index.Snapshot)(nil)
)
