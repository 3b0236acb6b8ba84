package main

import (
	"fmt"
	"io"
	"strings"
	"unicode/utf8"
)

// A note's name, title or text may hold control characters: an escape
// sequence that retitles the terminal, moves the cursor or rewrites what
// was printed above it. Text output shows every control character as a
// visible escape instead (ESC as \x1b); JSON output is exact, and JSON's
// own escaping keeps it safe.

// escapeControls writes s with control characters made visible: C0
// controls but those in keep, DEL, C1 controls and bytes that are not
// UTF-8.
func escapeControls(s, keep string) string {
	clean := true
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c == 0x7f || c >= 0x80 {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case r < 0x20 && strings.ContainsRune(keep, r):
			b.WriteRune(r)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\t':
			b.WriteString(`\t`)
		case r == '\r':
			b.WriteString(`\r`)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\x%02x`, r)
		case r >= 0x80 && r <= 0x9f:
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

// oneLine is a value printed on one line (a title, a warning, a path):
// line breaks and tabs are escaped too.
func oneLine(s string) string { return escapeControls(s, "") }

// safeWriter escapes control characters in everything written through
// it, keeping line breaks and tabs: the writer of text output.
type safeWriter struct{ w io.Writer }

func (s safeWriter) Write(p []byte) (int, error) {
	if _, err := io.WriteString(s.w, escapeControls(string(p), "\n\t")); err != nil {
		return 0, err
	}
	return len(p), nil
}
