package retrieve

import "testing"

// Every note in a folder shares its name, so a folder's name does not make
// the question the note's subject: on vba-docs, "user" in a question lifted
// every note under Language/Reference/User-Interface-Help. The note named
// for the word wins over one that merely sits in a folder named for it.
func TestAFolderNameIsNotTheNotesSubject(t *testing.T) {
	t.Parallel()
	notes := []memNote{
		{key: "plugins/colour-themes", layer: local, date: "2026-01-01", body: "Themes for the plugin store.\n"},
		{key: "notes/plugin-settings", layer: local, date: "2026-01-02", body: "Settings.\n"},
	}
	if got := first(search(t, notes, Query{Phrasings: []string{"plugin"}, Ranker: TunedRanker})); got != "notes/plugin-settings" {
		t.Errorf("tuned: got %q", got)
	}
	// The baseline doubles a term found anywhere in the key.
	r := search(t, notes, Query{Phrasings: []string{"plugin"}, Ranker: BaselineRanker})
	if r.Hits[0].Score != r.Hits[1].Score {
		t.Errorf("baseline: scores %d and %d, want both doubled", r.Hits[0].Score, r.Hits[1].Score)
	}
}
