package vault

import (
	"errors"
	"os"
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
	cfg, err := LoadConfig(writeConfig(t, "notes: ./docs/notes/\nexclude:\n  - README.md\n  - .github/**\nworktree: false\n"))
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Notes != "docs/notes" || !reflect.DeepEqual(cfg.Exclude, []string{"README.md", ".github/**"}) || cfg.Worktree || len(cfg.Warnings) != 0 {
		t.Errorf("got %+v", cfg)
	}
	cfg, err = LoadConfig(t.TempDir())
	if err != nil || cfg.Notes != "" || !cfg.Worktree {
		t.Errorf("a missing config is the default: %+v %v", cfg, err)
	}
}

func TestConfigWarnsOnUnknownKeysAndRefusesWrongTypes(t *testing.T) {
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

func TestExcludeGlobs(t *testing.T) {
	globs := []string{"README.md", ".github/**", "drafts/*.md", "/CHANGELOG.md"}
	for path, want := range map[string]bool{
		"README.md":              true,
		"deep/down/README.md":    true,
		".github/ISSUE.md":       true,
		".github/a/b/c.md":       true,
		"drafts/one.md":          true,
		"drafts/deep/one.md":     false,
		"CHANGELOG.md":           true,
		"sub/CHANGELOG.md":       false,
		"notes/readme-notes.md":  false,
		"github/not-excluded.md": false,
	} {
		if got := Excluded(globs, path); got != want {
			t.Errorf("Excluded(%q) = %v, want %v", path, got, want)
		}
	}
}
