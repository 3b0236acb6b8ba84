package retrieve

import (
	"fmt"
	"strings"

	"github.com/omh-notes/omh/vault"
)

// Source is a store an answer read beside the store omh runs in (its
// config's stores:, the user's own), or one it could not read. The tree and
// the cards name each above the commit line: `@ NAME COMMIT` for a store
// that answered, `! NAME: why` for one that did not, so an answer from
// fewer stores than asked for is never mistaken for one from all of them.
type Source struct {
	Name   string
	Path   string // the repository's folder, as the reply may show it
	Commit string // the commit its team layer was read at; "" before its first
	// Personal: the user's own store (their git config), which a
	// team-only answer leaves out.
	Personal bool
	// Problem says why the store did not answer, in a sentence without its
	// full stop, and Code its kind (a reply code); "" when it answered.
	Problem string
	Code    string
}

// problemPrefix starts the line of a store that did not answer.
const problemPrefix = "! "

// SourceLines are the lines naming an answer's other stores, printed just
// above its commit line; "" when it read only the store omh runs in.
func SourceLines(sources []Source) string {
	var b strings.Builder
	for _, s := range sources {
		if s.Problem != "" {
			fmt.Fprintf(&b, "%s%s: %s; answered without it\n", problemPrefix, s.Name, s.Problem)
			continue
		}
		fmt.Fprintf(&b, "%s%s %s\n", commitPrefix, s.Name, CommitLabel(s.Commit))
	}
	return b.String()
}

// TreeSource is a line of SourceLines read back.
type TreeSource struct {
	Name    string
	Commit  string // "" for "no commits", or for a store that did not answer
	Problem string
}

// parseSourceLine reads a line of SourceLines; false for any other line.
func parseSourceLine(line string) (TreeSource, bool) {
	if rest, ok := strings.CutPrefix(line, problemPrefix); ok {
		name, why, ok := strings.Cut(rest, ": ")
		why, answered := strings.CutSuffix(why, "; answered without it")
		if !ok || !answered || why == "" || vault.CheckStoreName(name) != nil {
			return TreeSource{}, false
		}
		return TreeSource{Name: name, Problem: why}, true
	}
	rest, ok := strings.CutPrefix(line, commitPrefix)
	if !ok {
		return TreeSource{}, false
	}
	name, commit, ok := strings.Cut(rest, " ")
	if !ok || vault.CheckStoreName(name) != nil || !isCommitLabel(commit) {
		return TreeSource{}, false
	}
	if commit == CommitLabel("") {
		commit = ""
	}
	return TreeSource{Name: name, Commit: commit}, true
}

// isCommitLabel reports whether s is what CommitLabel prints: a full
// commit id or "no commits".
func isCommitLabel(s string) bool {
	if s == CommitLabel("") {
		return true
	}
	if len(s) != 40 && len(s) != 64 {
		return false
	}
	for _, c := range s {
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return false
		}
	}
	return true
}

// peelSources takes the lines naming other stores off the end of an
// answer's lines (its commit line already taken off).
func peelSources(lines []string) ([]string, []TreeSource) {
	end := len(lines)
	for end > 0 {
		if _, ok := parseSourceLine(lines[end-1]); !ok {
			break
		}
		end--
	}
	var out []TreeSource
	for _, line := range lines[end:] {
		s, _ := parseSourceLine(line)
		out = append(out, s)
	}
	return lines[:end], out
}
