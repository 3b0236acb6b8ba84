package index

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/omh-notes/omh/vault/vaulttest"
)

// A note's links resolve, keysBatch keys a query, to the same documents in
// the same order as asking for each key alone: keys in the order the note
// first links them, a key held in both layers team first, a key no note
// holds left out.
func TestLinksResolveInBatchesAsKeyByKey(t *testing.T) {
	t.Parallel()
	r := vaulttest.New(t)
	var body strings.Builder
	body.WriteString("# Hub\n\n")
	for i := range 3*keysBatch + 5 {
		fmt.Fprintf(&body, "See [[n%03d]]. ", (i*37)%(3*keysBatch+5))
		if i%9 == 0 {
			fmt.Fprintf(&body, "And [[ghost%d]] and [[shared]]. ", i)
		}
	}
	r.Write("hub.md", body.String())
	for i := range 3*keysBatch + 5 {
		r.Write(fmt.Sprintf("n%03d.md", i), fmt.Sprintf("# N%d\n\nA note.\n", i))
	}
	r.Write("shared.md", "# Shared\n\nThe team's.\n")
	r.Commit("2025-12-01T10:00:00Z", "notes")
	vaulttest.WriteFile(t, filepath.Join(r.Private, "shared.md"), "# Shared\n\nMine.\n")

	repo, c := openStore(t, r.Dir)
	s, _, err := c.Fresh(repo, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	hub, err := s.Find("hub", 0)
	if err != nil || len(hub) != 1 {
		t.Fatalf("hub: %v %v", hub, err)
	}
	got, err := s.Links(hub[0])
	if err != nil {
		t.Fatal(err)
	}
	var raw string
	if err := s.tx.QueryRow(`SELECT links FROM doc WHERE snap = ? AND ord = ?`, s.row.id, hub[0]).Scan(&raw); err != nil {
		t.Fatal(err)
	}
	decoded, err := decodeLinks(raw)
	if err != nil {
		t.Fatal(err)
	}
	var want []uint32
	for _, key := range linkedKeys(decoded) {
		ords, err := s.ordsOf(key)
		if err != nil {
			t.Fatal(err)
		}
		want = append(want, ords...)
	}
	if len(want) < 3*keysBatch+6 || !slices.Equal(got, want) {
		t.Fatalf("links resolved to %d documents, key by key to %d:\n%v\n%v", len(got), len(want), got, want)
	}
}
