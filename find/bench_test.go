package find

import (
	"strings"
	"testing"
)

// BenchmarkPassages scores the units of a 30 KB note, the size of the
// longest help pages in the real vaults, and chooses a first card's
// passages, for a question of four words.
func BenchmarkPassages(b *testing.B) {
	body := strings.Repeat(filler+"The quokka sits here.\n\n"+filler+"A lantern glows there.\n\n## Part\n\n", 40)
	d := detailOf(body)
	q := ask("quokka", 4.2, "lantern", 3.1, "sits", 1.5, "the", 0.01)
	b.SetBytes(int64(len(body)))
	for b.Loop() {
		if len(newNote(body, d, "", q).choose(leadRooms[0], true)) == 0 {
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
