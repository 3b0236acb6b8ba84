package main

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"math"
	"os"
	"slices"
	"sort"
	"strings"
)

// baseline is the committed figures of omh's default ranker that the
// quality gate holds the current code to.
type baseline struct {
	About  string                 `json:"about"`
	Split  string                 `json:"split"`
	Limit  int                    `json:"limit"`
	Ranker string                 `json:"ranker"` // what omh's default ranker was when the file was written
	Sets   map[string]baselineSet `json:"sets"`
}

type baselineSet struct {
	// IDs is a digest of the measured question ids: figures are only
	// comparable on the same questions.
	IDs     string            `json:"ids_sha256"`
	Figures map[string]figure `json:"figures"`
	// NDCG10 is each question's nDCG@10, rounded to 4 places: a failing
	// gate names the questions that fell.
	NDCG10 map[string]float64 `json:"ndcg_10_by_question"`
}

func figuresOf(s setResult) map[string]figure {
	t := s.ranker(rankDefault).Totals
	f := map[string]figure{
		"hit_1":    {Value: t.Hit1, Questions: s.Answerable},
		"ndcg_10":  {Value: t.NDCG10, Questions: s.Answerable},
		"recall_5": {Value: t.Recall5, Questions: s.Answerable},
	}
	if s.AnswerOnCard != nil {
		f["answer_on_card"] = *s.AnswerOnCard
	}
	if s.NegativesDoubted != nil {
		f["negatives_doubted"] = *s.NegativesDoubted
	}
	if s.AnswerableAnswered != nil {
		f["answerable_answered"] = *s.AnswerableAnswered
	}
	return f
}

func idsDigest(ids []string) string {
	sum := sha256.Sum256([]byte(strings.Join(ids, "\n")))
	return hex.EncodeToString(sum[:8])
}

func writeBaseline(path string, rep report) error {
	b := baseline{
		About: "Figures of omh's default ranker, written by `go run ./internal/tools/compare -write-baseline`. scripts/quality.sh " +
			"fails when one drops by more than one question's worth (1/questions). Rewrite it when a change is meant to move them.",
		Split: rep.Split, Limit: rep.Limit, Sets: map[string]baselineSet{},
	}
	for _, s := range rep.Sets {
		b.Ranker = s.ranker(rankDefault).Is
		bs := baselineSet{IDs: idsDigest(s.IDs), Figures: figuresOf(s), NDCG10: map[string]float64{}}
		for _, q := range s.ranker(rankDefault).Questions {
			bs.NDCG10[q.ID] = math.Round(q.NDCG10*1e4) / 1e4
		}
		b.Sets[s.Name] = bs
	}
	return writeJSONFile(path, b)
}

// checkBaseline prints each figure against the baseline and reports whether
// none dropped by more than one question's worth.
func checkBaseline(w io.Writer, path string, rep report) (bool, error) {
	raw, err := os.ReadFile(path)
	if err != nil {
		return false, err
	}
	var base baseline
	if err := json.Unmarshal(raw, &base); err != nil {
		return false, fmt.Errorf("%s: %w", path, err)
	}
	fmt.Fprintf(w, "\nquality gate against %s (default ranker; a figure may drop by at most 1/questions)\n", path)
	if base.Split != rep.Split || base.Limit != rep.Limit {
		fmt.Fprintf(w, "  FAIL the baseline was measured on split %s, limit %d; this run is split %s, limit %d\n",
			base.Split, base.Limit, rep.Split, rep.Limit)
		return false, nil
	}
	if len(rep.Sets) > 0 {
		if now := rep.Sets[0].ranker(rankDefault).Is; now != base.Ranker {
			fmt.Fprintf(w, "  note: omh's default ranker was %q when the baseline was written and is %q now\n", base.Ranker, now)
		}
	}
	ok := true
	rose := false
	for _, s := range rep.Sets {
		bs, found := base.Sets[s.Name]
		if !found {
			fmt.Fprintf(w, "  FAIL %s: the baseline has no figures for it\n", s.Name)
			ok = false
			continue
		}
		if bs.IDs != idsDigest(s.IDs) {
			fmt.Fprintf(w, "  FAIL %s: the baseline was measured on other questions; rewrite it\n", s.Name)
			ok = false
			continue
		}
		now := figuresOf(s)
		names := make([]string, 0, len(bs.Figures))
		for name := range bs.Figures {
			names = append(names, name)
		}
		sort.Strings(names)
		for _, name := range names {
			was := bs.Figures[name]
			is, found := now[name]
			if !found {
				fmt.Fprintf(w, "  FAIL %-18s %-15s not measured in this run\n", s.Name, name)
				ok = false
				continue
			}
			worth := 1 / float64(max(was.Questions, 1))
			verdict := "ok"
			switch d := is.Value - was.Value; {
			case math.IsNaN(is.Value):
				verdict, ok = "FAIL not a number", false
			case -d > worth+1e-9:
				verdict, ok = "FAIL dropped", false
			case d > worth+1e-9:
				verdict, rose = "ok, rose", true
			}
			fmt.Fprintf(w, "  %-18s %-15s %.4f → %.4f  (%+.4f; one question %.4f)  %s\n", s.Name, name, was.Value, is.Value, is.Value-was.Value, worth, verdict)
		}
		var fell, risen []string
		for _, q := range s.ranker(rankDefault).Questions {
			if was, found := bs.NDCG10[q.ID]; found {
				switch d := q.NDCG10 - was; {
				case d <= -movedBy:
					fell = append(fell, fmt.Sprintf("%s %.2f→%.2f", q.ID, was, q.NDCG10))
				case d >= movedBy:
					risen = append(risen, fmt.Sprintf("%s %.2f→%.2f", q.ID, was, q.NDCG10))
				}
			}
		}
		if len(fell)+len(risen) > 0 {
			fmt.Fprintf(w, "  %-18s questions whose nDCG@10 moved by 0.1 or more: %d fell, %d rose\n", s.Name, len(fell), len(risen))
			for _, x := range []struct {
				sign string
				list []string
			}{{"-", fell}, {"+", risen}} {
				if len(x.list) > 0 {
					fmt.Fprintf(w, "    %s %s\n", x.sign, strings.Join(x.list, ", "))
				}
			}
		}
	}
	for _, name := range slices.Sorted(maps.Keys(base.Sets)) {
		switch why, skipped := skippedIn(rep, name); {
		case skipped:
			// A set left out for a reason of this run's (data missing, a
			// split it has no questions for) must not pass unmeasured.
			fmt.Fprintf(w, "  FAIL %s: the baseline has figures for it, but this run skipped it: %s\n", name, why)
			ok = false
		case !measuredIn(rep, name):
			fmt.Fprintf(w, "  note: %s is in the baseline but was not asked for\n", name)
		}
	}
	switch {
	case !ok:
		fmt.Fprintf(w, "quality gate: FAILED\n")
	case rose:
		fmt.Fprintf(w, "quality gate: passed; some figures rose by more than a question, consider rewriting the baseline\n")
	default:
		fmt.Fprintf(w, "quality gate: passed\n")
	}
	return ok, nil
}

// skippedIn says whether the run skipped the set called name, and why.
func skippedIn(rep report, name string) (string, bool) {
	for _, s := range rep.Skipped {
		if why, found := strings.CutPrefix(s, name+": "); found {
			return why, true
		}
	}
	return "", false
}

func measuredIn(rep report, name string) bool {
	for _, s := range rep.Sets {
		if s.Name == name {
			return true
		}
	}
	return false
}
