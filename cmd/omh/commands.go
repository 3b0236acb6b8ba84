package main

import (
	"fmt"
	"runtime/debug"

	"github.com/omh-notes/omh/reply"
	"github.com/omh-notes/omh/store"
)

// IndexCmd is `omh index`.
type IndexCmd struct {
	Rebuild bool `help:"Discard the cache and build it again from the notes."`
}

func (c *IndexCmd) Run(e *env) error {
	return e.withStore(func(s *store.Store) error {
		st, err := s.Index(c.Rebuild)
		if err != nil {
			return err
		}
		return e.print(st)
	})
}

// StatusCmd is `omh status`.
type StatusCmd struct{}

func (c *StatusCmd) Run(e *env) error {
	return e.withStore(func(s *store.Store) error {
		st, err := s.Status()
		if err != nil {
			return err
		}
		return e.print(st)
	})
}

// VersionCmd is `omh version`.
type VersionCmd struct{}

func (c *VersionCmd) Run(e *env) error {
	version, revision, modified := buildVersion()
	if e.cli.JSON {
		return reply.JSON(e.stdout, map[string]any{"schema_version": reply.SchemaVersion, "version": version, "revision": revision, "modified": modified})
	}
	rev := "revision " + revision
	switch {
	case revision == "unknown":
		rev = "no revision recorded in this build" // go build -buildvcs=false, or built outside a checkout
	case modified:
		rev += " (modified)"
	}
	fmt.Fprintf(e.stdout, "omh %s, %s\n", version, rev)
	return nil
}

// stampedVersion and stampedRevision are set by a release build
// (scripts/release.sh, -ldflags "-X main.stampedVersion=… -X
// main.stampedRevision=…"): go build records no revision with
// -buildvcs=false, nor in a linked git worktree, nor from a source archive.
var stampedVersion, stampedRevision string

// buildVersion is the version and revision a release build stamped, else
// the module version and VCS revision go build recorded.
func buildVersion() (version, revision string, modified bool) {
	version, revision = "(devel)", "unknown"
	if info, ok := debug.ReadBuildInfo(); ok {
		if info.Main.Version != "" {
			version = info.Main.Version
		}
		for _, s := range info.Settings {
			switch s.Key {
			case "vcs.revision":
				revision = s.Value
			case "vcs.modified":
				modified = s.Value == "true"
			}
		}
	}
	if stampedVersion != "" {
		version = stampedVersion
	}
	if stampedRevision != "" {
		revision = stampedRevision
	}
	return version, revision, modified
}

// RecoverCmd is `omh recover`.
type RecoverCmd struct{}

// Help is the detail under `omh recover --help`.
func (c *RecoverCmd) Help() string {
	return `Every command that changes files writes what it will do to a journal in git's folder first, and any omh command finishes a change an interrupted one left (a crash, a kill, a full disk). omh recover does only that, waiting for a change another omh process is making, and says what it finished.`
}

func (c *RecoverCmd) Run(e *env) error {
	rep, err := store.Recover(e.cli.Dir, e.options())
	if err != nil {
		return err
	}
	return e.print(rep)
}
