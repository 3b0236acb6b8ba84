package token

import (
	"reflect"
	"strings"
	"testing"

	"golang.org/x/text/unicode/norm"
)

// Inflections of one verb must meet on one term, or a question worded
// differently from the note misses it. The silent-e rule exists for the
// first pair: without it "rewrites" keeps its e and "rewriting" does not.
func TestInflectedFormsShareATerm(t *testing.T) {
	for _, group := range [][]string{
		{"rewrites", "rewriting", "rewrite", "rewrited"},
		{"refresh", "refreshing", "refreshed", "refreshes"},
		{"credential", "credentials"},
		{"pony", "ponies"},
		{"hop", "hopping", "hopped"},
		{"file", "filing", "files", "filed"},
		{"agree", "agreed"},
		{"conflate", "conflated", "conflating"},
		{"mount", "mounts", "mounted", "mounting"},
	} {
		want := Term(group[0])
		for _, w := range group[1:] {
			if got := Term(w); got != want {
				t.Errorf("Term(%q) = %q, want %q like %q", w, got, want, group[0])
			}
		}
	}
}

// Over-stemming merges unrelated words, and a merged term is a commoner term:
// it weakens exactly the rarity the ranking relies on.
func TestLookAlikeWordsStayApart(t *testing.T) {
	for _, pair := range [][2]string{
		{"sing", "sin"}, {"bring", "brin"}, {"mount", "mound"},
		{"session", "sessile"}, {"feed", "fe"},
	} {
		if Term(pair[0]) == Term(pair[1]) {
			t.Errorf("%q and %q collapsed onto %q", pair[0], pair[1], Term(pair[0]))
		}
	}
}

// A word stemmed to nothing would be a term that matches everything or
// nothing.
func TestAWordIsNeverStemmedIntoNothing(t *testing.T) {
	for _, w := range []string{"s", "is", "as", "ing", "ed", "ss", "ies", "a", "i", "eed", "sses", "y", "e"} {
		if Term(w) == "" {
			t.Errorf("Term(%q) vanished", w)
		}
	}
}

func TestStemmerFollowsPortersStepOne(t *testing.T) {
	for in, want := range map[string]string{
		"caresses": "caress", "ponies": "poni", "ties": "ti", "caress": "caress", "cats": "cat",
		"feed": "feed", "agreed": "agre", "plastered": "plaster", "bled": "bled",
		"motoring": "motor", "sing": "sing", "conflated": "conflat", "troubled": "troubl",
		"sized": "size", "hopping": "hop", "tanned": "tan", "falling": "fall", "hissing": "hiss",
		"fizzed": "fizz", "failing": "fail", "filing": "file", "happy": "happi", "sky": "sky",
		"rate": "rate", "cease": "ceas", "probate": "probat",
	} {
		if got := stem(in); got != want {
			t.Errorf("stem(%q) = %q, want %q", in, got, want)
		}
	}
}

func tokenList(text string) []string {
	var out []string
	EachToken(text, func(start, end int, term string) {
		out = append(out, text[start:end]+"="+term)
	})
	return out
}

func TestTokensAreWholeWordsWithTheirSpans(t *testing.T) {
	for _, tc := range []struct {
		text string
		want []string
	}{
		{"named-volume mounts", []string{"named=name", "volume=volum", "mounts=mount"}},
		{"a thing", []string{"a=a", "thing=thing"}},
		{"HTTP2 EBUSY_errors", []string{"HTTP2=http2", "EBUSY=ebusi", "errors=error"}},
		// Vowel signs are combining marks: the Bengali word stays one token.
		{"বাংলা ভাষা", []string{"বাংলা=বাংলা", "ভাষা=ভাষা"}},
		// Diacritics of Latin letters fold; an ASCII result is stemmed.
		{"Ünïcode Café", []string{"Ünïcode=unicod", "Café=cafe"}},
		{"bad\xffbyte", []string{"bad=bad", "byte=byte"}},
		{"", nil},
	} {
		if got := tokenList(tc.text); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("tokens(%q) = %q, want %q", tc.text, got, tc.want)
		}
	}
}

func TestTermsAreDistinctInFirstAppearanceOrder(t *testing.T) {
	got := Terms("Mounts fail; the mount failed again, mounting")
	want := []string{"mount", "fail", "the", "again"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Terms = %q, want %q", got, want)
	}
}

func TestAnOverlongRunIsCutOnARuneBoundary(t *testing.T) {
	long := strings.Repeat("ж", 200)
	term := Term(long)
	if len(term) > maxTermBytes || !strings.HasPrefix(long, term) {
		t.Fatalf("Term of a 400-byte run = %d bytes, not a prefix cut on a rune boundary", len(term))
	}
}

