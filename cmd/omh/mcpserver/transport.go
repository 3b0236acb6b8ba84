package mcpserver

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The SDK's own stdio transport ends the session on the first line it
// cannot decode. lineTransport reads the same framing, one JSON-RPC message
// a line, but answers a line that holds no message with a JSON-RPC error
// and reads on. Served through bounded, which answers every call read
// before the session ends at the end of input, and reads no further while
// the client leaves answers unread.
type lineTransport struct {
	in  io.Reader
	out io.Writer
}

const (
	// maxLine is the longest line read, the SDK's own limit.
	maxLine = mcp.DefaultMaxLineLength
	// maxDepth is the deepest nesting the SDK's decoder accepts.
	maxDepth = 1000
	// maxID is the largest integer id the SDK keeps exactly: it decodes
	// numbers as float64.
	maxID = 1 << 53
)

func (t lineTransport) Connect(context.Context) (mcp.Connection, error) {
	c := &lineConn{out: t.out, writing: make(chan struct{}, 1), msgs: make(chan jsonrpc.Message), closed: make(chan struct{})}
	go c.readLines(t.in)
	return c, nil
}

// lineConn is one session's connection.
type lineConn struct {
	out io.Writer
	// writing holds a token while a line is written, one at a time: a
	// channel rather than a mutex, so a test sees the writers waiting on
	// a stalled client as durably blocked (testing/synctest).
	writing chan struct{}

	msgs    chan jsonrpc.Message // the messages read, closed at the end of input
	readErr error                // why input ended, set before msgs is closed

	closeOnce sync.Once
	closed    chan struct{}
}

// readLines reads the input line by line until it ends, passing each
// message on and answering each line that holds none.
func (c *lineConn) readLines(in io.Reader) {
	defer close(c.msgs)
	r := bufio.NewReaderSize(in, 64<<10)
	for {
		line, tooLong, err := readLine(r)
		if tooLong || len(bytes.TrimSpace(line)) > 0 {
			msg, refusal := decodeLine(line, tooLong)
			if refusal != nil {
				c.writeLine(refusal)
			} else {
				select {
				case c.msgs <- msg:
				case <-c.closed:
					return
				}
			}
		}
		if err != nil {
			c.readErr = err
			return
		}
	}
}

// readLine reads one line without its line break. Of a line longer than
// maxLine it keeps the start, where an id may be read, and reports it too
// long.
func readLine(r *bufio.Reader) (line []byte, tooLong bool, err error) {
	for {
		chunk, err := r.ReadSlice('\n')
		if tooLong = tooLong || len(line)+len(chunk) > maxLine+2; !tooLong { // +2: the line break, \r\n at most
			line = append(line, chunk...)
		}
		if !errors.Is(err, bufio.ErrBufferFull) {
			line = bytes.TrimRight(line, "\r\n")
			return line, tooLong || len(line) > maxLine, err
		}
	}
}

// decodeLine reads the message a line holds, or the JSON-RPC error that
// answers it when it holds none: a parse error for a line that cannot be
// read as JSON, an invalid request for JSON that is no message.
func decodeLine(line []byte, tooLong bool) (jsonrpc.Message, []byte) {
	switch {
	case tooLong:
		return nil, errorLine(readableID(line), jsonrpc.CodeParseError,
			fmt.Sprintf("a message is one line of at most %d bytes; this one is longer", maxLine))
	case tooDeep(line):
		return nil, errorLine(readableID(line), jsonrpc.CodeParseError,
			fmt.Sprintf("the message nests deeper than %d levels", maxDepth))
	}
	if !json.Valid(line) {
		var v json.RawMessage
		err := json.Unmarshal(line, &v)
		return nil, errorLine(readableID(line), jsonrpc.CodeParseError, "not JSON: "+err.Error())
	}
	switch bytes.TrimSpace(line)[0] {
	case '[':
		return nil, batchRefusal(line)
	case '{':
	default:
		return nil, errorLine(nil, jsonrpc.CodeInvalidRequest, "a message is a JSON object")
	}
	var fields map[string]json.RawMessage
	json.Unmarshal(line, &fields) // it is an object: this cannot fail
	id, hasID := fields["id"]
	if hasID && string(id) != "null" && !validID(id) {
		return nil, errorLine(nil, jsonrpc.CodeInvalidRequest, "the id is a string or an integer")
	}
	msg, err := jsonrpc.DecodeMessage(line)
	if err != nil {
		return nil, errorLine(idOrNil(id), jsonrpc.CodeInvalidRequest, err.Error())
	}
	return msg, nil
}

