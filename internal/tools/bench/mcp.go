package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"time"
)

// MCP tool calls timed against one warm server, as an agent's session
// makes them: find with the question alone (the call a `find --cards`
// process answers), then show and links of the note it put first.
var mcpTools = []string{"find", "show", "links"}

// mcpResult is one binary's server: each tool's round trip, its CPU time
// per call and the bytes of its replies.
type mcpResult struct {
	Wall  map[string]stats         `json:"wall"`
	CPUMS map[string]float64       `json:"cpu_ms_per_call"` // mean: /proc counts in clock ticks
	Bytes map[string]mcpReplyBytes `json:"reply_bytes"`     // medians
	// StartMS is spawning the server and its initialize round trip.
	StartMS float64 `json:"start_ms"`
}

// mcpReplyBytes splits a tool's reply as the client receives it: the text
// content (the cards), the structured content beside it, and the whole
// JSON-RPC line.
type mcpReplyBytes struct {
	Text       int64 `json:"text"`
	Structured int64 `json:"structured"`
	Line       int64 `json:"line"`
}

// mcpSession is one `omh mcp` child spoken to over its standard streams,
// one JSON-RPC message a line.
type mcpSession struct {
	cmd    *exec.Cmd
	in     io.WriteCloser
	out    *bufio.Reader
	nextID int
}

func (b *bench) startMCP(bin string) (*mcpSession, error) {
	cmd := exec.Command(bin, "mcp")
	cmd.Dir, cmd.Env, cmd.Stderr = b.repo, b.rn.env, os.Stderr
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("starting %s mcp: %w", bin, err)
	}
	s := &mcpSession{cmd: cmd, in: in, out: bufio.NewReaderSize(out, 1<<20)}
	if _, err := s.call("initialize", map[string]any{"protocolVersion": "2025-06-18", "capabilities": map[string]any{},
		"clientInfo": map[string]any{"name": "omh-bench", "version": "1"}}); err != nil {
		s.close()
		return nil, err
	}
	if err := s.send(map[string]any{"jsonrpc": "2.0", "method": "notifications/initialized"}); err != nil {
		s.close()
		return nil, err
	}
	return s, nil
}

func (s *mcpSession) send(msg any) error {
	line, err := json.Marshal(msg)
	if err != nil {
		return err
	}
	_, err = s.in.Write(append(line, '\n'))
	return err
}

// call sends one request and returns the line that answers it, skipping
// notifications the server sends between.
func (s *mcpSession) call(method string, params any) ([]byte, error) {
	s.nextID++
	id := s.nextID
	if err := s.send(map[string]any{"jsonrpc": "2.0", "id": id, "method": method, "params": params}); err != nil {
		return nil, fmt.Errorf("sending %s: %w", method, err)
	}
	for {
		line, err := s.out.ReadBytes('\n')
		if err != nil {
			return nil, fmt.Errorf("reading the reply to %s: %w", method, err)
		}
		var head struct {
			ID    json.RawMessage `json:"id"`
			Error *struct {
				Message string `json:"message"`
			} `json:"error"`
		}
		if err := json.Unmarshal(line, &head); err != nil {
			return nil, fmt.Errorf("reading the reply to %s: %w", method, err)
		}
		if string(head.ID) != strconv.Itoa(id) {
			continue
		}
		if head.Error != nil {
			return nil, fmt.Errorf("%s: %s", method, head.Error.Message)
		}
		return line, nil
	}
}

// cpuTime is the child's user and system time so far, from /proc (Linux
// only; 0 elsewhere, and the CPU column stays empty).
func (s *mcpSession) cpuTime() time.Duration {
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", s.cmd.Process.Pid))
	if err != nil {
		return 0
	}
	return procCPU(stat)
}

// procCPU reads utime and stime, fields 14 and 15 of /proc/PID/stat, in
// clock ticks of 1/100 s. The command name before them, in parentheses,
// may hold spaces and parentheses itself: fields are counted after the
// last closing one.
func procCPU(stat []byte) time.Duration {
	f := strings.Fields(string(stat[bytes.LastIndexByte(stat, ')')+1:]))
	if len(f) < 13 {
		return 0
	}
	user, _ := strconv.ParseInt(f[11], 10, 64)
	sys, _ := strconv.ParseInt(f[12], 10, 64)
	return time.Duration(user+sys) * time.Second / 100
}

