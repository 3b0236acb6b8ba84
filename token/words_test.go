package token

import (
	"fmt"
	"math/rand"
	"reflect"
	"strings"
	"testing"
)

type tokenAt struct {
	start, end int
	term       string
}

func tokensOf(text string, each func(string, func(int, int, string))) []tokenAt {
	var out []tokenAt
	each(text, func(start, end int, term string) { out = append(out, tokenAt{start, end, term}) })
	return out
}

// A cold build tokenizes every note through a Words per core: it must
// yield the tokens EachToken does, text after text, for words seen before
// and words not, in every script, and after it has started over.
func TestWordsTokenizeAsEachToken(t *testing.T) {
	t.Parallel()
	parts := []string{"Mounting", "mounted", "the", "CREDENTIALS", "résumé", "Ελληνικά", "Obsidianの設定", "日本語のテキスト",
		"한국어", "ﬁle", "Straße", "x2", "2026", "naïve", "ponies", "a", "I", "\u0645\u064e\u0643\u062a\u0628\u0629", " ", ", ", "\n", "-", "—"}
	rng := rand.New(rand.NewSource(1))
	w := NewWords()
	for i := 0; i < maxWords-100; i++ { // nearly full: the texts make it start over
		w.Term(fmt.Sprintf("fill%d", i))
	}
	for text := 0; text < 400; text++ {
		var b strings.Builder
		for i := rng.Intn(200); i > 0; i-- {
			if rng.Intn(8) == 0 {
				fmt.Fprintf(&b, "Word%d ", rng.Intn(400000)) // enough new words to make w start over
			}
			b.WriteString(parts[rng.Intn(len(parts))])
			if rng.Intn(2) == 0 {
				b.WriteByte(' ')
			}
		}
		s := b.String()
		if got, want := tokensOf(s, w.EachToken), tokensOf(s, EachToken); !reflect.DeepEqual(got, want) {
			t.Fatalf("text %d %q: Words gave %v, EachToken %v", text, s, got, want)
		}
	}
	if n := len(w.terms); n >= maxWords-100 {
		t.Errorf("Words holds %d words: it never started over", n)
	}
}