// batchRefusal answers a batch, which MCP no longer has: each call in it
// gets an error of its own, in one array as JSON-RPC answers a batch.
func batchRefusal(line []byte) []byte {
	var elems []json.RawMessage
	json.Unmarshal(line, &elems) // it is an array: this cannot fail
	const msg = "batches are not supported: send one message a line"
	if len(elems) == 0 {
		return errorLine(nil, jsonrpc.CodeInvalidRequest, msg)
	}
	var replies []json.RawMessage
	for _, e := range elems {
		var fields map[string]json.RawMessage
		if json.Unmarshal(e, &fields) == nil && fields["method"] != nil && fields["id"] == nil {
			continue // a notification: it is never answered
		}
		var id json.RawMessage
		if validID(fields["id"]) {
			id = fields["id"]
		}
		replies = append(replies, json.RawMessage(errorLine(id, jsonrpc.CodeInvalidRequest, msg)))
	}
	if len(replies) == 0 {
		return nil
	}
	b, _ := json.Marshal(replies)
	return b
}

// tooDeep reports whether JSON text nests deeper than maxDepth, counting
// as the SDK's decoder does.
func tooDeep(b []byte) bool {
	depth, inString, escaped := 0, false, false
	for _, c := range b {
		switch {
		case inString && escaped:
			escaped = false
		case inString && c == '\\':
			escaped = true
		case inString && c == '"':
			inString = false
		case inString:
		case c == '"':
			inString = true
		case c == '{' || c == '[':
			if depth++; depth > maxDepth {
				return true
			}
		case c == '}' || c == ']':
			depth--
		}
	}
	return false
}

// validID reports whether raw JSON is an id the SDK answers to exactly: a
// string, or an integer a float64 holds.
func validID(raw json.RawMessage) bool {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return true
	}
	n, err := strconv.ParseInt(string(raw), 10, 64)
	return err == nil && n >= -maxID && n <= maxID
}

// readableID is the id of a message that cannot be decoded whole, if its
// start gives it: the value of the first "id" key of the outer object.
func readableID(line []byte) json.RawMessage {
	dec := json.NewDecoder(bytes.NewReader(line))
	dec.UseNumber()
	depth, key := 0, true
	for {
		tok, err := dec.Token()
		if err != nil {
			return nil
		}
		switch tok {
		case json.Delim('{'), json.Delim('['):
			if depth++; depth == 1 && tok != json.Delim('{') {
				return nil // not an object
			}
			key = key || depth == 1 // the object opened: a key is next
			continue
		case json.Delim('}'), json.Delim(']'):
			if depth--; depth == 0 {
				return nil // the object ended without an id
			}
			key = key || depth == 1 // the value ended: a key is next
			continue
		}
		if depth == 1 && key && tok == "id" {
			if raw, err := json.Marshal(nextValue(dec)); err == nil && validID(raw) {
				return raw
			}
			return nil
		}
		if depth == 1 {
			key = !key
		}
		if depth == 0 {
			return nil
		}
	}
}

// nextValue is the scalar token next in dec, or nil.
func nextValue(dec *json.Decoder) any {
	tok, err := dec.Token()
	if _, delim := tok.(json.Delim); err != nil || delim {
		return nil
	}
	return tok
}

// idOrNil is an id to answer with, nil for none.
func idOrNil(raw json.RawMessage) json.RawMessage {
	if raw == nil || string(raw) == "null" {
		return nil
	}
	return raw
}

// errorLine is a JSON-RPC error response; a nil id is written null, as
// JSON-RPC answers a message whose id it cannot read.
func errorLine(id json.RawMessage, code int64, message string) []byte {
	if id == nil {
		id = json.RawMessage("null")
	}
	b, _ := json.Marshal(struct {
		Version string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   *jsonrpc.Error  `json:"error"`
	}{"2.0", id, &jsonrpc.Error{Code: code, Message: message}})
	return b
}

func (c *lineConn) writeLine(b []byte) error {
	if b == nil {
		return nil
	}
	c.writing <- struct{}{}
	defer func() { <-c.writing }()
	_, err := c.out.Write(append(b, '\n'))
	return err
}

// Read returns the next message, and why the input ended after the last.
func (c *lineConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	select {
	case msg, ok := <-c.msgs:
		if !ok {
			return nil, c.readErr
		}
		return msg, nil
	case <-c.closed:
		return nil, io.EOF
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// Write writes a message on a line of its own.
func (c *lineConn) Write(_ context.Context, msg jsonrpc.Message) error {
	b, err := jsonrpc.EncodeMessage(msg)
	if err != nil {
		return fmt.Errorf("encoding a message: %w", err)
	}
	return c.writeLine(b)
}

// Close ends the session; the input and output stay open, as they are the
// process's own.
func (c *lineConn) Close() error {
	c.closeOnce.Do(func() { close(c.closed) })
	return nil
}

func (c *lineConn) SessionID() string { return "" }
