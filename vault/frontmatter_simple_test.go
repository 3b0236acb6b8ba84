package vault

import (
	"bytes"
	"fmt"
	"iter"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
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
			notes, read := 0, 0
			for path, b := range markdownAtHead(t, bundle) {
				text, _, found, _ := SplitFrontmatter(b)
				if !found {
					continue
				}
				notes++
				if checkSimple(t, path, text) {
					read++
				}
			}
			t.Logf("%s: %d of %d frontmatters read without the library", name, read, notes)
			if name == "vba-docs" && read < notes*9/10 {
				t.Errorf("only %d of vba-docs' %d frontmatters were read without the library", read, notes)
			}
		})
	}
}

// markdownAtHead yields each markdown file at the head of a bundle's
// repository with its content, read from a bare clone through one git
// cat-file, without checking them out to read them back: vba-docs' clone
// with a checkout took 12.9 and 12.0 s, the bare clone and cat-file 6.1
// and 8.9 s (alternate runs, load 26), before walking 38,187 files.
func markdownAtHead(t *testing.T, bundle string) iter.Seq2[string, []byte] {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "repo.git")
	if out, err := exec.Command("git", "clone", "-q", "--bare", bundle, dir).CombinedOutput(); err != nil {
		t.Fatalf("%v %s", err, out)
	}
	tree, err := exec.Command("git", "-C", dir, "ls-tree", "-r", "-z", "HEAD").Output()
	if err != nil {
		t.Fatalf("git ls-tree: %v", err)
	}
	var paths, ids []string
	for _, entry := range strings.Split(strings.TrimSuffix(string(tree), "\x00"), "\x00") {
		meta, path, _ := strings.Cut(entry, "\t")
		if f := strings.Fields(meta); len(f) == 3 && f[1] == "blob" && strings.HasSuffix(path, ".md") {
			paths, ids = append(paths, path), append(ids, f[2])
		}
	}
	cat := exec.Command("git", "-C", dir, "cat-file", "--batch")
	cat.Stdin = strings.NewReader(strings.Join(ids, "\n") + "\n")
	out, err := cat.Output()
	if err != nil {
		t.Fatalf("git cat-file: %v", err)
	}
	return func(yield func(string, []byte) bool) {
		rest := out
		for _, path := range paths {
			header, after, _ := bytes.Cut(rest, []byte("\n"))
			f := strings.Fields(string(header))
			if len(f) != 3 {
				t.Fatalf("git cat-file said %q for %s", header, path)
			}
			size, err := strconv.Atoi(f[2])
			if err != nil || size+1 > len(after) {
				t.Fatalf("git cat-file said %q for %s", header, path)
			}
			rest = after[size+1:]
			if !yield(path, after[:size]) {
				return
			}
		}
	}
}
