// Command omh turns a git repository of markdown notes into a memory that
// people and coding agents can ask questions of.
//
// This package is the command line only: flags, choosing a renderer, exit
// statuses. What a command does is a method of package store.
package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/alecthomas/kong"

	"github.com/omh-notes/omh/reply"
	"github.com/omh-notes/omh/store"
)

// CLI is omh's command line. Its help text is part of the contract.
type CLI struct {
	Dir   string `short:"C" name:"dir" placeholder:"DIR" complete:"dir" help:"Run as if omh was started in DIR."`
	JSON  bool   `name:"json" help:"Print JSON for programs instead of text for people."`
	Quiet bool   `short:"q" help:"Print no warnings or notes on standard error."`

	Find    FindCmd    `cmd:"" help:"Find the notes that answer a question."`
	Show    ShowCmd    `cmd:"" help:"Print a note with its provenance."`
	New     NewCmd     `cmd:"" help:"Write a new note to the private folder from its type's template."`
	Promote PromoteCmd `cmd:"" help:"Move private notes into the notes root and stage them for a commit."`
	Lint    LintCmd    `cmd:"" help:"Check notes for broken frontmatter, missing sections and bad links."`
	Links   LinksCmd   `cmd:"" help:"List the notes a note links to and the notes linking to it."`
	Changes ChangesCmd `cmd:"" help:"List the notes added, changed, renamed and removed since a date or commit, newest first."`
	Mv      MvCmd      `cmd:"" help:"Rename a note and rewrite every link to it."`
	Index   IndexCmd   `cmd:"" help:"Bring the cache up to date (every command also does this by itself)."`
	Status  StatusCmd  `cmd:"" help:"Say what the cache holds and whether it is up to date, without changing it."`
	Proof   ProofCmd   `cmd:"" help:"Find, show and retract claim and evidence records, as they stand now or stood then."`
	Eval    EvalCmd    `cmd:"" help:"Measure answers against questions with known answers."`
	Version VersionCmd `cmd:"" help:"Print omh's version."`
	Init    InitCmd    `cmd:"" help:"Set up omh in this repository: write .omh/config.yaml and install the git hooks."`
	Hooks   HooksCmd   `cmd:"" help:"Install, remove, inspect or run the git hooks that keep the cache fresh."`
	Recover RecoverCmd `cmd:"" help:"Finish a change (mv, promote, new, retract, init) an interrupted omh left half done."`
	Mcp     McpCmd     `cmd:"" name:"mcp" help:"Serve the notes to coding agents over the Model Context Protocol, on standard input and output."`

	Completion CompletionCmd `cmd:"" help:"Print the shell script that completes omh's commands, flags and note keys."`
	Complete   CompleteCmd   `cmd:"" name:"__complete" hidden:"" help:"What the completion scripts call."`
}

// vocabulary lets help texts and choices name omh's note types, from the
// one table that defines them, and the defaults of a question's flags.
func vocabulary() kong.Vars {
	return kong.Vars{
		"note_types":     store.OrList(store.NoteTypes(false)),
		"proof_types":    strings.Join(store.NoteTypes(true), ","),
		"proof_types_or": store.OrList(store.NoteTypes(true)),
		"roots":          strconv.Itoa(store.DefaultRoots),
		"max_chars":      strconv.Itoa(store.DefaultMaxChars),
		"links_limit":    strconv.Itoa(store.DefaultLinksLimit),
		"changes_limit":  strconv.Itoa(store.DefaultChangesLimit),
		"changes_days":   strconv.Itoa(store.DefaultChangesDays),
		"show_chars":     strconv.Itoa(store.DefaultShowChars),
	}
}

// env is what a command runs with.
type env struct {
	cli    *CLI
	stdin  io.Reader
	stdout io.Writer
	stderr io.Writer
}

// warn prints a note for people on standard error unless --quiet.
func (e *env) warn(format string, args ...any) {
	if !e.cli.Quiet {
		fmt.Fprintf(e.stderr, "omh: %s\n", reply.OneLine(fmt.Sprintf(format, args...)))
	}
}

// background starts omh detached; tests replace it to run the omh they
// built rather than the test binary. nil lets the store start this
// executable.
var background func(args ...string) error

// open opens the store omh was started in (-C).
func (e *env) open() (*store.Store, error) {
	return store.Open(e.cli.Dir, e.options())
}

