package gitcli

import (
	"bufio"
	"fmt"
	"io"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/omh-notes/omh/vault"
	"github.com/omh-notes/omh/vault/gitrepo"
)

// FileChange is one file that differs between two states, as git reports
// it.
type FileChange struct {
	// Status is git's letter: A added, M modified, D deleted, R renamed, C
	// copied, T a change of type, U unmerged.
	Status           byte
	Path, OldPath    string // repository-relative; OldPath for R and C only
	OldMode, NewMode string // as git prints them ("100644"); "" where not known
	OldBlob, NewBlob plumbing.Hash
}

// Commit is one commit of a log with the files it changed.
type Commit struct {
	ID     plumbing.Hash
	Author string     // the author's name
	Date   vault.Date // the author's date, in the author's offset
	Files  []FileChange
}

// Log lists the commits of HEAD's history since from (git log from..to:
// every commit to reaches that from does not; all of to's history when from
// is zero), newest first in git log's order, each with the files under dir
// it changed against its parent, renames found as git log -M finds them.
// A merge lists no files, as git log shows it; its branch's commits list
// their own. git's walk is the one to use: on dendron-site (3,824 commits)
// a walk through go-git diffing each commit's notes tree took 6.7-7.6 s
// for the whole history and found no renames, git log -M 2.0-3.4 s (a busy
// machine, three rounds). In a partial clone, whose blobs git would fetch
// from its remote to compare them, renames are not looked for.
func Log(r *gitrepo.Repo, from, to plumbing.Hash, dir string) ([]Commit, error) {
	args := []string{"log", "--raw", "-z", "--no-abbrev", "--no-color", "--no-show-signature", "--no-ext-diff",
		"--format=%x01%H%x00%an%x00%ad", "--date=format:%Y-%m-%d"}
	if r.PartialClone() {
		args = append(args, "--no-renames")
	} else {
		args = append(args, "-M")
	}
	if from.IsZero() {
		args = append(args, to.String())
	} else {
		args = append(args, from.String()+".."+to.String())
	}
	args = append(args, "--")
	if dir != "" {
		args = append(args, dir)
	}
	out, err := Git(r.Root, "", args...)
	if err != nil {
		return nil, err
	}
	return readLog(bufio.NewReader(strings.NewReader(out)))
}

// readLog parses Log's output: per commit \x01, the header's fields each
// ended by NUL, then a newline and one raw entry per file (":oldmode
// newmode oldid newid status" NUL path NUL, and a second path for R and C).
func readLog(r *bufio.Reader) ([]Commit, error) {
	var out []Commit
	b, err := r.ReadByte()
	for err == nil {
		if b != 1 {
			return nil, fmt.Errorf("git log: unexpected %q where a commit starts", b)
		}
		var id, author, date string
		if id, err = readField(r); err == nil {
			if author, err = readField(r); err == nil {
				date, err = readField(r)
			}
		}
		if err != nil {
			return nil, fmt.Errorf("git log: a commit's header cut short: %w", err)
		}
		c := Commit{ID: plumbing.NewHash(id), Author: author, Date: logDate(date)}
		for more := true; more; {
			var meta, path string
			if meta, path, more, err = readEntry(r); !more {
				break
			}
			f, err := rawEntry(meta)
			if err != nil {
				return nil, fmt.Errorf("git log: %s: %w", id, err)
			}
			f.Path = path
			if f.Status == 'R' || f.Status == 'C' {
				f.OldPath = path
				if f.Path, err = readField(r); err != nil {
					return nil, fmt.Errorf("git log: an entry of %s cut short: %w", id, err)
				}
			}
			c.Files = append(c.Files, f)
		}
		out = append(out, c)
		b = 1 // readEntry read the next commit's \x01, or err says why not
	}
	if err != io.EOF {
		return nil, fmt.Errorf("git log: %w", err)
	}
	return out, nil
}

// rawEntry reads a raw diff entry's fields, after its ':': "oldmode
// newmode oldid newid status[score]".
func rawEntry(meta string) (FileChange, error) {
	f := strings.Fields(meta)
	if len(f) != 5 || f[4] == "" {
		return FileChange{}, fmt.Errorf("a raw entry %q", meta)
	}
	return FileChange{Status: f[4][0], OldMode: f[0], NewMode: f[1], OldBlob: plumbing.NewHash(f[2]), NewBlob: plumbing.NewHash(f[3])}, nil
}

// Status lists how the working tree under dir differs from HEAD, as git
// status says it: files changed, added (to git's index, or untracked and
// not ignored), removed, renamed in git's index, in a merge's conflict (U).
// It reads with --no-optional-locks, so it never takes git's index lock or
// rewrites the index, which a git command running meanwhile may hold.
func Status(root, dir string) ([]FileChange, error) {
	args := []string{"--no-optional-locks", "status", "--porcelain=v2", "-z", "--untracked-files=all", "--find-renames", "--"}
	if dir != "" {
		args = append(args, dir)
	}
	out, err := Git(root, "", args...)
	if err != nil {
		return nil, err
	}
	var changes []FileChange
	entries := strings.Split(out, "\x00")
	for i := 0; i < len(entries); i++ {
		e := entries[i]
		if e == "" {
			continue
		}
		orig := ""
		if e[0] == '2' && i+1 < len(entries) {
			i++
			orig = entries[i] // a rename's path in HEAD follows it
		}
		if f, ok := statusEntry(e, orig); ok {
			changes = append(changes, f)
		}
	}
	return changes, nil
}

// statusEntry reads one entry of git status --porcelain=v2 as the change
// from HEAD to the working tree: "1 XY sub mH mI mW hH hI path", "2 XY sub
// mH mI mW hH hI score path" (orig, its path in HEAD, follows), "u XY sub
// m1 m2 m3 mW h1 h2 h3 path", "? path". X is the index against HEAD, Y the
// working tree against the index; false for what leaves HEAD as it was
// (added to the index, then deleted).
func statusEntry(e, orig string) (FileChange, bool) {
	fields := func(n int) []string { return strings.SplitN(e, " ", n) }
	switch e[0] {
	case '?':
		return FileChange{Status: 'A', Path: e[2:]}, true
	case 'u':
		f := fields(11)
		if len(f) < 11 {
			return FileChange{}, false
		}
		return FileChange{Status: 'U', Path: f[10], OldMode: f[3], NewMode: f[6]}, true
	case '1', '2':
		n := 9
		if e[0] == '2' {
			n = 10
		}
		f := fields(n)
		if len(f) < n || len(f[1]) != 2 {
			return FileChange{}, false
		}
		x, y := f[1][0], f[1][1]
		c := FileChange{Path: f[n-1], OldMode: f[3], NewMode: f[5], OldBlob: plumbing.NewHash(f[6])}
		switch {
		case e[0] == '2' && y == 'D':
			// Renamed in the index, then deleted: HEAD's file is gone.
			c.Status, c.Path, c.NewMode = 'D', orig, ""
		case e[0] == '2':
			c.Status, c.OldPath = x, orig
		case x == 'A' && y == 'D':
			return FileChange{}, false
		case x == 'A':
			c.Status, c.OldMode, c.OldBlob = 'A', "", plumbing.ZeroHash
		case x == 'D' || y == 'D':
			c.Status, c.NewMode = 'D', ""
		case x == 'T' || y == 'T':
			c.Status = 'T'
		default:
			c.Status = 'M'
		}
		return c, true
	}
	return FileChange{}, false
}
