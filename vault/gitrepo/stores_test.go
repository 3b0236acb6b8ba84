package gitrepo

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/omh-notes/omh/vault/vaulttest"
)

// git config omh.store.NAME adds a person's own stores: the repository's
// setting (a relative path from its working tree) wins over the global
// one of the same name; ~/ is the home folder; a relative global path, an
// empty one and a name that is no store name are said to be unusable
// rather than read from some folder. Catches: a global setting naming a
// different folder from each repository omh runs in.
func TestPersonalStoresComeFromGitConfig(t *testing.T) {
	vaulttest.Isolate(t) // its own global config, set below: serial
	r := vaulttest.New(t)
	global := os.Getenv("GIT_CONFIG_GLOBAL")
	gitGlobal := func(args ...string) {
		vaulttest.MustGit(t, r.Dir, "", append([]string{"config", "--file", global}, args...)...)
	}
	r.Git("config", "omh.store.mine", "../mine")
	gitGlobal("omh.store.mine", "/elsewhere")
	gitGlobal("omh.store.notes", "~/notes")
	gitGlobal("omh.store.rel", "relative/notes")
	long := "n" + strings.Repeat("o", 40)
	gitGlobal("omh.store."+long, "/x")
	repo, err := Open(r.Dir)
	if err != nil {
		t.Fatal(err)
	}
	defer repo.Close()
	got := map[string]PersonalStore{}
	for _, p := range repo.PersonalStores() {
		got[p.Name] = p
	}
	home, _ := os.UserHomeDir()
	if p := got["mine"]; p.Path != filepath.Join(repo.Root, "../mine") || p.Problem != "" {
		t.Errorf("mine: %+v, want the repository's own setting, from its working tree", p)
	}
	if p := got["notes"]; p.Path != filepath.Join(home, "notes") || p.Problem != "" {
		t.Errorf("notes: %+v, want ~/notes under %s", p, home)
	}
	if p := got["rel"]; p.Problem == "" || !strings.Contains(p.Problem, "relative") {
		t.Errorf("rel: %+v, want a relative global path refused", p)
	}
	if p := got[long]; p.Problem == "" {
		t.Errorf("%s: %+v, want refused as no store name", long, p)
	}
	if len(got) != 4 {
		t.Errorf("got %d stores: %+v", len(got), got)
	}
}
