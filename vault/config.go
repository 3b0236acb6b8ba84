package vault

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/omh-notes/omh/internal/exclude"
	"github.com/omh-notes/omh/internal/safefile"
	"go.yaml.in/yaml/v3"
)

// ConfigPath is where a repository's shared omh settings live, relative to
// the working tree's root.
const ConfigPath = ".omh/config.yaml"

// DefaultNotesDir is the notes root used when the config names none and this
// folder exists; otherwise the repository root is the notes root, so an
// existing Obsidian or Dendron vault works with no set-up.
const DefaultNotesDir = ".omh/notes"

// maxSettingsBytes bounds the config and a template: files of a few lines,
// read whole.
const maxSettingsBytes = 1 << 20

// ErrBadConfig marks a config file omh cannot use.
var ErrBadConfig = errors.New("bad config")

// badConfig is the error for what the config says at a line: "bad config:
// .omh/config.yaml line N: " and the problem.
func badConfig(line int, format string, args ...any) error {
	return fmt.Errorf("%w: %s line %d: "+format, append([]any{ErrBadConfig, ConfigPath, line}, args...)...)
}

// Config is the repository's shared settings. Per-machine settings (where the
// private folder is) never live here.
type Config struct {
	Notes    string        // notes root relative to the repository root; "" when not set
	Exclude  exclude.Globs // globs of markdown files that are not notes
	Worktree bool          // false skips uncommitted files (config `worktree: false`)
	// Dialect is how the notes write links and how they resolve (config
	// dialect:, with vaults: for Dendron and site: for a markdown site).
	Dialect Dialect
	Lint    LintConfig
	// Stores are the other stores the repository answers with (config
	// stores:), the team's.
	Stores   []StoreRef
	Raw      []byte // the file as read, so a cache can tell when it changed
	Warnings []string
}

// LintConfig is what the config says about lint.
type LintConfig struct {
	Disable []string // rules never checked
	Ignore  []string // globs of link names not checked
}

// LoadConfig reads ConfigPath under root. A missing file is the default
// config. Unknown keys are warnings; a known key of the wrong type is an
// error that names it.
func LoadConfig(root string) (Config, error) {
	raw, err := safefile.ReadInside(root, ConfigPath, maxSettingsBytes)
	if errors.Is(err, fs.ErrNotExist) {
		return Config{Worktree: true}, nil
	}
	if errors.Is(err, safefile.ErrNotRegular) {
		return Config{Worktree: true}, fmt.Errorf("%w: %w", ErrBadConfig, err)
	}
	if err != nil {
		return Config{Worktree: true}, fmt.Errorf("reading %s: %w", ConfigPath, err)
	}
	return ParseConfig(raw, root)
}

// ParseConfig reads a config file's bytes; root is the working tree it
// belongs to, where an absolute notes root must lie.
func ParseConfig(raw []byte, root string) (Config, error) {
	cfg := Config{Worktree: true, Raw: raw}
	var doc yaml.Node
	if err := yaml.Unmarshal(raw, &doc); err != nil {
		return cfg, fmt.Errorf("%w: %s: %v", ErrBadConfig, ConfigPath, err)
	}
	if len(doc.Content) == 0 {
		return cfg, nil
	}
	top := doc.Content[0]
	if top.Kind != yaml.MappingNode {
		return cfg, fmt.Errorf("%w: %s: the top level must be a mapping of settings", ErrBadConfig, ConfigPath)
	}
	for i := 0; i+1 < len(top.Content); i += 2 {
		name, value := top.Content[i].Value, top.Content[i+1]
		wrong := func(want string) error {
			return badConfig(value.Line, "%q must be %s", name, want)
		}
		switch name {
		case "notes":
			if value.Kind != yaml.ScalarNode || value.Tag != "!!str" {
				return cfg, wrong("a folder path")
			}
			notes, err := CleanNotesDir(value.Value, root)
			if err != nil {
				return cfg, badConfig(value.Line, "notes: %v", err)
			}
			cfg.Notes = notes
		case "exclude":
			globs, ok := stringList(value)
			if !ok {
				return cfg, wrong("a list of globs")
			}
			ex, err := exclude.Compile(globs)
			if err != nil {
				return cfg, badConfig(value.Line, "exclude: %w", err)
			}
			cfg.Exclude = ex
		case "worktree":
			if value.Kind != yaml.ScalarNode || value.Tag != "!!bool" {
				return cfg, wrong("true or false")
			}
			cfg.Worktree = value.Value == "true"
		case "dialect":
			if value.Kind != yaml.ScalarNode || value.Tag != "!!str" || !KnownDialect(value.Value) {
				return cfg, wrong("one of " + OrList(DialectNames()))
			}
			cfg.Dialect.Name = value.Value
		case "vaults":
			vaults, ok := stringMap(value)
			if !ok {
				return cfg, wrong("a mapping of Dendron vault names to folders under the notes root")
			}
			for name, dir := range vaults {
				clean, err := CleanNotesDir(dir, "") // under the notes root: never absolute
				if err != nil {
					return cfg, badConfig(value.Line, "vaults: %s: %v", name, err)
				}
				if clean == "" {
					clean = "."
				}
				vaults[name] = clean
			}
			cfg.Dialect.Vaults = vaults
		case "site":
			if value.Kind != yaml.ScalarNode || value.Tag != "!!str" || !strings.HasPrefix(value.Value, "/") {
				return cfg, wrong(`a URL path starting with "/", such as /docs/`)
			}
			cfg.Dialect.Site = value.Value
		case "stores":
			stores, err := parseStores(value)
			if err != nil {
				return cfg, err
			}
			cfg.Stores = stores
		case "lint":
			lint, err := parseLintConfig(value, &cfg.Warnings)
			if err != nil {
				return cfg, err
			}
			cfg.Lint = lint
		default:
			cfg.Warnings = append(cfg.Warnings, fmt.Sprintf("%s line %d: unknown setting %q is ignored", ConfigPath, top.Content[i].Line, name))
		}
	}
	return cfg, nil
}

