package main

import (
	"bytes"
	"encoding/json"
	"os"
	"regexp"
	"sort"
	"testing"

	"github.com/omh-notes/omh/reply"
	"github.com/omh-notes/omh/store"
)

// docExamples returns the JSON examples of docs/json.md.
func docExamples(t *testing.T) [][]byte {
	t.Helper()
	doc, err := os.ReadFile("../../docs/json.md")
	if err != nil {
		t.Fatal(err)
	}
	var out [][]byte
	for _, m := range regexp.MustCompile("(?s)```json\n(.*?)```").FindAllSubmatch(doc, -1) {
		out = append(out, m[1])
	}
	if len(out) < 2 {
		t.Fatalf("docs/json.md has %d JSON examples, want the reply and the error", len(out))
	}
	return out
}

// fieldPaths lists every object key of a JSON value as a path, lists
// flattened: "hits.passages.start".
func fieldPaths(v any, prefix string, into map[string]bool) {
	switch x := v.(type) {
	case map[string]any:
		for k, child := range x {
			p := k
			if prefix != "" {
				p = prefix + "." + k
			}
			into[p] = true
			fieldPaths(child, p, into)
		}
	case []any:
		for _, child := range x {
			fieldPaths(child, prefix, into)
		}
	}
}

// neverPrinted lists, sorted, the documented field paths omh never printed.
func neverPrinted(documented, actual map[string]bool) []string {
	var missing []string
	for p := range documented {
		if !actual[p] {
			missing = append(missing, p)
		}
	}
	sort.Strings(missing)
	return missing
}

// The documented example is a real reply: it decodes into omh's own types
// with no field left over, and every field it documents appears in what
// omh actually prints.
func TestTheDocumentedJSONIsWhatOmhPrints(t *testing.T) {
	t.Parallel()
	examples := docExamples(t)
	dec := json.NewDecoder(bytes.NewReader(examples[0]))
	dec.DisallowUnknownFields()
	var reply reply.Cards
	if err := dec.Decode(&reply); err != nil {
		t.Fatalf("the documented reply does not decode into reply.Cards: %v", err)
	}

	documented := map[string]bool{}
	var example any
	json.Unmarshal(examples[0], &example)
	fieldPaths(example, "", documented)

	r := provenanceRepo(t)
	// Typed links and neighbours make sure every optional field shows.
	r.Write(".omh/notes/decision-x.md", "---\ntype: decision\nrecorded: 2026-07-30\n---\n# Decision X\n\n- resolves [[credentials-are-a-named-volume]]\n")
	actual := map[string]bool{}
	for _, q := range [][]string{{"credentials"}, {"named", "volume"}, {"kubernetes"}} {
		var v any
		if err := json.Unmarshal([]byte(ok(t, r.Dir, append([]string{"find", "--json"}, q...)...)), &v); err != nil {
			t.Fatal(err)
		}
		fieldPaths(v, "", actual)
	}
	if missing := neverPrinted(documented, actual); len(missing) > 0 {
		t.Errorf("documented but never printed: %v", missing)
	}

	var e struct {
		Error struct{ Code, Message string }
	}
	if err := json.Unmarshal(examples[len(examples)-1], &e); err != nil || e.Error.Code == "" || e.Error.Message == "" {
		t.Errorf("the documented error example: %v %+v", err, e)
	}
}

// The documented omh changes reply decodes into omh's own type with no
// field left over, and every field it documents appears in what omh changes
// --json prints (a rename, an uncommitted addition, the default moment).
// Catches: a field renamed in the code and not the page, or documented and
// never printed.
func TestTheDocumentedChangesJSONIsWhatOmhPrints(t *testing.T) {
	t.Parallel()
	example := docExamples(t)[1]
	dec := json.NewDecoder(bytes.NewReader(example))
	dec.DisallowUnknownFields()
	var changes store.Changes
	if err := dec.Decode(&changes); err != nil || len(changes.List) == 0 {
		t.Fatalf("the documented changes reply does not decode into store.Changes: %v", err)
	}
	documented := map[string]bool{}
	var v any
	json.Unmarshal(example, &v)
	fieldPaths(v, "", documented)

	r, _ := filtersRepo(t)
	r.Git("mv", "dev/test.md", "dev/tests.md")
	r.Commit("2026-01-10T10:00:00Z", "renamed")
	r.Write("dev/new.md", "Uncommitted.\n")
	actual := map[string]bool{}
	for _, args := range [][]string{{"changes"}, {"changes", "--since", "2026-01-01", "--limit", "1"}} {
		var v any
		if err := json.Unmarshal([]byte(ok(t, r.Dir, append([]string{"--json"}, args...)...)), &v); err != nil {
			t.Fatal(err)
		}
		fieldPaths(v, "", actual)
	}
	if missing := neverPrinted(documented, actual); len(missing) > 0 {
		t.Errorf("documented but never printed: %v", missing)
	}
}
