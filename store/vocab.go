package store

import (
	"fmt"
	"strings"

	"github.com/omh-notes/omh/vault"
	"github.com/omh-notes/omh/vault/lint"
)

// What help texts and completions name, from the tables that define it.

// NoteTypes are the names of omh's note types; with proof, of its proof
// record types only.
func NoteTypes(proof bool) []string { return vault.TypeNames(proof) }

// OrList joins names as "a, b or c".
func OrList(names []string) string { return vault.OrList(names) }

// TypeSections says which sections each note type must have, as lint
// checks them: "finding Evidence, ...; note, topic and x none".
func TypeSections() string {
	var with []string
	var without []string
	for _, t := range vault.Types {
		if len(t.Sections) == 0 {
			without = append(without, t.Name)
			continue
		}
		with = append(with, t.Name+" "+strings.Join(t.Sections, ", "))
	}
	last := len(without) - 1
	return strings.Join(with, "; ") + "; " + strings.Join(without[:last], ", ") + " and " + without[last] + " none"
}

// LintRulesText is a paragraph per lint rule: its ID, severity, the notes
// it checks and what it finds.
func LintRulesText() string {
	var b strings.Builder
	for _, r := range lint.Rules {
		sev := string(r.Severity)
		if r.ID == "team-links-local" {
			sev = "error or warning"
		}
		scope := ""
		switch r.Scope {
		case lint.OmhTyped:
			scope = ", in notes of omh's types or with --strict"
		case lint.StrictOnly:
			scope = ", with --strict or --rule"
		}
		fmt.Fprintf(&b, "%s (%s%s): %s.\n\n", r.ID, sev, scope, r.What)
	}
	return strings.TrimSuffix(b.String(), "\n\n")
}
