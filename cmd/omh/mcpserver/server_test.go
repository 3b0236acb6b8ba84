package mcpserver

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/omh-notes/omh/store"
	"github.com/omh-notes/omh/vault/vaulttest"
)

// TestMain runs the tests with omh built once for the run first on PATH:
// they hold each tool to the command of its name, and omh's command line
// is package main, which this package cannot import.
func TestMain(m *testing.M) {
	vaulttest.MainWithBuiltOmh(m, "github.com/omh-notes/omh/cmd/omh")
}

// ok runs the built omh in dir and fails the test unless it exits 0.
func ok(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command(vaulttest.Omh(t), append([]string{"-C", dir}, args...)...)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("omh %s: %v\nstdout: %s\nstderr: %s", strings.Join(args, " "), err, out, stderr.String())
	}
	return string(out)
}

// demoStore lays the demo store out in a temporary folder, with a private
// folder of its own (its git config omh.local), and returns the repository.
func demoStore(t *testing.T) string {
	t.Helper()
	private := filepath.Join(t.TempDir(), "private")
	dir := t.TempDir()
	demo, err := filepath.Abs(filepath.Join("..", "..", "..", "testdata", "demo"))
	if err != nil {
		t.Fatal(err)
	}
	if err := vaulttest.LayDemo(demo, dir, private); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("git", "-C", dir, "config", "omh.local", private).CombinedOutput(); err != nil {
		t.Fatalf("git config omh.local: %v\n%s", err, out)
	}
	return dir
}

// mcpSession connects the go-sdk's client to omh's MCP server on the store
// at dir, over an in-memory transport.
func mcpSession(t *testing.T, dir string, allowWrite bool) *mcp.ClientSession {
	t.Helper()
	s, err := store.Open(dir, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	serverSide, clientSide := mcp.NewInMemoryTransports()
	ctx := context.Background()
	ss, err := New(s, nil, "test", allowWrite).Connect(ctx, serverSide, nil)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test"}, nil).Connect(ctx, clientSide, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cs.Close()
		ss.Wait()
		s.Close()
	})
	return cs
}

// callTool calls a tool and returns its text and structured content.
func callTool(t *testing.T, cs *mcp.ClientSession, name string, args map[string]any) (text string, reply any, isError bool) {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s %v: %v", name, args, err)
	}
	return textOf(res), res.StructuredContent, res.IsError
}

// decoded is JSON as a client decodes it, to compare replies by value.
func decoded(t *testing.T, s string) any {
	t.Helper()
	var v any
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		t.Fatalf("%v: %s", err, s)
	}
	return v
}

// listTools returns the tools a server offers and the size of the
// tools/list reply as sent.
func listTools(t *testing.T, cs *mcp.ClientSession) ([]*mcp.Tool, int) {
	t.Helper()
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(res)
	if err != nil {
		t.Fatal(err)
	}
	return res.Tools, len(b)
}

// toolListBudget is the most the tool list may cost an agent's context
// window: beads measured its MCP tool list at 10-50k tokens and advises
// its CLI instead; omh's whole list stays under 4 KB.
const toolListBudget = 4096

// The server offers the read tools, each marked read-only, and the write
// tools only with --allow-write; the serialized list stays under its
// budget either way. Catches: a write tool offered by default, a read tool
// not marked read-only, descriptions or schemas grown past the budget.
func TestMCPOffersReadToolsAndWritesOnlyWhenAllowed(t *testing.T) {
	t.Parallel()
	dir := demoStore(t)
	reads := []string{"changes", "find", "links", "proof_find", "proof_show", "show", "status"}
	for _, allow := range []bool{false, true} {
		tools, size := listTools(t, mcpSession(t, dir, allow))
		var names []string
		for _, tool := range tools {
			names = append(names, tool.Name)
			write := tool.Name == "new" || tool.Name == "retract"
			if tool.Annotations == nil || tool.Annotations.ReadOnlyHint == write {
				t.Errorf("allow-write %v: %s is marked %+v", allow, tool.Name, tool.Annotations)
			}
			if len(tool.Description) > 160 {
				t.Errorf("%s's description is %d characters: %q", tool.Name, len(tool.Description), tool.Description)
			}
		}
		slices.Sort(names)
		want := reads
		if allow {
			want = []string{"changes", "find", "links", "new", "proof_find", "proof_show", "retract", "show", "status"}
		}
		if !slices.Equal(names, want) {
			t.Errorf("allow-write %v: tools %v, want %v", allow, names, want)
		}
		if size > toolListBudget {
			t.Errorf("allow-write %v: tools/list is %d bytes, over the %d budget", allow, size, toolListBudget)
		}
		t.Logf("allow-write %v: %d tools, tools/list %d bytes", allow, len(tools), size)
	}
}

