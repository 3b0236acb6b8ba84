package vault

import (
	"errors"
	"strings"
	"testing"
	"unicode/utf8"
)

// Keys derive from titles deterministically: the same title always gives
// the same key, whatever its letter case, punctuation or Unicode form.
// Catches: keeping punctuation, separators doubled or left at the ends,
// upper case kept, accented letters dropped or decomposed, vowel signs of
// Indic scripts dropped (which would merge distinct words).
func TestSlugKeepsLettersAndDigitsAndJoinsTheRestWithOneDash(t *testing.T) {
	for _, c := range []struct{ title, want string }{
		{"Mounting the credential file returns EBUSY", "mounting-the-credential-file-returns-ebusy"},
		{"  --Why?!  does   it... fail?? ", "why-does-it-fail"},
		{"uid 1000 / gid 1000", "uid-1000-gid-1000"},
		{"C++ & Go: a comparison", "c-go-a-comparison"},
		{"Ünïcödé Straße", "ünïcödé-straße"},
		{"Cafe\u0301 au lait", "café-au-lait"}, // decomposed é becomes one letter
		{"Ελληνικά Κείμενα", "ελληνικά-κείμενα"},
		{"日本語のノート", "日本語のノート"},
		{"हिन्दी नोट", "हिन्दी-नोट"}, // the virama and vowel signs stay
		{"snake_case_words", "snake-case-words"},
		{"tab\tand\nnewline", "tab-and-newline"},
		{"٣ أرقام", "٣-أرقام"},
	} {
		if got := Slug(c.title); got != c.want {
			t.Errorf("Slug(%q) = %q, want %q", c.title, got, c.want)
		}
		if again := Slug(c.title); again != Slug(c.title) {
			t.Errorf("Slug(%q) is not deterministic", c.title)
		}
	}
}

// A long title is cut near 80 runes at a word boundary, never mid-word
// unless one word is longer than the limit, and never with a dash at the
// end. Catches: cutting by bytes (splitting a multi-byte letter), cutting
// mid-word, a trailing dash.
func TestSlugIsCappedOnAWordBoundary(t *testing.T) {
	title := strings.Repeat("word ", 30) // 30 words of 4 letters
	got := Slug(title)
	if n := utf8.RuneCountInString(got); n > SlugLimit || n < SlugLimit-5 {
		t.Errorf("%d runes: %q", n, got)
	}
	if strings.HasSuffix(got, "-") || !strings.HasSuffix(got, "word") {
		t.Errorf("not cut at a boundary: %q", got)
	}
	greek := Slug(strings.Repeat("λέξη ", 30))
	if !utf8.ValidString(greek) || utf8.RuneCountInString(greek) > SlugLimit || !strings.HasSuffix(greek, "λέξη") {
		t.Errorf("multi-byte letters cut badly: %q", greek)
	}
	long := Slug(strings.Repeat("a", 200))
	if utf8.RuneCountInString(long) != SlugLimit {
		t.Errorf("a single long word: %d runes", utf8.RuneCountInString(long))
	}
	// A boundary exactly at the limit keeps the whole last word.
	exact := strings.Repeat("abcd-", 16) + "tail"
	if got := Slug(exact); got != strings.TrimSuffix(strings.Repeat("abcd-", 16), "-") {
		t.Errorf("boundary at the limit: %q", got)
	}
}

// The key is "<type>/<slug>"; a title without a letter or digit is an
// error that says how to give a key instead.
func TestKeyForDerivesTypeSlashSlugAndRefusesAnEmptySlug(t *testing.T) {
	key, err := KeyFor("finding", "The sandbox user is uid 1000.")
	if err != nil || key != "finding/the-sandbox-user-is-uid-1000" {
		t.Errorf("got %q, %v", key, err)
	}
	for _, title := range []string{"", "!!!", " — ", "🙂🙂"} {
		_, err := KeyFor("note", title)
		if !errors.Is(err, ErrEmptySlug) || !strings.Contains(err.Error(), "--key") {
			t.Errorf("title %q: %v", title, err)
		}
	}
}
