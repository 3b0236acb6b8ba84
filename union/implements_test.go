package union_test

import (
	"github.com/omh-notes/omh/find"
	"github.com/omh-notes/omh/proof"
	"github.com/omh-notes/omh/retrieve"
	"github.com/omh-notes/omh/union"
)

// A union is read as one store is: by ranking (with its last tie-break
// across stores), the proof lifecycle and cards.
var (
	_ retrieve.Corpus = (*union.Union)(nil)
	_ retrieve.Parted = (*union.Union)(nil)
	_ proof.Snapshot  = (*union.Union)(nil)
	_ find.Snapshot   = (*union.Union)(nil)
)
