// Package vault is omh's note model: what a repository of markdown notes
// holds, read without git or the cache. A newcomer can hold it in one
// sitting:
//
//   - layers and keys (layer.go, key.go, slug.go): a note is team (read
//     from HEAD's tree) or local (the private folder, or an uncommitted
//     working copy); its key is its path under the notes root, without
//     .md, as links name it;
//   - the config (config.go): .omh/config.yaml's notes root, dialect,
//     exclude globs and lint settings, checked as they are read;
//   - dialects (dialect.go): how a vault's tool writes and resolves links
//     (omh, Obsidian, Dendron, Foam, Logseq, zk, a markdown site);
//   - parsing (parse.go, parse_markdown.go, frontmatter.go,
//     frontmatter_simple.go, units.go, dates.go): a note's bytes become
//     Parsed, its title, type, dates, links, headings, the passage units
//     cards quote, and the problems lint reports; the one edit of a note's
//     own frontmatter (retract.go) is parsed back before it is trusted;
//   - links (links.go, resolve.go): a link's target key under the dialect,
//     and which note of which layer it reaches;
//   - the vocabulary (vocab.go, rules.go): the note types and link verbs,
//     and the names of lint's rules, from which every list omh prints or
//     checks is derived;
//   - reading files safely (safefile*.go): never through a symbolic link,
//     only regular files.
//
// Its rooms (vault/*) import it and never the layers above: gitrepo reads
// git's objects, history and the private folder's place; corpus is the
// read model the cache hands to ranking and cards; localscan scans the
// working tree and the private folder; lint, rename, template and detect
// check, rename, write and detect notes; disk writes files atomically;
// gitcli runs git; vaulttest builds repositories for tests. vault itself
// imports nothing of omh.
package vault
