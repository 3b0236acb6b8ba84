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
	"slices"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/omh-notes/omh/reply"
	"github.com/omh-notes/omh/store"
)

// Serve answers a client on in and out until it goes away. Without a
// store, openErr says why none could be opened, and every call answers it.
func Serve(ctx context.Context, s *store.Store, openErr error, version string, allowWrite bool, in io.Reader, out io.Writer) error {
	err := New(s, openErr, version, allowWrite).Run(ctx, bounded(lineTransport{in, out}, maxUnanswered))
	if errors.Is(err, io.EOF) || errors.Is(err, mcp.ErrConnectionClosed) {
		return nil // the client went away: the session is over
	}
	return err
}

// mcpServer answers tool calls from one open store. Calls take turns, in
// the order they came: a Store serves one call at a time.
type mcpServer struct {
	turn    chan struct{} // holds a token while a call has the store
	s       *store.Store
	openErr error // why there is no store
}

// instructions are what an agent reads once, at initialize: how to read
// find's verdict and when to stop. An agent that could not tell "not in
// the notes" from "badly ranked" searched again with grep to be sure; on
// the tune questions with phrasings weak or none was right for 28 of 28
// replies, and a leading first note for 50 of 52 (docs/agents.md).
const instructions = "Notes of this git repository, and of the stores it answers with. Ask find first, with phrasings. Its first line is the verdict: " +
	"'answered: the first note leads clearly': the first card answers, stop; " +
	"'answered: several notes score close': compare the full cards; " +
	"'weak' or 'none': the notes do not hold it, do not search them again. " +
	"Every reply names each note's layer (team: committed; local: this machine only), date and the commit. " +
	"A note of another store has its store's name before its key (handbook:topic/x), as show and links take it; find's store lists the stores to ask (. is this one)."

// readOnly marks a tool that changes nothing but the cache.
var readOnly = &mcp.ToolAnnotations{ReadOnlyHint: true, IdempotentHint: true}

// New builds the server and its tools, offering the tools that write only
// with allowWrite. Without a store (s nil) it still starts, lists its
// tools and answers each call with openErr: a server that exits before
// initialize shows the agent's user only "connection closed", never why.
// The descriptions are short and name the call that follows up, and
// arguments whose names say it all (question, key, body) go undescribed:
// the tool list is sent to the agent's context window whole (a test holds
// it under 4 KB).
func New(s *store.Store, openErr error, version string, allowWrite bool) *mcp.Server {
	srv := mcp.NewServer(&mcp.Implementation{Name: "omh", Version: version}, &mcp.ServerOptions{
		Instructions: instructions,
	})
	m := &mcpServer{turn: make(chan struct{}, 1), s: s, openErr: openErr}
	schemas := map[string]*jsonschema.Schema{}
	add(srv, schemas, &mcp.Tool{Name: "find", Annotations: readOnly, InputSchema: findSchema(),
		Description: "Cards answering a question; line 1 is the verdict (answered: read the first cards, stop; weak, none: not in the notes). Phrasings lift right .55 to .87."}, m.find)
	add(srv, schemas, &mcp.Tool{Name: "show", Annotations: readOnly,
		Description: fmt.Sprintf("A note: provenance, links, content (max_chars, default %d); lines A-B pages on.", store.DefaultShowChars)}, m.show)
	add(srv, schemas, &mcp.Tool{Name: "links", Annotations: readOnly,
		Description: fmt.Sprintf("A note's links out and in: limit each way (default %d; 0 all), offset.", store.DefaultLinksLimit)}, m.links)
	add(srv, schemas, &mcp.Tool{Name: "proof_find", Annotations: readOnly, InputSchema: proofFindSchema(),
		Description: "Proof records answering a question, and where each stands; phrasings as find's."}, m.proofFind)
	add(srv, schemas, &mcp.Tool{Name: "proof_show", Annotations: readOnly,
		Description: "A record: its state, the records deciding it, links, content."}, m.proofShow)
	add(srv, schemas, &mcp.Tool{Name: "changes", Annotations: readOnly, InputSchema: changesSchema(),
		Description: "Notes changed since a date or commit (default: a week), newest first."}, m.changes)
	add(srv, schemas, &mcp.Tool{Name: "status", Annotations: readOnly,
		Description: "What the cache holds, how fresh."}, m.status)
	if allowWrite {
		add(srv, schemas, &mcp.Tool{Name: "new", Annotations: &mcp.ToolAnnotations{DestructiveHint: new(bool)},
			Description: "Write a private note from its type's template; omh promote shares it."}, m.newNote)
		add(srv, schemas, &mcp.Tool{Name: "retract", Annotations: &mcp.ToolAnnotations{},
			Description: "Withdraw a proof record (retracted, retracted_reason)."}, m.retract)
	}
	srv.AddReceivingMiddleware(readArguments(schemas))
	return srv
}

