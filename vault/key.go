package vault

import (
	"errors"
	"fmt"
	"path"
	"strings"

	"golang.org/x/text/unicode/norm"
)

// NoteExt is the extension of note files.
const NoteExt = ".md"

// KeyOf turns a note file's path relative to its layer root ("/"-separated)
// into its key: the path without ".md", in Unicode NFC so that a name typed
// on one system matches the same name stored decomposed by another. It
// reports false for paths that are not notes or cannot be keys.
func KeyOf(rel string) (string, bool) {
	if !strings.HasSuffix(rel, NoteExt) || len(rel) == len(NoteExt) {
		return "", false
	}
	key := norm.NFC.String(strings.TrimSuffix(rel, NoteExt))
	if CheckKey(key) != nil {
		return "", false
	}
	return key, true
}

// CheckKey rejects keys that could not have come from a file under a layer
// root: empty, absolute, with "." or ".." segments, empty segments, or control
// characters (a key is printed on one line). It guards every key a user
// types, so no key can reach outside the notes it names.
func CheckKey(key string) error {
	switch {
	case key == "":
		return errors.New("empty key")
	case strings.HasPrefix(key, "/"):
		return fmt.Errorf("key %q is absolute; keys are relative to the notes root", key)
	}
	for _, r := range key {
		if r < 0x20 || r == 0x7f {
			return fmt.Errorf("key %q contains a control character", key)
		}
	}
	for _, seg := range strings.Split(key, "/") {
		if seg == "" || seg == "." || seg == ".." {
			return fmt.Errorf("key %q has an empty, \".\" or \"..\" segment", key)
		}
	}
	if path.Clean(key) != key {
		return fmt.Errorf("key %q is not a clean path", key)
	}
	return nil
}

// TitleFromKey is a note's title of last resort: the last part of its key.
func TitleFromKey(key string) string {
	_, name := SplitKey(key)
	return name
}

// SplitKey cuts a key into its folders and its last part.
func SplitKey(key string) (folders, name string) {
	i := strings.LastIndex(key, "/")
	return key[:max(i, 0)], key[i+1:]
}
