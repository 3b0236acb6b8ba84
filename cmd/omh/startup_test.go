package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io"
	"io/fs"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// Every command pays for every package init of the binary, so no package of
// omh's compiles a regular expression at start: vault's link-form detection
// compiled eight (a fifth of omh version's regexp work) for the one command
// in thousands that detects a vault's dialect. Patterns are compiled on
// first use (vault.LazyRegexp).
func TestNoRegexpCompiledAtStart(t *testing.T) {
	t.Parallel()
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && path != root && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".") ||
			filepath.Dir(path) == filepath.Join(root, "cmd") && d.Name() != "omh") {
			return filepath.SkipDir // other programs' starts are not omh's
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		for _, decl := range f.Decls {
			gen, ok := decl.(*ast.GenDecl)
			if !ok || gen.Tok != token.VAR {
				continue
			}
			calledAtStart := map[*ast.FuncLit]bool{}
			ast.Inspect(gen, func(n ast.Node) bool {
				if lit, ok := n.(*ast.FuncLit); ok {
					return calledAtStart[lit] // else it runs when called, not at start
				}
				call, ok := n.(*ast.CallExpr)
				if !ok {
					return true
				}
				if lit, ok := call.Fun.(*ast.FuncLit); ok {
					calledAtStart[lit] = true
				}
				if sel, ok := call.Fun.(*ast.SelectorExpr); ok {
					if pkg, ok := sel.X.(*ast.Ident); ok && pkg.Name == "regexp" && strings.Contains(sel.Sel.Name, "Compile") {
						t.Errorf("%s: a package-level regexp.%s runs at every start", fset.Position(call.Pos()), sel.Sel.Name)
					}
				}
				return true
			})
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// Building kong's parser of every command was a quarter of omh version's
// time, so a command line that names one command is parsed with a grammar
// of that command alone; it must read every line as the whole grammar does.
func TestOneCommandGrammarReadsALineAsTheWholeCLIDoes(t *testing.T) {
	t.Parallel()
	lines := [][]string{
		{"find", "why", "does", "it", "fail"},
		{"-C", "/tmp", "--json", "find", "--cards", "--no-worktree", "--roots=-1", "q"},
		{"find", "q", "--also", "other", "--layer", "team", "--type", "stub", "--explain", "-q"},
		{"--dir", "x", "show", "topic/a", "--lines", "5-12"},
		{"version"},
		{"--json", "version"},
		{"status"},
		{"links", "topic/a", "--limit", "2", "--offset", "2", "--in"},
		{"proof", "find", "cold", "start", "--as-of", "v1.2", "--retracted", "include"},
		{"proof", "show", "finding/x"},
		{"hooks", "run", "post-commit"},
		{"new", "surprise", "A title", "--link", "topic/a", "--link", "mitigates:issue/b"},
		{"mv", "a/b", "c/d"},
		{"mcp", "--allow-write"},
		{"find", "--", "--help", "-h"},
		{"completion", "bash"},
	}
	for _, line := range lines {
		var one, whole CLI
		ctx, _ := parseOne(&one, line, io.Discard, io.Discard)
		if ctx == nil {
			t.Errorf("%q: not parsed with its command's grammar", line)
			continue
		}
		if n := len(ctx.Model.Children); n != 1 {
			t.Errorf("%q: the grammar has %d commands, want 1", line, n)
		}
		wholeCtx, err := newParser(&whole, io.Discard, io.Discard).Parse(line)
		if err != nil {
			t.Fatalf("%q: %v", line, err)
		}
		// The whole CLI also fills in the defaults of commands not run.
		read := func(c CLI) []any {
			f, _ := reflect.TypeFor[CLI]().FieldByNameFunc(func(n string) bool {
				f, _ := reflect.TypeFor[CLI]().FieldByName(n)
				return commandName(f) == ctx.Model.Children[0].Name
			})
			return []any{c.Dir, c.JSON, c.Quiet, reflect.ValueOf(c).FieldByIndex(f.Index).Interface()}
		}
		if ctx.Command() != wholeCtx.Command() || !reflect.DeepEqual(read(one), read(whole)) {
			t.Errorf("%q: read as %s %+v, the whole CLI reads %s %+v", line, ctx.Command(), read(one), wholeCtx.Command(), read(whole))
		}
	}
}

// What the one-command grammar cannot answer as the whole CLI would goes to
// the whole CLI: help lists every command, completion walks them all, and
// an error may suggest another command.
func TestLinesOneCommandCannotAnswerGoToTheWholeCLI(t *testing.T) {
	t.Parallel()
	for _, line := range [][]string{
		{"find", "--help"}, {"-h"}, {"find", "-qh", "x"}, {"--help=1"},
		{"__complete", "fi"}, {"fnd", "x"}, {"find", "--bogus", "x"}, {}, {"-C", "find"}, {"--", "find"},
	} {
		var cli CLI
		if ctx, _ := parseOne(&cli, line, io.Discard, io.Discard); ctx != nil {
			t.Errorf("%q: parsed with one command's grammar (%s)", line, ctx.Command())
		}
	}
}

// commandName must name each command as kong does, or a command line
// would miss its one-command grammar.
func TestCommandNamesAreKongs(t *testing.T) {
	t.Parallel()
	parser := newParser(&CLI{}, io.Discard, io.Discard)
	var kongs, ours []string
	for _, c := range parser.Model.Children {
		kongs = append(kongs, c.Name)
	}
	cliType := reflect.TypeFor[CLI]()
	for i := range cliType.NumField() {
		if f := cliType.Field(i); f.Tag.Get("cmd") != "" || strings.Contains(string(f.Tag), `cmd:""`) {
			ours = append(ours, commandName(f))
		}
	}
	if !slices.Equal(kongs, ours) {
		t.Errorf("kong names the commands %q, commandName %q", kongs, ours)
	}
}

// BenchmarkParse parses a find command line with the one-command grammar
// and with the whole CLI's, which every command built before.
func BenchmarkParse(b *testing.B) {
	line := []string{"find", "--cards", "--no-worktree", "why", "does", "the", "token", "refresh", "fail"}
	b.Run("one-command", func(b *testing.B) {
		for b.Loop() {
			var cli CLI
			if ctx, _ := parseOne(&cli, line, io.Discard, io.Discard); ctx == nil {
				b.Fatal("not parsed")
			}
		}
	})
	b.Run("whole", func(b *testing.B) {
		for b.Loop() {
			var cli CLI
			if _, err := newParser(&cli, io.Discard, io.Discard).Parse(line); err != nil {
				b.Fatal(err)
			}
		}
	})
}
