package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/omh-notes/omh/eval"
	"github.com/omh-notes/omh/retrieve"
	"github.com/omh-notes/omh/store"
)

// omh eval scores exactly the reply omh find --cards prints for the same
// question and flags, byte for byte, on a store of proof records whose
// cards carry states, retraction marks, blob quotes and stale citations.
// Catches: eval assembling its own cards (without the proof lifecycle, or
// with another budget) and so measuring something the product never
// prints.
func TestEvalScoresWhatFindCardsPrints(t *testing.T) {
	t.Parallel()
	s := newProofStore(t)
	questions := []string{"why is cold start slow", "disk reads", "preload at boot", "bench run benchmark", "cache the weights"}
	var gold strings.Builder
	for i, q := range questions {
		b, _ := json.Marshal(eval.Gold{ID: string(rune('a' + i)), Question: q, Expect: []string{"finding/disk-reads"}})
		gold.Write(b)
		gold.WriteByte('\n')
	}
	goldFile := filepath.Join(t.TempDir(), "gold.jsonl")
	if err := os.WriteFile(goldFile, []byte(gold.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	golds, err := store.ReadGold(goldFile)
	if err != nil {
		t.Fatal(err)
	}
	for _, flags := range [][]string{{}, {"--roots", "3", "--max-chars", "700"}} {
		st, err := store.Open(s.Dir, store.Options{})
		if err != nil {
			t.Fatal(err)
		}
		o := store.EvalOptions{Split: "all", Roots: 8, MaxChars: 6000, Ranker: retrieve.DefaultRanker}
		if len(flags) > 0 {
			o.Roots, o.MaxChars = 3, 700
		}
		rep, err := st.Eval(golds, o)
		st.Close()
		if err != nil {
			t.Fatal(err)
		}
		if len(rep.Questions) != len(questions) {
			t.Fatalf("eval scored %d questions of %d", len(rep.Questions), len(questions))
		}
		states := 0
		for i, q := range rep.Questions {
			printed := ok(t, s.Dir, append(append([]string{"find", "--cards"}, flags...), questions[i])...)
			if q.Reply != printed {
				t.Errorf("%q %v: eval scored\n%s\nfind --cards printed\n%s", questions[i], flags, q.Reply, printed)
			}
			states += strings.Count(printed, " · current") + strings.Count(printed, " · superseded") + strings.Count(printed, "retracted")
		}
		if states == 0 {
			t.Errorf("%v: no reply shows a proof state, so the comparison proves nothing about the lifecycle", flags)
		}
		// The command's own report agrees with the one computed here.
		var cli eval.Report
		if err := json.Unmarshal([]byte(ok(t, s.Dir, append(append([]string{"--json", "eval", "--split", "all"}, flags...), goldFile)...)), &cli); err != nil {
			t.Fatal(err)
		}
		for i := range cli.Questions {
			if cli.Questions[i].ReplyChars != rep.Questions[i].ReplyChars || cli.Questions[i].Rank != rep.Questions[i].Rank {
				t.Errorf("%s: the command scored %+v, the store %+v", cli.Questions[i].ID, cli.Questions[i], rep.Questions[i])
			}
		}
	}
}
