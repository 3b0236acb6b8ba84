package rename

import (
	"errors"
	"testing"

	"github.com/omh-notes/omh/vault"
	"github.com/omh-notes/omh/vault/gitrepo"
)

// files makes the store's files from their contents, as the index read
// them, and counts how often each is read.
func files(contents map[string]string, reads map[string]int) ([]Note, []File) {
	var notes []Note
	var out []File
	for _, key := range []string{"topic/old", "a", "b", "c"} {
		content, ok := contents[key]
		if !ok {
			continue
		}
		parsed := vault.Parse([]byte(content))
		notes = append(notes, Note{Key: key, Path: key + ".md", Aliases: parsed.Aliases})
		out = append(out, File{Key: key, Shown: key + ".md", Parsed: parsed, Blob: gitrepo.HashBytes([]byte(content)),
			Read: func() ([]byte, error) { reads[key]++; return []byte(content), nil }})
	}
	return notes, out
}

// A plan rewrites the links that reach the renamed note, the note's own
// relative links from its new folder, and reads no file it leaves as it
// is. Catches: a plan that reads every file of the store, or rewrites a
// link that reached another note.
func TestAPlanRewritesOnlyWhatReachesTheNote(t *testing.T) {
	t.Parallel()
	reads := map[string]int{}
	notes, fs := files(map[string]string{
		"topic/old": "# Old\n\n[b](../b.md)\n",
		"a":         "# A\n\nSee [[old]] and [[b]].\n",
		"b":         "# B\n\n[the old one](topic/old.md#part)\n",
		"c":         "# C\n\n[[b]]\n",
	}, reads)
	plan, err := PlanRename(notes, fs, "topic/old", "archive/2026/new", vault.Dialect{})
	if err != nil {
		t.Fatal(err)
	}
	want := []struct {
		out   string
		links int
	}{
		{"# Old\n\n[b](../../b.md)\n", 1},
		{"# A\n\nSee [[new]] and [[b]].\n", 1},
		{"# B\n\n[the old one](archive/2026/new.md#part)\n", 1},
		{"", 0},
	}
	for i, w := range want {
		if got := plan.Files[i]; string(got.Out) != w.out || got.Links != w.links {
			t.Errorf("%s: %q with %d links, want %q with %d", fs[i].Key, got.Out, got.Links, w.out, w.links)
		}
	}
	if reads["c"] != 0 || reads["a"] != 1 {
		t.Errorf("reads %v: a file left as it is was read, or a rewritten one more than once", reads)
	}
}

// A file whose content is no longer what the index read is refused, not
// rewritten from stale offsets; a new key that differs from another only
// in letter case is refused before anything is read.
func TestAPlanRefusesWhatItCannotDoSafely(t *testing.T) {
	t.Parallel()
	reads := map[string]int{}
	notes, fs := files(map[string]string{"topic/old": "# Old\n", "a": "# A\n\n[[topic/old]]\n"}, reads)
	fs[1].Read = func() ([]byte, error) { return []byte("# A, edited since\n\n[[topic/old]]\n"), nil }
	_, err := PlanRename(notes, fs, "topic/old", "topic/new", vault.Dialect{})
	var r *Refusal
	if !errors.As(err, &r) || r.Code != "changed" {
		t.Errorf("a file changed since it was indexed: %v", err)
	}
	if err := CheckCase(notes, "topic/old", "A"); !errors.As(err, &r) || r.Code != "key_taken" {
		t.Errorf("a key differing only in case: %v", err)
	}
	if err := CheckCase(notes, "a", "Topic/new"); !errors.As(err, &r) || r.Code != "key_taken" {
		t.Errorf("a folder differing only in case: %v", err)
	}
	if err := CheckCase(notes, "topic/old", "topic/new"); err != nil {
		t.Errorf("a free key: %v", err)
	}
}