// find over MCP answers as omh find does: its structured content is the
// reply of omh find --json and its text the cards of omh find --cards,
// for the same question and arguments. Catches: a second ask pipeline in
// the server, arguments dropped or defaulted differently.
func TestMCPFindEqualsFindJSON(t *testing.T) {
	t.Parallel()
	dir := demoStore(t)
	cs := mcpSession(t, dir, false)
	for _, c := range []struct {
		args  map[string]any
		flags []string
	}{
		{map[string]any{"question": "why does mounting the credential file fail"}, nil},
		{map[string]any{"question": "token refresh", "phrasings": []string{"credential rename"}, "roots": 2, "max_chars": 900},
			[]string{"--also", "credential rename", "--roots", "2", "--max-chars", "900"}},
		{map[string]any{"question": "sandbox", "layer": "team", "type": "finding"}, []string{"--layer", "team", "--type", "finding"}},
		{map[string]any{"question": "credentials", "as_of": "2026-02-01"}, []string{"--as-of", "2026-02-01"}},
		{map[string]any{"question": "zebra"}, nil},
		{map[string]any{"question": "credential mount", "tags": []string{"x", "y"}, "path": "topic", "since": "2026-03-01"},
			[]string{"--tag", "x", "--tag", "y", "--path", "topic", "--since", "2026-03-01"}},
		{map[string]any{"question": "credential mount", "path": "topic", "since": "2026-03-01", "layer": "team"},
			[]string{"--path", "topic", "--since", "2026-03-01", "--layer", "team"}},
	} {
		q := c.args["question"].(string)
		text, reply, isErr := callTool(t, cs, "find", c.args)
		if isErr {
			t.Fatalf("find %v: %s", c.args, text)
		}
		args := append(append([]string{"find"}, c.flags...), strings.Fields(q)...)
		if err := cutFrom(reply, decoded(t, ok(t, dir, append([]string{"--json"}, args...)...))); err != nil {
			t.Errorf("find %v: structured content is no cut of omh find --json: %v", c.args, err)
		}
		if want := ok(t, dir, append([]string{"find", "--cards"}, args[1:]...)...); text != want {
			t.Errorf("find %v: text differs from omh find --cards:\n%s\n---\n%s", c.args, text, want)
		}
	}
}

// Every read tool answers on the demo store with what its command prints:
// the text of the command, the JSON of the command with --json. Catches:
// a tool rendering its own way, or answering from another store.
func TestMCPToolsAnswerAsTheirCommands(t *testing.T) {
	t.Parallel()
	dir := demoStore(t)
	cs := mcpSession(t, dir, false)
	for _, c := range []struct {
		tool string
		args map[string]any
		cmd  []string
	}{
		{"show", map[string]any{"key": "topic/credentials"}, []string{"show", "topic/credentials"}},
		{"show", map[string]any{"key": "topic/credentials", "layer": "team", "lines": "5-7"}, []string{"show", "--layer", "team", "--lines", "5-7", "topic/credentials"}},
		{"links", map[string]any{"key": "topic/credentials"}, []string{"links", "topic/credentials"}},
		{"links", map[string]any{"key": "topic/credentials", "direction": "in"}, []string{"links", "--in", "topic/credentials"}},
		{"links", map[string]any{"key": "topic/credentials", "limit": 1, "offset": 1}, []string{"links", "--limit", "1", "--offset", "1", "topic/credentials"}},
		{"links", map[string]any{"key": "topic/credentials", "limit": 0}, []string{"links", "--limit", "0", "topic/credentials"}},
		{"show", map[string]any{"key": "topic/credentials", "max_chars": 100}, []string{"show", "--max-chars", "100", "topic/credentials"}},
		{"proof_find", map[string]any{"question": "how does the harness write files"}, []string{"proof", "find", "how", "does", "the", "harness", "write", "files"}},
		{"proof_find", map[string]any{"question": "harness", "retracted": "only", "as_of": "2026-03-15"}, []string{"proof", "find", "--retracted", "only", "--as-of", "2026-03-15", "harness"}},
		{"proof_find", map[string]any{"question": "harness", "phrasings": []string{"rewrites files in place", "write"}}, []string{"proof", "find", "--also", "rewrites files in place", "--also", "write", "harness"}},
		{"proof_show", map[string]any{"key": "finding/sandbox-user-is-uid-1000"}, []string{"proof", "show", "finding/sandbox-user-is-uid-1000"}},
		{"proof_show", map[string]any{"key": "finding/sandbox-user-is-uid-1000", "as_of": "2025-01-01"}, []string{"proof", "show", "--as-of", "2025-01-01", "finding/sandbox-user-is-uid-1000"}},
		{"proof_find", map[string]any{"question": "harness", "path": "finding", "since": "2026-01-01"}, []string{"proof", "find", "--path", "finding", "--since", "2026-01-01", "harness"}},
		{"changes", nil, []string{"changes"}},
		{"changes", map[string]any{"since": "2026-01-01", "limit": 2, "offset": 1}, []string{"changes", "--since", "2026-01-01", "--limit", "2", "--offset", "1"}},
	} {
		text, reply, isErr := callTool(t, cs, c.tool, c.args)
		if isErr {
			t.Fatalf("%s %v: %s", c.tool, c.args, text)
		}
		if want := ok(t, dir, c.cmd...); text != want {
			t.Errorf("%s %v: text differs from omh %v:\n%s\n---\n%s", c.tool, c.args, c.cmd, text, want)
		}
		want := decoded(t, ok(t, dir, append([]string{"--json"}, c.cmd...)...))
		if c.tool == "proof_find" {
			if err := cutFrom(reply, want); err != nil {
				t.Errorf("%s %v: structured content is no cut of omh --json %v: %v", c.tool, c.args, c.cmd, err)
			}
		} else if !reflect.DeepEqual(reply, want) {
			t.Errorf("%s %v: structured content differs from omh --json %v:\n%v\n%v", c.tool, c.args, c.cmd, reply, want)
		}
	}
	text, reply, isErr := callTool(t, cs, "status", nil)
	st, _ := reply.(map[string]any)
	if isErr || !strings.Contains(text, "fresh        yes\n") || st["fresh"] != true {
		t.Errorf("status: %s %v", text, reply)
	}
}

