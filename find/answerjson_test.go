package find

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/omh-notes/omh/retrieve"
	"github.com/omh-notes/omh/vault"
	"github.com/omh-notes/omh/vault/corpus"
)

// An answer's JSON carries the verdict, whether the first note leads, and
// the uncovered and unheld words on the reply, the coverage on each ranked note and never on a linked one, a
// linked note's parent by key and layer, and the explanation as ranking
// gave it; a reply before the first commit has a null commit and a list
// for a question. Catches: coverage 0 printed on linked notes, or an
// explanation's terms lost on the way to JSON.
func TestTheJSONAnswerCarriesVerdictCoverageAndParents(t *testing.T) {
	t.Parallel()
	note := func(key string, layer vault.Layer) corpus.Note {
		return corpus.Note{Key: key, Layer: layer, Date: "2026-01-02", Type: "note", Title: key}
	}
	why := &retrieve.Explanation{Phrasing: 1, Terms: []retrieve.TermShare{{Term: "sync", Word: "sync", Fields: []string{"title"}, Count: 2, DF: 3, Score: 700}}}
	res := retrieve.Result{Verdict: retrieve.Weak, Uncovered: []string{"webdav", "server"}, Unheld: []string{"webdav"}, Hits: []retrieve.Hit{
		{Note: note("sync", vault.Team), Depth: 0, Parent: -1, Score: 700, Coverage: 0.5, Explain: why},
		{Note: note("nextcloud", vault.Local), Depth: 1, Parent: 0, Coverage: 0.25},
	}}
	b, err := json.Marshal(AnswerJSON(res, ""))
	if err != nil {
		t.Fatal(err)
	}
	var got struct {
		Commit    *string  `json:"commit"`
		Question  []string `json:"question"`
		Verdict   string   `json:"verdict"`
		Leads     *bool    `json:"leads"`
		Uncovered []string `json:"uncovered"`
		Unheld    []string `json:"unheld"`
		Hits      []struct {
			Depth       int      `json:"depth"`
			Coverage    *float64 `json:"coverage"`
			Parent      string   `json:"parent"`
			ParentLayer string   `json:"parent_layer"`
			Explain     *struct {
				Phrasing int                  `json:"phrasing"`
				Terms    []retrieve.TermShare `json:"terms"`
			} `json:"explain"`
		} `json:"hits"`
	}
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatal(err)
	}
	if got.Commit != nil || got.Question == nil || got.Verdict != "weak" || got.Leads == nil || *got.Leads ||
		!reflect.DeepEqual(got.Uncovered, res.Uncovered) || !reflect.DeepEqual(got.Unheld, res.Unheld) {
		t.Errorf("reply fields %s", b)
	}
	res.Verdict, res.Leads, res.Uncovered, res.Unheld = retrieve.Answered, true, nil, nil
	if j := AnswerJSON(res, ""); j.Verdict != "answered" || !j.Leads {
		t.Errorf("an answered reply whose first note leads: %+v", j)
	}
	if len(got.Hits) != 2 {
		t.Fatalf("hits %s", b)
	}
	ranked, linked := got.Hits[0], got.Hits[1]
	if ranked.Coverage == nil || *ranked.Coverage != 0.5 || ranked.Parent != "" {
		t.Errorf("the ranked note: %s", b)
	}
	if ranked.Explain == nil || ranked.Explain.Phrasing != 1 || !reflect.DeepEqual(ranked.Explain.Terms, why.Terms) {
		t.Errorf("the explanation: %s", b)
	}
	if linked.Coverage != nil || linked.Parent != "sync" || linked.ParentLayer != "team" || linked.Explain != nil {
		t.Errorf("the linked note: %s", b)
	}
}