// Chinese, Japanese and Korean runs become overlapping pairs of characters,
// a lone character stays itself, and a run of another script next to them
// is a word of its own.
func TestUnspacedScriptsArePairsOfCharacters(t *testing.T) {
	for _, tc := range []struct {
		text string
		want []string
	}{
		{"東京都庁", []string{"東京=東京", "京都=京都", "都庁=都庁"}},
		{"字", []string{"字=字"}},
		{"Obsidianの設定", []string{"Obsidian=obsidian", "の設=の設", "設定=設定"}},
		{"サーバー 設定", []string{"サー=サー", "ーバ=ーバ", "バー=バー", "設定=設定"}},
		{"노트를 열다", []string{"노트=노트", "트를=트를", "열다=열다"}},
		{"第3章", []string{"第=第", "3=3", "章=章"}},
		// Full-width Latin letters fold to ASCII and leave the run.
		{"ＰＤＦを開く", []string{"ＰＤＦ=pdf", "を開=を開", "開く=開く"}},
	} {
		if got := tokenList(tc.text); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("tokens(%q) = %q, want %q", tc.text, got, tc.want)
		}
	}
}

// A question quoting part of a sentence, cut anywhere, shares its terms
// with the sentence: what one word per run could not do.
func TestAPieceOfAnUnspacedRunMeetsTheRun(t *testing.T) {
	sentence := "保管庫を同期するには設定を開きます"
	whole := map[string]bool{}
	for _, term := range Terms(sentence) {
		whole[term] = true
	}
	runes := []rune(sentence)
	for i := 0; i < len(runes); i++ {
		for j := i + 2; j <= len(runes); j++ {
			for _, term := range Terms(string(runes[i:j])) {
				if !whole[term] {
					t.Fatalf("%q yields %q, which the sentence does not", string(runes[i:j]), term)
				}
			}
		}
	}
}

// The ways people type a word meet on one term: case (with German ß and
// Greek final sigma), accents on Latin, Greek and Cyrillic letters, vowel
// points in Arabic and Hebrew, full-width forms. Letters that differ stay
// apart, and an Indic vowel sign is part of its letter.
func TestWrittenFormsOfAWordMeet(t *testing.T) {
	for _, group := range [][]string{
		{"résumé", "resume", "RÉSUMÉ", "Resume"},
		{"Straße", "STRASSE", "strasse"},
		{"ΣΟΦΟΣ", "σοφος", "σοφός", "Σοφός"},
		{"Ёлка", "елка", "ЕЛКА"},
		{"İstanbul", "istanbul", "ISTANBUL"},
		{"Łódź", "lodz"},
		{"ｆｕｌｌ", "full"},
		{"كَتَبَ", "كتب", "كـتـب"},
		{"שָׁלוֹם", "שלום"},
		// NFD input (e + combining acute) meets the composed form.
		{"cafe\u0301", "café", "cafe"},
	} {
		want := Term(group[0])
		for _, w := range group[1:] {
			if got := Term(w); got != want {
				t.Errorf("Term(%q) = %q, want %q like %q", w, got, want, group[0])
			}
		}
	}
	for _, pair := range [][2]string{{"কি", "ক"}, {"peña", "pea"}, {"δύο", "δο"}} {
		if Term(pair[0]) == Term(pair[1]) {
			t.Errorf("%q and %q collapsed onto %q", pair[0], pair[1], Term(pair[0]))
		}
	}
}

// plainPair lets a CJK pair skip folding: that must lose nothing, so every
// character it admits is one fold leaves as it is.
func TestPlainPairsAreThoseFoldLeavesAlone(t *testing.T) {
	for r := rune(0x3000); r <= 0xD7FF; r++ {
		w := string(r) + string(r)
		if plainPair(w) && fold(w) != w {
			t.Errorf("%U is plain, but fold makes %q of it", r, fold(w))
		}
	}
}

// The plain-word shortcut loses nothing: every character it lets through
// is one folding leaves as it is, alone or beside a plain letter, and a
// capital anywhere in the word sends it the long way.
func TestPlainWordsAreThoseFoldLeavesAlone(t *testing.T) {
	for r := rune(0); r < classified; r++ {
		for _, w := range []string{string(r), "a" + string(r), string(r) + "я"} {
			if plainWord(w) && foldEach(w) != w {
				t.Errorf("%U: %q is plain, but folding makes %q of it", r, w, foldEach(w))
			}
		}
	}
	if Term("Aзбука") != Term("aзбука") {
		t.Errorf("a capital Latin letter in a Cyrillic word was not lowered: %q", Term("Aзбука"))
	}
}

// Normalisation is skipped for words of stable characters only: that must
// change nothing, for a character alone or beside a letter.
func TestStableWordsAreThoseNormalisationLeavesAlone(t *testing.T) {
	for r := rune(0); r < classified; r++ {
		for _, w := range []string{string(r), "a" + string(r), string(r) + "я", "é" + string(r)} {
			if allOf(w, stable) && norm.NFKC.String(w) != w {
				t.Errorf("%U: %q is stable, but normalisation makes %q of it", r, w, norm.NFKC.String(w))
			}
		}
	}
}
