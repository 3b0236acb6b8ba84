package vault

// LintRuleIDs names the checks of omh lint, in the order findings about
// one note are listed. The config names them (lint.disable, checked as it
// is read) and parsing names its problems by them, so the names are the
// note model's; what each rule checks, how severe it is and which notes it
// applies to are lint's (vault/lint's Rules).
var LintRuleIDs = []string{
	"conflict-markers",
	"frontmatter",
	"invalid-date",
	"key-mismatch",
	"name-not-utf8",
	"duplicate-key",
	"private-team-key",
	"unknown-type",
	"missing-section",
	"duplicate-section",
	"prose-in-list",
	"dangling-link",
	"ambiguous-link",
	"unknown-verb",
	"verb-type",
	"team-links-local",
	"links-only-local",
	"orphan",
	"markdown-too-costly",
}
