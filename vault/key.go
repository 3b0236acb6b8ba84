package vault

import (
	"errors"
	"fmt"
	"path"
	"strings"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// NoteExt is the extension of note files.
const NoteExt = ".md"

// KeyOf turns a note file's path relative to its layer root ("/"-separated)
// into its key: the path without ".md", in Unicode NFC so that a name typed
// on one system matches the same name stored decomposed by another. It
// reports false for paths that are not notes or cannot be keys, for those
// in a folder named as git's own (IsGitFolder), and for those deeper than
// MaxFolderDepth.
//
// A name that is not valid UTF-8 gets every byte that is not, and every
// "%", written as %XX (bad\xff.md is bad%FF): a key of its own from which
// the name's bytes can be read back. Kept as they were, such bytes became
// U+FFFD wherever a key is text (JSON, the terminal), and several files
// one key. A valid name spelt like an escaped one (bad%FF.md beside
// bad\xff.md) shares its key, which lint reports as a duplicate; escaping
// "%" in every name would change the keys of valid names that hold one.
func KeyOf(rel string) (string, bool) {
	if !strings.HasSuffix(rel, NoteExt) || len(rel) == len(NoteExt) {
		return "", false
	}
	name := strings.TrimSuffix(rel, NoteExt)
	if !utf8.ValidString(name) {
		name = escapeInvalid(name)
	}
	if strings.Count(name, "/") > MaxFolderDepth {
		return "", false
	}
	key := norm.NFC.String(name)
	if CheckKey(key) != nil || inGitFolder(key) {
		return "", false
	}
	return key, true
}

// MaxFolderDepth is how many folders deep under its layer root a note may
// lie. Only git's plumbing makes a deeper tree: Windows' paths hold at most
// about 130 folders (260 characters), Linux's 2,048 (4,096 bytes), and the
// real vaults measured go 5 deep. Walked without a bound, a committed tree
// 20,000 folders deep took a refresh 120 s and 975 MiB (git ls-tree -r:
// 0.73 s); what lies deeper is skipped and said once.
const MaxFolderDepth = 256

// escapeInvalid writes the bytes of s that are not UTF-8, and "%", as %XX.
func escapeInvalid(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if (r == utf8.RuneError && size == 1) || r == '%' {
			fmt.Fprintf(&b, "%%%02X", s[i])
		} else {
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
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

// inGitFolder reports whether a folder on a key's way is named as git's
// own: no file there is a note.
func inGitFolder(key string) bool {
	folders, _ := SplitKey(key)
	for f := range strings.SplitSeq(folders, "/") {
		if IsGitFolder(f) {
			return true
		}
	}
	return false
}

// IsGitFolder reports whether a name is git's own folder's on some system
// git runs on, as git itself refuses such a path in a tree it checks out
// (core.protectNTFS, core.protectHFS): ".git" in any letter case (the
// file systems of macOS and Windows ignore it), with trailing dots or
// spaces (Windows drops them), its short name "git~1" (Windows), or with
// the invisible characters macOS leaves out of names (a zero-width joiner,
// say). A tree made with git's plumbing can hold such a path anyway.
func IsGitFolder(name string) bool {
	trimmed := strings.TrimRight(strings.Map(func(r rune) rune {
		if hfsIgnored(r) {
			return -1
		}
		return r
	}, name), ". ")
	return strings.EqualFold(trimmed, ".git") || strings.EqualFold(name, "git~1")
}

// hfsIgnored reports whether macOS's file system leaves r out of a name
// when it compares names (git's is_hfs_dotgit lists the same).
func hfsIgnored(r rune) bool {
	return r >= 0x200c && r <= 0x200f || r >= 0x202a && r <= 0x202e || r >= 0x206a && r <= 0x206f || r == 0xfeff
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
