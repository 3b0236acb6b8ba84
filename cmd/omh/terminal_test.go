package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/omh-notes/omh/reply"
	"github.com/omh-notes/omh/vault/vaulttest"
)

// rawControl reports the first control character (other than in keep) in
// s, or -1.
func rawControl(s, keep string) int {
	for i, r := range s {
		if (r < 0x20 && !strings.ContainsRune(keep, r)) || r == 0x7f || (r >= 0x80 && r <= 0x9f) {
			return i
		}
	}
	return -1
}

// Control characters in a file name, a title and a note's text reach text
// output escaped (find's tree and cards, show, warnings on standard error)
// and JSON exactly. Catches: an escape sequence in a note that retitles
// the terminal or clears the screen when omh prints it; a warning split
// over two lines by a newline in a file name.
func TestControlCharactersAreEscapedInTextOutput(t *testing.T) {
	t.Parallel()
	r := vaulttest.New(t)
	r.Write("evil.md", "---\ntitle: \"Evil \\e[2J title\"\n---\n# Evil\n\nThe walrus \x1b]0;owned\a tusk \u009b31m here.\n")
	r.Write("bad\x1b[31m\nname.md", "# Bad name\n\nwalrus\n")
	r.Commit("2026-01-02T10:00:00Z", "notes")
	// A skipped file is named once, when first met.
	if warn := omh(t, r.Dir, "find", "walrus").stderr; !strings.Contains(warn, `bad\x1b[31m\nname.md`) || strings.Count(warn, "\n") != 1 {
		t.Errorf("the warning does not name the file, escaped, on one line: %q", warn)
	}
	for _, args := range [][]string{{"find", "walrus", "tusk"}, {"find", "--cards", "walrus", "tusk"}, {"show", "evil"}, {"lint"}} {
		res := omh(t, r.Dir, args...)
		if i := rawControl(res.stdout, "\n"); i >= 0 {
			t.Errorf("omh %v prints a raw control character at %d: %q", args, i, res.stdout)
		}
		if i := rawControl(res.stderr, "\n"); i >= 0 {
			t.Errorf("omh %v warns with a raw control character at %d: %q", args, i, res.stderr)
		}
		for _, line := range strings.Split(strings.TrimSpace(res.stderr), "\n") {
			if line != "" && !strings.HasPrefix(line, "omh: ") {
				t.Errorf("omh %v: a warning runs over a line break: %q", args, res.stderr)
			}
		}
	}
	show := ok(t, r.Dir, "show", "evil")
	for _, want := range []string{`title    Evil \x1b[2J title`, `The walrus \x1b]0;owned\x07 tusk \u009b31m here.`} {
		if !strings.Contains(show, want) {
			t.Errorf("omh show lacks %q:\n%s", want, show)
		}
	}
	var reply reply.Answer
	raw := ok(t, r.Dir, "find", "--json", "--cards", "walrus", "tusk")
	if err := json.Unmarshal([]byte(raw), &reply); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(raw, `\u001b]0;owned\u0007`) {
		t.Errorf("find --json does not carry the passage exactly:\n%s", raw)
	}
	var shown struct {
		Notes []struct{ Title string }
	}
	if err := json.Unmarshal([]byte(ok(t, r.Dir, "--json", "show", "evil")), &shown); err != nil || len(shown.Notes) != 1 || shown.Notes[0].Title != "Evil \x1b[2J title" {
		t.Errorf("show --json title = %+v, %v; want the exact title", shown, err)
	}
}
