package main

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/omh-notes/omh/cmd/omh/mcpserver"
	"github.com/omh-notes/omh/reply"
	"github.com/omh-notes/omh/store"
)

// McpCmd is `omh mcp`.
type McpCmd struct {
	AllowWrite bool   `name:"allow-write" help:"Also offer the tools that write: new (a private note) and retract (a record's frontmatter)."`
	HTTP       string `name:"http" placeholder:"ADDR" help:"Serve over HTTP at ADDR (HOST:PORT; :PORT is loopback), path /mcp, rather than on standard input and output. An address other than loopback needs a token."`
	TokenFile  string `name:"token-file" placeholder:"PATH" type:"path" help:"With --http, the bearer token every request must carry, read from PATH (or from the environment variable OMH_MCP_TOKEN)."`
}

// tokenEnv names the environment variable a token may come from: a token
// on the command line would show in every process list.
const tokenEnv = "OMH_MCP_TOKEN"

// minTokenLen is the shortest token taken: 16 characters of a random hex
// token are 64 bits, past guessing over a network.
const minTokenLen = 16

// Help is the detail under `omh mcp --help`.
func (c *McpCmd) Help() string {
	return `A Model Context Protocol server on standard input and output, for coding agents. Its tools are find, show, links, proof_find, proof_show, changes and status, each answering as the command of that name does, from the store as it is at the call (every call refreshes the cache first; on Linux the server watches the working tree, so a call stats only the files changed since the last, elsewhere every note). Text replies are what the command prints; the JSON the command prints with --json comes as structured content. A refusal is a tool error whose text starts with its stable code (not_found: ...). Without --allow-write nothing is written but the cache. docs/agents.md shows how to wire it into an agent.

With --http ADDR the same tools are served at http://ADDR/mcp over MCP's streamable HTTP transport, so several agents share one warm server. On loopback (127.0.0.1, ::1, localhost; ":PORT" is 127.0.0.1) no token is needed and a request whose Host header names another host is refused; any other address needs a bearer token, from --token-file or ` + tokenEnv + ` (at least 16 characters; never on the command line), and refuses every request without it (401). A request from a browser page of another origin is refused (403), a body over 1 MiB (413), a request unanswered after a minute gets 503. The server stops on an interrupt, finishing the calls in hand.`
}

func (c *McpCmd) Run(e *env) error {
	if c.HTTP == "" && c.TokenFile != "" {
		return usage(errors.New("--token-file goes with --http"))
	}
	if c.HTTP != "" {
		return c.serveHTTP(e)
	}
	// The server lives long: it watches the working tree, so a call stats
	// only what changed since the last.
	opt := e.options()
	opt.Watch = true
	s, err := store.Open(e.cli.Dir, opt)
	if err != nil {
		// Agents start the server wherever they run, which may be no
		// repository: it serves anyway, each call answering why it cannot.
		e.warn("%s", err)
	} else {
		defer s.Close()
	}
	version, _, _ := buildVersion()
	return mcpserver.Serve(context.Background(), s, err, version, c.AllowWrite, e.stdin, e.stdout)
}

// serveHTTP serves over HTTP until interrupted. Unlike the server on
// standard input and output, which an agent starts wherever it runs, a
// store that cannot be opened is an error: a person started this one.
func (c *McpCmd) serveHTTP(e *env) error {
	token, err := c.token()
	if err != nil {
		return err
	}
	addr, err := listenAddr(c.HTTP)
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return refuse(reply.CannotListen, fmt.Errorf("cannot serve at %s: %w", c.HTTP, err))
	}
	defer ln.Close()
	if !mcpserver.Loopback(ln.Addr()) && token == "" {
		return usage(fmt.Errorf("%s is not a loopback address: serving there needs a bearer token, from --token-file or %s", c.HTTP, tokenEnv))
	}
	// Clients that connect while the cache is warmed wait in the
	// listener's queue.
	opt := e.options()
	opt.Watch = true
	s, err := store.Open(e.cli.Dir, opt)
	if err != nil {
		return err
	}
	defer s.Close()
	if _, err := s.Index(false); err != nil { // warm: the first call finds the cache fresh
		return err
	}
	mode := "read-only"
	if c.AllowWrite {
		mode = "new and retract allowed"
	}
	e.warn("serving the notes at http://%s%s (%s)", ln.Addr(), mcpserver.Path, mode)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	version, _, _ := buildVersion()
	return mcpserver.ServeHTTP(ctx, ln, s, version, mcpserver.HTTPOptions{Token: token, AllowWrite: c.AllowWrite})
}

// token is the bearer token requests must carry: the file's, else the
// environment's, else none.
func (c *McpCmd) token() (string, error) {
	token, from := os.Getenv(tokenEnv), tokenEnv
	if c.TokenFile != "" {
		b, err := os.ReadFile(c.TokenFile)
		if err != nil {
			return "", usage(fmt.Errorf("reading the token: %w", err))
		}
		token, from = string(b), c.TokenFile
	}
	token = strings.TrimSpace(token)
	if token == "" && c.TokenFile != "" {
		return "", usage(fmt.Errorf("the token file %s is empty", c.TokenFile))
	}
	if token != "" && len(token) < minTokenLen {
		return "", usage(fmt.Errorf("the token in %s is %d characters; take at least %d (openssl rand -hex 16)", from, len(token), minTokenLen))
	}
	return token, nil
}

// listenAddr is ADDR as net.Listen takes it: a missing host is loopback,
// never every interface.
func listenAddr(addr string) (string, error) {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return "", usage(fmt.Errorf("--http takes HOST:PORT or :PORT, not %q", addr))
	}
	if host == "" {
		host = "127.0.0.1"
	}
	return net.JoinHostPort(host, port), nil
}
