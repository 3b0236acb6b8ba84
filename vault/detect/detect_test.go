package detect

import (
	"reflect"
	"strings"
	"testing"

	"github.com/omh-notes/omh/vault"
	"github.com/omh-notes/omh/vault/vaulttest"
)

// Detect on small vaults laid out as each tool lays them out: a tool's
// marker decides, else the notes; omh's own notes keep the repository root
// and omh's rules. Catches: a notes root taken from a vault's single
// folder of omh notes (their keys would lose the folder), a marker below
// the notes it belongs to missed, a site guessed from links that lead
// elsewhere.
func TestDetectFindsTheNotesRootAndTheDialect(t *testing.T) {
	t.Parallel()
	dendronNote := "---\nid: x1\ntitle: T\nupdated: 1645837680118\ncreated: 1645831075594\n---\n"
	for _, c := range []struct {
		name  string
		files map[string]string
		want  Detected
	}{
		{"obsidian marker in a subfolder", map[string]string{
			"README.md": "# Repo\n", "docs/vault/.obsidian/app.json": "{}", "docs/vault/a.md": "[[b]]", "docs/vault/sub/b.md": "x",
		}, Detected{Notes: "docs/vault", Dialect: vault.Dialect{Name: vault.DialectObsidian}}},
		{"obsidian by its syntax, in one folder", map[string]string{
			"README.md": "# Repo\n", "en/a.md": "![[b]] and [[b\\|x]]", "en/sub/b.md": "[[a]]",
		}, Detected{Notes: "en", Dialect: vault.Dialect{Name: vault.DialectObsidian}}},
		{"dendron.yml with one vault", map[string]string{
			"dendron.yml": "version: 5\nworkspace:\n  vaults:\n    - fsPath: notes\n      name: mine\n", "notes/a.b.md": dendronNote + "[[a]]", "notes/a.md": dendronNote,
		}, Detected{Notes: "notes", Dialect: vault.Dialect{Name: vault.DialectDendron, Vaults: map[string]string{"mine": "."}}}},
		{"dendron.yml with two vaults", map[string]string{
			"dendron.yml": "vaults:\n  - fsPath: one\n  - fsPath: two\n    name: second\n", "one/a.md": dendronNote, "two/b.md": dendronNote,
		}, Detected{Dialect: vault.Dialect{Name: vault.DialectDendron, Vaults: map[string]string{"one": "one", "second": "two"}}}},
		{"dendron by its frontmatter and links", map[string]string{
			"vault/a.b.md": dendronNote + "[[x|dendron://site/a]] [[dendron://site/a.b]] [[dendron://other/zz]]", "vault/a.md": dendronNote,
		}, Detected{Notes: "vault", Dialect: vault.Dialect{Name: vault.DialectDendron, Vaults: map[string]string{"site": "."}}}},
		{"a markdown site published under a path", map[string]string{
			"README.md": "x", "SECURITY.md": "x",
			"api/Excel.Range.md": "[!include[x](~/includes/f.md)] [a](/office/vba/api/Excel.Sheet) [q](/answers/tags/1)",
			"api/Excel.Sheet.md": "[r](/office/vba/api/excel.range) [s](Excel.Range.md)", "includes/f.md": "x",
		}, Detected{Dialect: vault.Dialect{Name: vault.DialectMarkdown, Site: "/office/vba/"}}},
		{"omh's own notes in one folder", map[string]string{
			"topic/a.md": "---\ntype: topic\n---\n![[b]]", "topic/b.md": "---\nrecorded: 2026-01-01\n---\n[[a]]",
		}, Detected{Dialect: vault.Dialect{Name: vault.DialectOmh}}},
		{"wiki links without anything only Obsidian writes", map[string]string{
			"notes/a.md": "[[b]]", "notes/b.md": "[[a]]",
		}, Detected{Dialect: vault.Dialect{Name: vault.DialectOmh}}},
		{".omh/notes", map[string]string{
			".omh/notes/a.md": "![[b]]", "other/x.md": "[[y]]",
		}, Detected{Dialect: vault.Dialect{Name: vault.DialectOmh}}},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			r := vaulttest.New(t)
			for p, content := range c.files {
				r.Write(p, content)
			}
			got, err := Detect(r.Dir, func(string) ([]string, error) {
				return strings.Split(r.Git("ls-files", "-z", "--cached", "--others", "--exclude-standard"), "\x00"), nil
			})
			if err != nil {
				t.Fatal(err)
			}
			if len(got.Why) == 0 {
				t.Error("no reason given")
			}
			for _, w := range got.Why {
				if w == "" || strings.Contains(w, "\n") {
					t.Errorf("reason %q", w)
				}
			}
			got.Why = nil
			if !reflect.DeepEqual(got, c.want) {
				t.Errorf("got %+v, want %+v", got, c.want)
			}
			if got.Default() != reflect.DeepEqual(c.want, Detected{Dialect: vault.Dialect{Name: vault.DialectOmh}}) {
				t.Errorf("Default() = %v for %+v", got.Default(), got)
			}
		})
	}
}
