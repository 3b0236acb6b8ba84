package store

import (
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/omh-notes/omh/vault/gitcli"
	"github.com/omh-notes/omh/vault/vaulttest"
)

// realVaults is where the evaluation data keeps the real vaults: beside
// the checkout, or where OMH_DATA says.
func realVaults(t *testing.T) string {
	data := os.Getenv("OMH_DATA")
	if data == "" {
		data = filepath.Join("..", "..", "shared", "data")
	}
	dir := filepath.Join(data, "vaults")
	if _, err := os.Stat(dir); err != nil {
		t.Skipf("no real vaults at %s (set OMH_DATA)", dir)
	}
	return dir
}

// envInt reads a number from the environment, else def.
func envInt(name string, def int) int {
	if n, err := strconv.Atoi(os.Getenv(name)); err == nil && n > 0 {
		return n
	}
	return def
}

// In a copy of each real vault, random linked notes are renamed (in their
// folder) and renamed back, each move committed: every file ends
// byte-identical to the start, and lint finds as many dangling links as
// before. The vaults' own dialects decide what a link is (the first
// command writes the config). By default three notes of dendron-site and
// obsidian-help-en, to stay quick; scripts/mvroundtrip.sh runs 20 notes of
// every vault (OMH_ROUNDTRIPS, OMH_ROUNDTRIP_VAULTS).
func TestRealVaultsRenameAndBackLeavesEveryByte(t *testing.T) {
	t.Parallel()
	dir := realVaults(t)
	names := strings.Split(os.Getenv("OMH_ROUNDTRIP_VAULTS"), ",")
	if names[0] == "" {
		names = []string{"dendron-site", "obsidian-help-en"}
	}
	rounds := envInt("OMH_ROUNDTRIPS", 3)
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			repo := filepath.Join(t.TempDir(), name)
			if out, err := gitcli.Git(".", "", "clone", "-q", filepath.Join(dir, name+".bundle"), repo); err != nil {
				t.Fatalf("%v %s", err, out)
			}
			private := filepath.Join(t.TempDir(), "private")
			for _, kv := range [][2]string{{"user.name", "Round Trip"}, {"user.email", "trip@example.invalid"}, {"commit.gpgsign", "false"}, {"omh.local", private}} {
				if _, err := gitcli.Git(repo, "", "config", kv[0], kv[1]); err != nil {
					t.Fatal(err)
				}
			}
			s, _ := open(t, repo)
			start, err := s.Lint(nil, false, "dangling-link")
			if err != nil {
				t.Fatal(err)
			}
			before := vaulttest.Files(t, repo)
			linked := linkedKeys(t, s, rand.New(rand.NewSource(int64(len(name)))), rounds)
			rewritten := 0
			for i, key := range linked {
				renamed := key + "-omh-mv"
				for _, step := range [][2]string{{key, renamed}, {renamed, key}} {
					rep, err := s.Move(step[0], step[1])
					if err != nil {
						t.Fatalf("omh mv %s %s: %v", step[0], step[1], err)
					}
					for _, rw := range rep.Rewritten {
						rewritten += rw.Links
					}
					if _, err := gitcli.Git(repo, "", "commit", "-q", "-m", fmt.Sprintf("round trip %d", i)); err != nil {
						t.Fatal(err)
					}
				}
			}
			t.Logf("renamed and back: %s", strings.Join(linked, ", "))
			vaulttest.SameTree(t, "the vault after renaming and back "+strings.Join(linked, ", "), before, vaulttest.Files(t, repo))
			end, err := s.Lint(nil, false, "dangling-link")
			if err != nil {
				t.Fatal(err)
			}
			if end.Errors != start.Errors {
				t.Errorf("dangling links: %d before, %d after", start.Errors, end.Errors)
			}
			t.Logf("%d notes renamed and back, %d links rewritten; dangling links %d before and after", len(linked), rewritten, end.Errors)
		})
	}
}

// linkedKeys picks n notes, at random, that other notes link to.
func linkedKeys(t *testing.T, s *Store, rng *rand.Rand, n int) []string {
	var keys []string
	err := s.read("", s.readOptions(false), func(v *view) error {
		notes, err := v.snap.Notes()
		if err != nil {
			return err
		}
		for _, i := range rng.Perm(len(notes)) {
			if len(keys) == n {
				break
			}
			nt := notes[i]
			if nt.Private || nt.Worktree {
				continue
			}
			detail, err := v.snap.Detail(nt.Doc)
			if err != nil {
				return err
			}
			if len(detail.In) > 0 {
				keys = append(keys, nt.Note.Key)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return keys
}
