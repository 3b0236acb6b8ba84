// Package mcpserver is omh's Model Context Protocol server: the tools an
// agent calls, each answering as the command of that name does, from one
// open store. It chooses renderings of the store's replies and renders
// nothing of its own.
package mcpserver

import (
	"context"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strings"
	"sync"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/omh-notes/omh/store"
	"github.com/omh-notes/omh/store/reply"
)

// Serve answers a client on in and out until it goes away. Without a
// store, openErr says why none could be opened, and every call answers it.
func Serve(ctx context.Context, s *store.Store, openErr error, version string, allowWrite bool, in io.Reader, out io.Writer) error {
	err := New(s, openErr, version, allowWrite).Run(ctx, lineTransport{in, out})
	if errors.Is(err, io.EOF) || errors.Is(err, mcp.ErrConnectionClosed) {
		return nil // the client went away: the session is over
	}
	return err
}

// mcpServer answers tool calls from one open store. Calls take turns: a
// Store serves one call at a time.
type mcpServer struct {
	mu      sync.Mutex
	s       *store.Store
	openErr error // why there is no store
}

// readOnly marks a tool that changes nothing but the cache.
var readOnly = &mcp.ToolAnnotations{ReadOnlyHint: true, IdempotentHint: true}

// New builds the server and its tools, offering the tools that write only
// with allowWrite. Without a store (s nil) it still starts, lists its
// tools and answers each call with openErr: a server that exits before
// initialize shows the agent's user only "connection closed", never why.
// The descriptions are short
// and name the call that follows up, and arguments whose names say it all
// (question, key, body) go undescribed: the tool list is sent to the
// agent's context window whole (a test holds it under 4 KB).
func New(s *store.Store, openErr error, version string, allowWrite bool) *mcp.Server {
	srv := mcp.NewServer(&mcp.Implementation{Name: "omh", Version: version}, &mcp.ServerOptions{
		Instructions: "Notes of this git repository. Ask find first; every reply names each note's layer (team: committed; local: this machine only), date and the commit.",
	})
	m := &mcpServer{s: s, openErr: openErr}
	mcp.AddTool(srv, &mcp.Tool{Name: "find", Annotations: readOnly, InputSchema: findSchema(),
		Description: "Notes answering a question, as cards. Follow up with show (key; lines: a passage's range) or links."}, m.find)
	mcp.AddTool(srv, &mcp.Tool{Name: "show", Annotations: readOnly,
		Description: "A note: provenance, links both ways, content; lines A-B for part of it."}, m.show)
	mcp.AddTool(srv, &mcp.Tool{Name: "links", Annotations: readOnly,
		Description: "A note's links out and in, with verbs, layers and dates."}, m.links)
	mcp.AddTool(srv, &mcp.Tool{Name: "proof_find", Annotations: readOnly,
		Description: "Proof records answering a question, with where each stands. Follow up with proof_show."}, m.proofFind)
	mcp.AddTool(srv, &mcp.Tool{Name: "proof_show", Annotations: readOnly,
		Description: "A record's state, the records that decided it, its links and content."}, m.proofShow)
	mcp.AddTool(srv, &mcp.Tool{Name: "status", Annotations: readOnly,
		Description: "What the cache holds, and whether it is fresh (the other tools refresh it)."}, m.status)
	if allowWrite {
		mcp.AddTool(srv, &mcp.Tool{Name: "new", Annotations: &mcp.ToolAnnotations{DestructiveHint: new(bool)}, InputSchema: argsSchema[newArgs](),
			Description: "Write a private note (this machine only) from its type's template; omh promote shares it."}, m.newNote)
		mcp.AddTool(srv, &mcp.Tool{Name: "retract", Annotations: &mcp.ToolAnnotations{},
			Description: "Withdraw a proof record: set retracted and retracted_reason."}, m.retract)
	}
	srv.AddReceivingMiddleware(codeArgumentErrors)
	return srv
}

// argsSchema is the input schema of a tool taking T, with lists typed as
// arrays rather than as "array or null" (an agent sends a list or leaves it
// out), which keeps the tool list shorter.
func argsSchema[T any]() *jsonschema.Schema {
	s, err := jsonschema.For[T](&jsonschema.ForOptions{TypeSchemas: map[reflect.Type]*jsonschema.Schema{
		reflect.TypeFor[[]string](): {Type: "array", Items: &jsonschema.Schema{Type: "string"}},
	}})
	if err != nil {
		panic(err) // the argument types themselves are wrong
	}
	return s
}

