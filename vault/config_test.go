package vault

import (
	"errors"
	"math/rand/v2"
	"os"
	"path"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func writeConfig(t *testing.T, content string) string {
	t.Helper()
	root := t.TempDir()
	if err := os.MkdirAll(filepath.Join(root, ".omh"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, ConfigPath), []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return root
}

func TestConfigReadsItsSettings(t *testing.T) {
	t.Parallel()
	cfg, err := LoadConfig(writeConfig(t, "notes: ./docs/notes/\nexclude:\n  - README.md\n  - .github/**\nworktree: false\n"))
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Notes != "docs/notes" || !cfg.Exclude.Match("deep/README.md") || !cfg.Exclude.Match(".github/x.md") || cfg.Exclude.Match("note.md") || cfg.Worktree || len(cfg.Warnings) != 0 {
		t.Errorf("got %+v", cfg)
	}
	cfg, err = LoadConfig(t.TempDir())
	if err != nil || cfg.Notes != "" || !cfg.Worktree {
		t.Errorf("a missing config is the default: %+v %v", cfg, err)
	}
}

func TestConfigWarnsOnUnknownKeysAndRefusesWrongTypes(t *testing.T) {
	t.Parallel()
	cfg, err := LoadConfig(writeConfig(t, "notes: n\ncolour: blue\n"))
	if err != nil || len(cfg.Warnings) != 1 || !strings.Contains(cfg.Warnings[0], `"colour"`) {
		t.Errorf("got %+v %v", cfg, err)
	}
	for content, key := range map[string]string{
		"notes: [a]\n":              "notes",
		"exclude: {a: 1}\n":         "exclude",
		"worktree: sometimes\n":     "worktree",
		"notes: ../outside\n":       "notes",
		"notes: /abs\n":             "notes",
		"- just\n- a list\n":        "mapping",
		"notes: [unclosed\n":        "config",
		"dialect: roam\n":           "dialect",
		"dialect: [obsidian]\n":     "dialect",
		"vaults: [a, b]\n":          "vaults",
		"vaults: {a: ../up}\n":      "vaults",
		"site: docs\n":              "site",
		"lint: [orphan]\n":          "lint",
		"lint: {disable: [nope]}\n": "nope",
		"lint: {ignore: {a: 1}}\n":  "lint.ignore",
	} {
		_, err := LoadConfig(writeConfig(t, content))
		if !errors.Is(err, ErrBadConfig) || !strings.Contains(err.Error(), key) {
			t.Errorf("%q: error %v should name %s", content, err, key)
		}
	}
}

// The dialect and what goes with it, and lint's settings.
func TestConfigReadsTheDialectAndLintSettings(t *testing.T) {
	t.Parallel()
	cfg, err := LoadConfig(writeConfig(t, "dialect: dendron\nvaults:\n  site: .\n  private: notes/private/\nsite: /office/vba/\n"+
		"lint:\n  disable: [orphan, unknown-type]\n  ignore: [\"/answers/**\"]\n  colour: blue\n"))
	if err != nil {
		t.Fatal(err)
	}
	want := Dialect{Name: DialectDendron, Vaults: map[string]string{"site": ".", "private": "notes/private"}, Site: "/office/vba/"}
	if !reflect.DeepEqual(cfg.Dialect, want) || !reflect.DeepEqual(cfg.Lint, LintConfig{Disable: []string{"orphan", "unknown-type"}, Ignore: []string{"/answers/**"}}) {
		t.Errorf("got %+v %+v", cfg.Dialect, cfg.Lint)
	}
	if len(cfg.Warnings) != 1 || !strings.Contains(cfg.Warnings[0], "lint.colour") {
		t.Errorf("warnings %q", cfg.Warnings)
	}
}

// matchSegmentsByBacktracking is the plain recursive reading of a glob's
// parts, kept as the reference MatchSegments must agree with.
func matchSegmentsByBacktracking(pattern, parts []string) bool {
	if len(pattern) == 0 {
		return len(parts) == 0
	}
	if pattern[0] == "**" {
		for i := 0; i <= len(parts); i++ {
			if matchSegmentsByBacktracking(pattern[1:], parts[i:]) {
				return true
			}
		}
		return false
	}
	if len(parts) == 0 {
		return false
	}
	ok, _ := path.Match(pattern[0], parts[0])
	return ok && matchSegmentsByBacktracking(pattern[1:], parts[1:])
}

func TestMatchSegmentsAgreesWithBacktracking(t *testing.T) {
	t.Parallel()
	words := []string{"**", "*", "a", "b", "a*", "?"}
	names := []string{"a", "b", "ab", "c"}
	r := rand.New(rand.NewPCG(1, 2))
	for n := 0; n < 20000; n++ {
		pattern := make([]string, r.IntN(6))
		for i := range pattern {
			pattern[i] = words[r.IntN(len(words))]
		}
		parts := make([]string, r.IntN(7))
		for i := range parts {
			parts[i] = names[r.IntN(len(names))]
		}
		if got, want := MatchSegments(pattern, parts), matchSegmentsByBacktracking(pattern, parts); got != want {
			t.Fatalf("MatchSegments(%q, %q) = %v, want %v", pattern, parts, got, want)
		}
	}
}
