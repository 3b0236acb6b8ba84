package vault

import (
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"
)

// unescapeKey reads the name's bytes back from a key KeyOf escaped.
func unescapeKey(t *testing.T, key string) string {
	t.Helper()
	var b strings.Builder
	for i := 0; i < len(key); i++ {
		if key[i] != '%' {
			b.WriteByte(key[i])
			continue
		}
		n, err := strconv.ParseUint(key[i+1:i+3], 16, 8)
		if err != nil {
			t.Fatalf("%q: %v", key, err)
		}
		b.WriteByte(byte(n))
		i += 2
	}
	return b.String()
}

// Names that are not valid UTF-8 get keys of their own, valid UTF-8, from
// which the name's bytes read back; valid names keep their keys. Catches:
// bad\xff.md, bad\xfe.md and bad\xef\xbf\xbd.md (U+FFFD) becoming one key
// once printed or stored as text, and a "%" in such a name making two
// names one key. (A valid name spelt like an escaped one, bad%FF.md beside
// bad\xff.md, shares its key: lint's duplicate-key names both.)
func TestKeysOfNamesThatAreNotUTF8AreDistinctAndReversible(t *testing.T) {
	names := []string{"bad\xff", "bad\xfe", "bad\xef\xbf\xbd", "50%\xff", "50%25\xff", "dir\xc3/x", "caf\xc3\xa9", "a\x80\x80%"}
	seen := map[string]string{}
	for _, name := range names {
		key, ok := KeyOf(name + NoteExt)
		if !ok {
			t.Errorf("KeyOf(%q) refused", name)
			continue
		}
		if other, dup := seen[key]; dup {
			t.Errorf("%q and %q share the key %q", name, other, key)
		}
		seen[key] = name
		if !utf8.ValidString(key) {
			t.Errorf("KeyOf(%q) = %q is not UTF-8", name, key)
		}
		if !utf8.ValidString(name) {
			if back := unescapeKey(t, key); back != name {
				t.Errorf("KeyOf(%q) = %q, which reads back as %q", name, key, back)
			}
		}
	}
	for name, want := range map[string]string{"bad\xff": "bad%FF", "50%\xff": "50%25%FF", "bad%FF": "bad%FF", "caf\xc3\xa9": "café"} {
		if key, _ := KeyOf(name + NoteExt); key != want {
			t.Errorf("KeyOf(%q) = %q, want %q", name, key, want)
		}
	}
}

// Every spelling git treats as its own folder is one, and names that only
// look like it are not. Catches: a key under .GIT/, .git./ or git~1/ read
// as a note, where a case-insensitive or Windows file system puts it in
// git's folder.
func TestNoKeyLiesInAFolderNamedAsGitsOwn(t *testing.T) {
	t.Parallel()
	for _, name := range []string{".git", ".GIT", ".Git", ".git.", ".git ..", "git~1", "GIT~1", ".g\u200cit", "\ufeff.git"} {
		if !IsGitFolder(name) {
			t.Errorf("%q is not taken for git's folder", name)
		}
		if key, ok := KeyOf("notes/" + name + "/note.md"); ok {
			t.Errorf("notes/%s/note.md is the note %s", name, key)
		}
	}
	for _, name := range []string{".github", "git", ".gitx", "a.git", "git~2", "..git"} {
		if _, ok := KeyOf(name + "/note.md"); IsGitFolder(name) || !ok {
			t.Errorf("%q is taken for git's folder", name)
		}
	}
	if _, ok := KeyOf("notes/.git.md"); !ok {
		t.Error("a note named .git (.git.md) is refused; only folders are git's")
	}
}