// add offers a tool taking In, its schema the one derived from In unless
// given, and keeps the schema for reading its calls' arguments.
func add[In any](srv *mcp.Server, schemas map[string]*jsonschema.Schema, tool *mcp.Tool, h mcp.ToolHandlerFor[In, any]) {
	if tool.InputSchema == nil {
		tool.InputSchema = argsSchema[In]()
	}
	schemas[tool.Name] = tool.InputSchema.(*jsonschema.Schema)
	mcp.AddTool(srv, tool, h)
}

// argsSchema is the input schema of a tool taking T, with lists typed as
// arrays and a number whose zero is no default (*int) as an integer,
// rather than as "or null" (an agent sends one or leaves it out, and null
// is read as left out), which keeps the tool list shorter. It leaves out
// additionalProperties: readArguments refuses a parameter the tool lacks,
// naming those it has.
func argsSchema[T any]() *jsonschema.Schema {
	s, err := jsonschema.For[T](&jsonschema.ForOptions{TypeSchemas: map[reflect.Type]*jsonschema.Schema{
		reflect.TypeFor[[]string](): {Type: "array", Items: &jsonschema.Schema{Type: "string"}},
	}})
	if err != nil {
		panic(err) // the argument types themselves are wrong
	}
	s.AdditionalProperties = nil
	for _, p := range s.Properties {
		if slices.Equal(p.Types, []string{"null", "integer"}) {
			p.Type, p.Types = "integer", nil
		}
	}
	return s
}

// phrasingsHelp says what to pass as phrasings: each is ranked alone and adds to
// the question's score, so rewordings in the notes' own words find the note
// the question's words miss (first note right rose from .55 to .87 on real
// vaults).
const phrasingsHelp = "2-3 rewordings in the words the notes likely use: one a short keyword query, one a guess at the answer's sentence (alias also)"

// findSchema is find's input schema, its defaults the command line's.
func findSchema() *jsonschema.Schema {
	s := argsSchema[findArgs]()
	s.Properties["phrasings"].Description = phrasingsHelp
	s.Properties["roots"].Description = fmt.Sprintf("default %d", store.DefaultRoots)
	s.Properties["max_chars"].Description = fmt.Sprintf("default %d", store.DefaultMaxChars)
	return s
}

// proofFindSchema is proof_find's input schema.
func proofFindSchema() *jsonschema.Schema {
	s := argsSchema[proofFindArgs]()
	s.Properties["phrasings"].Description = "as find's"
	return s
}

// call runs one use case on the store, alone, once the calls before it
// are done; a call whose request ends while it waits gives up.
func (m *mcpServer) call(ctx context.Context, fn func(*store.Store) (text string, reply any, err error)) (*mcp.CallToolResult, any, error) {
	select {
	case m.turn <- struct{}{}:
	case <-ended(ctx):
		return nil, nil, fmt.Errorf("the call ended waiting for its turn: %w", ctx.Err())
	}
	defer func() { <-m.turn }()
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
	Question  string   `json:"question"`
	Phrasings []string `json:"phrasings,omitempty"`
	Roots     int      `json:"roots,omitempty"`
	Layer     string   `json:"layer,omitempty"`
	Type      string   `json:"type,omitempty" jsonschema:"ranked notes' type"`
	AsOf      string   `json:"as_of,omitempty" jsonschema:"YYYY-MM-DD or commit"`
	MaxChars  int      `json:"max_chars,omitempty"`
	Store     []string `json:"store,omitempty"`
	filterArgs
}

