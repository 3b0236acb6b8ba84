package main

import (
	"io"

	"github.com/omh-notes/omh/reply"
)

// safeWriter escapes control characters in everything written through
// it, keeping line breaks and tabs: the writer of text output.
type safeWriter struct{ w io.Writer }

func (s safeWriter) Write(p []byte) (int, error) {
	if _, err := io.WriteString(s.w, reply.EscapeControls(string(p), "\n\t")); err != nil {
		return 0, err
	}
	return len(p), nil
}
