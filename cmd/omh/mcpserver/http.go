package mcpserver

import (
	"bytes"
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"golang.org/x/net/netutil"

	"github.com/omh-notes/omh/store"
)

// Path is where the HTTP server answers.
const Path = "/mcp"

const (
	// maxRequestBytes bounds a request's body, read whole before it is
	// answered. The largest argument any tool takes is new's body, a note;
	// 1 MiB is many times the longest note in the real vaults.
	maxRequestBytes = 1 << 20
	// callTimeout bounds a request from its headers read to its answer:
	// past it the client gets 503 and a call still waiting for its turn on
	// the store gives up. A call on a warm cache takes milliseconds; a
	// refresh after a large pull, seconds.
	callTimeout = time.Minute
	// maxConns bounds the connections served at once; more wait in the
	// kernel's queue. With the request body and one reply each, it bounds
	// what the server holds for clients that stop reading.
	maxConns = 128
)

// HTTPOptions say how the HTTP server admits requests.
type HTTPOptions struct {
	// Token, when not empty, is the bearer token every request must carry.
	Token      string
	AllowWrite bool
}

// ServeHTTP answers MCP's streamable HTTP transport at Path on ln until ctx
// ends, then lets the calls in hand finish. On a loopback listener the Host
// header must name a loopback host; elsewhere a token is required. Each
// request is answered alone (the server keeps no sessions: the tools keep
// no state between calls), so a client holds nothing on the server between
// its requests.
func ServeHTTP(ctx context.Context, ln net.Listener, s *store.Store, version string, o HTTPOptions) error {
	loopback := Loopback(ln.Addr())
	if !loopback && o.Token == "" {
		return errors.New("a token is required on an address other than loopback")
	}
	srv := &http.Server{
		Handler:           httpHandler(New(s, nil, version, o.AllowWrite), o, loopback),
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       30 * time.Second,
		// The answer is written after callTimeout at most; a client that
		// does not read it loses the connection rather than holding it.
		WriteTimeout: callTimeout + 10*time.Second,
		// An idle connection counts against maxConns: a client idle this
		// long reconnects.
		IdleTimeout:    30 * time.Second,
		MaxHeaderBytes: 16 << 10,
	}
	done := make(chan error, 1)
	go func() { done <- srv.Serve(netutil.LimitListener(ln, maxConns)) }()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
	}
	shutdown, cancel := context.WithTimeout(context.Background(), callTimeout)
	defer cancel()
	if err := srv.Shutdown(shutdown); err != nil {
		return fmt.Errorf("stopping the HTTP server: %w", err)
	}
	return nil
}

// httpHandler is the server's handler: the SDK's streamable transport,
// stateless and answering in JSON, behind guard, each request bounded in
// time.
func httpHandler(srv *mcp.Server, o HTTPOptions, loopback bool) http.Handler {
	sdk := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, &mcp.StreamableHTTPOptions{
		Stateless:    true,
		JSONResponse: true,
		// guard checks the Host header, saying why in omh's words.
		DisableLocalhostProtection: true,
		MaxRequestBodyBytes:        maxRequestBytes,
	})
	mux := http.NewServeMux()
	mux.Handle(Path, sdk)
	g := &guard{next: mux, loopback: loopback}
	if o.Token != "" {
		g.token = digest(o.Token)
	}
	timed := http.TimeoutHandler(g, callTimeout, fmt.Sprintf("the request took longer than %s\n", callTimeout))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		timed.ServeHTTP(&answerWriter{ResponseWriter: w}, r)
	})
}

// writeTimeout bounds writing an answer once it is ready: a client that
// does not read it loses the connection then, rather than when the
// server's WriteTimeout (counted from the request) ends. An answer of the
// tools is at most tens of kilobytes.
const writeTimeout = 10 * time.Second

// answerWriter sets the connection's write deadline when the answer
// starts to be written.
type answerWriter struct {
	http.ResponseWriter
	started bool
}

func (w *answerWriter) start() {
	if !w.started {
		w.started = true
		http.NewResponseController(w.ResponseWriter).SetWriteDeadline(time.Now().Add(writeTimeout))
	}
}

func (w *answerWriter) WriteHeader(code int) {
	w.start()
	w.ResponseWriter.WriteHeader(code)
}

func (w *answerWriter) Write(b []byte) (int, error) {
	w.start()
	return w.ResponseWriter.Write(b)
}

