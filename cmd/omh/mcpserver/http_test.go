package mcpserver

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"go/ast"
	"go/parser"
	"go/token"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os/exec"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/omh-notes/omh/store"
	"github.com/omh-notes/omh/vault/vaulttest"
)

// httpServer is omh's HTTP handler on the demo store.
func httpServer(t *testing.T, o HTTPOptions, loopback bool) http.Handler {
	t.Helper()
	s, err := store.Open(demoStore(t), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return httpHandler(New(s, nil, "test", o.AllowWrite), o, loopback)
}

// readCounter is a request body that counts what the server read of it.
type readCounter struct {
	r io.Reader
	n int
}

func (c *readCounter) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += n
	return n, err
}

// post sends one JSON-RPC message to h as a client on loopback would,
// with header lines added ("Name: value"), and returns the response and
// how many bytes of the body the server read.
func post(t *testing.T, h http.Handler, body string, headers ...string) (*httptest.ResponseRecorder, int) {
	t.Helper()
	rc := &readCounter{r: strings.NewReader(body)}
	req := httptest.NewRequest(http.MethodPost, Path, rc)
	req.Host, req.ContentLength = "127.0.0.1:7777", int64(len(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	for _, h := range headers {
		name, value, _ := strings.Cut(h, ": ")
		if name == "Host" {
			req.Host = value
			continue
		}
		req.Header.Set(name, value)
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, req)
	return w, rc.n
}

const showCall = `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"show","arguments":{"key":"topic/credentials"}}}`

// answered fails the test unless w holds a JSON-RPC result.
func answered(t *testing.T, w *httptest.ResponseRecorder) rpcReply {
	t.Helper()
	if w.Code != http.StatusOK {
		t.Fatalf("status %d, want 200: %s", w.Code, w.Body)
	}
	r := parseReply(t, w.Body.String())
	if r.Error != nil || r.Result == nil {
		t.Fatalf("no result: %s", w.Body)
	}
	return r
}

// Off loopback every request needs the token: without it, with another,
// one differing in its last character, a prefix of it or under another
// scheme, the answer is 401 naming the Bearer scheme and nothing of the
// request's body is read, so no tool runs; with it the call is answered.
// Catches: a server off loopback that answers anyone, or reads a request
// before deciding whether to.
func TestHTTPRefusesARequestWithoutTheTokenAndReadsNothing(t *testing.T) {
	t.Parallel()
	const secret = "0123456789abcdef0123"
	h := httpServer(t, HTTPOptions{Token: secret}, false)
	for _, auth := range []string{"", "Bearer", "Bearer ", "Bearer 0123456789abcdef0124", "Bearer 0123456789abcdef012",
		"Bearer " + secret + "x", "Basic " + secret, "Token " + secret, secret} {
		var headers []string
		if auth != "" {
			headers = append(headers, "Authorization: "+auth)
		}
		w, read := post(t, h, showCall, headers...)
		if w.Code != http.StatusUnauthorized || read != 0 {
			t.Errorf("Authorization %q: status %d, %d bytes of the body read; want 401 and none: %s", auth, w.Code, read, w.Body)
		}
		if got := w.Header().Get("WWW-Authenticate"); !strings.HasPrefix(got, "Bearer ") {
			t.Errorf("Authorization %q: WWW-Authenticate %q names no Bearer scheme", auth, got)
		}
	}
	for _, auth := range []string{"Bearer " + secret, "bearer  " + secret} {
		answered(t, only(post(t, h, showCall, "Authorization: "+auth)))
	}
}

// only drops how much of the body was read.
func only(w *httptest.ResponseRecorder, _ int) *httptest.ResponseRecorder { return w }

// The token is compared as a digest of fixed length with
// subtle.ConstantTimeCompare, and with nothing else: read from the source
// of authorized. Catches: the token compared with == or bytes.Equal, whose
// time tells a caller how many of its first characters are right.
func TestHTTPTokenComparedInConstantTime(t *testing.T) {
	t.Parallel()
	f, err := parser.ParseFile(token.NewFileSet(), "http.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	var fn *ast.FuncDecl
	for _, d := range f.Decls {
		if d, ok := d.(*ast.FuncDecl); ok && d.Name.Name == "authorized" {
			fn = d
		}
	}
	if fn == nil {
		t.Fatal("http.go has no func authorized")
	}
	secret := fn.Type.Params.List[len(fn.Type.Params.List)-1].Names[0].Name // the digest wanted
	compared := false
	ast.Inspect(fn.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.CallExpr:
			name := callName(n)
			if name == "subtle.ConstantTimeCompare" {
				compared = len(n.Args) == 2 && callName(asCall(n.Args[0])) == "digest" && identName(n.Args[1]) == secret
				return false
			}
			for _, a := range n.Args {
				if mentions(a, secret) {
					t.Errorf("authorized passes the token's digest to %s", name)
				}
			}
		case *ast.BinaryExpr:
			constantTime := callName(asCall(n.X)) == "subtle.ConstantTimeCompare" // its result, 1 or 0
			if (n.Op == token.EQL || n.Op == token.NEQ) && !constantTime && (mentions(n.X, secret) || mentions(n.Y, secret)) {
				t.Errorf("authorized compares the token's digest with %s", n.Op)
			}
		}
		return true
	})
	if !compared {
		t.Errorf("authorized does not compare digest(token) with %s by subtle.ConstantTimeCompare", secret)
	}
	if a, b := digest("x"), digest(strings.Repeat("y", 500)); len(a) != len(b) {
		t.Errorf("digests of tokens of different lengths differ in length (%d, %d): the comparison's time tells the length", len(a), len(b))
	}
	for _, c := range []struct {
		header string
		want   bool
	}{{"Bearer abc", true}, {"Bearer abd", false}, {"Bearer ab", false}, {"Bearer abcd", false}, {"abc", false}} {
		if got := authorized(c.header, digest("abc")); got != c.want {
			t.Errorf("authorized(%q) = %v, want %v", c.header, got, c.want)
		}
	}
}

func asCall(e ast.Expr) *ast.CallExpr {
	c, _ := e.(*ast.CallExpr)
	return c
}

func callName(c *ast.CallExpr) string {
	if c == nil {
		return ""
	}
	switch f := c.Fun.(type) {
	case *ast.Ident:
		return f.Name
	case *ast.SelectorExpr:
		return identName(f.X) + "." + f.Sel.Name
	}
	return ""
}

func identName(e ast.Expr) string {
	if id, ok := e.(*ast.Ident); ok {
		return id.Name
	}
	return ""
}

// mentions reports whether an expression uses the identifier name.
func mentions(e ast.Node, name string) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && id.Name == name {
			found = true
		}
		return !found
	})
	return found
}