// findSchema is find's input schema, its defaults the command line's.
func findSchema() *jsonschema.Schema {
	s := argsSchema[findArgs]()
	s.Properties["roots"].Description = fmt.Sprintf("ranked notes (default %d)", store.DefaultRoots)
	s.Properties["max_chars"].Description = fmt.Sprintf("reply size aimed at (default %d)", store.DefaultMaxChars)
	return s
}

// call runs one use case on the store, alone.
func (m *mcpServer) call(fn func(*store.Store) (text string, reply any, err error)) (*mcp.CallToolResult, any, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.s == nil {
		return toolError(m.openErr)
	}
	text, reply, err := fn(m.s)
	if err != nil {
		return toolError(err)
	}
	return &mcp.CallToolResult{Content: textContent(text)}, reply, nil
}

// textContent is a text reply as the command line prints it: the agent's
// client may show it on a terminal, so control characters and
// bidirectional overrides are escaped as on omh's standard output.
// Structured content, like --json, stays exact.
func textContent(text string) []mcp.Content {
	return []mcp.Content{&mcp.TextContent{Text: reply.EscapeControls(text, "\n\t")}}
}

// toolError is a failed call as the agent sees it: a tool error whose text
// starts with omh's stable code, and the JSON --json prints on standard
// error as structured content.
func toolError(err error) (*mcp.CallToolResult, any, error) {
	code := store.Code(err)
	return &mcp.CallToolResult{IsError: true, Content: textContent(code + ": " + err.Error())}, reply.Failure(code, err), nil
}

// codeArgumentErrors gives the calls the SDK refuses before a tool runs
// (arguments of the wrong type, a missing question) the code a command
// line the parser refused gets: usage.
func codeArgumentErrors(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		res, err := next(ctx, method, req)
		if r, ok := res.(*mcp.CallToolResult); ok && err == nil && r.IsError && r.StructuredContent == nil {
			msg := textOf(r)
			r.Content = textContent(reply.Usage + ": " + msg)
			r.StructuredContent = reply.Failure(reply.Usage, errors.New(msg))
		}
		return res, err
	}
}

// textOf joins a result's text.
func textOf(r *mcp.CallToolResult) string {
	var b strings.Builder
	for _, c := range r.Content {
		if t, ok := c.(*mcp.TextContent); ok {
			b.WriteString(t.Text)
		}
	}
	return b.String()
}

// toolLines reads a lines argument: "" is the whole note.
func toolLines(s string) (store.Lines, error) {
	if s == "" {
		return store.Lines{}, nil
	}
	return store.ParseLines(s)
}

func orDefault(n, def int) int {
	if n == 0 {
		return def
	}
	return n
}

type findArgs struct {
	Question string   `json:"question"`
	Also     []string `json:"also,omitempty" jsonschema:"other phrasings"`
	Roots    int      `json:"roots,omitempty"`
	Layer    string   `json:"layer,omitempty" jsonschema:"team or local (default both)"`
	Type     string   `json:"type,omitempty" jsonschema:"only ranked notes of this type"`
	AsOf     string   `json:"as_of,omitempty" jsonschema:"YYYY-MM-DD or a commit: as of then"`
	MaxChars int      `json:"max_chars,omitempty"`
}

func (m *mcpServer) find(_ context.Context, _ *mcp.CallToolRequest, a findArgs) (*mcp.CallToolResult, any, error) {
	return m.call(func(s *store.Store) (string, any, error) {
		q, err := store.NewQuestion(strings.TrimSpace(a.Question), a.Also, orDefault(a.Roots, store.DefaultRoots), a.Layer, a.Type, "default",
			orDefault(a.MaxChars, store.DefaultMaxChars))
		if err != nil {
			return "", nil, err
		}
		q.AsOf, q.Cards = a.AsOf, true
		return ask(s, q)
	})
}

// ask answers a question as cards, with the JSON reply beside them.
func ask(s *store.Store, q store.Question) (string, any, error) {
	ans, err := s.Ask(q)
	if err != nil {
		return "", nil, err
	}
	return ans.Cards(), ans.JSON(), nil
}

type showArgs struct {
	Key   string `json:"key"`
	Layer string `json:"layer,omitempty" jsonschema:"team or local (default both)"`
	Lines string `json:"lines,omitempty" jsonschema:"A-B: only these lines (from 1)"`
}

func (m *mcpServer) show(_ context.Context, _ *mcp.CallToolRequest, a showArgs) (*mcp.CallToolResult, any, error) {
	return m.call(func(s *store.Store) (string, any, error) {
		layer, err := store.ParseLayer(a.Layer)
		if err != nil {
			return "", nil, err
		}
		lines, err := toolLines(a.Lines)
		if err != nil {
			return "", nil, err
		}
		shown, err := s.Show(a.Key, layer, lines)
		if err != nil {
			return "", nil, err
		}
		var b strings.Builder
		shown.Text(&b)
		return b.String(), shown, nil
	})
}

