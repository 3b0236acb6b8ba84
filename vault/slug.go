package vault

import (
	"errors"
	"fmt"
	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"
)

// SlugLimit is about how many runes a slug may hold. A longer slug is cut
// at the last "-" within the limit, so no word is cut in half unless a
// single word is longer than the limit.
const SlugLimit = 80

// Slug turns a title into the last part of a key: Unicode letters and
// digits are kept, lower-cased (combining marks stay with the letter they
// follow, so scripts written with vowel signs keep them); every run of
// anything else becomes one "-", and none leads or trails. The result is in
// NFC and is "" when the title holds no letter or digit.
func Slug(title string) string {
	var b strings.Builder
	dash := false // a separator is pending
	for _, r := range norm.NFC.String(title) {
		word := unicode.IsLetter(r) || unicode.IsDigit(r) || (unicode.Is(unicode.Mark, r) && b.Len() > 0 && !dash)
		if !word {
			dash = b.Len() > 0
			continue
		}
		if dash {
			b.WriteByte('-')
			dash = false
		}
		b.WriteString(strings.ToLower(string(r)))
	}
	return norm.NFC.String(capSlug(b.String(), SlugLimit))
}

// capSlug cuts s to at most limit runes, at the last "-" inside the limit
// when there is one.
func capSlug(s string, limit int) string {
	runes := []rune(s)
	if len(runes) <= limit {
		return s
	}
	cut := runes[:limit]
	if runes[limit] == '-' {
		return string(cut)
	}
	for i := len(cut) - 1; i > 0; i-- {
		if cut[i] == '-' {
			return string(cut[:i])
		}
	}
	return string(cut)
}

// ErrEmptySlug means a title yields no key: it holds no letter or digit.
var ErrEmptySlug = errors.New("the title has no letter or digit to make a key from")

// KeyFor derives a new note's key from its type and title:
// "<type>/<slug of title>". The same type and title always give the same
// key.
func KeyFor(typ, title string) (string, error) {
	slug := Slug(title)
	if slug == "" {
		return "", fmt.Errorf("%w (%q); give the key with --key", ErrEmptySlug, title)
	}
	key := slug
	if typ != "" {
		key = typ + "/" + slug
	}
	if err := CheckKey(key); err != nil {
		return "", err
	}
	return key, nil
}