// On loopback a Host header naming another host (a page that reached the
// server through DNS rebinding) is refused, and so is an Origin other than
// the server's own, before anything of the body is read; loopback names
// and the server's own origin are answered. Catches: a local server any
// web page can call through a name it controls.
func TestHTTPRefusesAForeignHostOrOrigin(t *testing.T) {
	t.Parallel()
	h := httpServer(t, HTTPOptions{}, true)
	for _, headers := range [][]string{
		{"Host: evil.example:7777"}, {"Host: evil.example"}, {"Host: 127.0.0.1.evil.example:7777"}, {"Host: "},
		{"Origin: http://evil.example"}, {"Origin: http://127.0.0.1:7778"}, {"Origin: null"},
		{"Host: localhost:7777", "Origin: http://127.0.0.1:7777"},
	} {
		w, read := post(t, h, showCall, headers...)
		if w.Code != http.StatusForbidden || read != 0 {
			t.Errorf("%q: status %d, %d bytes of the body read; want 403 and none: %s", headers, w.Code, read, w.Body)
		}
	}
	for _, headers := range [][]string{
		nil, {"Host: localhost:7777"}, {"Host: [::1]:7777"}, {"Host: 127.0.0.2"}, {"Origin: http://127.0.0.1:7777"},
		{"Host: localhost:7777", "Origin: http://localhost:7777"},
	} {
		answered(t, only(post(t, h, showCall, headers...)))
	}
}

