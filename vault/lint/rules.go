package lint

import "slices"

// Severity says whether a finding fails lint (error) or only informs
// (warning; --strict makes it fail too).
type Severity string

const (
	SevError   Severity = "error"
	SevWarning Severity = "warning"
)

// Rule is one check of omh lint. IDs are stable: scripts, --rule and
// the config's lint.disable name them.
type Rule struct {
	ID       string
	Severity Severity // team-links-local is an error for verdict links, a warning otherwise
	Scope    RuleScope
	What     string
}

// RuleScope says which notes a rule checks when no rule is asked for by
// name.
type RuleScope uint8

const (
	// EveryNote rules find what breaks links and search in any vault.
	EveryNote RuleScope = iota + 1
	// OmhTyped rules check omh's own conventions (template sections, link
	// verbs): in notes whose type: is one of omh's, or everywhere with
	// --strict. A vault written for another tool does not follow them.
	OmhTyped
	// StrictOnly rules are advice: checked with --strict or by name.
	StrictOnly
)

// Rules is every check, in the order findings about one note are listed
// (vault.LintRuleIDs names them in the same order).
var Rules = []Rule{
	{"conflict-markers", SevError, EveryNote, "the note holds a merge conflict git left unresolved (<<<<<<<, =======, >>>>>>> lines); find reads both sides, the markers as blank lines"},
	{"frontmatter", SevError, EveryNote, "the frontmatter is not valid YAML, is not closed, is not a map, or a field has the wrong shape"},
	{"invalid-date", SevError, EveryNote, "recorded, date, created or retracted is not a real calendar date"},
	{"key-mismatch", SevError, EveryNote, "a key: field disagrees with the key the note's path gives"},
	{"name-not-utf8", SevWarning, EveryNote, "the file's name is not valid UTF-8; its key writes each byte that is not as %XX"},
	{"duplicate-key", SevError, EveryNote, "two notes of one layer share a key (a private note and an uncommitted file, or two spellings of one name)"},
	{"private-team-key", SevError, EveryNote, "a private note has the key of a team note: links reach the team note, never the private one, and omh promote refuses it"},
	{"unknown-type", SevWarning, StrictOnly, "type: is not one of the types omh knows (checked without --strict when it is a near miss of one)"},
	{"missing-section", SevError, OmhTyped, "a section the note's type requires is missing"},
	{"duplicate-section", SevError, OmhTyped, "a section the note's type requires appears more than once (a card quotes the first, which may be the empty one)"},
	{"prose-in-list", SevError, OmhTyped, "a list-only section (Answers) holds text that is not a list item, which is not read as an answer"},
	{"dangling-link", SevError, EveryNote, "a link reaches no note under the vault's dialect"},
	{"ambiguous-link", SevError, EveryNote, "a link could mean several notes and so reaches none; every candidate is named"},
	{"unknown-verb", SevError, OmhTyped, "a list item reads \"word [[link]]\" where word looks like a link verb but is none (snake_case, a verb's near miss, or a verb in capitals)"},
	{"verb-type", SevError, OmhTyped, "a typed link joins types the verb makes no sense between: resolves needs an issue, rejects a decision on both ends, supersedes one type on both ends, attaches a blob, mitigates an issue or surprise, invalidates a finding, decision, citation or surprise"},
	{"team-links-local", SevError, EveryNote, "a team note (or a working copy under the notes root) links to a note that exists only on this machine; an error for verdict links, a warning for others"},
	{"links-only-local", SevWarning, EveryNote, "every note a team note links to is local only"},
	{"orphan", SevWarning, StrictOnly, "no note links to this one and it links to none"},
	{"markdown-too-costly", SevWarning, EveryNote, "part of the note is too costly to parse as markdown (thousands of unclosed brackets or emphasis marks in one paragraph), so links there are read as plain text"},
}

// LookupRule finds a rule by its ID.
func LookupRule(id string) (Rule, bool) {
	i := RuleOrder(id)
	if i < 0 {
		return Rule{}, false
	}
	return Rules[i], true
}

// RuleOrder is where the rule id stands in Rules; -1 for no rule.
func RuleOrder(id string) int {
	return slices.IndexFunc(Rules, func(r Rule) bool { return r.ID == id })
}