// filterArgs narrow the ranked notes, as the command line's --tag, --path
// and --since do; their names say what they take, as as_of's says since's.
type filterArgs struct {
	Tags  []string `json:"tags,omitempty"`
	Path  string   `json:"path,omitempty"`
	Since string   `json:"since,omitempty"`
}

// filter is the store's reading of the arguments.
func (a filterArgs) filter() store.Filter {
	return store.Filter{Tags: a.Tags, Path: a.Path, Since: a.Since}
}

func (m *mcpServer) find(ctx context.Context, _ *mcp.CallToolRequest, a findArgs) (*mcp.CallToolResult, any, error) {
	return m.call(ctx, func(s *store.Store) (string, any, error) {
		q, err := store.NewQuestion(store.QuestionArgs{Text: strings.TrimSpace(a.Question), Also: a.Phrasings, Roots: orDefault(a.Roots, store.DefaultRoots),
			Layer: a.Layer, Type: a.Type, Ranker: "default", MaxChars: orDefault(a.MaxChars, store.DefaultMaxChars)})
		if err != nil {
			return "", nil, err
		}
		q.AsOf, q.Cards, q.Filter = a.AsOf, true, a.filter()
		if q.Stores, err = store.ParseStores(a.Store); err != nil {
			return "", nil, err
		}
		return ask(s, q)
	})
}

// ask answers a question as cards, with what they show as structured
// content: the reply of --json, sized as the cards are (ContextJSON).
func ask(s *store.Store, q store.Question) (string, any, error) {
	ans, err := s.Ask(q)
	if err != nil {
		return "", nil, err
	}
	return ans.Cards(), ans.ContextJSON(), nil
}

type showArgs struct {
	Key      string `json:"key"`
	Layer    string `json:"layer,omitempty"`
	Lines    string `json:"lines,omitempty" jsonschema:"A-B"`
	MaxChars int    `json:"max_chars,omitempty"`
}

