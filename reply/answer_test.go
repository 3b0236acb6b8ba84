package reply

import (
	"bytes"
	"encoding/json"
	"testing"
)

// An answer without cards prints exactly as its Answer, fields in the
// Answer's order; with cards, the card fields follow the answer's and the
// hits are the cards'. Both keep <, > and & as they are under JSON and
// escape them under json.Marshal, as any value does. Catches: an absent
// answer growing max_chars or moving its hits, or the custom rendering
// escaping what the writers leave alone.
func TestCardsPrintAsTheirAnswerWithoutCards(t *testing.T) {
	t.Parallel()
	commit := "c0ffee"
	ans := Answer{SchemaVersion: SchemaVersion, Commit: &commit, Question: []string{"a <b> & c"}, Hits: []Hit{}, Note: "no store"}
	for _, write := range []func(*bytes.Buffer, any) error{
		func(b *bytes.Buffer, v any) error { return JSON(b, v) },
		func(b *bytes.Buffer, v any) error { return JSONLine(b, v) },
		func(b *bytes.Buffer, v any) error {
			out, err := json.Marshal(v)
			b.Write(out)
			return err
		},
	} {
		var want, got bytes.Buffer
		if err := write(&want, ans); err != nil {
			t.Fatal(err)
		}
		if err := write(&got, Cards{Answer: ans, Hits: []CardHit{}}); err != nil {
			t.Fatal(err)
		}
		if got.String() != want.String() {
			t.Errorf("without cards\n%s\nwant\n%s", got.String(), want.String())
		}
	}

	var b bytes.Buffer
	cards := Cards{Answer: ans, Hits: []CardHit{{Hit: Hit{Key: "k"}, Passages: []Passage{}}}, Aim: &Aim{MaxChars: 6000}}
	if err := JSONLine(&b, cards); err != nil {
		t.Fatal(err)
	}
	dec := json.NewDecoder(bytes.NewReader(b.Bytes()))
	var keys []string
	if _, err := dec.Token(); err != nil { // {
		t.Fatal(err)
	}
	for dec.More() {
		k, err := dec.Token()
		if err != nil {
			t.Fatal(err)
		}
		keys = append(keys, k.(string))
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			t.Fatal(err)
		}
	}
	want := []string{"schema_version", "commit", "question", "omitted", "store_empty", "verdict", "leads", "note", "hits", "passages_omitted", "max_chars"}
	if len(keys) != len(want) {
		t.Fatalf("with cards the fields are %q, want %q", keys, want)
	}
	for i := range keys {
		if keys[i] != want[i] {
			t.Fatalf("with cards the fields are %q, want %q", keys, want)
		}
	}
	var back Cards
	if err := json.Unmarshal(b.Bytes(), &back); err != nil || back.Aim == nil || len(back.Hits) != 1 || back.Hits[0].Key != "k" {
		t.Errorf("read back %+v, %v", back, err)
	}
}
