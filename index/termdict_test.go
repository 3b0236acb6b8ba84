package index

import (
	"fmt"
	"testing"
)

// A note's terms are looked up in batches: the ids are those the table
// holds, new terms get the next ones in order, and no term is asked for on
// its own (a query per term was 7% of a post-commit hook's CPU).
func TestTermDictLooksTermsUpInBatches(t *testing.T) {
	t.Parallel()
	c, err := Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	sqlTx, err := c.db.Begin()
	if err != nil {
		t.Fatal(err)
	}
	defer sqlTx.Rollback()
	tx := newTxn(sqlTx)
	stored := map[string]int64{}
	for i := range 300 {
		text := fmt.Sprintf("stored%d", i)
		stored[text] = int64(i + 1)
		if _, err := tx.Exec(`INSERT INTO term (text, id) VALUES (?, ?)`, text, i+1); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := tx.Exec(`INSERT INTO counter (name, n) VALUES (?, ?)`, counterTerms, 300); err != nil {
		t.Fatal(err)
	}
	dict, err := newTermDict(tx)
	if err != nil {
		t.Fatal(err)
	}
	var texts []string
	for i := range 200 { // stored and new terms interleaved, one repeated
		texts = append(texts, fmt.Sprintf("stored%d", i*3%300), fmt.Sprintf("new%d", i))
	}
	texts = append(texts, "stored7")
	pb := &parsedBlob{}
	for _, text := range texts {
		pb.terms = append(pb.terms, textEntry{text: text})
	}
	vector, err := pb.vector(dict)
	if err != nil {
		t.Fatal(err)
	}
	next := int64(301)
	seen := map[string]int64{}
	for i, e := range vector {
		text := texts[i]
		want, ok := stored[text]
		if !ok {
			if want, ok = seen[text]; !ok {
				want, next = next, next+1
			}
		}
		seen[text] = want
		if e.ID != want {
			t.Errorf("%s: id %d, want %d", text, e.ID, want)
		}
	}
	if _, asked := tx.stmts[`SELECT id FROM term WHERE text = ?`]; asked {
		t.Error("a term was looked up on its own")
	}
}