func (m *mcpServer) show(ctx context.Context, _ *mcp.CallToolRequest, a showArgs) (*mcp.CallToolResult, any, error) {
	return m.call(ctx, func(s *store.Store) (string, any, error) {
		layer, err := store.ParseLayer(a.Layer)
		if err != nil {
			return "", nil, err
		}
		lines, err := toolLines(a.Lines)
		if err != nil {
			return "", nil, err
		}
		shown, err := s.Show(a.Key, store.Scope{Layer: layer}, lines, orDefault(a.MaxChars, store.DefaultShowChars))
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
	Direction string `json:"direction,omitempty" jsonschema:"out, in, both (default)"`
	Limit     *int   `json:"limit,omitempty"`
	Offset    int    `json:"offset,omitempty"`
}

func (m *mcpServer) links(ctx context.Context, _ *mcp.CallToolRequest, a linksArgs) (*mcp.CallToolResult, any, error) {
	return m.call(ctx, func(s *store.Store) (string, any, error) {
		dir, ok := map[string]store.Direction{"": store.BothWays, "both": store.BothWays, "out": store.LinksOut, "in": store.LinksIn}[a.Direction]
		if !ok {
			return "", nil, store.Usage(fmt.Errorf("direction is out, in or both, not %q", a.Direction))
		}
		limit := store.DefaultLinksLimit
		if a.Limit != nil {
			limit = *a.Limit
		}
		page, err := store.NewPage(a.Offset, limit)
		if err != nil {
			return "", nil, err
		}
		linked, err := s.Links(a.Key, store.Scope{}, dir, page)
		if err != nil {
			return "", nil, err
		}
		var b strings.Builder
		linked.Text(&b)
		return b.String(), linked, nil
	})
}

type proofFindArgs struct {
	Question  string   `json:"question"`
	Phrasings []string `json:"phrasings,omitempty"`
	AsOf      string   `json:"as_of,omitempty" jsonschema:"YYYY-MM-DD or commit"`
	Retracted string   `json:"retracted,omitempty" jsonschema:"exclude (default), include, only"`
	filterArgs
}

func (m *mcpServer) proofFind(ctx context.Context, _ *mcp.CallToolRequest, a proofFindArgs) (*mcp.CallToolResult, any, error) {
	return m.call(ctx, func(s *store.Store) (string, any, error) {
		q, err := store.NewQuestion(store.QuestionArgs{Text: strings.TrimSpace(a.Question), Also: a.Phrasings, Roots: store.DefaultRoots, Ranker: "default",
			MaxChars: store.DefaultMaxChars})
		if err != nil {
			return "", nil, err
		}
		if q.Retracted, err = store.ParseRetraction(a.Retracted); err != nil {
			return "", nil, err
		}
		q.AsOf, q.Cards, q.Records, q.Filter = a.AsOf, true, true, a.filter()
		return ask(s, q)
	})
}

type changesArgs struct {
	Since  string `json:"since,omitempty"`
	Limit  *int   `json:"limit,omitempty"`
	Offset int    `json:"offset,omitempty"`
}

// changesSchema is changes' input schema.
func changesSchema() *jsonschema.Schema {
	s := argsSchema[changesArgs]()
	return s
}

func (m *mcpServer) changes(ctx context.Context, _ *mcp.CallToolRequest, a changesArgs) (*mcp.CallToolResult, any, error) {
	return m.call(ctx, func(s *store.Store) (string, any, error) {
		limit := store.DefaultChangesLimit
		if a.Limit != nil {
			limit = *a.Limit
		}
		page, err := store.NewChangesPage(a.Offset, limit)
		if err != nil {
			return "", nil, err
		}
		changes, err := s.Changes(a.Since, store.Scope{}, page)
		if err != nil {
			return "", nil, err
		}
		var b strings.Builder
		changes.Text(&b)
		return b.String(), changes, nil
	})
}

type proofShowArgs struct {
	Key  string `json:"key"`
	AsOf string `json:"as_of,omitempty" jsonschema:"YYYY-MM-DD or commit"`
}

func (m *mcpServer) proofShow(ctx context.Context, _ *mcp.CallToolRequest, a proofShowArgs) (*mcp.CallToolResult, any, error) {
	return m.call(ctx, func(s *store.Store) (string, any, error) {
		recs, err := s.ProofShow(a.Key, store.Scope{}, a.AsOf)
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

func (m *mcpServer) status(ctx context.Context, _ *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, any, error) {
	return m.call(ctx, func(s *store.Store) (string, any, error) {
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
	Type    string   `json:"type" jsonschema:"e.g. finding"`
	Title   string   `json:"title"`
	Answers []string `json:"answers,omitempty" jsonschema:"questions it answers"`
	Links   []string `json:"links,omitempty" jsonschema:"KEY or VERB:KEY"`
	Body    string   `json:"body,omitempty"`
}

func (m *mcpServer) newNote(ctx context.Context, _ *mcp.CallToolRequest, a newArgs) (*mcp.CallToolResult, any, error) {
	return m.call(ctx, func(s *store.Store) (string, any, error) {
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

func (m *mcpServer) retract(ctx context.Context, _ *mcp.CallToolRequest, a retractArgs) (*mcp.CallToolResult, any, error) {
	return m.call(ctx, func(s *store.Store) (string, any, error) {
		rep, err := s.Retract(a.Key, a.Reason, a.Team)
		if err != nil {
			return "", nil, err
		}
		var b strings.Builder
		rep.Text(&b)
		return b.String(), rep, nil
	})
}