type linksArgs struct {
	Key       string `json:"key"`
	Direction string `json:"direction,omitempty" jsonschema:"out, in or both (default)"`
}

func (m *mcpServer) links(_ context.Context, _ *mcp.CallToolRequest, a linksArgs) (*mcp.CallToolResult, any, error) {
	return m.call(func(s *store.Store) (string, any, error) {
		dir, ok := map[string]store.Direction{"": store.BothWays, "both": store.BothWays, "out": store.LinksOut, "in": store.LinksIn}[a.Direction]
		if !ok {
			return "", nil, store.Usage(fmt.Errorf("direction is out, in or both, not %q", a.Direction))
		}
		linked, err := s.Links(a.Key, 0, dir)
		if err != nil {
			return "", nil, err
		}
		var b strings.Builder
		linked.Text(&b)
		return b.String(), linked, nil
	})
}

type proofFindArgs struct {
	Question  string `json:"question"`
	AsOf      string `json:"as_of,omitempty" jsonschema:"YYYY-MM-DD or a commit: as of then"`
	Retracted string `json:"retracted,omitempty" jsonschema:"exclude (default), include or only"`
}

func (m *mcpServer) proofFind(_ context.Context, _ *mcp.CallToolRequest, a proofFindArgs) (*mcp.CallToolResult, any, error) {
	return m.call(func(s *store.Store) (string, any, error) {
		q, err := store.NewQuestion(strings.TrimSpace(a.Question), nil, store.DefaultRoots, "", "", "default", store.DefaultMaxChars)
		if err != nil {
			return "", nil, err
		}
		if q.Retracted, err = store.ParseRetraction(a.Retracted); err != nil {
			return "", nil, err
		}
		q.AsOf, q.Cards, q.Records = a.AsOf, true, true
		return ask(s, q)
	})
}

type proofShowArgs struct {
	Key  string `json:"key"`
	AsOf string `json:"as_of,omitempty" jsonschema:"YYYY-MM-DD or a commit: as of then"`
}

func (m *mcpServer) proofShow(_ context.Context, _ *mcp.CallToolRequest, a proofShowArgs) (*mcp.CallToolResult, any, error) {
	return m.call(func(s *store.Store) (string, any, error) {
		recs, err := s.ProofShow(a.Key, 0, a.AsOf)
		if err != nil {
			return "", nil, err
		}
		if recs.Absent != nil { // no store to read at that moment
			return recs.Absent.Tree(), recs.Absent.JSON(), nil
		}
		var b strings.Builder
		recs.Text(&b)
		return b.String(), recs, nil
	})
}

func (m *mcpServer) status(_ context.Context, _ *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, any, error) {
	return m.call(func(s *store.Store) (string, any, error) {
		st, err := s.Status()
		if err != nil {
			return "", nil, err
		}
		var b strings.Builder
		st.Text(&b)
		return b.String(), st, nil
	})
}

type newArgs struct {
	Type    string   `json:"type" jsonschema:"a note type, such as finding"`
	Title   string   `json:"title" jsonschema:"its title, which its key derives from"`
	Answers []string `json:"answers,omitempty" jsonschema:"questions it answers"`
	Links   []string `json:"links,omitempty" jsonschema:"notes it links to: KEY or VERB:KEY"`
	Body    string   `json:"body,omitempty"`
}

func (m *mcpServer) newNote(_ context.Context, _ *mcp.CallToolRequest, a newArgs) (*mcp.CallToolResult, any, error) {
	return m.call(func(s *store.Store) (string, any, error) {
		d := store.Draft{Type: a.Type, Title: a.Title, Answers: a.Answers, Links: a.Links}
		if a.Body != "" {
			d.Body = []byte(a.Body)
		}
		rep, err := s.New(d)
		if err != nil {
			return "", nil, err
		}
		var b strings.Builder
		rep.Text(&b)
		return b.String(), rep, nil
	})
}

type retractArgs struct {
	Key    string `json:"key"`
	Reason string `json:"reason"`
	Team   bool   `json:"team,omitempty" jsonschema:"also edit a record git tracks"`
}

func (m *mcpServer) retract(_ context.Context, _ *mcp.CallToolRequest, a retractArgs) (*mcp.CallToolResult, any, error) {
	return m.call(func(s *store.Store) (string, any, error) {
		rep, err := s.Retract(a.Key, a.Reason, a.Team)
		if err != nil {
			return "", nil, err
		}
		var b strings.Builder
		rep.Text(&b)
		return b.String(), rep, nil
	})
}
