package find

import (
	"strings"
	"testing"

	"github.com/omh-notes/omh/retrieve"
)

// BenchmarkPassages picks passages in a 30 KB note, the size of the longest
// help pages in the real vaults, for a question of four words.
func BenchmarkPassages(b *testing.B) {
	body := strings.Repeat(filler+"The quokka sits here. "+filler+"A lantern glows there. ", 40)
	weight := map[string]float64{retrieve.Term("quokka"): 4.2, retrieve.Term("lantern"): 3.1, retrieve.Term("sits"): 1.5, retrieve.Term("the"): 0.01}
	b.SetBytes(int64(len(body)))
	for b.Loop() {
		if len(Passages(body, 0, weight, nil)) == 0 {
			b.Fatal("no passage")
		}
	}
}

// BenchmarkBuild makes the cards of an eight-note answer.
func BenchmarkBuild(b *testing.B) {
	res, store := answer(8)
	for b.Loop() {
		if _, err := Build(res, "abc", store, DefaultMaxChars, nil); err != nil {
			b.Fatal(err)
		}
	}
}
