package mcpserver

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"io"
	"os/exec"
	"slices"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/omh-notes/omh/vault/vaulttest"
)

// rawServer is omh mcp, the built binary, spoken to line by line.
type rawServer struct {
	t     *testing.T
	cmd   *exec.Cmd
	stdin io.WriteCloser
	out   *bufio.Reader
}

// startRaw starts omh mcp on dir and initializes the session.
func startRaw(t *testing.T, dir string, args ...string) *rawServer {
	t.Helper()
	cmd := exec.Command(vaulttest.Omh(t), append([]string{"-C", dir, "mcp"}, args...)...)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { stdin.Close(); cmd.Wait() })
	return &rawServer{t: t, cmd: cmd, stdin: stdin, out: bufio.NewReaderSize(stdout, 1<<20)}
}

const (
	initializeLine  = `{"jsonrpc":"2.0","id":"init","method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`
	initializedLine = `{"jsonrpc":"2.0","method":"notifications/initialized"}`
)

func (s *rawServer) send(lines ...string) {
	s.t.Helper()
	for _, l := range lines {
		if _, err := io.WriteString(s.stdin, l+"\n"); err != nil {
			s.t.Fatalf("writing %.80s: %v", l, err)
		}
	}
}

// recv reads the next line the server writes.
func (s *rawServer) recv() string {
	s.t.Helper()
	line, err := s.out.ReadString('\n')
	if err != nil {
		s.t.Fatalf("reading a reply: %v (got %q)", err, line)
	}
	return strings.TrimSuffix(line, "\n")
}

