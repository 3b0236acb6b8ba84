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

// A link in says how many links its note makes, so a table of contents can
// be told from a note that means the link.
func TestLinksInCountTheLinksOfTheirNote(t *testing.T) {
	r := seaStore(t)
	repo := openRepo(t, r.Dir)
	c := openCache(t, repo.CommonDir)
	defer c.Close()
	s, _, err := c.Fresh(repo, index.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	got := map[string]int{}
	for doc := uint32(0); int(doc) < s.Span(); doc++ {
		if n, err := s.Note(doc); err == nil && n.Key == "walrus" {
			d, err := s.Detail(doc)
			if err != nil {
				t.Fatal(err)
			}
			for _, in := range d.In {
				got[in.Key+"/"+in.Layer.String()] = in.Links
			}
		}
	}
	// otter links to walrus and krill.
	if got["otter/team"] != 2 {
		t.Errorf("links in of walrus: %v", got)
	}
}
