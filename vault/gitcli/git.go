// Package gitcli is every use omh makes of the git command line: what
// only git itself does right (staging, settings as git resolves them, which
// files it ignores or shows) and its walk of a long history, which is
// cheaper than go-git's. Reading objects is vault's, through go-git.
package gitcli

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
)

// Git runs the git command line in dir, with input on its standard input,
// and returns what it printed. Reading is go-git's job; this is for what
// only git itself does right: staging (never rewrite .git/index by hand),
// moving tracked files, asking where hooks live and how settings resolve.
// Paths are read as paths, never as patterns (--literal-pathspecs): a note
// may be called "[draft].md". (check-ignore refuses the option; it reads
// its paths from the standard input, where they are paths anyway.) A
// failure carries git's own message.
func Git(dir, input string, args ...string) (string, error) {
	return run(dir, "", input, args...)
}

// GitIndex runs git as Git does, with index as git's index file
// (GIT_INDEX_FILE): how a change that holds git's index lock itself stages
// through a copy of the index, since git refuses to take a lock held.
func GitIndex(dir, index, input string, args ...string) (string, error) {
	return run(dir, index, input, args...)
}

func run(dir, index, input string, args ...string) (string, error) {
	sub := "" // the subcommand, after git's own options
	if i := slices.IndexFunc(args, func(a string) bool { return !strings.HasPrefix(a, "-") }); i >= 0 {
		sub = args[i]
	}
	if sub != "check-ignore" {
		args = append([]string{"--literal-pathspecs"}, args...)
	}
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	if index != "" {
		cmd.Env = append(os.Environ(), "GIT_INDEX_FILE="+index)
	}
	cmd.Stdin = strings.NewReader(input)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		msg := strings.TrimSpace(stderr.String())
		if msg == "" {
			msg = err.Error()
		}
		return stdout.String(), fmt.Errorf("git %s: %s", sub, msg)
	}
	return stdout.String(), nil
}

// splitPaths splits what a git command printed with -z into its paths.
func splitPaths(out string) []string {
	var paths []string
	for _, f := range strings.Split(out, "\x00") {
		if f != "" {
			paths = append(paths, f)
		}
	}
	return paths
}

// listPaths runs a git command that prints NUL-separated paths (-z) and
// returns them in its order.
func listPaths(dir string, args ...string) ([]string, error) {
	out, err := Git(dir, "", args...)
	if err != nil {
		return nil, err
	}
	return splitPaths(out), nil
}

// Tracked returns the files git's index holds in the working tree at dir,
// as git lists them (a file in a merge conflict once per stage): every
// one, or those of paths (relative to dir).
func Tracked(dir string, paths ...string) ([]string, error) {
	return listPaths(dir, append([]string{"ls-files", "--cached", "-z", "--"}, paths...)...)
}

// Unstaged returns the files whose working copy differs from what git's
// index holds.
func Unstaged(dir string) ([]string, error) {
	return listPaths(dir, "diff", "--name-only", "-z")
}

// Ignored returns those of paths that git ignores, in their order. Paths
// go on check-ignore's standard input, where git reads them as paths, not
// patterns. It exits with a failure when it ignores none of them, so its
// status says nothing here: a git that cannot run at all fails again, and
// says why, at the git add that follows.
func Ignored(dir string, paths []string) []string {
	out, _ := Git(dir, strings.Join(paths, "\x00")+"\x00", "check-ignore", "--stdin", "-z")
	return splitPaths(out)
}

// Shown returns the files git shows in the working tree at dir: those it
// tracks, and the untracked ones it does not ignore.
func Shown(dir string) ([]string, error) {
	return listPaths(dir, "ls-files", "-z", "--cached", "--others", "--exclude-standard")
}

// IndexFile is the file of git's index for the working tree at dir: the
// worktree's own for a linked worktree, GIT_INDEX_FILE when that is set.
func IndexFile(dir string) (string, error) {
	out, err := Git(dir, "", "rev-parse", "--git-path", "index")
	if err != nil {
		return "", err
	}
	p := strings.TrimSuffix(out, "\n")
	if !filepath.IsAbs(p) {
		p = filepath.Join(dir, p)
	}
	return p, nil
}

// Entry is one entry of git's index.
type Entry struct {
	Mode uint32
	Blob plumbing.Hash
}

// IndexEntry reads the entry git's index holds for path; a path in a merge
// conflict has none that can move.
func IndexEntry(dir, path string) (Entry, error) {
	entries, err := Staged(dir, path)
	if err != nil {
		return Entry{}, err
	}
	if len(entries) != 1 || entries[0].Path != path || entries[0].Stage != 0 {
		return Entry{}, fmt.Errorf("git's index holds no single entry for %s (a merge conflict?)", path)
	}
	return entries[0].Entry, nil
}

