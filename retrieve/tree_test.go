package retrieve

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/omh-notes/omh/vault"
)

// linker is a note about otters that links to n notes, named prefix0…;
// they are in the store, and hold no question word.
func linker(key string, prefix string, n int) []memNote {
	notes := []memNote{{key: key, layer: vault.Team, date: "2026-01-02", body: "otter otter otter"}}
	for i := 0; i < n; i++ {
		target := fmt.Sprintf("%s%03d", prefix, i)
		notes[0].links = append(notes[0].links, target)
		notes = append(notes, memNote{key: target, layer: vault.Team, date: "2026-01-01", body: "plain"})
	}
	return notes
}

// A ranked note lists at most MaxNeighbours linked notes and counts the
// rest on a line the tree parser reads back.
func TestNeighboursAreCappedAndTheRestCounted(t *testing.T) {
	t.Parallel()
	r := ask(t, linker("summary", "n", 11), "otter")
	tree := RenderTree(r, "")
	want := "answered: the first note leads clearly\nsummary  team · 2026-01-02\n" +
		"├─ n000  team · 2026-01-01\n├─ n001  team · 2026-01-01\n├─ n002  team · 2026-01-01\n" +
		"└─ and 8 more linked notes\n@ no commits\n"
	if !sameWords(tree, want) {
		t.Errorf("tree\n%s\nwant\n%s", tree, want)
	}
	parsed, err := ParseTree(tree)
	if err != nil {
		t.Fatalf("%v\n%s", err, tree)
	}
	if !reflect.DeepEqual(parsed.Notes, treeFromHits(r)) || parsed.Notes[0].MoreLinked != 8 {
		t.Errorf("parsed %+v, want %+v", parsed.Notes, treeFromHits(r))
	}
	if r.Hits[0].MoreLinked != 8 || r.Hits[1].MoreLinked != 0 {
		t.Errorf("the hits count %+v", r.Hits)
	}
}

// sameWords compares two renderings ignoring how wide their columns are.
func sameWords(a, b string) bool {
	return strings.Join(strings.Fields(a), " ") == strings.Join(strings.Fields(b), " ")
}

// A table of contents ranked above a note does not take that note's
// neighbour: hubs claim theirs after every other ranked note.
func TestATableOfContentsNeverCrowdsOutRealNeighbours(t *testing.T) {
	t.Parallel()
	notes := linker("toc", "page", HubLinks+1)
	notes[0].body = "otter otter otter otter otter otter"
	notes = append(notes, memNote{key: "otters", layer: vault.Team, date: "2026-01-03", body: "otter" + strings.Repeat(" plain", 40),
		links: []string{"page000", "page001"}})
	r := ask(t, notes, "otter")
	parents := map[string]string{}
	for _, h := range r.Hits {
		if h.Depth == 1 {
			parents[h.Note.Key] = r.Hits[h.Parent].Note.Key
		}
	}
	if first(r) != "toc" || parents["page000"] != "otters" || parents["page001"] != "otters" || parents["page002"] != "toc" {
		t.Errorf("hits %v, parents %v", keys(r), parents)
	}
	if r.Hits[0].MoreLinked != HubLinks+1-2-MaxNeighbours {
		t.Errorf("the hub counts %d more, want %d", r.Hits[0].MoreLinked, HubLinks+1-2-MaxNeighbours)
	}
	// Below the hub threshold, rank order decides, as before.
	small := linker("toc", "page", MaxNeighbours+1)
	small[0].body = notes[0].body
	small = append(small, notes[len(notes)-1])
	r = ask(t, small, "otter")
	if first(r) != "toc" || r.Hits[1].Note.Key != "page000" {
		t.Errorf("without a hub: %v", keys(r))
	}
	if _, err := ParseTree(RenderTree(r, "")); err != nil {
		t.Fatal(err)
	}
}

// A retracted record is marked on its tree line, and read back.
func TestTheTreeMarksRetractedRecords(t *testing.T) {
	t.Parallel()
	r := ask(t, provenanceStore(), "credentials")
	r.Hits[1].Retracted = "2026-05-01"
	tree := RenderTree(r, "")
	if !strings.Contains(tree, r.Hits[1].Note.Key) || !strings.Contains(tree, " · "+string(r.Hits[1].Note.Date)+" · retracted 2026-05-01\n") {
		t.Errorf("no mark:\n%s", tree)
	}
	parsed, err := ParseTree(tree)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(parsed.Notes, treeFromHits(r)) {
		t.Errorf("parsed %+v, want %+v", parsed.Notes, treeFromHits(r))
	}
}

