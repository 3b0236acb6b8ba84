package main

import (
	"encoding/json"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// omh mcp --http exits before serving, with a clear error and the exit
// status of its kind, when it cannot serve as asked: an address it cannot
// listen at (in use: refused, cannot_listen), and for a usage error a
// token file it cannot read, an empty or short token, a token on no
// address, an address without a port and an address off loopback without
// a token. Catches: a server that starts anyway, open to its network, or
// fails with an internal error that names nothing.
func TestMCPHTTPRefusesWhatItCannotServe(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	busy, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer busy.Close()
	short := filepath.Join(dir, "short")
	empty := filepath.Join(dir, "empty")
	for path, content := range map[string]string{short: "abc\n", empty: "\n"} {
		if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range []struct {
		args   []string
		code   string
		status int
		says   string
	}{
		{[]string{"--http", busy.Addr().String()}, "cannot_listen", exitRefused, "cannot serve at " + busy.Addr().String()},
		{[]string{"--http", "127.0.0.1:0", "--token-file", filepath.Join(dir, "missing")}, "usage", exitUsage, "reading the token"},
		{[]string{"--http", "127.0.0.1:0", "--token-file", dir}, "usage", exitUsage, "reading the token"},
		{[]string{"--http", "127.0.0.1:0", "--token-file", empty}, "usage", exitUsage, "is empty"},
		{[]string{"--http", "127.0.0.1:0", "--token-file", short}, "usage", exitUsage, "at least 16"},
		{[]string{"--token-file", short}, "usage", exitUsage, "--token-file goes with --http"},
		{[]string{"--http", "7777"}, "usage", exitUsage, "HOST:PORT"},
		{[]string{"--http", "0.0.0.0:0"}, "usage", exitUsage, "needs a bearer token"},
	} {
		r := omh(t, dir, append([]string{"--json", "mcp"}, c.args...)...)
		var e struct {
			Error struct{ Code, Message string }
		}
		if err := json.Unmarshal([]byte(r.stderr), &e); err != nil || r.status != c.status || e.Error.Code != c.code || !strings.Contains(e.Error.Message, c.says) {
			t.Errorf("omh mcp %s: exit %d, %s; want exit %d, %s saying %q", strings.Join(c.args, " "), r.status, r.stderr, c.status, c.code, c.says)
		}
	}
}

// A token in the environment is held to the same rule as one in a file,
// and the error names the variable. Catches: a short token taken from the
// environment unchecked.
func TestMCPHTTPTokenFromTheEnvironmentIsChecked(t *testing.T) {
	t.Parallel()
	r := omhProc(t, t.TempDir(), []string{"OMH_MCP_TOKEN=short"}, "mcp", "--http", "0.0.0.0:0")
	if r.status != exitUsage || !strings.Contains(r.stderr, "OMH_MCP_TOKEN") {
		t.Errorf("exit %d, stderr %q; want exit %d naming OMH_MCP_TOKEN", r.status, r.stderr, exitUsage)
	}
}
