package main

import (
	"fmt"
	"math"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// gateRun is a run of compare on two sets, as checkBaseline reads it: an
// IR collection (no verdict figures but answerable_answered) and a real
// vault (every figure), with 20 answerable questions each, so one
// question is worth 0.05 of every figure.
func gateRun() report {
	set := func(name string, vault bool) setResult {
		s := setResult{Name: name, Split: "tune", Answerable: 20}
		def := rankerResult{Name: rankDefault, Is: "tuned", Totals: totals{Hit1: 0.6, NDCG10: 0.55, Recall5: 0.7}}
		for i := range 20 {
			id := fmt.Sprintf("%s-q%02d", name, i)
			s.IDs = append(s.IDs, id)
			def.Questions = append(def.Questions, scores{ID: id, NDCG10: float64(i%5) / 5})
		}
		s.Rankers = []rankerResult{def, {Name: rankBaseline, Is: "baseline"}}
		s.AnswerableAnswered = &figure{Value: 0.9, Questions: 20}
		if vault {
			s.Negatives = 10
			s.AnswerOnCard = &figure{Value: 0.75, Questions: 20}
			s.NegativesDoubted = &figure{Value: 0.5, Questions: 10}
		}
		return s
	}
	return report{Split: "tune", Sets: []setResult{set("cranfield", false), set("dendron-site", true)}}
}

// gateVerdict writes the baseline of gateRun(), checks run against it and
// returns the verdict, the (set, figure) pairs its report says failed, and
// the report.
func gateVerdict(t *testing.T, run report) (bool, [][2]string, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "baseline.json")
	if err := writeBaseline(path, gateRun()); err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	ok, err := checkBaseline(&out, path, run)
	if err != nil {
		t.Fatal(err)
	}
	return ok, failedIn(out.String()), out.String()
}

// failedIn reads back what a gate report says failed: a figure that
// dropped, is not a number or was not measured ("  SET FIGURE … FAIL
// dropped", "  FAIL SET FIGURE not measured"), a whole set ("  FAIL SET:
// why", figure ""), or the run ("  FAIL the baseline was measured on …",
// set "").
func failedIn(report string) [][2]string {
	dropped := regexp.MustCompile(`^  (\S+)\s+(\S+)\s.*  FAIL (dropped|not a number)$`)
	figure := regexp.MustCompile(`^  FAIL (\S+)\s+(\S+)\s+not measured`)
	set := regexp.MustCompile(`^  FAIL ([^\s:]+):`)
	var out [][2]string
	for _, line := range strings.Split(report, "\n") {
		if m := dropped.FindStringSubmatch(line); m != nil {
			out = append(out, [2]string{m[1], m[2]})
		} else if m := figure.FindStringSubmatch(line); m != nil {
			out = append(out, [2]string{m[1], m[2]})
		} else if m := set.FindStringSubmatch(line); m != nil {
			out = append(out, [2]string{m[1], ""})
		} else if strings.HasPrefix(line, "  FAIL ") {
			out = append(out, [2]string{"", ""})
		}
	}
	slices.SortFunc(out, func(a, b [2]string) int { return strings.Compare(a[0]+" "+a[1], b[0]+" "+b[1]) })
	return out
}

// The quality gate passes a run whose figures are the baseline's, or lower
// by at most one question's worth (1/questions), or higher; it fails, and
// says which, every figure of every set that dropped by more, a figure or
// a set the baseline holds that the run did not measure, and a run on
// other questions (another split, limit or question list). Catches: a gate
// that passes a regression (a drop of two questions, a verdict figure left
// unchecked, a figure that is not a number, a set skipped) or fails a run
// as good as the baseline (a drop of exactly one question, a rise).
func TestTheQualityGateFailsExactlyWhenAFigureDropped(t *testing.T) {
	t.Parallel()
	figures := map[string]func(*setResult) *float64{
		"hit_1":               func(s *setResult) *float64 { return &s.Rankers[0].Totals.Hit1 },
		"ndcg_10":             func(s *setResult) *float64 { return &s.Rankers[0].Totals.NDCG10 },
		"recall_5":            func(s *setResult) *float64 { return &s.Rankers[0].Totals.Recall5 },
		"answerable_answered": func(s *setResult) *float64 { return &s.AnswerableAnswered.Value },
		"answer_on_card":      func(s *setResult) *float64 { return &s.AnswerOnCard.Value },
		"negatives_doubted":   func(s *setResult) *float64 { return &s.NegativesDoubted.Value },
	}
	type gateCase struct {
		name   string
		change func(*report)
		failed [][2]string // nil: the gate passes
	}
	cases := []gateCase{
		{"the same figures", func(*report) {}, nil},
		{"a set the baseline holds, not asked for", func(r *report) { r.Sets = r.Sets[:1] }, nil},
		{"another split", func(r *report) { r.Split = "report" }, [][2]string{{"", ""}}},
		{"another limit", func(r *report) { r.Limit = 100 }, [][2]string{{"", ""}}},
		{"a set the baseline lacks", func(r *report) { r.Sets[0].Name = "cisi" }, [][2]string{{"cisi", ""}}},
		{"other questions", func(r *report) { r.Sets[1].IDs[3] = "dendron-site-q99" }, [][2]string{{"dendron-site", ""}}},
		{"a set the baseline holds, skipped", func(r *report) {
			r.Sets = r.Sets[:1]
			r.Skipped = []string{"dendron-site: its held-out questions are not in the data folder"}
		}, [][2]string{{"dendron-site", ""}}},
		{"a figure not measured", func(r *report) { r.Sets[1].AnswerOnCard = nil }, [][2]string{{"dendron-site", "answer_on_card"}}},
	}
	for name, at := range figures {
		sets := []int{0, 1}
		if name == "answer_on_card" || name == "negatives_doubted" {
			sets = []int{1} // the IR collection has none
		}
		for _, i := range sets {
			setName := gateRun().Sets[i].Name
			worth := 1.0 / 20
			if name == "negatives_doubted" {
				worth = 1.0 / 10
			}
			cases = append(cases,
				gateCase{setName + " " + name + " rose", func(r *report) { *at(&r.Sets[i]) += 2 * worth }, nil},
				gateCase{setName + " " + name + " fell by one question", func(r *report) { *at(&r.Sets[i]) -= worth }, nil},
				gateCase{setName + " " + name + " fell by two questions", func(r *report) { *at(&r.Sets[i]) -= 2 * worth },
					[][2]string{{setName, name}}},
				gateCase{setName + " " + name + " is not a number", func(r *report) { *at(&r.Sets[i]) = math.NaN() },
					[][2]string{{setName, name}}})
		}
	}
	for _, c := range cases {
		run := gateRun()
		c.change(&run)
		ok, failed, out := gateVerdict(t, run)
		if ok != (c.failed == nil) || !reflect.DeepEqual(failed, c.failed) {
			t.Errorf("%s: passed %v, failed %v; want failed %v\n%s", c.name, ok, failed, c.failed, out)
		}
	}
}
