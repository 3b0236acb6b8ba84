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
