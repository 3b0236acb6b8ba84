package template

import (
	"testing"

	"github.com/omh-notes/omh/vault"
)

// A note written from a built-in template and never filled in is bare
// scaffolding, which ranking puts below every note with content; a body,
// an answer or a link is content. A blob's template is a title alone: no
// sections wait to be filled.
func TestAnUnfilledTemplateIsScaffoldingAndAnyContentIsNot(t *testing.T) {
	t.Parallel()
	for _, typ := range vault.TypeNames(false) {
		tmpl, _, err := LoadTemplate(t.TempDir(), typ)
		if err != nil {
			t.Fatal(err)
		}
		bare := Draft{Type: typ, Title: "Exports stall", Key: typ + "/exports-stall", Recorded: "2026-03-04"}
		filled := []Draft{draft(typ), bare, bare, bare}
		filled[1].Body = "The quota resets at midnight."
		filled[2].Answers = []string{"why do exports stall"}
		filled[3].Links = []DraftLink{{Key: "topic/exports"}}
		for i, d := range append([]Draft{bare}, filled...) {
			note, err := RenderNote(tmpl, d)
			if err != nil {
				t.Fatal(err)
			}
			want := i == 0 && typ != "blob"
			if got := vault.Parse(note).Scaffold(); got != want {
				t.Errorf("%s draft %d: scaffold %v, want %v:\n%s", typ, i, got, want, note)
			}
		}
	}
}