// options are what the store is handed: where notes for people go.
func (e *env) options() store.Options {
	return store.Options{
		Warn:       func(msg string) { e.warn("%s", msg) },
		Progress:   e.progress(),
		Background: background,
	}
}

// withStore opens the store, runs fn and closes it.
func (e *env) withStore(fn func(*store.Store) error) error {
	s, err := e.open()
	if err != nil {
		return err
	}
	defer s.Close()
	return fn(s)
}

// Exit statuses.
const (
	exitOK       = 0
	exitRefused  = 1 // the command refused or found problems
	exitUsage    = 2
	exitInternal = 3 // an unrecoverable repository or cache error
)

// usage is a command line that parsed but cannot be run as written.
func usage(err error) error { return store.Usage(err) }

// refuse is a refusal decided here, from what a use case returned.
func refuse(code string, err error) error {
	return &store.Error{Kind: store.Refused, Code: code, Err: err}
}

type exitRequest int

func main() {
	switch commandWord(os.Args[1:]) {
	case "mcp", "version", "completion": // a server, and commands that read no store
	default:
		store.HoldOneProcessor()
	}
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// run executes one command line and returns its exit status.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) (status int) {
	var cli CLI
	jsonMode := slices.Contains(args, "--json")
	stderr = safeWriter{stderr}
	defer func() {
		if r := recover(); r != nil {
			req, ok := r.(exitRequest)
			if !ok {
				panic(r)
			}
			status = int(req)
		}
	}()
	args = joinNegativeNumbers(args)
	ctx, err := parseOne(&cli, args, stdout, stderr)
	if ctx == nil {
		ctx, err = newParser(&cli, stdout, stderr).Parse(args)
	}
	if err != nil {
		return report(stderr, jsonMode, usage(err), "run omh --help for usage")
	}
	if !cli.JSON && !speaksProtocol(ctx.Command()) {
		stdout = safeWriter{stdout}
	}
	e := &env{cli: &cli, stdin: stdin, stdout: stdout, stderr: stderr}
	if err := ctx.Run(e); err != nil {
		return report(stderr, cli.JSON, err, "")
	}
	return exitOK
}

// newParser builds kong's parser of grammar: CLI, or a part of it (parseOne).
func newParser(grammar any, stdout, stderr io.Writer) *kong.Kong {
	parser, err := kong.New(grammar,
		kong.Name("omh"),
		kong.Description("Ask a git repository of markdown notes what it knows."),
		kong.Writers(stdout, stderr),
		kong.Exit(func(code int) { panic(exitRequest(code)) }),
		kong.ConfigureHelp(kong.HelpOptions{Compact: true, WrapUpperBound: 100}),
		vocabulary(),
	)
	if err != nil {
		panic(err) // the CLI definition itself is wrong
	}
	withExamples(parser.Model.Node)
	return parser
}

// parseOne parses args with a grammar of the global flags and the one
// command args name, and copies what it read into cli. Building kong's parser
// of the whole CLI (every command's flags, every help text interpolated)
// was a quarter of omh version's time; one command's is a sixth of that. It
// returns a nil context when it cannot stand in for the whole grammar: args
// ask for help (which lists the other commands), name no command, or do not
// parse (the whole grammar then says why, as it always did). What parses
// here parses the same with the whole grammar, which holds this one.
func parseOne(cli *CLI, args []string, stdout, stderr io.Writer) (*kong.Context, error) {
	if asksForHelp(args) {
		return nil, nil
	}
	grammar := oneCommand(commandWord(args))
	if !grammar.IsValid() {
		return nil, nil
	}
	ctx, err := newParser(grammar.Interface(), stdout, stderr).Parse(args)
	if err != nil {
		return nil, nil
	}
	parsed, whole := grammar.Elem(), reflect.ValueOf(cli).Elem()
	for i := range parsed.NumField() {
		whole.FieldByName(parsed.Type().Field(i).Name).Set(parsed.Field(i))
	}
	return ctx, nil
}

