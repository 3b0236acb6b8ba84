package index

import (
	"testing"

	"github.com/omh-notes/omh/vault"
	"github.com/omh-notes/omh/vault/vaulttest"
)

// Every note kept a name for each run of words starting or ending its file
// name, more rows than its key and suffixes together, though only zk's
// links reach a note by one. Outside zk the name table holds none of them;
// in zk [[planet]] still reaches "i4w0 planet", and a note that takes the
// part later makes the link ambiguous, as a rawlink row (a hash of the
// name) tells the refresh.
func TestOnlyZkKeepsNamesOfFileNameParts(t *testing.T) {
	t.Parallel()
	for _, dialect := range []string{"omh", "zk"} {
		t.Run(dialect, func(t *testing.T) {
			t.Parallel()
			r := vaulttest.New(t)
			r.Write(".omh/config.yaml", "dialect: "+dialect+"\n")
			r.Write("i4w0 planet.md", "# Planet\n\nA planet.\n")
			r.Write("hub.md", "# Hub\n\nSee [[planet]].\n")
			r.Commit("2025-12-01T10:00:00Z", "notes")
			repo, c := openStore(t, r.Dir)
			linked := func() int {
				t.Helper()
				s, _, err := c.Fresh(repo, Options{})
				if err != nil {
					t.Fatal(err)
				}
				defer s.Close()
				var parts int
				if err := s.tx.QueryRow(`SELECT count(*) FROM name WHERE snap = ? AND kind = ?`, s.row.id, vault.PartName).Scan(&parts); err != nil {
					t.Fatal(err)
				}
				if want := dialect == "zk"; (parts > 0) != want {
					t.Errorf("%d names of file-name parts, want some: %v", parts, want)
				}
				var hashed int
				if err := s.tx.QueryRow(`SELECT count(*) FROM rawlink WHERE snap = ? AND target = ?`, s.row.id, nameHash("planet")).Scan(&hashed); err != nil || hashed != 1 {
					t.Errorf("rawlink rows of [[planet]] by its hash: %d, %v", hashed, err)
				}
				hub, err := s.Find("hub", vault.Team)
				if err != nil || len(hub) != 1 {
					t.Fatalf("hub: %v %v", hub, err)
				}
				links, err := s.Links(hub[0])
				if err != nil {
					t.Fatal(err)
				}
				return len(links)
			}
			want := map[string]int{"omh": 0, "zk": 1}[dialect]
			if got := linked(); got != want {
				t.Errorf("[[planet]] reaches %d notes, want %d", got, want)
			}
			r.Write("planet 9.md", "# Another\n\nIts name starts with planet.\n")
			r.Commit("2025-12-02T10:00:00Z", "a second planet")
			if got := linked(); got != 0 {
				t.Errorf("with two notes named by the part, [[planet]] reaches %d notes, want none", got)
			}
		})
	}
}