// A body longer than the bound is refused with 413, whether its length is
// announced or not, and a batch (which MCP no longer has) with a JSON-RPC
// error; a call padded to the bound is answered. Catches: a request read
// whole into memory however long it is.
func TestHTTPRefusesAnOversizeRequest(t *testing.T) {
	t.Parallel()
	h := httpServer(t, HTTPOptions{}, true)
	atBound := showCall + strings.Repeat(" ", maxRequestBytes-len(showCall))
	answered(t, only(post(t, h, atBound)))
	w, read := post(t, h, atBound+" ")
	if w.Code != http.StatusRequestEntityTooLarge || read != 0 {
		t.Errorf("announced length past the bound: status %d, %d bytes read; want 413 and none", w.Code, read)
	}
	// Chunked: the length is learnt by reading, which stops at the bound.
	req := httptest.NewRequest(http.MethodPost, Path, io.MultiReader(strings.NewReader(atBound), strings.NewReader(strings.Repeat(" ", 1<<20))))
	req.ContentLength, req.Host = -1, "127.0.0.1:7777"
	req.Header.Set("Content-Type", "application/json")
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	if rec.Code != http.StatusRequestEntityTooLarge {
		t.Errorf("unannounced length past the bound: status %d, want 413", rec.Code)
	}
	w, _ = post(t, h, "["+showCall+"]")
	if r := parseReply(t, w.Body.String()); w.Code != http.StatusBadRequest || r.Error == nil || !strings.Contains(r.Error.Message, "batch") {
		t.Errorf("a batch: status %d, %s; want 400 and an error naming batches", w.Code, w.Body)
	}
}

// toolNames lists the tools h offers.
func toolNames(t *testing.T, h http.Handler) []string {
	t.Helper()
	r := answered(t, only(post(t, h, `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`)))
	var list struct{ Tools []struct{ Name string } }
	if err := json.Unmarshal(r.Result, &list); err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range list.Tools {
		names = append(names, tool.Name)
	}
	return names
}

// Over HTTP the tools that write are offered only with allowWrite, and a
// call to one without it is refused. Catches: a shared server that lets
// any client write.
func TestHTTPIsReadOnlyWithoutAllowWrite(t *testing.T) {
	t.Parallel()
	writes := []string{"new", "retract"}
	readOnly := httpServer(t, HTTPOptions{}, true)
	names := toolNames(t, readOnly)
	if !slices.Contains(names, "find") || slices.ContainsFunc(names, func(n string) bool { return slices.Contains(writes, n) }) {
		t.Errorf("without allowWrite the tools are %v: want find and neither of %v", names, writes)
	}
	w, _ := post(t, readOnly, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"new","arguments":{"type":"finding","title":"x"}}}`)
	if r := parseReply(t, w.Body.String()); r.Error == nil && !strings.Contains(string(r.Result), `"isError":true`) {
		t.Errorf("new without allowWrite was answered: %s", w.Body)
	}
	if names := toolNames(t, httpServer(t, HTTPOptions{AllowWrite: true}, true)); !slices.Contains(names, "new") || !slices.Contains(names, "retract") {
		t.Errorf("with allowWrite the tools are %v: want new and retract among them", names)
	}
}

// A call still waiting for its turn on the store when its HTTP request
// ends gives up rather than running for nobody. Catches: requests that
// timed out leaving calls queued on the store, each run when its turn
// comes, so a backlog grows past what the clients still wait for.
func TestHTTPCallWhoseRequestEndedGivesUpItsTurn(t *testing.T) {
	t.Parallel()
	m := &mcpServer{turn: make(chan struct{}, 1)}
	m.turn <- struct{}{} // another call has the store
	req, cancel := context.WithCancel(context.Background())
	cancel()
	ran := false
	_, _, err := m.call(context.WithValue(context.Background(), requestKey{}, req), func(*store.Store) (string, any, error) {
		ran = true
		return "", nil, nil
	})
	if ran || !errors.Is(err, context.Canceled) && err == nil {
		t.Errorf("a call whose request ended: ran %v, error %v; want it not run and an error", ran, err)
	}
}

// A tool called over HTTP learns when its request ends, through the SDK,
// which keeps a session's context for the call. Catches: an SDK change
// that drops the request's context, leaving calls to wait for their turn
// after their clients have gone.
func TestHTTPToolSeesItsRequestEnd(t *testing.T) {
	t.Parallel()
	srv := mcp.NewServer(&mcp.Implementation{Name: "probe"}, nil)
	started, returned := make(chan struct{}), make(chan struct{})
	mcp.AddTool(srv, &mcp.Tool{Name: "wait"}, func(ctx context.Context, _ *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, any, error) {
		close(started)
		<-ended(ctx) // never closed (the test hangs) if the request's end does not reach the call
		close(returned)
		return &mcp.CallToolResult{}, nil, nil
	})
	ctx, cancel := context.WithCancel(context.Background())
	req := httptest.NewRequestWithContext(ctx, http.MethodPost, Path,
		strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"wait","arguments":{}}}`))
	req.Host = "127.0.0.1:7777"
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	go func() { <-started; cancel() }()
	httpHandler(srv, HTTPOptions{}, true).ServeHTTP(httptest.NewRecorder(), req)
	<-returned // the handler answers 503 at once; the call must end too
}

