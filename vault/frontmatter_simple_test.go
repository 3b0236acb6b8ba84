package vault

import (
	"fmt"
	"io/fs"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// sameNode reports how the node simpleFrontmatter read differs from the one
// the YAML library gives, "" when in nothing decodeFrontmatter reads.
func sameNode(got, want *yaml.Node) string {
	if got == nil || want == nil {
		if got != want {
			return fmt.Sprintf("got %v, want %v", got, want)
		}
		return ""
	}
	if got.Kind != want.Kind || got.Tag != want.Tag || got.Value != want.Value || got.Style != want.Style ||
		got.Line != want.Line || got.Column != want.Column || len(got.Content) != len(want.Content) {
		return fmt.Sprintf("got kind %d tag %s value %q style %d at %d:%d with %d children, want kind %d tag %s value %q style %d at %d:%d with %d children",
			got.Kind, got.Tag, got.Value, got.Style, got.Line, got.Column, len(got.Content),
			want.Kind, want.Tag, want.Value, want.Style, want.Line, want.Column, len(want.Content))
	}
	for i := range got.Content {
		if d := sameNode(got.Content[i], want.Content[i]); d != "" {
			return d
		}
	}
	return ""
}

// checkSimple holds simpleFrontmatter to the YAML library on one text: when
// it reads the text at all, it reads it as the library does. It reports
// whether it read it.
func checkSimple(t *testing.T, name string, text []byte) bool {
	t.Helper()
	got, ok := simpleFrontmatter(text)
	if !ok {
		return false
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(text, &doc); err != nil {
		t.Errorf("%s: read %q, which YAML rejects: %v", name, text, err)
		return true
	}
	var want *yaml.Node
	if len(doc.Content) > 0 {
		want = doc.Content[0]
	}
	if d := sameNode(got, want); d != "" {
		t.Errorf("%s: %q: %s", name, text, d)
	}
	return true
}

// Frontmatter of the shapes notes write, and near misses, put together at
// random: whatever simpleFrontmatter reads, it reads as the YAML library.
func TestSimpleFrontmatterReadsAsTheYAMLLibrary(t *testing.T) {
	t.Parallel()
	keys := []string{"title", "type", "tags", "ms.date", "f1_keywords", "api_name", "date", "aliases", "x-y", "_k", "9k", "a b", "-k", "true", "null", "title"}
	values := []string{"Range.Find method (Excel)", "2019-01-07", "08/14/2019", "12", "1.5", "1e3", "0x1F", "true", "False", "null",
		"~", "yes", "\"quoted: with # and : \"", "'single'", "\"esc\\\"aped\"", "'it''s'", "a: b", "a #c", "a#c", "a:b", "ends:",
		"[a, b]", "[a,b]", "[ a ]", "[]", "[x, 2, true, null]", "[a, b] c", "[é, ü]", "-lead", "?q", ":c", "&anchor", "*alias", "!tag x",
		"|", ">", "%p", "@at", "`tick`", "(paren)", "/path/x", ".NET", ".inf", "$v", "{a: b}", "Ünïcödé title", "日本語",
		"trailing ", "two  spaces", "\"unclosed", "'", "\"\"", "a\tb", "x\u0085y", "x\u2028y", "<<"}
	items := []string{"- a", "  - a", "- \"q\"", "-a", "- ", "-", "    - deeper", "- a: b", "- [x]", "- 2019-01-01", "   - three"}
	rng := rand.New(rand.NewSource(1))
	read := 0
	for round := 0; round < 20000; round++ {
		var b strings.Builder
		for l := rng.Intn(6); l >= 0; l-- {
			switch rng.Intn(10) {
			case 0:
				b.WriteString("\n")
			case 1, 2:
				fmt.Fprintf(&b, "%s:\n", keys[rng.Intn(len(keys))])
				for i := rng.Intn(4); i > 0; i-- {
					b.WriteString(items[rng.Intn(len(items))] + "\n")
				}
			case 3:
				fmt.Fprintf(&b, "%s:%s\n", keys[rng.Intn(len(keys))], values[rng.Intn(len(values))])
			case 4:
				b.WriteString("  " + keys[rng.Intn(len(keys))] + ": x\n")
			default:
				fmt.Fprintf(&b, "%s: %s\n", keys[rng.Intn(len(keys))], values[rng.Intn(len(values))])
			}
		}
		text := b.String()
		if rng.Intn(4) == 0 {
			text = strings.TrimSuffix(text, "\n")
		}
		if checkSimple(t, fmt.Sprintf("round %d", round), []byte(text)) {
			read++
		}
	}
	if read < 1000 {
		t.Errorf("only %d of 20000 texts were read without the library: too few to hold it to anything", read)
	}
}

// Every frontmatter of the real vaults, when they are at hand (beside the
// checkout, or where OMH_DATA says): what simpleFrontmatter reads, it reads
// as the YAML library, and it reads most of vba-docs'.
func TestSimpleFrontmatterReadsTheRealVaultsAsTheYAMLLibrary(t *testing.T) {
	t.Parallel()
	data := os.Getenv("OMH_DATA")
	if data == "" {
		data = filepath.Join("..", "..", "shared", "data")
	}
	bundles, _ := filepath.Glob(filepath.Join(data, "vaults", "*.bundle"))
	if len(bundles) == 0 {
		t.Skipf("no real vaults in %s (set OMH_DATA)", data)
	}
	for _, bundle := range bundles {
		name := strings.TrimSuffix(filepath.Base(bundle), ".bundle")
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			dir := filepath.Join(t.TempDir(), name)
			if out, err := exec.Command("git", "clone", "-q", bundle, dir).CombinedOutput(); err != nil {
				t.Fatalf("%v %s", err, out)
			}
			notes, read := 0, 0
			err := filepath.WalkDir(dir, func(path string, e fs.DirEntry, err error) error {
				if err != nil || e.IsDir() || !strings.HasSuffix(path, ".md") {
					return err
				}
				b, err := os.ReadFile(path)
				if err != nil {
					return err
				}
				text, _, found, _ := SplitFrontmatter(b)
				if !found {
					return nil
				}
				notes++
				if checkSimple(t, path, text) {
					read++
				}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%s: %d of %d frontmatters read without the library", name, read, notes)
			if name == "vba-docs" && read < notes*9/10 {
				t.Errorf("only %d of vba-docs' %d frontmatters were read without the library", read, notes)
			}
		})
	}
}