// parseLintConfig reads the lint: mapping: disable (rule IDs) and ignore
// (globs of link names).
func parseLintConfig(n *yaml.Node, warnings *[]string) (LintConfig, error) {
	var lc LintConfig
	if n.Kind != yaml.MappingNode {
		return lc, badConfig(n.Line, "\"lint\" must be a mapping with disable: and ignore:")
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		name, value := n.Content[i].Value, n.Content[i+1]
		list, ok := stringList(value)
		switch name {
		case "disable":
			if !ok {
				return lc, badConfig(value.Line, "lint.disable must be a list of rule IDs")
			}
			for _, id := range list {
				if !slices.Contains(LintRuleIDs, id) {
					return lc, badConfig(value.Line, "lint.disable: %q is no rule; the rules are %s", id, strings.Join(LintRuleIDs, ", "))
				}
			}
			lc.Disable = list
		case "ignore":
			if !ok {
				return lc, badConfig(value.Line, "lint.ignore must be a list of link globs")
			}
			lc.Ignore = list
		default:
			*warnings = append(*warnings, fmt.Sprintf("%s line %d: unknown setting lint.%s is ignored", ConfigPath, n.Content[i].Line, name))
		}
	}
	return lc, nil
}

// stringMap accepts a mapping of strings to strings.
func stringMap(n *yaml.Node) (map[string]string, bool) {
	if n.Kind != yaml.MappingNode {
		return nil, false
	}
	out := map[string]string{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if k.Kind != yaml.ScalarNode || v.Kind != yaml.ScalarNode {
			return nil, false
		}
		out[k.Value] = v.Value
	}
	return out, true
}

// CleanNotesDir keeps the notes root inside the repository at root, and
// out of git's folder. An absolute path inside the repository is taken
// relative to it.
func CleanNotesDir(dir, root string) (string, error) {
	d := path.Clean(strings.TrimSpace(filepath.ToSlash(dir)))
	if path.IsAbs(d) {
		rel, ok := RelativeTo(root, filepath.FromSlash(d))
		if !ok {
			return "", fmt.Errorf("%q is outside the repository %s", dir, root)
		}
		d = path.Clean(filepath.ToSlash(rel))
	}
	switch {
	case d == "." || d == "":
		return "", nil
	case d == "..", strings.HasPrefix(d, "../"):
		return "", fmt.Errorf("%q is outside the repository", dir)
	case slices.ContainsFunc(strings.Split(d, "/"), func(p string) bool { return strings.EqualFold(p, ".git") }):
		return "", fmt.Errorf("%q is inside git's own folder", dir)
	}
	return d, nil
}

// RelativeTo gives path relative to root when it lies inside it, comparing
// them as they are and with their symbolic links resolved (/tmp and
// /private/tmp on macOS are one folder).
func RelativeTo(root, p string) (string, bool) {
	for _, pair := range [][2]string{{root, p}, {evalLinks(root), evalLinks(p)}} {
		if Within(pair[0], pair[1]) {
			rel, err := filepath.Rel(pair[0], pair[1])
			return rel, err == nil
		}
	}
	return "", false
}

// evalLinks resolves the symbolic links of p's longest existing part.
func evalLinks(p string) string {
	if r, err := filepath.EvalSymlinks(p); err == nil {
		return r
	}
	if parent := filepath.Dir(p); parent != p {
		return filepath.Join(evalLinks(parent), filepath.Base(p))
	}
	return p
}

// stringList accepts a list of strings or a single string.
func stringList(n *yaml.Node) ([]string, bool) {
	if n.Kind == yaml.ScalarNode && n.Tag == "!!str" {
		return []string{n.Value}, true
	}
	if n.Kind != yaml.SequenceNode {
		return nil, false
	}
	out := make([]string, 0, len(n.Content))
	for _, item := range n.Content {
		if item.Kind != yaml.ScalarNode {
			return nil, false
		}
		out = append(out, item.Value)
	}
	return out, true
}

// Within reports whether path is dir or inside it, by their names alone.
func Within(dir, path string) bool {
	rel, err := filepath.Rel(dir, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}