// A failed call is a tool error whose text starts with omh's stable code
// and whose structured content is the error --json prints, for refusals
// of the store, malformed arguments the tool reads, and arguments the SDK
// refuses before the tool runs. Catches: a protocol error where the agent
// needs a tool error, a code lost on the way.
func TestMCPErrorsAreToolErrorsWithTheStableCode(t *testing.T) {
	t.Parallel()
	dir := demoStore(t)
	cs := mcpSession(t, dir, false)
	for _, c := range []struct {
		tool, code string
		args       map[string]any
	}{
		{"show", "not_found", map[string]any{"key": "topic/credential"}},
		{"show", "usage", map[string]any{"key": "topic/credentials", "lines": "7-5"}},
		{"show", "bad_lines", map[string]any{"key": "topic/sandbox", "lines": "900-"}},
		{"find", "usage", map[string]any{"question": "  "}},
		{"find", "usage", map[string]any{"question": "x", "layer": "shared"}},
		{"find", "usage", map[string]any{}},                                 // the SDK: question is required
		{"find", "usage", map[string]any{"question": "x", "roots": "many"}}, // the SDK: not an integer
		{"find", "bad_as_of", map[string]any{"question": "x", "as_of": "2026-08-19T12:00:00Z"}},
		{"find", "bad_since", map[string]any{"question": "x", "since": "last week"}},
		{"changes", "bad_since", map[string]any{"since": "last week"}},
		{"changes", "usage", map[string]any{"limit": -1}},
		{"links", "usage", map[string]any{"key": "topic/sandbox", "direction": "sideways"}},
		{"proof_show", "not_a_record", map[string]any{"key": "topic/sandbox"}},
		{"proof_find", "usage", map[string]any{"question": "x", "retracted": "maybe"}},
	} {
		text, reply, isErr := callTool(t, cs, c.tool, c.args)
		var e struct {
			Error struct{ Code, Message string }
		}
		b, _ := json.Marshal(reply)
		json.Unmarshal(b, &e)
		if !isErr || !strings.HasPrefix(text, c.code+": ") || e.Error.Code != c.code || e.Error.Message == "" {
			t.Errorf("%s %v: error %v, text %q, structured %s; want code %s", c.tool, c.args, isErr, text, b, c.code)
		}
	}
}

