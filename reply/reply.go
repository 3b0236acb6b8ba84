// Package reply is omh's output contract: the version of its JSON replies,
// the stable codes of its errors, the shapes answers take for programs
// (answer.go: hits, cards, link ends, passages; lint.go: findings), and
// the helpers every reply renders itself with. It imports nothing of omh:
// the layers below the application return plain data, and cards (find)
// and the application layer (store) fill these shapes. A reply value of
// the application layer (a shown note, a rename, the status) renders
// itself twice, as text for people and as JSON for programs; a front end
// (the command line, the MCP server) only chooses which.
package reply

import (
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"
)

// SchemaVersion is the version of every JSON reply. Within a version fields
// are only ever added, never renamed or removed.
const SchemaVersion = 1

// JSON writes v as indented JSON, HTML characters as they are.
func JSON(w io.Writer, v any) error { return writeJSON(w, v, "  ") }

// JSONLine writes v as JSON on one line (an error on standard error),
// HTML characters as they are.
func JSONLine(w io.Writer, v any) error { return writeJSON(w, v, "") }

// writeJSON keeps <, > and & as they are: JSON for programs is never
// pasted into a web page, and json.Marshal's \u003c makes an error about
// "<question>" unreadable to the person reading it through a program.
func writeJSON(w io.Writer, v any, indent string) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", indent)
	return enc.Encode(v)
}

// Failure is an error as programs read it: {"error": {"code", "message"}}.
func Failure(code string, err error) map[string]any {
	return map[string]any{"error": map[string]string{"code": code, "message": err.Error()}}
}

// CountOf writes a count with the noun that fits it.
func CountOf(n int, one, many string) string {
	return strconv.Itoa(n) + " " + Plural(n, one, many)
}

// Plural is the noun that fits a count: one for 1, else many.
func Plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// CountNotes is a count of notes.
func CountNotes(n int) string { return CountOf(n, "note", "notes") }

// A note's name, title or text may hold control characters: an escape
// sequence that retitles the terminal, moves the cursor, writes the
// clipboard or rewrites what was printed above it; or a bidirectional
// override, which shows text in another order than it is read (a line that
// looks harmless and is not). Text output shows each as a visible escape
// instead (ESC as \x1b, U+202E as \u202e); JSON output is exact, and JSON's
// own escaping keeps it safe.

// EscapeControls writes s with control characters made visible: C0
// controls but those in keep, DEL, C1 controls, the bidirectional
// embeddings, overrides and isolates (U+202A-U+202E, U+2066-U+2069), and
// bytes that are not UTF-8. The marks U+200E and U+200F stay: they reorder
// nothing beyond the neutral characters beside them.
func EscapeControls(s, keep string) string {
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
		case r >= 0x80 && r <= 0x9f, bidiControl(r):
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

// bidiControl reports whether r is a bidirectional embedding, override or
// isolate.
func bidiControl(r rune) bool { return r >= 0x202a && r <= 0x202e || r >= 0x2066 && r <= 0x2069 }

// OneLine is a value printed on one line (a title, a warning, a path):
// line breaks and tabs are escaped too.
func OneLine(s string) string { return EscapeControls(s, "") }
