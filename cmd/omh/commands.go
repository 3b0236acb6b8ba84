package main

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime/debug"

	"github.com/omh-notes/omh/index"
	"github.com/omh-notes/omh/retrieve"
	"github.com/omh-notes/omh/vault"
)

// ShowCmd is `omh show`.
type ShowCmd struct {
	Key   string `arg:"" help:"The note's key: its path under the notes root without .md."`
	Layer string `name:"layer" enum:"team,local," default:"" placeholder:"team|local" help:"Only the note of this layer."`
}

type shownNote struct {
	retrieve.JSONHit
	Content string `json:"content"`
}

func (c *ShowCmd) Run(e *env) error {
	if err := vault.CheckKey(c.Key); err != nil {
		return refuse("bad_key", err)
	}
	var layer vault.Layer
	if c.Layer != "" {
		layer, _ = vault.ParseLayer(c.Layer)
	}
	return e.withStore(index.Options{LockWait: lockWait, Progress: e.progress()}, func(s *store) error {
		docs, err := s.snap.Find(c.Key, layer)
		if err != nil {
			return err
		}
		if len(docs) == 0 {
			return refuse("not_found", fmt.Errorf("no note has the key %q", c.Key))
		}
		var shown []shownNote
		for _, d := range docs {
			n, err := s.snap.Note(d)
			if err != nil {
				return err
			}
			content, err := readNote(s.repo, n)
			if err != nil {
				return err
			}
			j := retrieve.ToJSON(retrieve.Result{Hits: []retrieve.Hit{{Note: n, Parent: -1}}}, "").Hits[0]
			shown = append(shown, shownNote{JSONHit: j, Content: string(content)})
		}
		if e.cli.JSON {
			commit := s.snap.Commit()
			reply := map[string]any{"schema_version": retrieve.SchemaVersion, "commit": nil, "notes": shown}
			if commit != "" {
				reply["commit"] = commit
			}
			return writeJSON(e.stdout, reply)
		}
		for i, n := range shown {
			if i > 0 {
				fmt.Fprintln(e.stdout)
			}
			fmt.Fprintf(e.stdout, "%s  %s · %s\npath: %s\ntitle: %s\ntype: %s\nblob: %s\n\n%s",
				n.Key, n.Layer, n.Date, n.Path, n.Title, n.Type, n.Blob, n.Content)
			if len(n.Content) > 0 && n.Content[len(n.Content)-1] != '\n' {
				fmt.Fprintln(e.stdout)
			}
		}
		fmt.Fprintf(e.stdout, "@ %s\n", retrieve.CommitLabel(s.snap.Commit()))
		return nil
	})
}

// readNote returns the content the snapshot indexed: a team note's blob
// from git, a local note's file.
func readNote(r *vault.Repo, n retrieve.Note) ([]byte, error) {
	if n.Layer == vault.Team {
		b, _, err := r.ReadBlob(n.Blob, 1<<40)
		return b, err
	}
	path := n.Path
	if !filepath.IsAbs(path) {
		path = filepath.Join(r.Root, filepath.FromSlash(path))
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", path, err)
	}
	return b, nil
}

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
