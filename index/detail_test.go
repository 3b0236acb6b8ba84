package index_test

import (
	"reflect"
	"testing"

	"github.com/omh-notes/omh/index"
	"github.com/omh-notes/omh/vault"
)

// A note's passage units are parsed once with its blob and come back from
// the cache as the parse made them, with the headings they name.
func TestDetailCarriesTheUnitsOfTheParse(t *testing.T) {
	t.Parallel()
	r := seaStore(t)
	r.Write("notes/tide.md", "# Tide\n\n## Low\nThe sea goes out twice a day. Walk on the sand then.\n\n| when | height |\n|---|---|\n| noon | 1 m |\n\n- rocks\n  - crabs under them\n")
	r.Commit("2025-12-02T10:00:00Z", "tide")
	repo := openRepo(t, r.Dir)
	c := openCache(t, repo.CommonDir)
	defer c.Close()
	s, _, err := c.Fresh(repo, index.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	checked := 0
	for doc := uint32(0); int(doc) < s.Span(); doc++ {
		if !s.Info(doc).Present {
			continue
		}
		n, err := s.Note(doc)
		if err != nil {
			t.Fatal(err)
		}
		content, err := s.Content(doc, n)
		if err != nil {
			t.Fatal(err)
		}
		d, err := s.Detail(doc)
		if err != nil {
			t.Fatal(err)
		}
		p := vault.Parse(content)
		if len(p.Units) == 0 || !reflect.DeepEqual(d.Units, p.Units) || !reflect.DeepEqual(d.Headings, p.Headings) {
			t.Errorf("%s: the cache gives units %+v and headings %+v, the parse %+v and %+v", n.Key, d.Units, d.Headings, p.Units, p.Headings)
		}
		checked++
	}
	if checked < 7 {
		t.Fatalf("checked %d notes", checked)
	}
}

// A note's links are counted as far as asked: enough to tell a table of
// contents.
func TestLinksOutCountsAsFarAsAsked(t *testing.T) {
	t.Parallel()
	r := seaStore(t)
	repo := openRepo(t, r.Dir)
	c := openCache(t, repo.CommonDir)
	defer c.Close()
	s, _, err := c.Fresh(repo, index.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	got := map[string][2]int{}
	for doc := uint32(0); int(doc) < s.Span(); doc++ {
		n, err := s.Note(doc)
		if err != nil || !s.Info(doc).Present {
			continue
		}
		all, err := s.LinksOut(doc, 100)
		if err != nil {
			t.Fatal(err)
		}
		one, err := s.LinksOut(doc, 1)
		if err != nil {
			t.Fatal(err)
		}
		got[n.Key+"/"+n.Layer.String()] = [2]int{all, one}
	}
	// otter links to walrus and krill; heron to nothing.
	if got["otter/team"] != [2]int{2, 1} || got["heron/team"] != [2]int{0, 0} || got["walrus/team"] != [2]int{1, 1} {
		t.Errorf("links out: %v", got)
	}
}
