package mcpserver

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"testing"
	"testing/synctest"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// A client that sends calls and reads no answers stops the server reading
// once maxUnanswered calls wait for their answers, and every answer still
// arrives, once each, when it reads. Catches: the server reading on and
// holding every reply (100,000 show calls never read took it from 181 MiB
// to 1,482 MiB in 30 s).
func TestMCPClientThatStopsReadingStopsTheServerReading(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		const calls = 5000
		inR, inW := io.Pipe()
		outR, outW := io.Pipe()
		srv := New(nil, errors.New("no store here"), "test", false)
		served := make(chan error, 1)
		go func() { served <- srv.Run(context.Background(), bounded(lineTransport{inR, outW}, maxUnanswered)) }()
		written := 0
		go func() {
			io.WriteString(inW, initializeLine+"\n"+initializedLine+"\n")
			for i := range calls {
				fmt.Fprintf(inW, `{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"show","arguments":{"key":"a"}}}`+"\n", i)
				written++
			}
			inW.Close()
		}()
		synctest.Wait() // the client reads nothing: everything stalls
		// Held: the calls with a slot, one in the reader's hand, one
		// waiting to be passed on, one in the line reader's buffer.
		if held := maxUnanswered + 3; written > held {
			t.Errorf("the server read %d calls while the client read no answer, want at most %d", written, held)
		}
		answers := map[string]int{}
		for sc := bufio.NewScanner(outR); len(answers) < calls+1 && sc.Scan(); {
			var r struct{ ID json.RawMessage }
			if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
				t.Fatal(err)
			}
			answers[string(r.ID)]++
		}
		if err := <-served; err != nil && !errors.Is(err, io.EOF) {
			t.Error(err)
		}
		for i := range calls {
			if n := answers[fmt.Sprint(i)]; n != 1 {
				t.Fatalf("call %d answered %d times", i, n)
			}
		}
	})
}

// recordingConn is a connection that keeps what is written to it.
type recordingConn struct {
	mcp.Connection
	written []jsonrpc.Message
}

func (c *recordingConn) Write(_ context.Context, msg jsonrpc.Message) error {
	c.written = append(c.written, msg)
	return nil
}

// A call its client cancelled is answered with JSON-RPC's code for a
// cancelled request, and other answers pass as they are. Catches: the
// SDK's answer to a cancelled call, "context canceled" with code 0.
func TestMCPCancelledCallIsAnsweredWithTheCancelledCode(t *testing.T) {
	t.Parallel()
	inner := &recordingConn{}
	c := &boundedConn{Connection: inner, slots: make(chan struct{}, 1), closed: make(chan struct{}),
		answered: make(chan struct{}, 1), pending: map[jsonrpc.ID]bool{}}
	id, _ := jsonrpc.MakeID(float64(7))
	tool := &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "bad"}
	for _, resp := range []*jsonrpc.Response{
		{ID: id, Error: context.Canceled},
		{ID: id, Error: fmt.Errorf("handling: %w", context.Canceled)},
		{ID: id, Error: tool},
	} {
		if err := c.Write(context.Background(), resp); err != nil {
			t.Fatal(err)
		}
	}
	for i, want := range []int64{codeRequestCancelled, codeRequestCancelled, jsonrpc.CodeInvalidParams} {
		b, err := jsonrpc.EncodeMessage(inner.written[i])
		if err != nil {
			t.Fatal(err)
		}
		var r rpcReply
		if err := json.Unmarshal(b, &r); err != nil || r.Error == nil || r.Error.Code != want || string(r.ID) != "7" {
			t.Errorf("answer %d: %s, want code %d", i, b, want)
		}
	}
}