func (s *mcpSession) close() {
	s.in.Close()
	if err := s.cmd.Wait(); err != nil {
		fmt.Fprintf(os.Stderr, "  note: omh mcp ended with %v\n", err)
	}
}

// toolCall is one tools/call and what its reply weighs.
func (s *mcpSession) toolCall(name string, args map[string]any) (mcpReplyBytes, error) {
	line, err := s.call("tools/call", map[string]any{"name": name, "arguments": args})
	if err != nil {
		return mcpReplyBytes{}, err
	}
	var reply struct {
		Result struct {
			Content []struct {
				Text string `json:"text"`
			} `json:"content"`
			Structured json.RawMessage `json:"structuredContent"`
			IsError    bool            `json:"isError"`
		} `json:"result"`
	}
	if err := json.Unmarshal(line, &reply); err != nil {
		return mcpReplyBytes{}, fmt.Errorf("reading %s's reply: %w", name, err)
	}
	if reply.Result.IsError {
		return mcpReplyBytes{}, fmt.Errorf("%s %v: %s", name, args, firstLine(string(line)))
	}
	size := mcpReplyBytes{Structured: int64(len(reply.Result.Structured)), Line: int64(len(line))}
	for _, c := range reply.Result.Content {
		size.Text += int64(len(c.Text))
	}
	return size, nil
}

// mcpArgs are the arguments of one tool for question q.
func mcpArgs(tool string, q questionResult) map[string]any {
	if tool == "find" {
		return map[string]any{"question": strings.Join(q.Words, " ")}
	}
	return map[string]any{"key": q.TopKey}
}

// mcp times each binary's server over the questions of the no-change
// phase, after one untimed round that warms it.
func (b *bench) mcp() error {
	b.res.MCP = map[string]*mcpResult{}
	for _, o := range b.omhs() {
		start := time.Now()
		s, err := b.startMCP(o.path)
		if err != nil {
			return err
		}
		r := &mcpResult{StartMS: round2(float64(time.Since(start).Microseconds()) / 1000), Wall: map[string]stats{},
			CPUMS: map[string]float64{}, Bytes: map[string]mcpReplyBytes{}}
		err = b.timeMCP(s, r)
		s.close()
		if err != nil {
			return fmt.Errorf("%s mcp: %w", o.label, err)
		}
		b.res.MCP[o.label] = r
	}
	return nil
}

func (b *bench) timeMCP(s *mcpSession, r *mcpResult) error {
	walls, cpus := map[string][]time.Duration{}, map[string]time.Duration{}
	sizes := map[string][]mcpReplyBytes{}
	for run := -1; run < b.cfg.runs; run++ { // run -1 warms the server
		for _, q := range b.res.Questions {
			for _, tool := range mcpTools {
				if tool != "find" && q.TopKey == "" {
					continue
				}
				cpu, start := s.cpuTime(), time.Now()
				size, err := s.toolCall(tool, mcpArgs(tool, q))
				if err != nil {
					return err
				}
				if run < 0 {
					sizes[tool] = append(sizes[tool], size)
					continue
				}
				walls[tool] = append(walls[tool], time.Since(start))
				cpus[tool] += s.cpuTime() - cpu
			}
		}
	}
	for tool, ds := range walls {
		r.Wall[tool] = summarize(ds)
		r.CPUMS[tool] = round2(float64(cpus[tool].Microseconds()) / 1000 / float64(len(ds)))
		r.Bytes[tool] = medianBytes(sizes[tool])
	}
	if len(walls) == 0 {
		return errors.New("no call was timed")
	}
	return nil
}

func medianBytes(xs []mcpReplyBytes) mcpReplyBytes {
	pick := func(f func(mcpReplyBytes) int64) int64 {
		v := make([]int64, len(xs))
		for i, x := range xs {
			v[i] = f(x)
		}
		return medianInt(v)
	}
	return mcpReplyBytes{
		Text:       pick(func(x mcpReplyBytes) int64 { return x.Text }),
		Structured: pick(func(x mcpReplyBytes) int64 { return x.Structured }),
		Line:       pick(func(x mcpReplyBytes) int64 { return x.Line }),
	}
}
