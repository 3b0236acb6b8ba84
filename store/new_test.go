package store

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/omh-notes/omh/vault"
	"github.com/omh-notes/omh/vault/vaulttest"
)

// A title or an answer holding a control character is refused, naming
// it, and nothing is written; white space of any kind in them is one
// space. Catches: omh new writing a NUL raw, reporting the note written,
// and every later command skipping it as a binary file (show could not
// find it); an escape sequence written into a title every listing prints.
func TestNewWithControlCharactersInTheTitleIsRefused(t *testing.T) {
	t.Parallel()
	r := vaulttest.New(t)
	r.Write("team.md", "# Team\n")
	r.Commit("2026-01-02T10:00:00Z", "notes")
	s, _ := open(t, r.Dir)
	before := vaulttest.Files(t, r.Private)
	for _, c := range []struct {
		title, answer string
		char          rune
	}{
		{"Nul\x00inside", "", 0},
		{"Red \x1b[31m title", "", 0x1b},
		{"Delete\x7f", "", 0x7f},
		{"C1 \u009b31m", "", 0x9b},
		{"A fine title", "why\x00 not", 0},
	} {
		d := Draft{Type: "note", Title: c.title, Source: "test"}
		if c.answer != "" {
			d.Answers = []string{c.answer}
		}
		_, err := s.New(d)
		var se *Error
		if !errors.As(err, &se) || se.Kind != Invalid || !strings.Contains(err.Error(), fmt.Sprintf("%U", c.char)) {
			t.Errorf("title %q answer %q: %v, want a usage error naming %U", c.title, c.answer, err, c.char)
		}
	}
	if after := vaulttest.Files(t, r.Private); !reflect.DeepEqual(before, after) {
		t.Errorf("a refused note was written: %v", after)
	}
	w, err := s.New(Draft{Type: "note", Title: "Tabs\tand\nbreaks", Answers: []string{" why\r\nnot "}, Source: "test"})
	if err != nil {
		t.Fatal(err)
	}
	p := vault.Parse([]byte(vaulttest.Read(t, w.Path)))
	if w.Key != "note/tabs-and-breaks" || p.Title != "Tabs and breaks" || !reflect.DeepEqual(p.Answers, []string{"why not"}) {
		t.Errorf("key %s, title %q, answers %q", w.Key, p.Title, p.Answers)
	}
	if _, err := s.Show(w.Key, 0, Lines{}, DefaultShowChars); err != nil {
		t.Errorf("show of the note new wrote: %v", err)
	}
}
