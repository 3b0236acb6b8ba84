package main

import (
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"

	"github.com/omh-notes/omh/internal/tools/fts5"
)

// Fragment recall: does a piece of a note's body, asked as a question, find
// that note? It measures what the tokenizer makes of each script. For every
// language below, 20 notes (-fragment-count) of the multilingual help vault
// are drawn with a fixed seed, and from each a fragment of its body's prose:
// 8 to 20 characters in the scripts written without spaces between words,
// 4 to 6 words in the others. A fragment must not be part of the note's
// title and must occur in no other note, so exactly one note is right. The
// fragment is asked with `omh find --json --roots 5`.

const (
	fragmentSeed  = 16 // the issue that asked for the measure
	fragmentVault = "obsidian-help-all"
)

// fragmentLanguage is a language folder of the vault and how its fragments
// are cut.
type fragmentLanguage struct {
	dir    string
	script []*unicode.RangeTable // a fragment's letters must be of these scripts
	words  bool                  // 4–6 words; else 8–20 characters
}

var fragmentLanguages = []fragmentLanguage{
	{"ja", []*unicode.RangeTable{unicode.Han, unicode.Hiragana, unicode.Katakana}, false},
	{"zh", []*unicode.RangeTable{unicode.Han}, false},
	{"ko", []*unicode.RangeTable{unicode.Hangul}, false},
	{"ar", []*unicode.RangeTable{unicode.Arabic}, true},
	{"fa", []*unicode.RangeTable{unicode.Arabic}, true},
	{"he", []*unicode.RangeTable{unicode.Hebrew}, true},
	{"ru", []*unicode.RangeTable{unicode.Cyrillic}, true},
	{"el", []*unicode.RangeTable{unicode.Greek}, true},
}

type fragment struct {
	Language string `json:"language"`
	Key      string `json:"key"`
	Text     string `json:"text"`
	Rank     int    `json:"rank"` // of the note among omh's first five; 0 when absent
}

type fragmentResult struct {
	Language string     `json:"language"`
	Found    int        `json:"found_in_top_5"`
	Asked    int        `json:"asked"`
	Items    []fragment `json:"fragments"`
}

type vaultNote struct {
	key, title, body string
	content          string
}

// runFragments measures fragment recall and prints it per language.
func runFragments(o options, t tools) ([]fragmentResult, error) {
	dir := filepath.Join(o.work, fragmentVault)
	s := set{name: fragmentVault, bundle: filepath.Join(o.data, "vaults", fragmentVault+".bundle")}
	p := prepared{set: s, dir: dir, vault: filepath.Join(dir, "vault")}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	if err := cloneOnce(p); err != nil {
		return nil, err
	}
	if o.freshCache {
		if err := os.RemoveAll(filepath.Join(p.vault, ".git", "omh")); err != nil {
			return nil, err
		}
	}
	notes, err := vaultNotes(p.vault)
	if err != nil {
		return nil, err
	}
	rng := rand.New(rand.NewPCG(fragmentSeed, fragmentSeed))
	var out []fragmentResult
	fmt.Printf("\nfragment recall · %s · seed %d · %d fragments per language · omh find --json --roots 5\n",
		fragmentVault, fragmentSeed, o.fragmentCount)
	for _, lang := range fragmentLanguages {
		frags := drawFragments(rng, lang, notes, o.fragmentCount)
		r := fragmentResult{Language: lang.dir, Asked: len(frags)}
		for _, f := range frags {
			keys, _, err := omhRanked(t.omh, p.vault, rankDefault, question{ID: f.Key, Question: f.Text}, 5)
			if err != nil {
				return nil, err
			}
			for i, k := range keys {
				if k == f.Key {
					f.Rank = i + 1
					r.Found++
					break
				}
			}
			r.Items = append(r.Items, f)
			if o.verbose {
				fmt.Printf("    %s rank %d  %q  %s\n", lang.dir, f.Rank, f.Text, f.Key)
			}
		}
		fmt.Printf("  %-3s %2d of %2d in the top 5 (%.2f)\n", lang.dir, r.Found, r.Asked, float64(r.Found)/float64(max(r.Asked, 1)))
		out = append(out, r)
	}
	return out, nil
}

// cloneOnce clones the set's bundle into p.vault unless it is there.
func cloneOnce(p prepared) error {
	if _, err := os.Stat(filepath.Join(p.vault, ".git")); err == nil {
		return nil
	}
	tmp := p.vault + ".tmp"
	os.RemoveAll(tmp)
	if out, err := exec.Command("git", "clone", "-q", p.bundle, tmp).CombinedOutput(); err != nil {
		return fmt.Errorf("git clone %s: %v\n%s", p.bundle, err, out)
	}
	return os.Rename(tmp, p.vault)
}

