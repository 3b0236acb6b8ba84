package token

import (
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// helpVault is the Obsidian help in 34 language folders, from the evaluation data;
// the tests that read it skip when it is absent.
const helpVault = "../../../shared/data/vaults/obsidian-help-all.bundle"

// helpSentences clones the help vault and returns, per language folder, up
// to perLanguage lines of prose from its notes' bodies, in path order.
func helpSentences(t *testing.T, perLanguage int) map[string][]string {
	t.Helper()
	if _, err := os.Stat(helpVault); err != nil {
		t.Skipf("no evaluation data: %v", err)
	}
	dir := filepath.Join(t.TempDir(), "help")
	if out, err := exec.Command("git", "clone", "-q", helpVault, dir).CombinedOutput(); err != nil {
		t.Fatalf("git clone: %v\n%s", err, out)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]string{}
	for _, e := range entries {
		lang := e.Name()
		if !e.IsDir() || strings.HasPrefix(lang, ".") || strings.ContainsAny(lang, " ") || lang == "Sandbox" {
			continue
		}
		var files []string
		filepath.WalkDir(filepath.Join(dir, lang), func(p string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() && strings.HasSuffix(p, ".md") {
				files = append(files, p)
			}
			return nil
		})
		sort.Strings(files)
		for _, f := range files {
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			for _, line := range strings.Split(string(b), "\n") {
				// Prose: a line that starts with a letter and is long enough
				// to hold several words.
				if r, _ := utf8.DecodeRuneInString(line); unicode.IsLetter(r) && utf8.RuneCountInString(line) >= 30 && len(out[lang]) < perLanguage {
					out[lang] = append(out[lang], line)
				}
			}
		}
	}
	if len(out) != 34 {
		t.Fatalf("read %d language folders, want the vault's 34", len(out))
	}
	return out
}

// unspaced lists the help vault's languages whose sentences are cut into
// character pairs.
var unspaced = map[string]bool{"ja": true, "zh": true, "zh-TW": true, "ko": true}

// Real sentences of every language of the help vault keep their terms
// however they are typed, lose no letter, and share their terms with any
// piece of them a question might quote: whole words where words are
// spaced, any two or more characters in Chinese, Japanese and Korean. Thai
// and Khmer write a phrase as one run without pairs, so only a whole run
// meets itself there.
func TestRealSentencesInEveryLanguageOfTheHelpVault(t *testing.T) {
	t.Parallel()
	for lang, lines := range helpSentences(t, 20) {
		for _, line := range lines {
			terms := Terms(line)
			for _, variant := range []string{strings.ToUpper(line), strings.ToLower(line), norm.NFD.String(line), norm.NFC.String(line)} {
				if got := Terms(variant); !reflect.DeepEqual(got, terms) {
					t.Errorf("%s: %q\n  as %q yields %q\n  not %q", lang, line, variant, got, terms)
				}
			}
			covered := make([]bool, len(line))
			EachToken(line, func(start, end int, _ string) {
				for i := start; i < end; i++ {
					covered[i] = true
				}
			})
			for i, r := range line {
				if unicode.IsLetter(r) && !covered[i] {
					t.Errorf("%s: %q lost the letter %q at byte %d", lang, line, r, i)
				}
			}
			whole := map[string]bool{}
			for _, term := range terms {
				whole[term] = true
			}
			for _, piece := range pieces(line, unspaced[lang]) {
				for _, term := range Terms(piece) {
					if !whole[term] {
						t.Errorf("%s: the piece %q of %q yields %q, which the sentence does not", lang, piece, line, term)
					}
				}
			}
		}
	}
}

// pieces are the fragments of a line a question might quote: runs of two
// to four whole words, and in an unspaced line any two to eight characters
// of a run of its script.
func pieces(line string, unspacedLine bool) []string {
	var out []string
	words := strings.Fields(line)
	for i := range words {
		for k := 2; k <= 4 && i+k <= len(words); k++ {
			out = append(out, strings.Join(words[i:i+k], " "))
		}
	}
	if !unspacedLine {
		return out
	}
	var run []rune
	flush := func() {
		for i := range run {
			for k := 2; k <= 8 && i+k <= len(run); k++ {
				out = append(out, string(run[i:i+k]))
			}
		}
		run = run[:0]
	}
	for _, r := range line {
		if isUnspaced(r) {
			run = append(run, r)
		} else {
			flush()
		}
	}
	flush()
	return out
}
