package vault

import (
	"reflect"
	"testing"
)

func names(notes map[string][]string) MemNames {
	m := MemNames{}
	for key, aliases := range notes {
		m.Add(key, aliases)
	}
	return m
}

func TestWikiLinksResolveByTheRulesInOrder(t *testing.T) {
	store := names(map[string][]string{
		"projects/foam/refactoring": nil,
		"refactoring-notes":         nil,
		"factoring":                 nil,
		"Inbox":                     nil,
		"inbox":                     nil,
		"daily/2026-01-01":          nil,
		"weekly/2026-01-01":         nil,
		"people/ada-lovelace":       {"Ada", "The Countess"},
		"people/ada-byron":          {"Ada B"},
		"tools/alpha":               {"shared"},
		"tools/beta":                {"shared"},
		"Café":                      nil,
	})
	for _, tc := range []struct {
		target     string
		want       string
		candidates []string
	}{
		{"projects/foam/refactoring", "projects/foam/refactoring", nil},
		{"PROJECTS/FOAM/REFACTORING", "projects/foam/refactoring", nil},
		// A trailing part on a "/" boundary, never a substring of a name.
		{"refactoring", "projects/foam/refactoring", nil},
		{"foam/refactoring", "projects/foam/refactoring", nil},
		{"actoring", "", nil},
		// The exact key wins over a key differing only in case.
		{"Inbox", "Inbox", nil},
		{"inbox", "inbox", nil},
		{"INBOX", "", []string{"Inbox", "inbox"}},
		// Two keys ending the same way: ambiguous, nothing is picked.
		{"2026-01-01", "", []string{"daily/2026-01-01", "weekly/2026-01-01"}},
		{"the countess", "people/ada-lovelace", nil},
		{"Ada", "people/ada-lovelace", nil},
		{"shared", "", []string{"tools/alpha", "tools/beta"}},
		{"nowhere", "", nil},
		// NFD input finds an NFC key.
		{"Cafe\u0301", "Café", nil},
	} {
		got, err := Resolve(Link{Kind: WikiLink, Target: tc.target}, "somewhere/else", store)
		if err != nil {
			t.Fatal(err)
		}
		if got.Key != tc.want || !reflect.DeepEqual(got.Candidates, tc.candidates) {
			t.Errorf("[[%s]] → %+v, want %q %v", tc.target, got, tc.want, tc.candidates)
		}
	}
}

// Regression: omh read [[No such note|Embed files]] as a link to "Embed
// files" when the first part led nowhere, hiding broken links from lint.
// No rule guesses a note from a link's label: Dendron writes the note
// after the pipe, every other dialect before it.
func TestNoDialectGuessesANoteFromALabel(t *testing.T) {
	store := names(map[string][]string{"vault/dendron.topic.pods": nil, "Embed files": nil})
	for _, d := range DialectNames() {
		if d == DialectDendron {
			continue
		}
		got, _ := Dialect{Name: d}.Resolve(Link{Kind: WikiLink, Target: "No such note", Label: "Embed files"}, "x", store)
		if got.Key != "" {
			t.Errorf("%s: [[No such note|Embed files]] reached %+v", d, got)
		}
	}
	dendron := Dialect{Name: DialectDendron}
	got, _ := dendron.Resolve(Link{Kind: WikiLink, Target: "Pods overview", Label: "dendron.topic.pods"}, "x", store)
	if got.Key != "vault/dendron.topic.pods" {
		t.Errorf("dendron: [[Pods overview|dendron.topic.pods]] → %+v", got)
	}
	got, _ = dendron.Resolve(Link{Kind: WikiLink, Target: "Embed files", Label: "nowhere"}, "x", store)
	if got.Key != "" {
		t.Errorf("dendron: [[Embed files|nowhere]] reached %+v", got)
	}
}

func TestMarkdownLinksArePathsFromTheLinkingNotesFolder(t *testing.T) {
	store := names(map[string][]string{"guides/setup": nil, "guides/deep/more": nil, "top": nil, "Guides/Case": nil})
	for _, tc := range []struct{ target, from, want string }{
		{"setup", "guides/intro", "guides/setup"},
		{"./setup", "guides/intro", "guides/setup"},
		{"deep/more", "guides/intro", "guides/deep/more"},
		{"../top", "guides/intro", "top"},
		{"/guides/setup", "elsewhere/deep/note", "guides/setup"},
		{"../../top", "guides/intro", ""},
		{"setup", "top", ""},
		{"guides/case", "x", "Guides/Case"},
	} {
		got, _ := Resolve(Link{Kind: MarkdownLink, Target: tc.target}, tc.from, store)
		if got.Key != tc.want {
			t.Errorf("(%s) from %s → %q, want %q", tc.target, tc.from, got.Key, tc.want)
		}
	}
}

// LinkNames must cover every name that could change where a link leads,
// or an incremental refresh would miss a link to a note added later.
func TestLinkNamesCoverWhatResolutionReads(t *testing.T) {
	for _, tc := range []struct {
		link Link
		from string
		want []string
	}{
		{Link{Kind: WikiLink, Target: " Refactoring "}, "a/b", []string{"refactoring"}},
		{Link{Kind: WikiLink, Target: "x", Label: "Dendron.Pods"}, "a/b", []string{"x"}},
		{Link{Kind: MarkdownLink, Target: "../Up"}, "a/b", []string{"up"}},
		{Link{Kind: MarkdownLink, Target: "../../out"}, "a/b", nil},
		{Link{Kind: TagLink, Target: "tag"}, "a/b", nil},
	} {
		if got := (Dialect{}).LinkNames(tc.link, tc.from); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("LinkNames(%+v) = %q, want %q", tc.link, got, tc.want)
		}
	}
}

func TestKeysComeFromPathsAndClimbNowhere(t *testing.T) {
	for path, want := range map[string]string{
		"a/b.md":           "a/b",
		"Cafe\u0301.md":    "Café",
		"notes.txt":        "",
		".md":              "",
		"a//b.md":          "",
		"../x.md":          "",
		"a/./b.md":         "",
		"line\nbreak.md":   "",
		"spaced name.md":   "spaced name",
		"deep/er/note.md":  "deep/er/note",
		"dendron.topic.md": "dendron.topic",
	} {
		got, ok := KeyOf(path)
		if got != want || ok != (want != "") {
			t.Errorf("KeyOf(%q) = %q, %v; want %q", path, got, ok, want)
		}
	}
	for _, bad := range []string{"", "/etc/passwd", "../../etc/passwd", "a/../b", "a/", "tab\tkey"} {
		if CheckKey(bad) == nil {
			t.Errorf("CheckKey(%q) accepted", bad)
		}
	}
}
