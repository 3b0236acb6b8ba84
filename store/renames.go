package store

import (
	"cmp"
	"strings"

	"github.com/omh-notes/omh/vault"
	"github.com/omh-notes/omh/vault/gitcli"
	"github.com/omh-notes/omh/vault/lint"
)

// renamedKeys reads from git's history the notes renamed under the notes
// root (notesDir), each old key with the key its note has now: renamed
// twice, a note's first key leads to its last. A git that cannot say
// gives none: the history only adds advice.
func (s *Store) renamedKeys(notesDir string) map[string]lint.Renamed {
	renames, err := gitcli.Renames(s.Repo.Root, cmp.Or(notesDir, "."))
	if err != nil {
		return nil
	}
	key := func(path string) (string, bool) {
		if notesDir != "" {
			var under bool
			if path, under = strings.CutPrefix(path, notesDir+"/"); !under {
				return "", false
			}
		}
		if !strings.HasSuffix(path, vault.NoteExt) {
			return "", false
		}
		return vault.KeyOf(path)
	}
	out := map[string]lint.Renamed{}
	for _, r := range renames { // newest first: a later rename of To is known already
		from, ok1 := key(r.From)
		to, ok2 := key(r.To)
		if !ok1 || !ok2 || from == to {
			continue
		}
		if _, seen := out[from]; seen {
			continue // renamed away again later: the later rename says where it is
		}
		now := lint.Renamed{To: to, Commit: r.Commit}
		if later, ok := out[to]; ok {
			now.To = later.To
		}
		if now.To != from {
			out[from] = now
		}
	}
	return out
}
