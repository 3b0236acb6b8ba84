package index

import (
	"encoding/binary"
	"slices"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/omh-notes/omh/internal/varint"
	"github.com/omh-notes/omh/vault"
	"github.com/omh-notes/omh/vault/gitrepo"
)

// encodeStep packs a history step (its commit is the row's key): parent,
// boundary, dates, and the changed paths, sorted, each as the length it
// shares with the one before plus the rest. As JSON, with hashes written as
// arrays of numbers, a step took four times the room.
func encodeStep(s gitrepo.Step) []byte {
	b := append([]byte(nil), s.Parent[:]...)
	boundary := byte(0)
	if s.Boundary {
		boundary = 1
	}
	b = append(b, boundary)
	b = varint.AppendText(b, string(s.Author))
	b = varint.AppendText(b, string(s.Committed))
	b = binary.AppendVarint(b, s.CommittedUnix)
	paths := slices.Sorted(slices.Values(s.Changed))
	b = binary.AppendUvarint(b, uint64(len(paths)))
	prev := ""
	for _, p := range paths {
		shared := 0
		for shared < len(prev) && shared < len(p) && prev[shared] == p[shared] {
			shared++
		}
		b = binary.AppendUvarint(b, uint64(shared))
		b = varint.AppendText(b, p[shared:])
		prev = p
	}
	return b
}

func decodeStep(commit plumbing.Hash, data []byte) (gitrepo.Step, bool) {
	s := gitrepo.Step{Commit: commit}
	if len(data) < len(s.Parent)+1 {
		return s, false
	}
	copy(s.Parent[:], data)
	s.Boundary = data[len(s.Parent)] == 1
	r := varint.NewReader(data[len(s.Parent)+1:])
	s.Author, s.Committed = vault.Date(r.Text()), vault.Date(r.Text())
	s.CommittedUnix = r.Varint()
	prev := ""
	for n := r.Count(); n > 0 && r.Err() == nil; n-- {
		shared := r.Uvarint()
		if shared > uint64(len(prev)) {
			return s, false
		}
		prev = prev[:shared] + r.Text()
		s.Changed = append(s.Changed, prev)
	}
	return s, r.Err() == nil && r.Len() == 0
}
