package main

import (
	"encoding/json"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/alecthomas/kong"

	"github.com/omh-notes/omh/vault/vaulttest"
)

var update = flag.Bool("update", false, "rewrite the golden help files")

// The help text is part of the contract: a change to it must be a change
// to these files, seen in review. Every command is covered, found by
// walking the command tree, so a new command cannot go without a golden
// file.
func TestHelpTextIsTheDocumentedContract(t *testing.T) {
	t.Setenv("COLUMNS", "80") // kong wraps help to the terminal's width; so serial
	commands := [][]string{{}}
	var walk func(n *kong.Node, path []string)
	walk = func(n *kong.Node, path []string) {
		for _, c := range n.Children {
			if c.Type == kong.CommandNode {
				p := append(append([]string{}, path...), c.Name)
				commands = append(commands, p)
				walk(c, p)
			}
		}
	}
	parser, err := kong.New(&CLI{}, kong.Name("omh"), vocabulary())
	if err != nil {
		t.Fatal(err)
	}
	walk(parser.Model.Node, nil)
	for _, path := range commands {
		args := append(append([]string{}, path...), "--help")
		res := omh(t, t.TempDir(), args...)
		if res.status != 0 {
			t.Errorf("omh %v: exit %d %s", args, res.status, res.stderr)
		}
		golden := filepath.Join("testdata", "help", strings.Join(append([]string{"omh"}, path...), "-")+".txt")
		if *update {
			if err := os.MkdirAll(filepath.Dir(golden), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(golden, []byte(res.stdout), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(golden)
		if err != nil {
			t.Fatalf("%v (run go test ./cmd/omh -run Help -update to create it)", err)
		}
		if res.stdout != string(want) {
			t.Errorf("omh %v help differs from %s:\n%s", args, golden, res.stdout)
		}
	}
}

// Every command's help ends with examples, and each example runs as
// written in the demo store its lines are written for (a fresh one each,
// as some write), exiting 0; omh lint exits 1 there, for the sections some
// demo notes lack. Catches: a command without an example, an example
// with a flag renamed or a key the demo store lacks.
func TestHelpExamplesRunInTheDemoStore(t *testing.T) {
	t.Parallel()
	parser, err := kong.New(&CLI{}, kong.Name("omh"), vocabulary())
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range parser.Model.Leaves(true) {
		if _, ok := examples[n.Path()]; !ok && n.Path() != "completion" {
			t.Errorf("omh %s --help has no example", n.Path())
		}
	}
	for path, lines := range examples {
		for _, line := range lines {
			words, open, _ := splitBashLine(strings.ReplaceAll(line, "\\\n", ""))
			if open != 0 || len(words) < 2 || words[0] != "omh" {
				t.Fatalf("omh %s: the example %q is not an omh command line", path, line)
			}
			dir := demoStore(t)
			vaulttest.WriteFile(t, filepath.Join(dir, "questions.jsonl"),
				`{"id":"mount","question":"why does the credential mount fail","expect":["surprise/credential-file-mount-returns-ebusy"]}`+"\n")
			cmd := exec.Command(vaulttest.Omh(t), words[1:]...) // in the store, as a person types it
			cmd.Dir = dir
			out, err := cmd.CombinedOutput()
			if lintFound := line == "omh lint" && cmd.ProcessState.ExitCode() == exitRefused; err != nil && !lintFound {
				t.Errorf("%s: %v\n%s", line, err, out)
			}
		}
	}
}

// omh version names the commit the binary was built from, as go build
// records it in the build information (vcs.revision, vcs.modified, the
// module's version), and says when the build had local changes; the
// information is read from the text go version -m prints. The whole way
// through a real build is TestVersionPrintsTheReleaseStamp's. Catches: a
// version line that prints whatever it is given, or "unknown", while the
// build information holds the revision.
func TestVersionNamesTheBuild(t *testing.T) {
	t.Parallel()
	const revision = "0b1d2c3e4f5a69788796a5b4c3d2e1f00f1e2d3c"
	for _, c := range []struct {
		modified string
		want     string
	}{
		{"false", "omh v1.4.0, revision " + revision + "\n"},
		{"true", "omh v1.4.0, revision " + revision + " (modified)\n"},
	} {
		info, err := debug.ParseBuildInfo("go\tgo1.26.8\npath\tgithub.com/omh-notes/omh/cmd/omh\n" +
			"mod\tgithub.com/omh-notes/omh\tv1.4.0\t\nbuild\tvcs=git\nbuild\tvcs.revision=" + revision +
			"\nbuild\tvcs.time=2026-03-21T09:00:00Z\nbuild\tvcs.modified=" + c.modified + "\n")
		if err != nil {
			t.Fatal(err)
		}
		if got := versionLine(recordedVersion(info)); got != c.want {
			t.Errorf("vcs.modified=%s: %q, want %q", c.modified, got, c.want)
		}
	}
}

// A release build (scripts/release.sh) is stamped with the checkout's
// version and revision, which omh version prints, in text and JSON, where
// go build's own VCS stamping records nothing (-buildvcs=false, a linked
// worktree). Catches: a release binary that says "(devel), revision
// unknown".
func TestVersionPrintsTheReleaseStamp(t *testing.T) {
	t.Parallel()
	head, err := exec.Command("git", "rev-parse", "HEAD").Output()
	if err != nil {
		t.Skip("not a git checkout: no revision to stamp")
	}
	described, err := exec.Command("git", "describe", "--tags", "--always", "--dirty").Output()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	target := runtime.GOOS + "/" + runtime.GOARCH
	build := exec.Command("sh", "../../scripts/release.sh", dir, target)
	build.Env = append(os.Environ(), "GOFLAGS=-buildvcs=false") // as this test's own omh is built
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("release.sh %s: %v\n%s", target, err, out)
	}
	bin := filepath.Join(dir, "omh-"+runtime.GOOS+"-"+runtime.GOARCH)
	if runtime.GOOS == "windows" {
		bin += ".exe"
	}
	out, err := exec.Command(bin, "--json", "version").Output()
	if err != nil {
		t.Fatal(err)
	}
	var v struct{ Version, Revision string }
	if err := json.Unmarshal(out, &v); err != nil {
		t.Fatalf("%v: %q", err, out)
	}
	want := struct{ Version, Revision string }{strings.TrimSpace(string(described)), strings.TrimSpace(string(head))}
	if v != want {
		t.Errorf("the release binary says %+v, want %+v", v, want)
	}
	if out, _ := exec.Command(bin, "version").Output(); string(out) != "omh "+want.Version+", revision "+want.Revision+"\n" {
		t.Errorf("the release binary prints %q", out)
	}
}

// A build that recorded no revision says so rather than naming one: the
// test binary, built by go test, is one. Catches: "revision unknown" read
// as a revision called unknown.
func TestVersionWithoutARevisionSaysSo(t *testing.T) {
	t.Parallel()
	if _, revision, _ := buildVersion(); revision != "unknown" {
		t.Fatalf("the test binary records the revision %s: this test needs a build that records none", revision)
	}
	if out := ok(t, t.TempDir(), "version"); out != "omh (devel), no revision recorded in this build\n" {
		t.Errorf("omh version: %q", out)
	}
}

// Help, the README and the docs point only at what the repository holds:
// no specification kept elsewhere, no folder beside the checkout, and
// every document they link or name (docs/….md) exists. A store's path in
// an example config (path: ../handbook) names the user's folder, not one
// beside this checkout. Catches: "see SPEC §5" in a help text, a README
// line sending people to ../shared.
func TestHelpAndDocsPointOnlyInsideTheRepository(t *testing.T) {
	t.Parallel()
	files, err := filepath.Glob("testdata/help/*.txt")
	if err != nil || len(files) == 0 {
		t.Fatalf("no help files: %v", err)
	}
	docs, _ := filepath.Glob("../../docs/*.md")
	files = append(append(files, "../../README.md"), docs...)
	links := regexp.MustCompile(`\]\(([^)#\s]+)|\b(docs/[\w.-]+\.md)\b`)
	codeSpan := regexp.MustCompile("`[^`\n]*`")
	storePath := regexp.MustCompile(`(?m)^ +path: \.\./handbook `)
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		text := storePath.ReplaceAllString(string(b), "")
		for _, bad := range []string{"SPEC", "../"} {
			if i := strings.Index(text, bad); i >= 0 {
				t.Errorf("%s refers outside the repository: %q", f, text[max(0, i-40):min(len(text), i+40)])
			}
		}
		// What is quoted as code is an example, not a link: `[!include[t](path)]`.
		for _, m := range links.FindAllStringSubmatch(codeSpan.ReplaceAllString(text, ""), -1) {
			target := m[1] + m[2]
			if strings.Contains(target, "://") {
				continue
			}
			base := "../.." // help names documents from the repository root
			if strings.HasSuffix(f, ".md") && m[1] != "" {
				base = filepath.Dir(f)
			}
			if _, err := os.Stat(filepath.Join(base, target)); err != nil {
				t.Errorf("%s names %s, which the repository does not hold", f, target)
			}
		}
	}
}
