package localscan

import (
	"bufio"
	"net"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// stubMonitor installs a hook program as core.fsmonitor that logs its
// arguments and prints what the test put in its answer file.
type stubMonitor struct {
	answer, log string
}

func newStubMonitor(t *testing.T, f *scanFixture, version string) *stubMonitor {
	t.Helper()
	dir := t.TempDir()
	m := &stubMonitor{answer: filepath.Join(dir, "answer"), log: filepath.Join(dir, "calls")}
	hook := filepath.Join(dir, "query-monitor")
	script := "#!/bin/sh\necho \"$@\" >>'" + m.log + "'\ncat '" + m.answer + "'\n"
	if err := os.WriteFile(hook, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	f.repo.Git("config", "core.fsmonitor", hook)
	if version != "" {
		f.repo.Git("config", "core.fsmonitorHookVersion", version)
	}
	return m
}

// answers sets what the hook prints next: fields joined by NUL.
func (m *stubMonitor) answers(t *testing.T, fields ...string) {
	t.Helper()
	if err := os.WriteFile(m.answer, []byte(strings.Join(fields, "\x00")+"\x00"), 0o644); err != nil {
		t.Fatal(err)
	}
}

func (m *stubMonitor) calls(t *testing.T) []string {
	t.Helper()
	b, err := os.ReadFile(m.log)
	if err != nil {
		t.Fatal(err)
	}
	return strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
}

// With core.fsmonitor set, a scan checks only the paths the monitor
// reports changed since the token it gave last time (and asks with that
// token); a monitor that cannot say, or fails, costs a full scan, never a
// missed change. The stub deliberately leaves an edit unreported to show
// that a report is trusted: only then does the scan not stat every file.
// Catches: a monitor asked but ignored (every file still stat'ed), a token
// not kept between scans, a failing monitor taken as "nothing changed".
func TestAFileSystemMonitorNamesWhatToCheck(t *testing.T) {
	t.Parallel()
	f := newScanFixture(t)
	m := newStubMonitor(t, f, "")
	// Each scan is a command: its state is stored and read back, so only
	// a token stored with it is asked with next time.
	st := &store{rows: map[int64]ScanPiece{}}
	scan := func() []string {
		got := f.scan(t, true)
		st.save(f.worktree)
		f.worktree = st.load(t)
		return got
	}
	m.answers(t, "t1", "/")
	if got := scan(); got != nil {
		t.Fatalf("a clean checkout has no local notes, got %v", got)
	}

	f.repo.Write("notes/a.md", "# A, edited where the monitor does not look\n")
	m.answers(t, "t2")
	if got := scan(); got != nil {
		t.Errorf("an edit the monitor did not report was seen, so every file was checked: %v", got)
	}
	m.answers(t, "t3", "notes/a.md", "other/c.md")
	want := []string{"a=notes/a.md"}
	if got := scan(); !reflect.DeepEqual(got, want) {
		t.Errorf("after the monitor reported notes/a.md: %v, want %v", got, want)
	}
	f.repo.Write("notes/new/d.md", "# New\n")
	m.answers(t, "t4", "notes/new/d.md")
	want = []string{"a=notes/a.md", "new/d=notes/new/d.md"}
	if got := scan(); !reflect.DeepEqual(got, want) {
		t.Errorf("after a new note in a new folder: %v, want %v", got, want)
	}
	if calls := m.calls(t); !reflect.DeepEqual(calls, []string{"2 ", "2 t1", "2 t1", "2 t3"}) {
		// t2 brought no change, so the state kept t1 (not worth a write);
		// t3 came with one, and was stored with it.
		t.Errorf("the monitor was asked %q", calls)
	}

	// A monitor that cannot say, or fails, means a full scan.
	f.repo.Write("notes/sub/b.md", "# B, edited, unreported\n")
	m.answers(t, "t5", "/")
	want = []string{"a=notes/a.md", "new/d=notes/new/d.md", "sub/b=notes/sub/b.md"}
	if got := scan(); !reflect.DeepEqual(got, want) {
		t.Errorf("after an answer of everything: %v, want %v", got, want)
	}
	f.repo.Write("notes/a.md", "# A\n")
	if err := os.WriteFile(m.answer, nil, 0o644); err != nil { // no token: not an answer
		t.Fatal(err)
	}
	want = []string{"new/d=notes/new/d.md", "sub/b=notes/sub/b.md"}
	if got := scan(); !reflect.DeepEqual(got, want) {
		t.Errorf("after a monitor that gave no answer: %v, want %v", got, want)
	}
}

// A version 1 hook (core.fsmonitorHookVersion=1) is asked with a time in
// nanoseconds and prints paths alone.
func TestAVersionOneMonitorIsAskedWithATime(t *testing.T) {
	t.Parallel()
	f := newScanFixture(t)
	m := newStubMonitor(t, f, "1")
	if err := os.WriteFile(m.answer, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	f.scan(t, true)
	f.repo.Write("notes/a.md", "# A, edited\n")
	m.answers(t, "notes/a.md")
	if got, want := f.scan(t, true), []string{"a=notes/a.md"}; !reflect.DeepEqual(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
	calls := m.calls(t)
	if len(calls) != 2 || calls[0] != "1 0" || !strings.HasPrefix(calls[1], "1 1") {
		t.Errorf("the monitor was asked %q, want version 1 with 0, then a time", calls)
	}
}

// With core.fsmonitor=true omh asks git's daemon over its socket in git's
// simple IPC (pkt-lines ended by a flush packet each way). The stub daemon
// answers like the real one; a daemon that is not running costs a full
// scan.
func TestGitsMonitorDaemonIsAskedOverItsSocket(t *testing.T) {
	t.Parallel()
	f := newScanFixture(t)
	f.repo.Git("config", "core.fsmonitor", "true")
	if got := f.scan(t, true); got != nil { // no daemon yet: a full scan
		t.Fatalf("a clean checkout has no local notes, got %v", got)
	}
	sock := filepath.Join(f.repo.Dir, ".git", "fsmonitor--daemon.ipc")
	ln, err := net.Listen("unix", sock)
	if err != nil {
		t.Skipf("no unix socket here: %v", err)
	}
	defer ln.Close()
	asked := make(chan string, 4)
	answer := make(chan string, 4)
	go func() {
		for {
			conn, err := ln.Accept()
			if err != nil {
				return
			}
			req, err := readPackets(bufio.NewReader(conn))
			if err == nil {
				asked <- string(req)
				a := <-answer
				conn.Write([]byte(pktLine(a) + "0000"))
			}
			conn.Close()
		}
	}()
	answer <- "builtin:1\x00/\x00"
	f.scan(t, true)
	f.repo.Write("notes/a.md", "# A, edited\n")
	f.repo.Write("notes/sub/b.md", "# B, edited, unreported\n")
	answer <- "builtin:2\x00notes/a.md\x00notes/\x00"
	if got, want := f.scan(t, true), []string{"a=notes/a.md"}; !reflect.DeepEqual(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
	if first, second := <-asked, <-asked; first != "builtin:omh:0" || second != "builtin:1" {
		t.Errorf("the daemon was asked %q then %q", first, second)
	}
	// A folder removed may be reported as the folder alone: the files
	// below it are gone all the same.
	answer <- "builtin:3\x00notes/sub/b.md\x00"
	if got, want := f.scan(t, true), []string{"a=notes/a.md", "sub/b=notes/sub/b.md"}; !reflect.DeepEqual(got, want) {
		t.Errorf("after reporting sub/b.md: %v, want %v", got, want)
	}
	if err := os.RemoveAll(filepath.Join(f.repo.Dir, "notes", "sub")); err != nil {
		t.Fatal(err)
	}
	answer <- "builtin:4\x00notes/sub/\x00"
	if got, want := f.scan(t, true), []string{"a=notes/a.md", "deleted:sub/b=notes/sub/b.md"}; !reflect.DeepEqual(got, want) {
		t.Errorf("after the folder was removed: %v, want %v", got, want)
	}
}

func pktLine(s string) string {
	const hex = "0123456789abcdef"
	n := len(s) + 4
	return string([]byte{hex[n>>12&15], hex[n>>8&15], hex[n>>4&15], hex[n&15]}) + s
}