// vaultNotes reads every note git tracks, sorted by key.
func vaultNotes(vault string) ([]vaultNote, error) {
	rows, err := fts5.ReadNotes(vault)
	if err != nil {
		return nil, err
	}
	var out []vaultNote
	for _, r := range rows {
		out = append(out, vaultNote{key: r.Key, title: r.Title, body: r.Body, content: r.Title + "\n" + r.Body})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].key < out[j].key })
	return out, nil
}

// drawFragments draws fragments from distinct notes of one language until
// it has enough or has tried every note.
func drawFragments(rng *rand.Rand, lang fragmentLanguage, notes []vaultNote, count int) []fragment {
	var mine []int
	for i, n := range notes {
		if strings.HasPrefix(n.key, lang.dir+"/") {
			mine = append(mine, i)
		}
	}
	var out []fragment
	for _, i := range rng.Perm(len(mine)) {
		if len(out) == count {
			break
		}
		n := notes[mine[i]]
		text, ok := cutFragment(rng, lang, n)
		if !ok || strings.Contains(n.title, text) || !unique(text, notes, mine[i]) {
			continue
		}
		out = append(out, fragment{Language: lang.dir, Key: n.key, Text: text})
	}
	return out
}

// cutFragment picks a piece of prose from the note's body.
func cutFragment(rng *rand.Rand, lang fragmentLanguage, n vaultNote) (string, bool) {
	var spans []string
	for _, line := range proseLines(n.body) {
		for _, s := range proseSpans(line) {
			if lang.words && len(strings.Fields(s)) >= 4 || !lang.words && utf8.RuneCountInString(s) >= 8 {
				spans = append(spans, s)
			}
		}
	}
	if len(spans) == 0 {
		return "", false
	}
	s := spans[rng.IntN(len(spans))]
	var text string
	if lang.words {
		words := strings.Fields(s)
		k := 4 + rng.IntN(3)
		k = min(k, len(words))
		at := rng.IntN(len(words) - k + 1)
		text = strings.Join(words[at:at+k], " ")
	} else {
		runes := []rune(s)
		k := min(8+rng.IntN(13), len(runes))
		at := rng.IntN(len(runes) - k + 1)
		text = strings.TrimSpace(string(runes[at : at+k]))
	}
	return text, inScript(text, lang.script)
}

// proseLines are the body's lines that are prose: no headings (a title's
// kin), no code blocks, no tables, no frontmatter-like lines.
func proseLines(body string) []string {
	var out []string
	fenced := false
	for _, line := range strings.Split(body, "\n") {
		t := strings.TrimSpace(line)
		if strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~") {
			fenced = !fenced
			continue
		}
		if fenced || t == "" || strings.HasPrefix(t, "#") || strings.HasPrefix(t, "|") || strings.HasPrefix(t, "<") {
			continue
		}
		out = append(out, t)
	}
	return out
}

// proseSpans splits a line at markup: link and embed brackets, emphasis,
// code spans, list markers and the like, keeping the runs of letters,
// marks, digits, spaces and sentence punctuation between them.
func proseSpans(line string) []string {
	var out []string
	var b strings.Builder
	flush := func() {
		if s := strings.TrimSpace(b.String()); s != "" {
			out = append(out, s)
		}
		b.Reset()
	}
	for _, r := range line {
		switch {
		case unicode.IsLetter(r) || unicode.IsMark(r) || unicode.IsDigit(r) || r == ' ' || r == '\u200c':
			b.WriteRune(r)
		case strings.ContainsRune("、。，,.;；:：!！?？「」『』（）()'’\"“”-—", r):
			b.WriteRune(r)
		default:
			flush()
		}
	}
	flush()
	return out
}

// inScript reports whether every letter of text is of one of the scripts.
func inScript(text string, scripts []*unicode.RangeTable) bool {
	letters := 0
	for _, r := range text {
		if !unicode.IsLetter(r) {
			continue
		}
		letters++
		if !unicode.In(r, scripts...) {
			return false
		}
	}
	return letters > 0
}

// unique reports whether text occurs in no note but the one at index self.
func unique(text string, notes []vaultNote, self int) bool {
	t := norm.NFC.String(text)
	for i, n := range notes {
		if i != self && strings.Contains(n.content, t) {
			return false
		}
	}
	return true
}
