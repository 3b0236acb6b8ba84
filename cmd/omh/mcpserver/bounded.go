package mcpserver

import (
	"context"
	"errors"
	"io"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// maxUnanswered is how many calls a session holds read and not yet
// answered. The SDK reads every message as it comes and starts a handler
// for each call, so a client that sends and never reads made the server
// keep every reply: 100,000 pipelined show calls took its RSS from
// 181 MiB to 1,482 MiB in 30 s. The tools take turns on the store, so
// more than a few calls in hand answer nothing sooner; four bound what a
// stalled client costs to four replies.
const maxUnanswered = 4

// codeRequestCancelled answers a call its client cancelled, the code
// JSON-RPC protocols give it (LSP's RequestCancelled): the SDK answered
// with code 0, which JSON-RPC reserves for nothing. MCP adds that the
// client ignores the answer.
const codeRequestCancelled = -32800

// bounded wraps a transport so that each session it connects holds at most
// limit calls read and not yet answered: past that it reads nothing more
// until an answer has been written, so a client that stops reading stops
// the server reading too, and input waits in the client's pipe, not in the
// server's memory. At the end of input it answers every call read before
// it lets the session end. It serves any transport: standard input and
// output, or a session of an HTTP server.
func bounded(t mcp.Transport, limit int) mcp.Transport {
	return boundedTransport{t, limit}
}

type boundedTransport struct {
	inner mcp.Transport
	limit int
}

func (t boundedTransport) Connect(ctx context.Context) (mcp.Connection, error) {
	c, err := t.inner.Connect(ctx)
	if err != nil {
		return nil, err
	}
	return &boundedConn{Connection: c, slots: make(chan struct{}, t.limit), closed: make(chan struct{}),
		answered: make(chan struct{}, 1), pending: map[jsonrpc.ID]bool{}}, nil
}

// boundedConn is one session's connection: a slot is taken before each
// message is read and kept by a call until its answer is written.
type boundedConn struct {
	mcp.Connection
	slots     chan struct{}
	closeOnce sync.Once
	closed    chan struct{}

	mu       sync.Mutex
	pending  map[jsonrpc.ID]bool // the calls read and not yet answered
	answered chan struct{}       // a call was answered
}

// Read returns the next message once fewer than limit calls are waiting
// for their answers. At the end of input it first waits for the calls read
// to be answered: the session ends when Read fails, and whatever is still
// being answered then is dropped.
func (c *boundedConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	select {
	case c.slots <- struct{}{}:
	case <-c.closed:
		return nil, io.EOF
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	msg, err := c.Connection.Read(ctx)
	if err != nil {
		<-c.slots
		return nil, c.drained(ctx, err)
	}
	if req, ok := msg.(*jsonrpc.Request); ok && req.ID.IsValid() {
		c.mu.Lock()
		again := c.pending[req.ID] // an id in use: the SDK refuses it at once
		c.pending[req.ID] = true
		c.mu.Unlock()
		if !again {
			return msg, nil // the slot is the call's until it is answered
		}
	}
	<-c.slots
	return msg, nil
}

// drained waits until no call is left unanswered, then returns why the
// input ended.
func (c *boundedConn) drained(ctx context.Context, why error) error {
	for {
		c.mu.Lock()
		n := len(c.pending)
		c.mu.Unlock()
		if n == 0 {
			return why
		}
		select {
		case <-c.answered:
		case <-c.closed:
			return io.EOF
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// Write writes a message; a response, once written, settles its call and
// frees its slot. A cancelled call is answered with codeRequestCancelled.
func (c *boundedConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	resp, isResp := msg.(*jsonrpc.Response)
	var wire *jsonrpc.Error
	if isResp && errors.Is(resp.Error, context.Canceled) && !errors.As(resp.Error, &wire) {
		msg = &jsonrpc.Response{ID: resp.ID, Error: &jsonrpc.Error{Code: codeRequestCancelled, Message: "request cancelled"}}
	}
	err := c.Connection.Write(ctx, msg)
	if isResp {
		c.settle(resp.ID)
	}
	return err
}

func (c *boundedConn) settle(id jsonrpc.ID) {
	c.mu.Lock()
	held := c.pending[id]
	delete(c.pending, id)
	c.mu.Unlock()
	if !held {
		return
	}
	<-c.slots
	select {
	case c.answered <- struct{}{}:
	default: // a wake-up is already waiting
	}
}

func (c *boundedConn) Close() error {
	c.closeOnce.Do(func() { close(c.closed) })
	return c.Connection.Close()
}
