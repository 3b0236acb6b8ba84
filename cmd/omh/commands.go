package main

import (
	"fmt"
	"runtime/debug"

	"github.com/omh-notes/omh/index"
	"github.com/omh-notes/omh/retrieve"
	"github.com/omh-notes/omh/vault"
)

// IndexCmd is `omh index`.
type IndexCmd struct {
	Rebuild bool `help:"Discard the cache and build it again from the notes."`
}

func (c *IndexCmd) Run(e *env) error {
	if !c.Rebuild {
		return e.withStore(index.Options{Progress: e.progress()}, func(s *store) error {
			return e.printIndexed(s.repo, s.cache)
		})
	}
	r, cache, err := e.openCacheOf()
	if err != nil {
		return err
	}
	defer r.Close()
	cache, rep, err := cache.Rebuild(r, index.Options{Progress: e.progress()})
	defer cache.Close()
	if err != nil {
		return err
	}
	for _, w := range rep.Warnings {
		e.warn("%s", w)
	}
	return e.printIndexed(r, cache)
}

func (e *env) printIndexed(r *vault.Repo, c *index.Cache) error {
	st, err := c.Status(r)
	if err != nil {
		return err
	}
	if e.cli.JSON {
		return writeJSON(e.stdout, st)
	}
	fmt.Fprintf(e.stdout, "indexed %d team and %d local notes at %s; parsed %d blobs\n",
		st.Notes.Team, st.Notes.Local, retrieve.CommitLabel(deref(st.Indexed)), st.Parsed)
	return nil
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// StatusCmd is `omh status`.
type StatusCmd struct{}

func (c *StatusCmd) Run(e *env) error {
	r, cache, err := e.openCacheOf()
	if err != nil {
		return err
	}
	defer r.Close()
	defer cache.Close()
	st, err := cache.Status(r)
	if err != nil {
		return classify(err)
	}
	if e.cli.JSON {
		return writeJSON(e.stdout, st)
	}
	fmt.Fprint(e.stdout, st.String())
	return nil
}

// VersionCmd is `omh version`.
type VersionCmd struct{}

func (c *VersionCmd) Run(e *env) error {
	version, revision, modified := "(devel)", "unknown", false
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
	if e.cli.JSON {
		return writeJSON(e.stdout, map[string]any{"version": version, "revision": revision, "modified": modified})
	}
	suffix := ""
	if modified {
		suffix = " (modified)"
	}
	fmt.Fprintf(e.stdout, "omh %s, revision %s%s\n", version, revision, suffix)
	return nil
}
