package vaulttest

import "strings"

// NoteSeeds are notes of many shapes, for the fuzz tests of what reads
// notes (parsing, link rewriting) and the tests that compare parsers:
// frontmatter good and broken, a byte order mark and CRLF, every link
// form, code, lists, tables and invalid UTF-8. scripts/fuzz.sh adds every
// note of the real vaults to the corpus before a long run. Each call
// returns a list of its own.
func NoteSeeds() []string {
	return []string{
		"",
		"---\ntitle: T\ntags: [a, b]\ndate: 2026-03-01\n---\n# H\n\n- resolves [[x]]\n",
		"\uFEFF---\r\ntitle: T\r\n---\r\n# H\r\n[a](b.md)\r\n",
		"---\ntitle: [\n---\nbody [[x|y]] ![[z#^b]]\n",
		"> a [x\n> y](\n> b.md \"t\" ) `c` <b>[[no]]</b>\n",
		"## Answers\n- one\n### deeper\n- two\n## next\n",
		"```\n[[x]]\n```\n\n    [[y]]\n\n<div>\n[[z]]\n</div>\n",
		"[t][r] [r][] [r]\n\n[r]: a.md\n",
		"[[[x]]] \\[[y]] [[a `b]]` c]] caf\xe9 [[\xff]]\n",
		"---\naliases: &a [x, y]\ntags: *a\ntitle: !!str 1984\nrecorded: 1700000000\n...\n# H\n",
		"- a\n  - b [[x]]\n    1. c\n\t- d `e` [f](g.md)\n> - h\n>   > i [[j]]\n",
		"*\t  0\n-\t# H\n>\t#\n1.\t\t[[x]]\n",
		"| a | [[b]] | `c|d` |\n|---|---|---|\n| [e](f.md) | **g** | [ ] |\n",
		"~~~md\n# not a heading [[x]]\n~~~\n``` [[y]]\n",
		strings.Repeat("long [[line]] with [a](b.md) `code` *em* ", 200) + "\n",
	}
}
