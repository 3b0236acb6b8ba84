package vault

import (
	"fmt"
	"path"
	"path/filepath"
	"strings"

	"go.yaml.in/yaml/v3"
	"golang.org/x/text/unicode/norm"
)

// HomeStore is the name replies give the store omh runs in, beside the
// other stores it answers with.
const HomeStore = "."

// StoreRef is another store a repository answers with: a git repository of
// notes, named in the config's stores: list (the team's, committed) or in
// the user's git config (omh.store.NAME, their own).
type StoreRef struct {
	Name string
	// Path is the repository's folder as written: relative to the
	// repository root in the config; absolute, or relative to the working
	// tree in a repository's own git config.
	Path string
}

// maxStoreName bounds a store's name, which prefixes keys in replies.
const maxStoreName = 40

// CheckStoreName accepts a store's name: a lower-case letter, then
// lower-case letters, digits and "-", which git config takes as a variable
// name and a qualified key (name:key) can never confuse with a path, a URL
// scheme such as dendron://, or the name of the store omh runs in.
func CheckStoreName(name string) error {
	ok := name != "" && len(name) <= maxStoreName && name[0] >= 'a' && name[0] <= 'z'
	for i := 0; ok && i < len(name); i++ {
		c := name[i]
		ok = c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-'
	}
	if !ok {
		return fmt.Errorf("%q is no store name: it takes a lower-case letter, then lower-case letters, digits and \"-\" (%d at most)", name, maxStoreName)
	}
	return nil
}

// SplitQualified reads a key qualified by its store, "handbook:topic/x":
// false when s has no valid store name before its first ":" or no valid
// key after it (so "dendron://vault/x" and "http://..." are not).
func SplitQualified(s string) (store, key string, ok bool) {
	store, key, found := strings.Cut(s, ":")
	if !found || CheckStoreName(store) != nil {
		return "", "", false
	}
	key = norm.NFC.String(strings.TrimSuffix(key, NoteExt))
	if CheckKey(key) != nil {
		return "", "", false
	}
	return store, key, true
}

// Qualify names a key of another store as replies and links write it.
func Qualify(store, key string) string {
	if store == "" || store == HomeStore {
		return key
	}
	return store + ":" + key
}

// parseStores reads the config's stores: list of {name, path}. A path is
// relative to the repository root and must not be empty: a committed
// config is read on every clone, where an absolute path names another
// machine's folders.
func parseStores(n *yaml.Node) ([]StoreRef, error) {
	bad := func(line int, format string, args ...any) error {
		return fmt.Errorf("%w: %s line %d: stores: %s", ErrBadConfig, ConfigPath, line, fmt.Sprintf(format, args...))
	}
	if n.Kind != yaml.SequenceNode {
		return nil, bad(n.Line, "must be a list of {name: NAME, path: PATH}")
	}
	var out []StoreRef
	seen := map[string]bool{}
	for _, item := range n.Content {
		fields, ok := stringMap(item)
		if !ok {
			return nil, bad(item.Line, "each store is {name: NAME, path: PATH}")
		}
		ref := StoreRef{Name: fields["name"], Path: strings.TrimSpace(fields["path"])}
		for k := range fields {
			if k != "name" && k != "path" {
				return nil, bad(item.Line, "%q is no field of a store (name, path)", k)
			}
		}
		if err := CheckStoreName(ref.Name); err != nil {
			return nil, bad(item.Line, "%v", err)
		}
		switch {
		case seen[ref.Name]:
			return nil, bad(item.Line, "%s is named twice", ref.Name)
		case ref.Path == "":
			return nil, bad(item.Line, "%s has no path", ref.Name)
		case path.IsAbs(filepath.ToSlash(ref.Path)) || filepath.IsAbs(ref.Path):
			return nil, bad(item.Line, "%s: the path %s is absolute; write it relative to the repository root, as every clone reads it", ref.Name, ref.Path)
		}
		seen[ref.Name] = true
		out = append(out, ref)
	}
	return out, nil
}
