package token

import (
	"fmt"
	"math/rand"
	"strings"
	"testing"
)

// BenchmarkTokenize is the tokenizer over a 200-word note of words drawn
// from a Zipf-distributed vocabulary of 20,000: the first note of
// retrieve's benchmark corpus.
func BenchmarkTokenize(b *testing.B) {
	zipf := rand.NewZipf(rand.New(rand.NewSource(7)), 1.1, 1, 19999)
	var note strings.Builder
	for range 200 {
		fmt.Fprintf(&note, "w%d ", zipf.Uint64())
	}
	body := note.String()
	b.SetBytes(int64(len(body)))
	for b.Loop() {
		n := 0
		EachToken(body, func(_, _ int, _ string) { n++ })
	}
}

// BenchmarkTokenizeScripts is the tokenizer over text in scripts that fold
// or pair: Japanese, Russian with ё, French accents, Greek, Arabic.
func BenchmarkTokenizeScripts(b *testing.B) {
	body := strings.Repeat("保管庫を同期するには設定を開きます。 Откройте её настройки и выберите хранилище. "+
		"Ouvrez les préférences, puis l'éditeur. Άνοιξε τις ρυθμίσεις. افتح الإعدادات ثم اختر المجلد. ", 20)
	b.SetBytes(int64(len(body)))
	for b.Loop() {
		n := 0
		EachToken(body, func(_, _ int, _ string) { n++ })
	}
}