func (w *answerWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// guard admits a request before anything of it past its headers is read:
// a Host header naming no loopback host on a loopback listener (a page
// reaching the server through DNS rebinding) and an Origin other than the
// server's own (a page in a browser) are refused (403), a missing or wrong
// token is refused (401), a body longer than maxRequestBytes (413) and a
// batch, which MCP no longer has (400).
type guard struct {
	next     http.Handler
	loopback bool
	token    []byte // the token's digest; nil: none asked for
}

func (g *guard) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if g.loopback && !loopbackHost(r.Host) {
		http.Error(w, fmt.Sprintf("the Host header %q names no loopback host: this server answers on loopback only", r.Host), http.StatusForbidden)
		return
	}
	if origin := r.Header.Get("Origin"); origin != "" && !sameOrigin(origin, r.Host) {
		http.Error(w, fmt.Sprintf("a request from %q is refused: only the server's own origin may call it", origin), http.StatusForbidden)
		return
	}
	if g.token != nil && !authorized(r.Header.Get("Authorization"), g.token) {
		w.Header().Set("WWW-Authenticate", `Bearer realm="omh"`)
		http.Error(w, "a bearer token is required (Authorization: Bearer TOKEN)", http.StatusUnauthorized)
		return
	}
	if r.ContentLength > maxRequestBytes {
		http.Error(w, fmt.Sprintf("a request is at most %d bytes", maxRequestBytes), http.StatusRequestEntityTooLarge)
		return
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxRequestBytes))
	var tooLong *http.MaxBytesError
	switch {
	case errors.As(err, &tooLong):
		http.Error(w, fmt.Sprintf("a request is at most %d bytes", maxRequestBytes), http.StatusRequestEntityTooLarge)
		return
	case err != nil:
		http.Error(w, fmt.Sprintf("reading the request: %v", err), http.StatusBadRequest)
		return
	case bytes.HasPrefix(bytes.TrimLeft(body, " \t\r\n"), []byte("[")):
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusBadRequest)
		w.Write(errorLine(nil, jsonrpc.CodeInvalidRequest, "batches are not supported: send one message a request"))
		return
	}
	r.Body = io.NopCloser(bytes.NewReader(body))
	// The SDK does not end a call when its request ends (it keeps the
	// session's context for protocol versions before 2026-07-28); call
	// finds the request's context here and stops waiting for its turn.
	ctx := context.WithValue(r.Context(), requestKey{}, r.Context())
	g.next.ServeHTTP(w, r.WithContext(ctx))
}

// requestKey holds an HTTP request's context in its calls' contexts.
type requestKey struct{}

// ended is closed when the call in ctx may no longer be answered: its HTTP
// request ended, or, over standard input and output, its client cancelled it.
func ended(ctx context.Context) <-chan struct{} {
	if r, ok := ctx.Value(requestKey{}).(context.Context); ok {
		return r.Done()
	}
	return ctx.Done()
}

// digest is what a token is compared as: equal lengths, so the comparison
// takes as long whatever the token given.
func digest(token string) []byte {
	d := sha256.Sum256([]byte(token))
	return d[:]
}

// authorized reports whether an Authorization header carries the token
// whose digest is want, comparing in constant time: a comparison that
// stops at the first differing byte tells a caller timing it how much of
// its guess is right.
func authorized(header string, want []byte) bool {
	scheme, token, ok := strings.Cut(header, " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return false
	}
	return subtle.ConstantTimeCompare(digest(strings.TrimSpace(token)), want) == 1
}

// Loopback reports whether a listener's address is on loopback.
func Loopback(addr net.Addr) bool {
	ap, err := netip.ParseAddrPort(addr.String())
	return err == nil && ap.Addr().IsLoopback()
}

// loopbackHost reports whether a Host header names a loopback host.
func loopbackHost(hostport string) bool {
	host := hostport
	if h, _, err := net.SplitHostPort(hostport); err == nil {
		host = h
	}
	host = strings.TrimSuffix(strings.Trim(host, "[]"), ".")
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip, err := netip.ParseAddr(host)
	return err == nil && ip.IsLoopback()
}

// sameOrigin reports whether an Origin header names the host the request
// was sent to.
func sameOrigin(origin, host string) bool {
	u, err := url.Parse(origin)
	return err == nil && (u.Scheme == "http" || u.Scheme == "https") && strings.EqualFold(u.Host, host)
}
