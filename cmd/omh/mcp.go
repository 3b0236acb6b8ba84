package main

import (
	"context"

	"github.com/omh-notes/omh/cmd/omh/mcpserver"
	"github.com/omh-notes/omh/store"
)

// McpCmd is `omh mcp`.
type McpCmd struct {
	AllowWrite bool `name:"allow-write" help:"Also offer the tools that write: new (a private note) and retract (a record's frontmatter)."`
}

// Help is the detail under `omh mcp --help`.
func (c *McpCmd) Help() string {
	return `A Model Context Protocol server on standard input and output, for coding agents. Its tools are find, show, links, proof_find, proof_show and status, each answering as the command of that name does, from the store as it is at the call (every call refreshes the cache first; on Linux the server watches the working tree, so a call stats only the files changed since the last, elsewhere every note). Text replies are what the command prints; the JSON the command prints with --json comes as structured content. A refusal is a tool error whose text starts with its stable code (not_found: ...). Without --allow-write nothing is written but the cache. docs/agents.md shows how to wire it into an agent.`
}

func (c *McpCmd) Run(e *env) error {
	// The server lives long: it watches the working tree, so a call stats
	// only what changed since the last.
	opt := e.options()
	opt.Watch = true
	s, err := store.Open(e.cli.Dir, opt)
	if err != nil {
		// Agents start the server wherever they run, which may be no
		// repository: it serves anyway, each call answering why it cannot.
		e.warn("%s", err)
	} else {
		defer s.Close()
	}
	version, _, _ := buildVersion()
	return mcpserver.Serve(context.Background(), s, err, version, c.AllowWrite, e.stdin, e.stdout)
}
