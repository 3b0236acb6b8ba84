package disk

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A new name that differs from an existing file's only in Unicode
// normalisation is refused, and with foldCase one differing only in case
// too (Greek final sigma included), naming the existing file; a name that
// is the existing one, or that differs in more, is not. Catches: twins
// missed once case was compared by simple folding rather than x/text's.
func TestANameDifferingOnlyInCaseOrNormalisationIsRefused(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	for _, name := range []string{"Cafe\u0301.md", "Readme.md", "ΟΔΥΣΣΕΥΣ.md"} {
		if err := os.WriteFile(filepath.Join(root, name), []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range []struct {
		rel      string
		foldCase bool
		twin     string // "" for none
	}{
		{"Caf\u00e9.md", false, "Cafe\u0301.md"},
		{"CAF\u00c9.md", true, "Cafe\u0301.md"},
		{"CAF\u00c9.md", false, ""},
		{"README.md", true, "Readme.md"},
		{"README.md", false, ""},
		{"Readme.md", true, ""},
		{"οδυσσευς.md", true, "ΟΔΥΣΣΕΥΣ.md"},
		{"Readme2.md", true, ""},
	} {
		err := CheckTarget(root, c.rel, c.foldCase)
		switch {
		case c.twin == "" && err != nil:
			t.Errorf("%q (fold %v): %v, want no objection", c.rel, c.foldCase, err)
		case c.twin != "" && (err == nil || !strings.Contains(err.Error(), c.twin)):
			t.Errorf("%q (fold %v): %v, want it refused as a twin of %q", c.rel, c.foldCase, err, c.twin)
		}
	}
}
