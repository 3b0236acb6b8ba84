package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"
)

// Every command pays for every package init of the binary, so no package of
// omh's compiles a regular expression at start: vault's link-form detection
// compiled eight (a fifth of omh version's regexp work) for the one command
// in thousands that detects a vault's dialect. Patterns are compiled on
// first use (vault's lazyRegexp).
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
