package vault

import (
	"slices"
	"strings"
)

// omh's vocabulary: the kinds of note and the verbs of typed links, with
// what each means to lint, to the proof lifecycle and to cards. Every list
// omh prints or checks (lint's rules and fixes, the command line's choices,
// the order of links on a card) is derived from these two tables.

// NoteType is a kind of note.
type NoteType struct {
	Name string
	// Proof marks a claim or evidence record: its state (current,
	// superseded, ...) follows from the typed links other records make.
	Proof bool
	// Sections are the headings a note of the type must have, in the order
	// templates write them.
	Sections []string
}

// Types are the kinds of note: the memory kinds, then the proof kinds. A
// note without a type is a "note". The memory kinds that gather other
// notes (topic, note) and raw data (blob) need no section; every other
// kind says which questions it answers, and the proof kinds keep claim and
// evidence apart.
var Types = []NoteType{
	{Name: "surprise", Sections: []string{"Expected", "Observed", "Evidence", "Answers"}},
	{Name: "topic"},
	{Name: "stub", Sections: []string{"Answers"}},
	{Name: "note"},
	{Name: "finding", Proof: true, Sections: []string{"Claim", "Evidence", "Answers"}},
	{Name: "decision", Proof: true, Sections: []string{"Decision", "Context", "Answers"}},
	{Name: "issue", Proof: true, Sections: []string{"Problem", "Answers"}},
	{Name: "citation", Proof: true, Sections: []string{"Source", "Answers"}},
	{Name: "blob", Proof: true},
}

// Verb is a typed link's verb: a list item "- verb [[target]]".
type Verb struct {
	Name string
	// Reverse names the link seen from its target ("cited_by"); "" where
	// the verb itself is shown.
	Reverse string
	// Overturns is the state a verdict gives the record it targets
	// (superseded, invalidated, rejected); "" for other verbs.
	Overturns string
	// Verdict marks the verbs that decide another record's state, which a
	// team note must not rest on a private note for.
	Verdict bool
	// RestsOn marks the verbs whose target a record's reasoning rests on:
	// when the target is withdrawn, the record's card says so.
	RestsOn bool
	// InRank orders links in on a card: verdicts first, then derivations,
	// citations and attachments; plain links come last.
	InRank int
	// The types the verb makes sense between: Same wants one type at both
	// ends; From and To the types allowed at the source and the target, nil
	// for any.
	Same     bool
	From, To []string
}

// Verbs are the typed-link verbs, in their documented order.
var Verbs = []Verb{
	{Name: "cites", Reverse: "cited_by", RestsOn: true, InRank: 6},
	{Name: "derives_from", Reverse: "derived_by", RestsOn: true, InRank: 5},
	{Name: "supersedes", Overturns: "superseded", Verdict: true, InRank: 0, Same: true},
	{Name: "invalidates", Overturns: "invalidated", Verdict: true, InRank: 1, To: []string{"finding", "decision", "citation", "surprise"}}, // something that claims can be shown wrong
	{Name: "resolves", Verdict: true, InRank: 3, To: []string{"issue"}},                                                                    // only an issue is open until resolved
	{Name: "rejects", Overturns: "rejected", Verdict: true, InRank: 2, From: []string{"decision"}, To: []string{"decision"}},               // a decision turns down another option
	{Name: "mitigates", Verdict: true, InRank: 4, To: []string{"issue", "surprise"}},                                                       // a problem is mitigated
	{Name: "attaches", Reverse: "attached_by", InRank: 7, To: []string{"blob"}},                                                            // captured data is attached
}

// PlainLinkRank is where links without a verb come among links in.
const PlainLinkRank = 8

// LookupType returns the kind of note named t.
func LookupType(t string) (NoteType, bool) {
	i := slices.IndexFunc(Types, func(nt NoteType) bool { return nt.Name == t })
	if i < 0 {
		return NoteType{}, false
	}
	return Types[i], true
}

// KnownType reports whether t names a kind of note.
func KnownType(t string) bool {
	_, ok := LookupType(t)
	return ok
}

// IsProofType reports whether notes of type t are proof records.
func IsProofType(t string) bool {
	nt, ok := LookupType(t)
	return ok && nt.Proof
}

// TypeNames lists the kinds of note, the proof kinds alone when proof is
// set.
func TypeNames(proofOnly bool) []string {
	var out []string
	for _, t := range Types {
		if t.Proof || !proofOnly {
			out = append(out, t.Name)
		}
	}
	return out
}

// RequiredSections lists the headings a note of type t must have, in the
// order templates write them.
func RequiredSections(t string) []string {
	nt, _ := LookupType(t)
	return slices.Clone(nt.Sections)
}

// LookupVerb returns the verb named v.
func LookupVerb(v string) (Verb, bool) {
	i := slices.IndexFunc(Verbs, func(vb Verb) bool { return vb.Name == v })
	if i < 0 {
		return Verb{}, false
	}
	return Verbs[i], true
}

// IsVerb reports whether word is a typed-link verb.
func IsVerb(word string) bool {
	_, ok := LookupVerb(word)
	return ok
}

// VerbNames lists the verbs in their documented order.
func VerbNames() []string {
	out := make([]string, len(Verbs))
	for i, v := range Verbs {
		out[i] = v.Name
	}
	return out
}

// OrList writes names as people read a choice: "a, b or c".
func OrList(names []string) string { return listWith(names, "or") }

// AndList joins names as a sentence lists them: "a", "a and b", "a, b and
// c".
func AndList(names []string) string { return listWith(names, "and") }

func listWith(names []string, conjunction string) string {
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " " + conjunction + " " + names[len(names)-1]
}
