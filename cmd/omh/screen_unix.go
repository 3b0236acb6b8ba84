//go:build unix

package main

import (
	"os"

	"golang.org/x/sys/unix"
)

// terminalSize is the rows and columns of the terminal f is; 0, 0 when f
// is no terminal.
func terminalSize(f *os.File) (rows, cols int) {
	ws, err := unix.IoctlGetWinsize(int(f.Fd()), unix.TIOCGWINSZ)
	if err != nil {
		return 0, 0
	}
	return int(ws.Row), int(ws.Col)
}
