package main

import (
	"strings"

	"github.com/alecthomas/kong"
)

// examples end each command's help: real command lines, written for the
// demo store (sh testdata/demo/run.sh lays it out), each of which runs
// there (TestHelpExamplesRunInTheDemoStore). A line ending in " \" goes
// on on the next. omh completion shows its own in its help; a group of
// commands (proof, hooks) has its subcommands'.
var examples = map[string][]string{
	"find": {
		`omh find why does the token refresh fail in the sandbox`,
		`omh find "why does the token refresh fail in the sandbox" --cards \
    --also "credential file mount returns EBUSY" \
    --also "rename bind mount token" \
    --also "Renaming over the mounted credential file fails with EBUSY."`,
		`omh find credential mount --path topic --since 2026-03-01`,
	},
	"show": {
		`omh show topic/credentials --layer team`,
		`omh show surprise/credential-file-mount-returns-ebusy --lines L12-13`,
	},
	"new": {
		`omh new surprise "Mounting the credential file returns EBUSY" \
    --answers "why does the token refresh fail in the sandbox" \
    --link topic/credentials`,
		`omh new finding "The sandbox runs as uid 1000" --body - --if-exists suffix`,
	},
	"promote": {`omh promote note/my-debugging-checklist`},
	"lint":    {`omh lint`, `omh lint topic/credentials --rule dangling-link`},
	"links":   {`omh links topic/credentials`, `omh links decision/use-a-named-volume-for-credentials --in`},
	"mv":      {`omh mv topic/sandbox topic/build-sandbox`},
	"changes": {`omh changes`, `omh changes --since 2026-03-01 --limit 10`},
	"index":   {`omh index`, `omh index --rebuild`},
	"status":  {`omh status`, `omh --json status`},
	"proof find": {
		`omh proof find why is the credential file a named volume`,
		`omh proof find credential mount --as-of 2026-03-01 --retracted include`,
	},
	"proof show":      {`omh proof show decision/use-a-named-volume-for-credentials`},
	"proof retract":   {`omh proof retract finding/sandbox-user-is-uid-1000 --team --reason "measured on the wrong image"`},
	"eval":            {`omh eval questions.jsonl --split all`},
	"version":         {`omh version`, `omh --json version`},
	"init":            {`omh init`, `omh init --notes .omh/notes --no-hooks`},
	"hooks install":   {`omh hooks install`},
	"hooks uninstall": {`omh hooks uninstall`},
	"hooks status":    {`omh hooks status`},
	"hooks run":       {`omh hooks run post-commit`},
	"recover":         {`omh recover`},
	"mcp":             {`omh mcp`, `omh mcp --allow-write`},
}

// withExamples ends the help of each command below n with its examples.
func withExamples(n *kong.Node) {
	for _, c := range n.Children {
		withExamples(c)
		ex := examples[c.Path()]
		if len(ex) == 0 {
			continue
		}
		var b strings.Builder
		if c.Detail != "" {
			b.WriteString(c.Detail + "\n\n")
		}
		b.WriteString("Examples:")
		for _, e := range ex {
			b.WriteString("\n  " + strings.ReplaceAll(e, "\n", "\n  "))
		}
		c.Detail = b.String()
	}
}