// oneCommand is a new *struct holding CLI's global flags and the command
// called name, or the zero Value when CLI has no such command or the
// command reads kong's model of the whole CLI (completion does).
func oneCommand(name string) reflect.Value {
	cliType := reflect.TypeFor[CLI]()
	var fields []reflect.StructField
	found := false
	for i := range cliType.NumField() {
		f := cliType.Field(i)
		_, isCmd := f.Tag.Lookup("cmd")
		if isCmd && (commandName(f) != name || readsModel(f.Type)) {
			continue
		}
		found = found || isCmd
		f.Offset, f.Index = 0, nil
		fields = append(fields, f)
	}
	if !found {
		return reflect.Value{}
	}
	return reflect.New(reflect.StructOf(fields))
}

// commandName is the name kong gives the command field f: its name tag,
// else its field name in lower case (CLI's command fields are single words).
func commandName(f reflect.StructField) string {
	if name := f.Tag.Get("name"); name != "" {
		return name
	}
	return strings.ToLower(f.Name)
}

// readsModel reports whether command type t's Run takes kong's context,
// whose model must then be the whole CLI's.
func readsModel(t reflect.Type) bool {
	m, ok := reflect.PointerTo(t).MethodByName("Run")
	if !ok {
		return false // a group of commands: its subcommands run
	}
	ctxType := reflect.TypeFor[*kong.Context]()
	for i := range m.Type.NumIn() {
		if m.Type.In(i) == ctxType {
			return true
		}
	}
	return false
}

// commandWord is the first argument that is neither a flag nor the value
// of -C/--dir: the command, when args parse at all.
func commandWord(args []string) string {
	for i := 0; i < len(args); i++ {
		switch a := args[i]; {
		case a == "-C" || a == "--dir":
			i++
		case a == "--":
			return ""
		case !strings.HasPrefix(a, "-"):
			return a
		}
	}
	return ""
}

// asksForHelp reports whether an argument before "--" may be kong's help
// flag: --help, or a cluster of short flags with an h in it.
func asksForHelp(args []string) bool {
	for _, a := range args {
		if a == "--" {
			return false
		}
		if strings.HasPrefix(a, "--help") ||
			!strings.HasPrefix(a, "--") && strings.HasPrefix(a, "-") && strings.Contains(a, "h") {
			return true
		}
	}
	return false
}

// speaksProtocol reports whether a command writes a protocol for programs
// on standard output (the MCP server's JSON-RPC, completions), which is
// exact like --json and never escaped.
func speaksProtocol(command string) bool {
	return command == "mcp" || strings.HasPrefix(command, "__complete")
}

// numberFlags take a number, which kong reads as a short flag when it is
// negative ("--roots -1": "expected int value but got -1 (short flag)").
var numberFlags = []string{"--roots", "--max-chars", "--limit", "--offset"}

// joinNegativeNumbers writes "--roots -1" as "--roots=-1", so the number
// reaches the check that says what it must be.
func joinNegativeNumbers(args []string) []string {
	out := make([]string, 0, len(args))
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			return append(out, args[i:]...)
		}
		if slices.Contains(numberFlags, a) && i+1 < len(args) && isNegativeNumber(args[i+1]) {
			a += "=" + args[i+1]
			i++
		}
		out = append(out, a)
	}
	return out
}

func isNegativeNumber(s string) bool {
	_, err := strconv.Atoi(s)
	return err == nil && strings.HasPrefix(s, "-")
}

// report prints err (as one JSON object in --json mode) and returns its
// exit status.
func report(w io.Writer, jsonMode bool, err error, hint string) int {
	code, status := errorCode(err)
	if jsonMode {
		_ = reply.JSONLine(w, reply.Failure(code, err))
		return status
	}
	fmt.Fprintf(w, "omh: %v\n", err) // w escapes what git or a file name put in it
	if hint != "" {
		fmt.Fprintf(w, "omh: %s\n", hint)
	}
	return status
}

// errorCode is an error's stable code and the exit status it calls for.
func errorCode(err error) (code string, status int) {
	code, status = store.Code(err), exitInternal
	var se *store.Error
	if errors.As(err, &se) {
		switch se.Kind {
		case store.Refused:
			status = exitRefused
		case store.Invalid:
			status = exitUsage
		}
	}
	return code, status
}

// print prints a reply as JSON (--json) or as text.
func (e *env) print(r interface{ Text(io.Writer) }) error {
	if e.cli.JSON {
		return reply.JSON(e.stdout, r)
	}
	r.Text(e.stdout)
	return nil
}
