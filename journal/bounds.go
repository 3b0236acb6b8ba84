// Where a change found in the journal may write.

package journal

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/omh-notes/omh/internal/safefile"
	"github.com/omh-notes/omh/vault"
)

// A manifest found in the journal was written by whoever can write git's
// folder: omh killed half way, or someone who planted it. Before finishing
// one, omh checks that it names only what omh's changes write: files of a
// working tree of this clone (not in its .git), of git's hooks folder and
// of the private area; payloads in the journal's folder alone; and no
// folder on the way to a file that is a symbolic link (the next command
// would write through it). A manifest naming anything else is neither
// finished nor removed (it may be a real change made with another private
// folder set): every command says so until someone looks at it.

// ErrOutOfBounds is a manifest naming what no change of omh's writes.
var ErrOutOfBounds = errors.New("omh does not finish it")

// isPayloadName reports whether name is how Put and backUp name the files
// they keep in the journal's folder: payload-N.
func isPayloadName(name string) bool {
	n, ok := strings.CutPrefix(name, "payload-")
	return ok && n != "" && strings.Trim(n, "0123456789") == ""
}

// check returns an error naming the first thing the manifest m, found in
// the journal dir of the clone whose common git directory is commonDir,
// would write outside its bounds; private is the private area ("" when
// there is none).
func (m manifest) check(dir, commonDir, private string) error {
	refuse := func(what string) error {
		return fmt.Errorf("the journal %s names %s, which no change of omh's writes (only notes of a working tree of this repository, its git hooks and the private folder %s, never through a symbolic link); %w: look at it, then remove it",
			filepath.Join(dir, manifestName), what, privateShown(private), ErrOutOfBounds)
	}
	if !worktreeOf(m.Root, commonDir) {
		return refuse(fmt.Sprintf("%s as the working tree, which is none of this repository's", m.Root))
	}
	areas := []area{{m.Root, true}, {filepath.Join(commonDir, "hooks"), false}}
	if private != "" {
		areas = append(areas, area{private, false})
	}
	for _, o := range m.Ops {
		for _, name := range []string{o.Payload, o.Backup} {
			if name != "" && !isPayloadName(name) {
				return refuse(fmt.Sprintf("%s as a file it keeps", name))
			}
		}
		for _, p := range []string{o.Path, o.From, o.Prune, o.Within} {
			if p != "" && !inBounds(areas, p) {
				return refuse(p)
			}
		}
	}
	return nil
}

// privateShown names the private area in a message.
func privateShown(private string) string {
	if private == "" {
		return "(none set)"
	}
	return private
}

// area is a folder a change may write in; tree says it is a working tree,
// whose .git folder is not part of it.
type area struct {
	dir  string
	tree bool
}

// inBounds reports whether p lies in one of the areas with no folder
// between the area and p a symbolic link.
func inBounds(areas []area, p string) bool {
	p = filepath.Clean(p)
	for _, a := range areas {
		if !filepath.IsAbs(p) || !vault.Within(a.dir, p) {
			continue
		}
		rel, err := filepath.Rel(a.dir, p)
		if err != nil {
			continue
		}
		parts := strings.Split(filepath.ToSlash(rel), "/")
		if a.tree && hasGitPart(parts) {
			continue
		}
		if !linkOnTheWay(a.dir, parts) {
			return true
		}
	}
	return false
}

// hasGitPart reports whether a path names something in a .git folder.
func hasGitPart(parts []string) bool {
	for _, part := range parts {
		if strings.EqualFold(part, ".git") {
			return true
		}
	}
	return false
}

// linkOnTheWay reports whether a folder on the way from top to the file
// parts name (top itself and the file left out) is a symbolic link or no
// folder at all.
func linkOnTheWay(top string, parts []string) bool {
	dir := top
	for _, part := range parts[:len(parts)-1] {
		dir = filepath.Join(dir, part)
		fi, err := os.Lstat(dir)
		if err != nil {
			return false // the rest is yet to be made
		}
		if !fi.IsDir() {
			return true
		}
	}
	return false
}

// worktreeOf reports whether root is a working tree of the clone whose
// common git directory is commonDir: its .git is that folder, or names it
// or the folder git keeps for one of its linked worktrees.
func worktreeOf(root, commonDir string) bool {
	if !filepath.IsAbs(root) {
		return false
	}
	dotGit := filepath.Join(root, ".git")
	fi, err := os.Lstat(dotGit)
	if err != nil {
		return false
	}
	gitDir := dotGit
	switch {
	case fi.Mode().IsRegular():
		b, err := safefile.ReadInside(root, ".git", 1<<12)
		target, ok := strings.CutPrefix(strings.TrimSpace(string(b)), "gitdir: ")
		if err != nil || !ok {
			return false
		}
		if gitDir = target; !filepath.IsAbs(gitDir) {
			gitDir = filepath.Join(root, gitDir)
		}
	case !fi.IsDir():
		return false
	}
	linked := filepath.Dir(gitDir)
	return sameFolder(gitDir, commonDir) || (filepath.Base(linked) == "worktrees" && sameFolder(filepath.Dir(linked), commonDir))
}

func sameFolder(a, b string) bool {
	fa, err := os.Stat(a)
	if err != nil {
		return false
	}
	fb, err := os.Stat(b)
	return err == nil && os.SameFile(fa, fb)
}
