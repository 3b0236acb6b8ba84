package reply

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// rawControl reports the first control character or bidirectional
// override (other than in keep) in s, or -1.
func rawControl(s, keep string) int {
	for i, r := range s {
		if (r < 0x20 && !strings.ContainsRune(keep, r)) || r == 0x7f || (r >= 0x80 && r <= 0x9f) || (r >= 0x202a && r <= 0x202e) || (r >= 0x2066 && r <= 0x2069) {
			return i
		}
	}
	return -1
}

// EscapeControls leaves no control character but those kept, makes valid
// UTF-8 of any input, and changes nothing in text without controls.
// Catches: a C1 control (U+009B, a one-character escape sequence on some
// terminals), a bidirectional override (U+202E shows what follows
// reversed) or a byte that is not UTF-8 let through.
func TestEscapeControlsLeavesNoControlCharacter(t *testing.T) {
	t.Parallel()
	for _, s := range []string{"plain text · with accents é", "\x1b]0;owned\a", "a\nb\tc\rd", "\u009b31m", "bad\xff\xfe", "\x7f", "",
		"\x1b]52;c;cm0gLXJmIH4K\a", "x = 1 \u202e// ;tnemmoc a\u202c", "\u202a\u202b\u202d\u2066\u2067\u2068\u2069", "marks \u200e\u200f stay"} {
		for _, keep := range []string{"", "\n\t"} {
			got := EscapeControls(s, keep)
			if i := rawControl(got, keep); i >= 0 || !utf8.ValidString(got) {
				t.Errorf("EscapeControls(%q, %q) = %q", s, keep, got)
			}
			if rawControl(s, "") < 0 && utf8.ValidString(s) && got != s {
				t.Errorf("EscapeControls(%q) changed clean text to %q", s, got)
			}
		}
	}
	if got := OneLine("a\x1b[2Jb\nc"); got != `a\x1b[2Jb\nc` {
		t.Errorf("OneLine = %q", got)
	}
	if got := EscapeControls("ok\u202ekO\u2069", ""); got != `ok\u202ekO\u2069` {
		t.Errorf("EscapeControls of overrides = %q", got)
	}
}
