package store

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/omh-notes/omh/vault/gitcli"
	"github.com/omh-notes/omh/vault/vaulttest"
)

// open opens the store at dir for one test; warnings are collected.
func open(t *testing.T, dir string) (*Store, *[]string) {
	t.Helper()
	var warnings []string
	s := openWith(t, dir, Options{Warn: func(msg string) { warnings = append(warnings, msg) }})
	return s, &warnings
}

// openWith opens the store at dir with opt and closes it when the test
// ends.
func openWith(t *testing.T, dir string, opt Options) *Store {
	t.Helper()
	s, err := Open(dir, opt)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// code is the stable code of a use case's refusal; "" for another error
// or none.
func code(err error) string {
	var se *Error
	if errors.As(err, &se) && se.Kind == Refused {
		return se.Code
	}
	return ""
}

// writeState is everything a refused command must leave as it was: every
// file of the working tree and the private folder, what git reports, and
// git's index file byte for byte.
type writeState struct {
	files          map[string]string
	status, staged string
	index          string
}

func writeStateOf(t *testing.T, r *vaulttest.Repo) writeState {
	t.Helper()
	// --no-optional-locks keeps git status from refreshing the index file.
	status, err := gitcli.Git(r.Dir, "", "--no-optional-locks", "status", "--porcelain", "--untracked-files=all")
	if err != nil {
		t.Fatal(err)
	}
	staged, err := gitcli.Git(r.Dir, "", "--no-optional-locks", "diff", "--cached")
	if err != nil {
		t.Fatal(err)
	}
	index, _ := os.ReadFile(filepath.Join(r.Dir, ".git", "index"))
	return writeState{files: vaulttest.Files(t, r.Dir, r.Private), status: status, staged: staged, index: string(index)}
}

func sameWriteState(t *testing.T, what string, before, after writeState) {
	t.Helper()
	if !reflect.DeepEqual(before.files, after.files) {
		t.Errorf("%s: files changed", what)
	}
	if before.status != after.status || before.staged != after.staged {
		t.Errorf("%s: git status or the staged diff changed:\n%s\n%s", what, after.status, after.staged)
	}
	if before.index != after.index {
		t.Errorf("%s: .git/index changed", what)
	}
}