// rpcReply is a JSON-RPC response as the wire has it.
type rpcReply struct {
	ID     json.RawMessage `json:"id"`
	Result json.RawMessage `json:"result"`
	Error  *struct {
		Code    int64  `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

func parseReply(t *testing.T, line string) rpcReply {
	t.Helper()
	var r rpcReply
	if err := json.Unmarshal([]byte(line), &r); err != nil {
		t.Fatalf("%v: %.200s", err, line)
	}
	return r
}

// A line that holds no message gets a JSON-RPC error (parse error for what
// cannot be read as JSON, invalid request for JSON that is no message),
// with the message's id where it can be read and null where not, and the
// server answers the next request and the call in flight. Catches: the
// server exiting 3 on the first bad line, without a reply, losing the
// calls in flight.
func TestMCPBadLineGetsAnErrorAndTheServerServesOn(t *testing.T) {
	t.Parallel()
	srv := startRaw(t, demoStore(t))
	srv.send(initializeLine, initializedLine)
	if r := parseReply(t, srv.recv()); string(r.ID) != `"init"` || r.Error != nil {
		t.Fatalf("initialize: %+v", r)
	}
	deep := strings.Repeat("[", maxDepth+1) + strings.Repeat("]", maxDepth+1)
	long := strings.Repeat("a", maxLine)
	for _, c := range []struct {
		line, id string
		code     int64
	}{
		{`{not json`, "null", jsonrpc.CodeParseError},
		{`{"jsonrpc":"2.0","id":7,"meth`, "7", jsonrpc.CodeParseError},
		{`{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}`, "null", jsonrpc.CodeInvalidRequest},
		{`{"jsonrpc":"2.0","id":1e400,"method":"ping"}`, "null", jsonrpc.CodeInvalidRequest},
		{`{"jsonrpc":"2.0","id":1.5,"method":"ping"}`, "null", jsonrpc.CodeInvalidRequest},
		{`{"id":8,"method":"ping"}`, "8", jsonrpc.CodeInvalidRequest},
		{`{"jsonrpc":"2.0","id":"d","method":"ping","params":{"x":` + deep + `}}`, `"d"`, jsonrpc.CodeParseError},
		{`{"jsonrpc":"2.0","id":"l","method":"tools/call","params":{"name":"find","arguments":{"question":"` + long + `"}}}`, `"l"`, jsonrpc.CodeParseError},
		{strings.Repeat(" ", maxLine+1), "null", jsonrpc.CodeParseError},
		{`[]`, "null", jsonrpc.CodeInvalidRequest},
		{`42`, "null", jsonrpc.CodeInvalidRequest},
	} {
		// A call in flight before the bad line, and a ping after it.
		srv.send(`{"jsonrpc":"2.0","id":"f","method":"tools/call","params":{"name":"status"}}`, c.line, `{"jsonrpc":"2.0","id":"p","method":"ping"}`)
		got := map[string]rpcReply{}
		for range 3 {
			r := parseReply(t, srv.recv())
			got[string(r.ID)] = r
		}
		if r, ok := got[c.id]; !ok || r.Error == nil || r.Error.Code != c.code || r.Error.Message == "" {
			t.Errorf("%.60s: replies %+v, want error %d with id %s", c.line, got, c.code, c.id)
		}
		for _, id := range []string{`"f"`, `"p"`} {
			if r, ok := got[id]; !ok || r.Error != nil {
				t.Errorf("%.60s: no answer to %s: %+v", c.line, id, got)
			}
		}
	}
	// A batch gets one error a call, in an array; its notification none.
	srv.send(`[{"jsonrpc":"2.0","id":2,"method":"ping"},{"jsonrpc":"2.0","method":"notifications/x"},{"jsonrpc":"2.0","id":{},"method":"ping"}]`)
	var batch []rpcReply
	if err := json.Unmarshal([]byte(srv.recv()), &batch); err != nil || len(batch) != 2 ||
		string(batch[0].ID) != "2" || string(batch[1].ID) != "null" || batch[0].Error.Code != jsonrpc.CodeInvalidRequest {
		t.Errorf("batch: %+v %v", batch, err)
	}
	srv.send(`{"jsonrpc":"2.0","id":"p","method":"ping"}`)
	if r := parseReply(t, srv.recv()); string(r.ID) != `"p"` || r.Error != nil {
		t.Errorf("ping after the batch: %+v", r)
	}
	srv.stdin.Close()
	if err := srv.cmd.Wait(); err != nil {
		t.Errorf("omh mcp exited with %v", err)
	}
}

// The SDK's own client, sending what it may (a call nested too deep, one
// longer than a line may be), gets a JSON-RPC error for that call and its
// session goes on. Catches: the call left unanswered, the client's
// connection closed under it.
func TestMCPClientCallTooDeepOrTooLongFailsAloneOverStdio(t *testing.T) {
	t.Parallel()
	dir := demoStore(t)
	ctx := context.Background()
	cs := stdioSession(t, dir)
	var deep any = "x"
	for range maxDepth + 1 {
		deep = []any{deep}
	}
	for name, args := range map[string]map[string]any{
		"too deep": {"question": "sandbox", "nested": deep},
		"too long": {"question": strings.Repeat("sandbox ", maxLine/8+1)},
	} {
		_, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "find", Arguments: args})
		var wire *jsonrpc.Error
		if !errors.As(err, &wire) || wire.Code != jsonrpc.CodeParseError {
			t.Errorf("%s: %v, want a parse error", name, err)
		}
		if _, _, isErr := callTool(t, cs, "find", map[string]any{"question": "sandbox"}); isErr {
			t.Errorf("find after the call %s failed", name)
		}
	}
}

// Requests piped in at once, the input closed behind them, are all
// answered before omh mcp exits, and the note new writes is written.
// Catches: the server answering initialize only, dropping find and new,
// and exiting 0 as if it had.
func TestMCPAnswersEveryRequestReadBeforeTheInputEnded(t *testing.T) {
	t.Parallel()
	dir := demoStore(t)
	srv := startRaw(t, dir, "--allow-write")
	srv.send(initializeLine, initializedLine,
		`{"jsonrpc":"2.0","id":"find","method":"tools/call","params":{"name":"find","arguments":{"question":"sandbox"}}}`,
		`{"jsonrpc":"2.0","id":"new","method":"tools/call","params":{"name":"new","arguments":{"type":"finding","title":"Piped at once"}}}`)
	srv.stdin.Close()
	out, err := io.ReadAll(srv.out)
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		if r := parseReply(t, line); r.Error == nil {
			ids = append(ids, string(r.ID))
		}
	}
	slices.Sort(ids)
	if want := []string{`"find"`, `"init"`, `"new"`}; !slices.Equal(ids, want) {
		t.Errorf("answered %v, want %v:\n%s", ids, want, out)
	}
	if err := srv.cmd.Wait(); err != nil {
		t.Errorf("omh mcp exited with %v", err)
	}
	if !strings.Contains(ok(t, dir, "show", "finding/piped-at-once"), "Piped at once") {
		t.Error("the note new wrote is not there")
	}
}