// The parser stays strict about the new lines.
func TestTheTreeParserRefusesMisplacedCounts(t *testing.T) {
	t.Parallel()
	for _, bad := range []string{
		"└─ and 2 more linked notes\n@ x\n",                                                // before any note
		"a  team · 2026-01-01\n└─ and 1 more linked notes\n@ x\n",                          // wrong plural
		"a  team · 2026-01-01\n└─ and 0 more linked notes\n@ x\n",                          // nothing counted
		"a  team · 2026-01-01\n└─ b  team · 2026-01-01\n└─ and 2 more linked notes\n@ x\n", // after a closed branch
		"a  team · 2026-01-01 · retracted 2026-13-01\n@ x\n",                               // not a date
	} {
		if _, err := ParseTree(bad); err == nil {
			t.Errorf("accepted %q", bad)
		}
	}
}

// `omh find --type nosuch sync` said the store held nothing on sync, on a
// vault where 173 notes hold it. An answer emptied by its filters says how
// many notes they left out, and reads back as an answer with no notes.
func TestAnAnswerEmptiedByItsFiltersSaysWhatTheyLeftOut(t *testing.T) {
	t.Parallel()
	notes := []memNote{
		{key: "sync", date: "2026-01-01", layer: vault.Team, body: "sync fails"},
		{key: "sync-setup", date: "2026-01-02", layer: vault.Team, body: "how to sync"},
		{key: "unrelated", date: "2026-01-03", layer: vault.Local, typ: "finding", body: "nothing here"},
	}
	for _, q := range []Query{{Type: "finding"}, {Layer: vault.Local}} {
		q.Phrasings, q.Roots = []string{"sync"}, DefaultRoots
		r, err := Search(newCorpus(notes...), q)
		if err != nil {
			t.Fatal(err)
		}
		if len(r.Hits) != 0 || r.FilteredOut != 2 {
			t.Fatalf("%+v: hits %v, filtered out %d; want none and 2", q, keys(r), r.FilteredOut)
		}
		tree := RenderTree(r, "")
		if strings.Contains(tree, "holds nothing") || !strings.Contains(tree, "2 notes do outside the filters") {
			t.Errorf("%+v:\n%s", q, tree)
		}
		if parsed, err := ParseTree(tree); err != nil || len(parsed.Notes) != 0 {
			t.Errorf("read back: %+v, %v", parsed, err)
		}
	}
}

// An answer from several stores names each other store above its commit
// line, with its commit or why it did not answer, and the parser reads
// those lines back exactly; a note line or a commit line never passes for
// one. Catches: a store that did not answer dropped from the tree, or
// store lines the strict parser refuses.
func TestTheTreeNamesTheOtherStoresAndReadsThemBack(t *testing.T) {
	t.Parallel()
	r := ask(t, linker("summary", "n", 2), "otter")
	commit := strings.Repeat("ab", 20)
	r.Stores = []Source{{Name: "handbook", Commit: commit}, {Name: "empty"},
		{Name: "wiki", Problem: "/tmp/wiki does not exist", Code: "no_such_folder"}}
	// A weak answer counts the matches it leaves out, an answered one not.
	r.Verdict, r.Leads, r.Omitted = Weak, false, 2
	tree := RenderTree(r, commit)
	parsed, err := ParseTree(tree)
	if err != nil {
		t.Fatalf("%v\n%s", err, tree)
	}
	want := []TreeSource{{Name: "handbook", Commit: commit}, {Name: "empty"}, {Name: "wiki", Problem: "/tmp/wiki does not exist"}}
	if !reflect.DeepEqual(parsed.Stores, want) || parsed.Commit != commit || parsed.Omitted != 2 || !reflect.DeepEqual(parsed.Notes, treeFromHits(r)) {
		t.Errorf("parsed %+v, want stores %+v\n%s", parsed, want, tree)
	}
	if !strings.HasSuffix(tree, "! wiki: /tmp/wiki does not exist; answered without it\n@ "+commit+"\n") {
		t.Errorf("the store that did not answer is not named above the commit line:\n%s", tree)
	}
	for _, line := range []string{"@ " + commit, "@ Handbook " + commit, "@ handbook abc", "! wiki: gone", "summary  team · 2026-01-02"} {
		if _, ok := parseSourceLine(line); ok {
			t.Errorf("%q read as a store's line", line)
		}
	}
}
