package store

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/omh-notes/omh/vault/vaulttest"
)

// Keys for completion come from the cache as the last command left it:
// nothing where omh was never used (and no cache is started for it), the
// keys under a prefix, each once although it is in both layers, and a new
// note only after a command refreshed. Catches: a completion that
// refreshes (slow at 10,000 notes), creates a cache, or lists a key twice.
func TestKeysListTheCacheAsItIsWithoutRefreshing(t *testing.T) {
	t.Parallel()
	r := vaulttest.New(t)
	r.Write("topic/auth.md", "# Auth\n")
	r.Write("topic/cache.md", "# Cache\n")
	r.Write("tools.md", "# Tools\n")
	r.Commit("2026-01-03T10:00:00Z", "notes")
	r.Write("topic/auth.md", "# Auth, edited\n") // the key in both layers
	s, _ := open(t, r.Dir)
	keys, err := s.Keys("")
	if err != nil || keys != nil {
		t.Errorf("before any command: %v, %v", keys, err)
	}
	if _, err := os.Stat(filepath.Join(r.Dir, ".git", "omh")); !os.IsNotExist(err) {
		t.Errorf("completion started a cache: %v", err)
	}
	if _, err := s.Status(); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Index(false); err != nil {
		t.Fatal(err)
	}
	if keys, err := s.Keys("topic/"); err != nil || !slices.Equal(keys, []string{"topic/auth", "topic/cache"}) {
		t.Errorf("topic/: %v, %v", keys, err)
	}
	r.Write("topic/zebra.md", "# Zebra\n")
	if keys, _ := s.Keys("to"); !slices.Equal(keys, []string{"tools", "topic/auth", "topic/cache"}) {
		t.Errorf("before a refresh: %v", keys)
	}
	if _, err := s.Index(false); err != nil {
		t.Fatal(err)
	}
	if keys, _ := s.Keys("topic/z"); !slices.Equal(keys, []string{"topic/zebra"}) {
		t.Errorf("after a refresh: %v", keys)
	}
}