// startHTTP starts the built omh serving dir over HTTP on a free loopback
// port and returns the URL it prints.
func startHTTP(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command(vaulttest.Omh(t), append([]string{"-C", dir, "mcp", "--http", "127.0.0.1:0"}, args...)...)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	lines := bufio.NewScanner(stderr)
	url := regexp.MustCompile(`http://\S+/mcp`)
	for lines.Scan() {
		if u := url.FindString(lines.Text()); u != "" {
			go io.Copy(io.Discard, stderr)
			return u
		}
	}
	t.Fatalf("omh mcp --http printed no address (%v)", lines.Err())
	return ""
}

// A tool call over HTTP is answered with the very bytes the server on
// standard input and output writes for it. Catches: the HTTP server
// rendering its own way, or answering from another store.
func TestHTTPToolCallAnswersTheBytesOfStdio(t *testing.T) {
	t.Parallel()
	dir := demoStore(t)
	url := startHTTP(t, dir)
	stdio := startRaw(t, dir)
	stdio.send(initializeLine, initializedLine)
	stdio.recv()
	for _, call := range []string{
		showCall,
		`{"jsonrpc":"2.0","id":"f","method":"tools/call","params":{"name":"find","arguments":{"question":"why does mounting the credential file fail","phrasings":["credential rename"]}}}`,
		`{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"links","arguments":{"key":"topic/credentials","direction":"in"}}}`,
		`{"jsonrpc":"2.0","id":10,"method":"tools/call","params":{"name":"show","arguments":{"key":"no/such/note"}}}`,
	} {
		req, err := http.NewRequest(http.MethodPost, url, strings.NewReader(call))
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil || resp.StatusCode != http.StatusOK {
			t.Fatalf("%s: status %d, %v: %s", call, resp.StatusCode, err, body)
		}
		stdio.send(call)
		if want := stdio.recv(); !bytes.Equal(bytes.TrimSuffix(body, []byte("\n")), []byte(want)) {
			t.Errorf("%s:\nover HTTP: %s\nover stdio: %s", call, body, want)
		}
	}
}

// ServeHTTP refuses to serve an address other than loopback without a
// token, whoever calls it. Catches: a caller that forgot to ask for one
// serving the notes to its whole network.
func TestHTTPServeRefusesAnAddressOffLoopbackWithoutAToken(t *testing.T) {
	t.Parallel()
	ln, err := net.Listen("tcp", "0.0.0.0:0")
	if err != nil {
		t.Skipf("cannot listen on every interface: %v", err)
	}
	defer ln.Close()
	if err := ServeHTTP(context.Background(), ln, nil, "test", HTTPOptions{}); err == nil || !strings.Contains(err.Error(), "token") {
		t.Errorf("ServeHTTP on %s without a token: %v, want a refusal naming the token", ln.Addr(), err)
	}
}

// deadlineRecorder is a response writer that records the write deadline
// set on its connection, and whether the answer had started then.
type deadlineRecorder struct {
	*httptest.ResponseRecorder
	deadlines   []time.Time
	wroteBefore bool
}

func (d *deadlineRecorder) SetWriteDeadline(t time.Time) error {
	d.deadlines = append(d.deadlines, t)
	d.wroteBefore = d.wroteBefore || d.ResponseRecorder.Body.Len() > 0
	return nil
}

// The connection's write deadline is set once the answer is ready, to
// writeTimeout from then, before any of it is written. Catches: a client
// that stops reading holding its connection for the whole request timeout
// after its answer was ready, while others wait for a connection.
func TestHTTPAnswerIsWrittenWithinItsOwnDeadline(t *testing.T) {
	t.Parallel()
	h := httpServer(t, HTTPOptions{}, true)
	req := httptest.NewRequest(http.MethodPost, Path, strings.NewReader(showCall))
	req.Host = "127.0.0.1:7777"
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	w := &deadlineRecorder{ResponseRecorder: httptest.NewRecorder()}
	before := time.Now()
	h.ServeHTTP(w, req)
	after := time.Now()
	if len(w.deadlines) != 1 || w.wroteBefore || w.deadlines[0].Before(before.Add(writeTimeout)) || w.deadlines[0].After(after.Add(writeTimeout)) {
		t.Errorf("write deadlines %v (answer started before: %v); want one, writeTimeout after the answer was ready, set before it was written", w.deadlines, w.wroteBefore)
	}
	answered(t, w.ResponseRecorder)
}