// StagedEntry is one entry of git's index: its path, and its stage (0 when
// merged; 1 to 3 the base and sides of a merge conflict).
type StagedEntry struct {
	Entry
	Path  string
	Stage int
}

// Staged lists the entries of git's index at path (a file, or a folder
// and everything under it; "." for all), as git lists them: what a commit
// would hold.
func Staged(dir, path string) ([]StagedEntry, error) {
	out, err := Git(dir, "", "ls-files", "--stage", "-z", "--", path)
	if err != nil {
		return nil, err
	}
	var entries []StagedEntry
	for _, line := range splitPaths(out) {
		info, name, _ := strings.Cut(line, "\t")
		fields := strings.Fields(info)
		if len(fields) != 3 {
			return nil, fmt.Errorf("git ls-files: cannot read %q", line)
		}
		mode, err := strconv.ParseUint(fields[0], 8, 32)
		if err != nil {
			return nil, fmt.Errorf("git ls-files: mode %q: %w", fields[0], err)
		}
		stage, err := strconv.Atoi(fields[2])
		if err != nil {
			return nil, fmt.Errorf("git ls-files: stage %q: %w", fields[2], err)
		}
		entries = append(entries, StagedEntry{Entry{uint32(mode), plumbing.NewHash(fields[1])}, name, stage})
	}
	return entries, nil
}

// Submodule names the submodule whose folder holds path (a gitlink in git's
// index at path's folder or above it), or "" when none does: a file written
// there belongs to the other repository, and git add of it replaces the
// gitlink.
func Submodule(dir, path string) (string, error) {
	var folders []string
	for f := filepath.ToSlash(filepath.Dir(path)); f != "." && f != "/"; f = filepath.ToSlash(filepath.Dir(f)) {
		folders = append(folders, f)
	}
	if len(folders) == 0 {
		return "", nil
	}
	out, err := Git(dir, "", append([]string{"ls-files", "--stage", "-z", "--"}, folders...)...)
	if err != nil {
		return "", err
	}
	for _, line := range strings.Split(out, "\x00") {
		info, name, _ := strings.Cut(line, "\t")
		if strings.HasPrefix(info, "160000 ") && slices.Contains(folders, name) {
			return name, nil
		}
	}
	return "", nil
}

// GitSetting reads one git setting as git itself resolves it (system,
// global, repository, includes); "" when it is not set.
func GitSetting(dir, name string) string {
	out, err := Git(dir, "", "config", "--get", name)
	if err != nil {
		return ""
	}
	return strings.TrimSpace(out)
}

// StagedIDs returns the blob id git add would give each of the working
// tree's files paths (relative to dir, no newline in one): their content
// as git's attributes and settings turn it on the way in (end-of-line
// conversion, a clean filter), which is what git compares with the index
// and HEAD, not the bytes on disk.
func StagedIDs(dir string, paths []string) ([]plumbing.Hash, error) {
	out, err := Git(dir, strings.Join(paths, "\n")+"\n", "hash-object", "--stdin-paths")
	if err != nil {
		return nil, err
	}
	lines := strings.Fields(out)
	if len(lines) != len(paths) {
		return nil, fmt.Errorf("git hash-object gave %d ids for %d files", len(lines), len(paths))
	}
	ids := make([]plumbing.Hash, len(lines))
	for i, l := range lines {
		if !plumbing.IsHash(l) {
			return nil, fmt.Errorf("git hash-object: %q is no blob id", l)
		}
		ids[i] = plumbing.NewHash(l)
	}
	return ids, nil
}

// Rename is a file a commit renamed, as git's rename detection reads it.
type Rename struct {
	From, To string // paths relative to the repository's top
	Commit   string // the commit's abbreviated id
}

// renamesWalked is how many of HEAD's commits Renames reads, newest first:
// a link left dangling by a rename is met soon after the rename is pulled,
// and rename detection over a long history costs seconds.
const renamesWalked = 2000

// Renames lists the files under path (a folder; "." for all) that HEAD's
// recent history renamed, newest first.
func Renames(dir, path string) ([]Rename, error) {
	out, err := Git(dir, "", "log", "-M", "--diff-filter=R", "--name-status", "-z", "--no-color",
		fmt.Sprintf("--max-count=%d", renamesWalked), "--format=%x01%h", "HEAD", "--", path)
	if err != nil {
		return nil, err
	}
	var renames []Rename
	for _, commit := range strings.Split(out, "\x01") {
		id, rest, _ := strings.Cut(commit, "\x00")
		fields := strings.Split(strings.TrimPrefix(rest, "\n"), "\x00")
		for i := 0; i+2 < len(fields); i += 3 {
			if strings.HasPrefix(fields[i], "R") {
				renames = append(renames, Rename{From: fields[i+1], To: fields[i+2], Commit: id})
			}
		}
	}
	return renames, nil
}
