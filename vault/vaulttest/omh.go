package vaulttest

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// omhName is the name the test binary is started under to run as omh.
const omhName = "omh"

// omhPath is the omh MainWithOmh or MainWithBuiltOmh put first on PATH.
var omhPath string

// MainWithOmh runs a package's tests as Main does, with an omh first on
// PATH for the tests, the git hooks and the background refreshes they
// start: this test binary itself, linked into a temporary folder under the
// name omh. Started under that name, the binary runs omhMain instead of
// the tests and exits with the status it returns; omhMain reads its
// command line from os.Args, as a main does. No test builds omh: the
// package that has omh's main passes it, and a package that cannot import
// it (package main is not importable) passes a main made of what its tests
// need from its own code.
func MainWithOmh(m *testing.M, omhMain func() int) {
	if strings.TrimSuffix(filepath.Base(os.Args[0]), ".exe") == omhName {
		os.Exit(omhMain())
	}
	mainWith(m, linkSelf)
}

// MainWithBuiltOmh runs a package's tests as MainWithOmh does, with omh
// built from its main package pkg (an import path) once for the run: for
// a package whose tests need omh's whole command line, which lives in
// package main and so can neither be imported nor run from the test
// binary.
func MainWithBuiltOmh(m *testing.M, pkg string) {
	mainWith(m, func(omh string) error {
		build := exec.Command("go", "build", "-o", omh, pkg)
		build.Stdout, build.Stderr = os.Stderr, os.Stderr
		return build.Run()
	})
}

// Omh is the path of the omh MainWithOmh or MainWithBuiltOmh put first on
// PATH, for a test that starts it itself. It fails the test when TestMain
// called neither.
func Omh(t testing.TB) string {
	t.Helper()
	if omhPath == "" {
		t.Fatal("no omh: the package's TestMain must call vaulttest.MainWithOmh or MainWithBuiltOmh")
	}
	return omhPath
}

// mainWith isolates the environment (Setup), has put make omh in a new
// temporary folder, puts the folder first on PATH, runs the tests and
// exits with their status.
func mainWith(m *testing.M, put func(omh string) error) {
	cleanup, err := Setup()
	if err != nil {
		fmt.Fprintln(os.Stderr, "vaulttest:", err)
		os.Exit(1)
	}
	dir, err := os.MkdirTemp("", "vaulttest-bin-")
	if err == nil {
		omhPath = filepath.Join(dir, omhName)
		if runtime.GOOS == "windows" {
			omhPath += ".exe"
		}
		if err = put(omhPath); err == nil {
			err = os.Setenv("PATH", dir+string(os.PathListSeparator)+os.Getenv("PATH"))
		}
	}
	code := 1
	if err == nil {
		runParallel()
		code = m.Run()
	} else {
		fmt.Fprintln(os.Stderr, "vaulttest: making omh:", err)
	}
	os.RemoveAll(dir)
	cleanup()
	os.Exit(code)
}

// linkSelf links the test binary as omh, or copies it where links are not
// to be had. A hard link rather than a symbolic one: the binary started
// through it still finds itself under the name omh (os.Executable), so a
// background refresh it starts of itself runs omh too.
func linkSelf(omh string) error {
	self, err := os.Executable()
	if err != nil {
		return err
	}
	if os.Link(self, omh) == nil {
		return nil
	}
	src, err := os.Open(self)
	if err != nil {
		return err
	}
	defer src.Close()
	dst, err := os.OpenFile(omh, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o755)
	if err != nil {
		return err
	}
	if _, err := io.Copy(dst, src); err != nil {
		dst.Close()
		return err
	}
	return dst.Close()
}
