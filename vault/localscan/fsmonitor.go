package localscan

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/omh-notes/omh/vault/gitrepo"
)

// A file system monitor tells which paths changed since a token it handed
// out earlier, so a scan stats those rather than every file. omh asks the
// one git is configured with (core.fsmonitor): a hook program such as the
// Watchman one git ships as fsmonitor-watchman.sample, or git's own daemon
// (core.fsmonitor=true). Whatever goes wrong only costs a full scan.

// monitorWait bounds one question to the monitor. Watchman answers in tens
// of milliseconds; a monitor that hangs must not hang omh with it.
const monitorWait = 5 * time.Second

// fileMonitor is the monitor git is configured with, or nil.
type fileMonitor interface {
	// Query returns the paths (relative to the repository root) changed
	// since token, and the token to ask with next time; everything is
	// true when the monitor cannot say (an unknown or empty token, a
	// restart): every file must be checked.
	Query(token string) (next string, paths []string, everything bool, err error)
}

func monitorOf(r *gitrepo.Repo) fileMonitor {
	if r.Watcher != nil {
		return r.Watcher
	}
	v := strings.TrimSpace(r.ConfigValue("core", "fsmonitor"))
	switch strings.ToLower(v) {
	case "", "false", "no", "off", "0":
		return nil
	case "true", "yes", "on", "1":
		return daemonMonitor{socket: filepath.Join(r.GitDir, "fsmonitor--daemon.ipc")}
	}
	if strings.HasPrefix(v, "~/") {
		if home, err := os.UserHomeDir(); err == nil {
			v = filepath.Join(home, v[2:])
		}
	}
	version := 2
	if r.ConfigValue("core", "fsmonitorhookversion") == "1" {
		version = 1
	}
	return hookMonitor{program: v, dir: r.Root, version: version}
}

// hookMonitor runs a hook program as git does: `PROGRAM 2 TOKEN` prints
// the next token, a NUL, then the changed paths, each ended by a NUL;
// version 1 (`PROGRAM 1 NANOSECONDS`) prints the paths alone.
type hookMonitor struct {
	program string
	dir     string // the working tree's top, where git runs hooks
	version int
}

func (h hookMonitor) Query(token string) (string, []string, bool, error) {
	ctx, cancel := context.WithTimeout(context.Background(), monitorWait)
	defer cancel()
	since := token
	if h.version == 1 {
		if _, err := strconv.ParseInt(token, 10, 64); err != nil {
			since = "0"
		}
		token = strconv.FormatInt(time.Now().UnixNano(), 10)
	}
	// A relative program is found from the working tree's top, as git
	// runs it; through the shell, as git does, so "watchman-hook --flag"
	// works too.
	cmd := exec.CommandContext(ctx, "sh", "-c", h.program+` "$@"`, h.program, strconv.Itoa(h.version), since)
	cmd.Dir = h.dir
	out, err := cmd.Output()
	if err != nil {
		return "", nil, false, fmt.Errorf("core.fsmonitor %s: %w", h.program, err)
	}
	if h.version == 1 {
		paths, everything := splitPaths(out)
		return token, paths, everything || since == "0", nil
	}
	return parseAnswer(out)
}

// parseAnswer reads a version 2 answer: the token, a NUL, the paths.
func parseAnswer(out []byte) (string, []string, bool, error) {
	token, rest, ok := bytes.Cut(out, []byte{0})
	if !ok || len(token) == 0 {
		return "", nil, false, errors.New("the file system monitor gave no token")
	}
	paths, everything := splitPaths(rest)
	return string(token), paths, everything, nil
}

// splitPaths splits NUL-ended paths; "/" among them means every path.
func splitPaths(b []byte) (paths []string, everything bool) {
	for _, p := range bytes.Split(b, []byte{0}) {
		switch string(p) {
		case "":
		case "/":
			everything = true
		default:
			paths = append(paths, string(p))
		}
	}
	return paths, everything
}

// daemonMonitor asks git's own daemon (git fsmonitor--daemon) over its
// socket, in git's simple IPC: the request and the answer are each a run
// of pkt-lines ended by a flush packet; the answer reads as a hook's
// version 2 answer. A daemon that is not running is not started: the scan
// is a full one, and git starts the daemon on its next command.
type daemonMonitor struct {
	socket string
}

// pktMax is the most data one pkt-line carries.
const pktMax = 65516

func (d daemonMonitor) Query(token string) (string, []string, bool, error) {
	conn, err := net.DialTimeout("unix", d.socket, monitorWait)
	if err != nil {
		return "", nil, false, fmt.Errorf("the fsmonitor daemon: %w", err)
	}
	defer conn.Close()
	conn.SetDeadline(time.Now().Add(monitorWait))
	if token == "" {
		token = "builtin:omh:0" // a token no daemon handed out: it answers "everything"
	}
	var req []byte
	for rest := token; len(rest) > 0; {
		n := min(len(rest), pktMax)
		req = fmt.Appendf(req, "%04x%s", n+4, rest[:n])
		rest = rest[n:]
	}
	req = append(req, "0000"...)
	if _, err := conn.Write(req); err != nil {
		return "", nil, false, fmt.Errorf("asking the fsmonitor daemon: %w", err)
	}
	answer, err := readPackets(bufio.NewReader(conn))
	if err != nil {
		return "", nil, false, fmt.Errorf("reading the fsmonitor daemon's answer: %w", err)
	}
	return parseAnswer(answer)
}

// readPackets reads pkt-lines up to a flush packet and joins their data.
func readPackets(r io.Reader) ([]byte, error) {
	var out []byte
	var size [4]byte
	for {
		if _, err := io.ReadFull(r, size[:]); err != nil {
			return nil, err
		}
		n, err := strconv.ParseUint(string(size[:]), 16, 16)
		if err != nil {
			return nil, fmt.Errorf("bad packet length %q", size)
		}
		if n == 0 {
			return out, nil
		}
		if n < 4 {
			return nil, fmt.Errorf("bad packet length %d", n)
		}
		start := len(out)
		out = append(out, make([]byte, n-4)...)
		if _, err := io.ReadFull(r, out[start:]); err != nil {
			return nil, err
		}
	}
}