// One server answers fresh: a note written, committed or removed between
// two calls is in (or out of) the next answer. Catches: a server answering
// from the snapshot it opened first.
func TestMCPAnswersFromTheStoreAsItIsAtEachCall(t *testing.T) {
	t.Parallel()
	dir := demoStore(t)
	cs := mcpSession(t, dir, false)
	keys := func() []string {
		_, reply, _ := callTool(t, cs, "find", map[string]any{"question": "zeppelin"})
		var r struct{ Hits []struct{ Key, Layer string } }
		b, _ := json.Marshal(reply)
		json.Unmarshal(b, &r)
		var out []string
		for _, h := range r.Hits {
			out = append(out, h.Key+" "+h.Layer)
		}
		return out
	}
	if k := keys(); len(k) != 0 {
		t.Fatalf("before: %v", k)
	}
	path := filepath.Join(dir, ".omh", "notes", "note", "zeppelin.md")
	if err := os.WriteFile(path, []byte("---\nrecorded: 2026-04-09\n---\n# The zeppelin\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if k := keys(); !slices.Equal(k, []string{"note/zeppelin local"}) {
		t.Errorf("after writing it: %v", k)
	}
	for _, args := range [][]string{{"add", "-A"}, {"-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "z"}} {
		if out, err := exec.Command("git", append([]string{"-C", dir}, args...)...).CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v %s", args, err, out)
		}
	}
	if k := keys(); !slices.Equal(k, []string{"note/zeppelin team"}) {
		t.Errorf("after committing it: %v", k)
	}
}

// With --allow-write, new writes a private note that the next find sees,
// and retract withdraws a private record; without it neither tool exists.
// Catches: write tools reachable on a read-only server, a write the
// server's own next answer misses.
func TestMCPWritesOnlyWithAllowWrite(t *testing.T) {
	t.Parallel()
	dir := demoStore(t)
	if _, err := mcpSession(t, dir, false).CallTool(context.Background(), &mcp.CallToolParams{Name: "new",
		Arguments: map[string]any{"type": "finding", "title": "x"}}); err == nil {
		t.Error("new answered on a server without --allow-write")
	}
	cs := mcpSession(t, dir, true)
	text, reply, isErr := callTool(t, cs, "new", map[string]any{"type": "finding", "title": "Zeppelins float on hydrogen",
		"answers": []string{"why do zeppelins float"}, "body": "Lighter than air."})
	w, _ := reply.(map[string]any)
	if isErr || w["key"] != "finding/zeppelins-float-on-hydrogen" || !strings.HasPrefix(text, "wrote finding/zeppelins-float-on-hydrogen\n") {
		t.Fatalf("new: %s %v", text, reply)
	}
	if _, err := os.Stat(w["path"].(string)); err != nil {
		t.Errorf("the note is not on disk: %v", err)
	}
	if text, _, _ := callTool(t, cs, "find", map[string]any{"question": "zeppelins"}); !strings.HasPrefix(text, "answered: the first note leads clearly\n\nfinding/zeppelins-float-on-hydrogen  finding · local") {
		t.Errorf("find after new: %s", text)
	}
	text, _, isErr = callTool(t, cs, "retract", map[string]any{"key": "finding/zeppelins-float-on-hydrogen", "reason": "helium, mostly"})
	if isErr || !strings.HasPrefix(text, "retracted finding/zeppelins-float-on-hydrogen on ") {
		t.Errorf("retract: %s", text)
	}
	if text, _, _ := callTool(t, cs, "retract", map[string]any{"key": "finding/sandbox-user-is-uid-1000", "reason": "r"}); !strings.HasPrefix(text, "team_record: ") {
		t.Errorf("retract of a team record without team: %s", text)
	}
}

// omh mcp, the built binary, serves a client over its standard input and
// output: it lists the tools and answers find as omh find --json does.
// Catches: a server that works in-process but not as the command agents
// start (stdout polluted by a warning, a transport never closed).
func TestMCPServesOverStdioAsABuiltBinary(t *testing.T) {
	t.Parallel()
	dir := demoStore(t)
	cs := stdioSession(t, dir)
	if tools, size := listTools(t, cs); len(tools) != 7 || size > toolListBudget {
		t.Errorf("%d tools, %d bytes", len(tools), size)
	}
	q := "why does mounting the credential file fail"
	_, reply, isErr := callTool(t, cs, "find", map[string]any{"question": q})
	if want := decoded(t, ok(t, dir, append([]string{"--json", "find"}, strings.Fields(q)...)...)); isErr || cutFrom(reply, want) != nil {
		t.Errorf("find over stdio: %v\nwant %v", reply, want)
	}
}

// rawControl reports the first control character or bidirectional
// override, but a line break, in s, or -1.
func rawControl(s string) int {
	for i, r := range s {
		if (r < 0x20 && r != '\n') || r == 0x7f || (r >= 0x80 && r <= 0x9f) || (r >= 0x202a && r <= 0x202e) || (r >= 0x2066 && r <= 0x2069) {
			return i
		}
	}
	return -1
}

// A note holding escape sequences (a retitle, a screen clear, OSC 52 that
// writes the clipboard), a C1 control and bidirectional overrides comes
// back in show's and find's text escaped exactly as omh prints it, and in
// the structured content exact, as --json has it. Catches: MCP text
// passing the sequences raw to the agent's terminal, an override reaching
// it from either front end.
func TestMCPTextEscapesControlsAsTheCommandLineDoes(t *testing.T) {
	t.Parallel()
	r := vaulttest.New(t)
	evil := "The walrus \x1b]0;owned\a\x1b[2J tusk \u009b31m clip \x1b]52;c;cm0gLXJmIH4K\a x = 1 \u202e// ;tnemmoc\u202c \u2066iso\u2069 here.\n"
	r.Write("evil.md", "---\ntitle: \"Evil \u202e title\"\n---\n# Evil\n\n"+evil)
	r.Commit("2026-01-02T10:00:00Z", "notes")
	cs := mcpSession(t, r.Dir, false)
	for _, c := range []struct {
		tool string
		args map[string]any
		cmd  []string
	}{
		{"show", map[string]any{"key": "evil"}, []string{"show", "evil"}},
		{"find", map[string]any{"question": "walrus tusk"}, []string{"find", "--cards", "walrus", "tusk"}},
	} {
		text, structured, isErr := callTool(t, cs, c.tool, c.args)
		if isErr {
			t.Fatalf("%s: %s", c.tool, text)
		}
		if i := rawControl(text); i >= 0 {
			t.Errorf("%s's text holds a raw control at %d: %q", c.tool, i, text)
		}
		if want := ok(t, r.Dir, c.cmd...); text != want {
			t.Errorf("%s's text differs from omh %v:\n%q\n%q", c.tool, c.cmd, text, want)
		}
		if want := decoded(t, ok(t, r.Dir, append([]string{"--json"}, c.cmd...)...)); !reflect.DeepEqual(structured, want) {
			t.Errorf("%s's structured content differs from --json", c.tool)
		}
		if b, _ := json.Marshal(structured); !strings.Contains(string(b), `\u001b]0;owned\u0007`) || !strings.Contains(string(b), "\u202e// ;tnemmoc") {
			t.Errorf("%s's structured content is not exact: %s", c.tool, b)
		}
	}
}

// Started in a folder that is no git repository, omh mcp initializes,
// lists its tools and answers each call with the error the command line
// gives there: the same code, the same sentence. Catches: the server
// exiting before initialize, the client showing only "connection closed".
func TestMCPOutsideARepositoryAnswersEachCallWithWhy(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	cli := exec.Command(vaulttest.Omh(t), "-C", dir, "--json", "find", "x")
	var stderr strings.Builder
	cli.Stderr = &stderr
	if err := cli.Run(); err == nil {
		t.Fatal("omh find succeeded outside a repository")
	}
	var want struct {
		Error struct{ Code, Message string }
	}
	if err := json.Unmarshal([]byte(stderr.String()), &want); err != nil || want.Error.Code != "not_a_repository" {
		t.Fatalf("omh --json find outside a repository: %v %s", err, stderr.String())
	}
	cs := stdioSession(t, dir)
	if tools, _ := listTools(t, cs); len(tools) != 7 {
		t.Errorf("%d tools", len(tools))
	}
	for _, c := range []struct {
		tool string
		args map[string]any
	}{{"find", map[string]any{"question": "x"}}, {"status", nil}, {"show", map[string]any{"key": "k"}}} {
		text, structured, isErr := callTool(t, cs, c.tool, c.args)
		if wantText := want.Error.Code + ": " + want.Error.Message; !isErr || text != wantText {
			t.Errorf("%s: %v %q, want %q", c.tool, isErr, text, wantText)
		}
		if wantJSON := decoded(t, stderr.String()); !reflect.DeepEqual(structured, wantJSON) {
			t.Errorf("%s: structured %v, want %v", c.tool, structured, wantJSON)
		}
	}
}

// errorOf is a failed call's code and message, as its structured content
// has them.
func errorOf(t *testing.T, cs *mcp.ClientSession, tool string, args map[string]any) (code, msg string) {
	t.Helper()
	text, structured, isErr := callTool(t, cs, tool, args)
	var e struct {
		Error struct{ Code, Message string }
	}
	b, _ := json.Marshal(structured)
	if err := json.Unmarshal(b, &e); err != nil || !isErr || text != e.Error.Code+": "+e.Error.Message {
		t.Fatalf("%s %v: %v %q %s", tool, args, isErr, text, b)
	}
	return e.Error.Code, e.Error.Message
}

// A refusal names the tool's own parameters, never a command-line flag,
// and never suggests one the tool lacks. Catches: "--roots", "--as-of" in
// a tool error; new saying "use --key or --if-exists"; "roots": "many"
// answered with the schema validator's words.
func TestMCPErrorsNameTheToolsParametersNotFlags(t *testing.T) {
	t.Parallel()
	dir := demoStore(t)
	cs := mcpSession(t, dir, true)
	callTool(t, cs, "new", map[string]any{"type": "finding", "title": "Taken once"})
	flag := regexp.MustCompile(`--[a-z]`)
	for _, c := range []struct {
		tool string
		args map[string]any
		code string
		want string // the message starts with it
	}{
		{"find", map[string]any{"question": "x", "roots": -1}, "usage", "roots is how many ranked notes"},
		{"find", map[string]any{"question": "x", "max_chars": -5}, "usage", "max_chars is the size"},
		{"find", map[string]any{"question": "x", "roots": "many"}, "usage", `roots is a whole number, not "many"`},
		{"find", map[string]any{"question": "x", "as_of": "2026-08-19T12:00:00Z"}, "bad_as_of", "as_of 2026-08-19T12:00:00Z: "},
		{"find", map[string]any{"question": "x", "query": "y"}, "usage", "give question or query, not both"},
		{"find", map[string]any{"question": "x", "top_k": 3}, "usage", `find has no parameter "top_k"; it takes as_of, layer, max_chars, path, phrasings, question, roots, since, store, tags, type`},
		{"find", map[string]any{"question": "x", "since": "yesterday"}, "bad_since", "since yesterday: "},
		{"proof_find", map[string]any{"question": "x", "retracted": "maybe"}, "usage", "retracted takes exclude, include or only"},
		{"proof_show", map[string]any{"key": "finding/sandbox-user-is-uid-1000", "as_of": "yesterday"}, "bad_as_of", "as_of yesterday: "},
		{"new", map[string]any{"type": "finding", "title": "Taken once"}, "key_taken", "the key finding/taken-once is taken"},
		{"new", map[string]any{"type": "finding", "title": "Nowhere", "links": []string{"zzz-no-such-note"}}, "not_found", "links zzz-no-such-note reaches no note"},
		{"new", map[string]any{"type": "finding", "title": "!!!"}, "bad_key", `the title has no letter or digit to make a key from ("!!!"); choose another title`},
		{"retract", map[string]any{"key": "finding/sandbox-user-is-uid-1000", "reason": "r"}, "team_record", "finding/sandbox-user-is-uid-1000 is a team record"},
		{"retract", map[string]any{"key": "finding/sandbox-user-is-uid-1000", "reason": "r", "team": "perhaps"}, "usage", `team is true or false, not "perhaps"`},
	} {
		code, msg := errorOf(t, cs, c.tool, c.args)
		if code != c.code || !strings.HasPrefix(msg, c.want) || flag.MatchString(msg) {
			t.Errorf("%s %v: %s: %s\nwant %s: %s..., naming no flag", c.tool, c.args, code, msg, c.code, c.want)
		}
	}
	if _, msg := errorOf(t, cs, "new", map[string]any{"type": "finding", "title": "Taken once"}); !strings.HasSuffix(msg, "; choose another title") {
		t.Errorf("new's key_taken suggests %q", msg)
	}
	if _, msg := errorOf(t, cs, "retract", map[string]any{"key": "finding/sandbox-user-is-uid-1000", "reason": "r"}); !strings.Contains(msg, "set team to edit it") {
		t.Errorf("retract's team_record suggests %q", msg)
	}
}

// Arguments as agents write them answer as the tool's own: null is the
// default, a number may come as a string, a list of one as its item, and
// query, limit and also are question, roots and phrasings. Catches:
// "roots": null refused as `type: <invalid reflect.Value> has type "null"`,
// "roots": "2" refused, an alias refused as an unknown parameter.
func TestMCPArgumentsAsAgentsWriteThemAnswerAsTheToolsOwn(t *testing.T) {
	t.Parallel()
	cs := mcpSession(t, demoStore(t), false)
	q := "why does mounting the credential file fail"
	for _, c := range []struct {
		tool       string
		args, same map[string]any
	}{
		{"find", map[string]any{"question": q, "roots": nil, "layer": nil}, map[string]any{"question": q}},
		{"find", map[string]any{"question": q, "roots": "2", "max_chars": " 900 "}, map[string]any{"question": q, "roots": 2, "max_chars": 900}},
		{"find", map[string]any{"query": q, "limit": 1}, map[string]any{"question": q, "roots": 1}},
		{"find", map[string]any{"question": q, "also": []string{"EBUSY rename"}}, map[string]any{"question": q, "phrasings": []string{"EBUSY rename"}}},
		{"find", map[string]any{"question": q, "phrasings": "EBUSY rename"}, map[string]any{"question": q, "phrasings": []string{"EBUSY rename"}}},
		{"proof_find", map[string]any{"query": "harness", "also": "write"}, map[string]any{"question": "harness", "phrasings": []string{"write"}}},
		{"find", map[string]any{"question": q, "tag": "sandbox"}, map[string]any{"question": q, "tags": []string{"sandbox"}}},
		{"show", map[string]any{"key": "topic/credentials", "lines": nil}, map[string]any{"key": "topic/credentials"}},
	} {
		text, structured, isErr := callTool(t, cs, c.tool, c.args)
		wantText, wantStructured, _ := callTool(t, cs, c.tool, c.same)
		if isErr || text != wantText || !reflect.DeepEqual(structured, wantStructured) {
			t.Errorf("%s %v answers otherwise than %v:\n%s\n---\n%s", c.tool, c.args, c.same, text, wantText)
		}
	}
	// The reply names the phrasings asked, the question first.
	_, structured, _ := callTool(t, cs, "find", map[string]any{"query": q, "also": []string{"EBUSY rename", "token file mount"}})
	if got := structured.(map[string]any)["question"]; !reflect.DeepEqual(got, []any{q, "EBUSY rename", "token file mount"}) {
		t.Errorf("the reply's question is %v", got)
	}
}

// The tools/list reply as omh mcp --allow-write sends it, the JSON-RPC
// line whole, stays under 4 KB, and find and proof_find take phrasings,
// which find's description and the parameter's tell the agent to pass.
// Catches: the phrasings' guidance grown past the budget, or left out of
// the schema the agent reads.
func TestMCPToolListAsSentStaysUnder4KBAndAsksForPhrasings(t *testing.T) {
	t.Parallel()
	srv := startRaw(t, demoStore(t), "--allow-write")
	srv.send(initializeLine, initializedLine, `{"jsonrpc":"2.0","id":"tl","method":"tools/list"}`)
	srv.recv() // initialize's
	line := srv.recv()
	if len(line) > toolListBudget {
		t.Errorf("tools/list is %d bytes as sent, over the %d budget", len(line), toolListBudget)
	}
	t.Logf("tools/list as sent, with --allow-write: %d bytes", len(line))
	var reply struct {
		Result struct {
			Tools []struct {
				Name, Description string
				InputSchema       struct {
					Properties map[string]struct{ Type, Description string }
				}
			}
		}
	}
	if err := json.Unmarshal([]byte(line), &reply); err != nil {
		t.Fatal(err)
	}
	var with []string
	for _, tool := range reply.Result.Tools {
		p, ok := tool.InputSchema.Properties["phrasings"]
		if !ok {
			continue
		}
		with = append(with, tool.Name)
		if p.Type != "array" || !strings.Contains(tool.Description, "hrasings") {
			t.Errorf("%s: phrasings %+v, description %q", tool.Name, p, tool.Description)
		}
		if tool.Name == "find" && p.Description != phrasingsHelp {
			t.Errorf("find's phrasings say %q", p.Description)
		}
	}
	if !slices.Equal(with, []string{"find", "proof_find"}) {
		t.Errorf("phrasings taken by %v", with)
	}
}

// stdioSession starts the built omh mcp in dir and connects the SDK's
// client to it over the server's standard input and output.
func stdioSession(t *testing.T, dir string) *mcp.ClientSession {
	t.Helper()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test"}, nil).Connect(context.Background(),
		&mcp.CommandTransport{Command: exec.Command(vaulttest.Omh(t), "-C", dir, "mcp")}, nil)
	if err != nil {
		t.Fatalf("connecting to omh mcp in %s: %v", dir, err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// cutFrom says how a find reply as structured content (sized) is not the
// reply of --json (full) cut as the cards are: the same fields but the
// hits; the first ranked hits of full, the others counted in hits_omitted;
// linked notes only under their own ranked note, the others counted in
// its more_linked; each hit as full has it but for its links, which keep
// their order and, with their counts, add up to full's.
func cutFrom(sized, full any) error {
	s, f := sized.(map[string]any), full.(map[string]any)
	for k, v := range f {
		if k != "hits" && !reflect.DeepEqual(s[k], v) {
			return fmt.Errorf("%s is %v, not %v", k, s[k], v)
		}
	}
	count := func(h map[string]any, field string) int { n, _ := h[field].(float64); return int(n) }
	var fullHits []map[string]any
	for _, h := range f["hits"].([]any) {
		fullHits = append(fullHits, h.(map[string]any))
	}
	ranked := 0
	next := 0 // the next hit of full a sized hit may be
	for _, x := range s["hits"].([]any) {
		h := x.(map[string]any)
		for next < len(fullHits) && fullHits[next]["key"] != h["key"] {
			if fullHits[next]["depth"].(float64) == 0 {
				return fmt.Errorf("the ranked hit %s is left out above %s", fullHits[next]["key"], h["key"])
			}
			next++
		}
		if next == len(fullHits) {
			return fmt.Errorf("%s is not in --json's hits, or out of order", h["key"])
		}
		fh := fullHits[next]
		next++
		if fh["depth"].(float64) == 0 {
			ranked++
		}
		for k, v := range fh {
			switch k {
			case "links", "in", "links_more", "in_more", "more_linked":
			default:
				if !reflect.DeepEqual(h[k], v) {
					return fmt.Errorf("%s: %s is %v, not %v", h["key"], k, h[k], v)
				}
			}
		}
		for _, list := range []string{"links", "in"} {
			sl, fl := h[list].([]any), fh[list].([]any)
			for _, ref := range sl {
				if !slices.ContainsFunc(fl, func(r any) bool { return reflect.DeepEqual(r, ref) }) && count(fh, list+"_more") == 0 {
					return fmt.Errorf("%s: %s holds %v, which --json's %v does not", h["key"], list, ref, fl)
				}
			}
			if len(sl)+count(h, list+"_more") != len(fl)+count(fh, list+"_more") {
				return fmt.Errorf("%s: %s counts %d+%d, --json %d+%d", h["key"], list, len(sl), count(h, list+"_more"), len(fl), count(fh, list+"_more"))
			}
		}
	}
	all := 0
	for _, h := range fullHits {
		if h["depth"].(float64) == 0 {
			all++
		}
	}
	if ranked+count(s, "hits_omitted") != all {
		return fmt.Errorf("%d ranked hits and %d omitted, of %d", ranked, count(s, "hits_omitted"), all)
	}
	return nil
}

// hubStore is a repository of 80 notes on sizing that all link to a hub,
// which links back to each of them: every ranked note of a question on
// sizing links in from the hub and 79 others.
func hubStore(t *testing.T) string {
	t.Helper()
	r := vaulttest.New(t)
	var hub strings.Builder
	hub.WriteString("# Sizing hub\n\nEvery note on reply sizing:\n\n")
	for i := range 80 {
		key := fmt.Sprintf("sizing/a-note-on-reply-sizing-and-context-windows-%02d", i)
		fmt.Fprintf(&hub, "- [[%s]]\n", key)
		body := fmt.Sprintf("# Reply sizing %d\n\nA reply sized for a context window costs the agent less. See [[hub]].\n\n", i)
		for k := 1; k <= 3; k++ {
			body += fmt.Sprintf("- [[sizing/a-note-on-reply-sizing-and-context-windows-%02d]]\n", (i+k)%80)
		}
		body += strings.Repeat("Sizing a reply for the context window is the point of this paragraph. ", 8) + "\n"
		r.Write(key+".md", body)
	}
	r.Write("hub.md", hub.String())
	r.Commit("2026-01-02T10:00:00Z", "notes")
	return r.Dir
}

// Across size aims, find's structured content on hub notes stays within
// max(8 KB, 1.5 times the cards' text), and at max_chars 1000 cards and
// structured content together under 3 KB, each a cut of --json's reply.
// Catches: structured content ignoring max_chars (vba-docs: 16.6 KB beside
// 3.5 KB of cards, 11.2 KB in all at max_chars 1000).
func TestMCPFindStructuredContentObeysTheSizeAim(t *testing.T) {
	t.Parallel()
	dir := hubStore(t)
	cs := mcpSession(t, dir, false)
	q := "reply sizing for a context window"
	for _, maxChars := range []int{200, 600, 1000, 2000, 4000, 6000} {
		text, structured, isErr := callTool(t, cs, "find", map[string]any{"question": q, "max_chars": maxChars})
		b, _ := json.Marshal(structured)
		if isErr || len(b) > max(8<<10, len(text)*3/2) || maxChars == 1000 && len(b)+len(text) > 3<<10 {
			t.Errorf("max_chars %d: %d bytes of structured content beside %d of text (error %v)", maxChars, len(b), len(text), isErr)
		}
		full := decoded(t, ok(t, dir, append([]string{"--json", "find", "--max-chars", fmt.Sprint(maxChars)}, strings.Fields(q)...)...))
		if err := cutFrom(structured, full); err != nil {
			t.Errorf("max_chars %d: %v", maxChars, err)
		}
		t.Logf("max_chars %d: text %d, structured %d, --json compact %d", maxChars, len(text), len(b), len(must(json.Marshal(full))))
	}
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// links and show of a hub (80 links out, 80 in) answer under 16 KB by
// default, text and structured content together, and say how to page:
// links where its next page starts. Catches: every link of a hub in one
// reply (vba-docs: 133 KB for api/Excel.Application(object)).
func TestMCPLinksAndShowOfAHubStayUnder16KB(t *testing.T) {
	t.Parallel()
	dir := hubStore(t)
	cs := mcpSession(t, dir, false)
	for _, c := range []struct {
		tool string
		want string
	}{
		{"links", fmt.Sprintf("  … %d more links out; --offset %d for the next\n", 80-store.DefaultLinksLimit, store.DefaultLinksLimit)},
		{"show", "         … 72 more links out; omh links --out --offset 8 for the next\n"},
	} {
		text, structured, isErr := callTool(t, cs, c.tool, map[string]any{"key": "hub"})
		b, _ := json.Marshal(structured)
		if isErr || len(text)+len(b) > 16<<10 || !strings.Contains(text, c.want) {
			t.Errorf("%s: %d bytes of text and %d of structured content (error %v):\n%s", c.tool, len(text), len(b), isErr, text)
		}
	}
}

// The instructions an agent reads at initialize name the verdict lines find
// opens with, as find prints them, and say when to stop; find's description
// names every verdict. Catches: a verdict line reworded in the cards but
// not in what tells the agent how to read it, guidance that names no stop.
func TestMCPInstructionsSayHowToReadFindsVerdict(t *testing.T) {
	t.Parallel()
	cs := mcpSession(t, demoStore(t), false)
	instructions := cs.InitializeResult().Instructions
	var verdicts []string
	for _, question := range []string{"why does the token refresh fail in the sandbox", "how do we rotate the Kubernetes secrets in production"} {
		text, _, isError := callTool(t, cs, "find", map[string]any{"question": question})
		first, _, _ := strings.Cut(text, "\n")
		verdict, _, _ := strings.Cut(first, ":")
		verdicts = append(verdicts, verdict)
		// An answered line is named whole; a weak one goes on to name the
		// question's words, so its verdict is named.
		if isError || !strings.Contains(instructions, "'"+first+"'") && !strings.Contains(instructions, "'"+verdict+"'") {
			t.Errorf("%q opens with %q, which the instructions do not name: %q", question, first, instructions)
		}
	}
	if !slices.Equal(verdicts, []string{"answered", "weak"}) {
		t.Errorf("the questions read %v, want one answered and one weak", verdicts)
	}
	if !strings.Contains(instructions, "stop") {
		t.Errorf("the instructions say not when to stop: %q", instructions)
	}
	tools, _ := listTools(t, cs)
	for _, tool := range tools {
		if tool.Name != "find" {
			continue
		}
		for _, v := range []string{"answered", "weak", "none"} {
			if !strings.Contains(tool.Description, v) {
				t.Errorf("find's description names no %q: %q", v, tool.Description)
			}
		}
	}
}

// new over MCP refuses a title with a control character as omh new does.
// Catches: a NUL written raw into a note the server then reported written
// and could not show.
func TestMCPNewWithAControlCharacterInTheTitleIsRefused(t *testing.T) {
	t.Parallel()
	cs := mcpSession(t, demoStore(t), true)
	if code, msg := errorOf(t, cs, "new", map[string]any{"type": "finding", "title": "Nul\x00here"}); code != "usage" || !strings.Contains(msg, "U+0000") {
		t.Errorf("new with a NUL in the title: %s: %s", code, msg)
	}
}

// handbookBeside gives the demo store at dir a handbook: a repository of
// its own holding a pager note, which a demo note links to qualified
// ([[handbook:hand/pager]]), listed in dir's committed config's stores:.
func handbookBeside(t *testing.T, dir string) {
	t.Helper()
	hand := vaulttest.New(t)
	hand.Write(".omh/config.yaml", "worktree: true\n")
	hand.Write("hand/pager.md", "---\ntype: finding\nrecorded: 2026-03-01\n---\n# Pager\n\n## Claim\nThe credential mount escalation pages the sandbox on-call.\n\n## Evidence\nThe rota.\n")
	hand.Write("hand/index.md", "# Index\n\n[[hand/pager]]\n")
	hand.Commit("2026-03-01T10:00:00Z", "the handbook")
	rel, err := filepath.Rel(dir, hand.Dir)
	if err != nil {
		t.Fatal(err)
	}
	vaulttest.WriteFile(t, filepath.Join(dir, ".omh", "config.yaml"), fmt.Sprintf("stores:\n  - name: handbook\n    path: %s\n", filepath.ToSlash(rel)))
	vaulttest.WriteFile(t, filepath.Join(dir, ".omh", "notes", "topic", "escalation.md"), "# Escalation\n\nWho to page when the credential mount fails: [[handbook:hand/pager]]\n")
	const date = "2026-03-22T09:00:00Z"
	vaulttest.MustGit(t, dir, date, "add", ".omh/config.yaml", ".omh/notes/topic/escalation.md")
	vaulttest.MustGit(t, dir, date, "-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-qm", "the handbook beside")
}

// The tools answer across the stores the config lists as the commands
// do: find (every store, and store narrowing it) with each hit's store,
// show, links and proof_show of a qualified key, proof_find and changes
// with the handbook's notes among their own. Catches: a tool reading the
// store omh runs in alone, find's store parameter dropped, a qualified key
// refused over MCP.
func TestMCPToolsAnswerAcrossStoresAsTheirCommands(t *testing.T) {
	t.Parallel()
	dir := demoStore(t)
	handbookBeside(t, dir)
	cs := mcpSession(t, dir, false)
	for _, c := range []struct {
		tool string
		args map[string]any
		cmd  []string
	}{
		{"find", map[string]any{"question": "credential mount escalation"}, []string{"find", "credential", "mount", "escalation"}},
		{"find", map[string]any{"question": "credential mount escalation", "store": []string{"handbook"}}, []string{"find", "--store", "handbook", "credential", "mount", "escalation"}},
		{"find", map[string]any{"question": "credential mount escalation", "store": []string{"."}}, []string{"find", "--store", ".", "credential", "mount", "escalation"}},
		{"proof_find", map[string]any{"question": "credential mount escalation"}, []string{"proof", "find", "credential", "mount", "escalation"}},
		{"show", map[string]any{"key": "handbook:hand/pager"}, []string{"show", "handbook:hand/pager"}},
		{"links", map[string]any{"key": "handbook:hand/pager"}, []string{"links", "handbook:hand/pager"}},
		{"links", map[string]any{"key": "topic/escalation"}, []string{"links", "topic/escalation"}},
		{"changes", map[string]any{"since": "2026-01-01"}, []string{"changes", "--since", "2026-01-01"}},
	} {
		text, reply, isErr := callTool(t, cs, c.tool, c.args)
		if isErr {
			t.Fatalf("%s %v: %s", c.tool, c.args, text)
		}
		textCmd := c.cmd
		if c.tool == "find" {
			textCmd = append([]string{"find", "--cards"}, c.cmd[1:]...)
		}
		if want := ok(t, dir, textCmd...); text != want {
			t.Errorf("%s %v: text differs from omh %v:\n%s\n---\n%s", c.tool, c.args, textCmd, text, want)
		}
		want := decoded(t, ok(t, dir, append([]string{"--json"}, c.cmd...)...))
		if c.tool == "find" || c.tool == "proof_find" {
			if err := cutFrom(reply, want); err != nil {
				t.Errorf("%s %v: structured content is no cut of omh --json %v: %v", c.tool, c.args, c.cmd, err)
			}
		} else if !reflect.DeepEqual(reply, want) {
			t.Errorf("%s %v: structured content differs from omh --json %v:\n%v\n%v", c.tool, c.args, c.cmd, reply, want)
		}
		if stores := storesOf(reply); !slices.Equal(stores, wantStores(c.args)) {
			t.Errorf("%s %v: notes from the stores %v, want %v", c.tool, c.args, stores, wantStores(c.args))
		}
	}
}

// wantStores are the stores a call of the handbook test reaches notes of.
func wantStores(args map[string]any) []string {
	switch {
	case args["key"] == "handbook:hand/pager":
		return []string{".", "handbook"} // linked from topic/escalation
	case args["store"] != nil:
		return args["store"].([]string)
	}
	return []string{".", "handbook"}
}

// storesOf is the sorted set of stores a reply's notes are from: every
// object holding a key, by its store ("." when it names none).
func storesOf(reply any) []string {
	set := map[string]bool{}
	var walk func(v any)
	walk = func(v any) {
		switch v := v.(type) {
		case map[string]any:
			if _, ok := v["key"].(string); ok {
				s, _ := v["store"].(string)
				if s == "" {
					s = "."
				}
				set[s] = true
			}
			for _, c := range v {
				walk(c)
			}
		case []any:
			for _, c := range v {
				walk(c)
			}
		}
	}
	walk(reply)
	out := slices.Sorted(maps.Keys(set))
	return out
}
