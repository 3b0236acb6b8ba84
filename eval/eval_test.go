package eval

import (
	"math"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/omh-notes/omh/find"
	"github.com/omh-notes/omh/retrieve"
	"github.com/omh-notes/omh/vault/corpus"
)

func near(a, b float64) bool { return math.Abs(a-b) < 1e-9 }

// reply builds a reply whose hits are the ranked keys and whose card text
// holds text.
func reply(text string, keys ...string) find.Reply {
	var r find.Reply
	for _, k := range keys {
		r.Result.Hits = append(r.Result.Hits, retrieve.Hit{Note: corpus.Note{Key: k}, Parent: -1})
		r.Cards = append(r.Cards, find.Card{Hit: r.Result.Hits[len(r.Result.Hits)-1],
			Passages: []find.Passage{{Text: text}}})
	}
	r.MaxChars = find.DefaultMaxChars
	return r
}

// Metric arithmetic on cases worked by hand.
func TestMetricsMatchHandComputedCases(t *testing.T) {
	for _, tc := range []struct {
		name                    string
		gold                    Gold
		ranked                  []string
		r1, r5, mrr, ndcg, rank float64
	}{
		{"one relevant at rank 3", Gold{ID: "a", Question: "q", Expect: []string{"x"}},
			[]string{"p", "q", "x", "r"}, 0, 1, 1.0 / 3, 0.5, 3},
		// DCG = 1 + 1/log2(8) = 4/3; ideal = 1 + 1/log2(3).
		{"two relevant at 1 and 7", Gold{ID: "b", Question: "q", Expect: []string{"a", "b"}},
			[]string{"b", "p", "q", "r", "s", "t", "a"}, 0.5, 0.5, 1, (4.0 / 3) / (1 + 1/math.Log2(3)), 1},
		// Graded: DCG = 1 + 3/log2(4) = 2.5; ideal = 3 + 1/log2(3).
		{"graded gains", Gold{ID: "c", Question: "q", Expect: []string{"a", "b"}, Gains: map[string]float64{"a": 3, "b": 1}},
			[]string{"b", "p", "a"}, 0.5, 1, 1, 2.5 / (3 + 1/math.Log2(3)), 1},
		{"relevant past ten", Gold{ID: "d", Question: "q", Expect: []string{"z"}},
			[]string{"1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "z"}, 0, 0, 0, 0, 11},
		{"nothing found", Gold{ID: "e", Question: "q", Expect: []string{"z"}}, nil, 0, 0, 0, 0, 0},
	} {
		q := Score(tc.gold, Answer{Ranked: tc.ranked, Reply: reply("", tc.ranked...)})
		if !near(q.Recall1, tc.r1) || !near(q.Recall5, tc.r5) || !near(q.MRR10, tc.mrr) || !near(q.NDCG10, tc.ndcg) || q.Rank != int(tc.rank) {
			t.Errorf("%s: got R@1 %.4f R@5 %.4f MRR %.4f nDCG %.4f rank %d; want %.4f %.4f %.4f %.4f %v",
				tc.name, q.Recall1, q.Recall5, q.MRR10, q.NDCG10, q.Rank, tc.r1, tc.r5, tc.mrr, tc.ndcg, tc.rank)
		}
	}
}

func TestTheAnswerIsOnACardWhateverItsCaseAndWrapping(t *testing.T) {
	g := Gold{ID: "a", Question: "q", Expect: []string{"x"}, Answer: "The path to the image\nis  CASE sensitive."}
	on := Score(g, Answer{Ranked: []string{"x"}, Reply: reply("… the path to the image is case sensitive. More…", "x")})
	off := Score(g, Answer{Ranked: []string{"x"}, Reply: reply("the path to the image is", "x")})
	if !on.AnswerOnCard || off.AnswerOnCard || !on.ExpectInReply {
		t.Errorf("on %+v off %+v", on, off)
	}
}

// Markdown punctuation, case and white space are ignored on both sides: a
// card prints plain text where the gold answer quotes markdown, and the
// other way round.
func TestMarkdownPunctuationIsIgnoredOnBothSides(t *testing.T) {
	g := Gold{ID: "a", Question: "q", Expect: []string{"x"}, Answer: "You can use a recovery code **once**, `Ctrl`+`Shift`+`t` or [[Tabs|a tab]] # > |"}
	for card, want := range map[string]bool{
		"Generate recovery codes: You can use a recovery code once, Ctrl+Shift+t or Tabsa tab":       true,
		"you can use a *recovery* code once, `ctrl`+`shift`+`t`   or [[tabs|a tab]] # > |, and more": true,
		"You can use a recovery code twice, Ctrl+Shift+t or Tabsa tab":                               false,
	} {
		if got := Score(g, Answer{Ranked: []string{"x"}, Reply: reply(card, "x")}).AnswerOnCard; got != want {
			t.Errorf("card %q: answer on it %v, want %v", card, got, want)
		}
	}
}

// Answer-on-card is also split by the card the expected note is on.
func TestAnswersAreCountedByTheCardTheirNoteIsOn(t *testing.T) {
	g := Gold{ID: "a", Question: "q", Expect: []string{"x"}, Answer: "yes"}
	var qs []Question
	for _, c := range []struct {
		keys []string
		text string
	}{
		{[]string{"x", "p"}, "yes"}, {[]string{"x"}, "no"}, {[]string{"p", "q", "x"}, "yes"}, {[]string{"p", "x"}, "no"},
		{[]string{"p", "q", "r", "s", "t", "x"}, "yes"}, {[]string{"p"}, "yes"},
	} {
		qs = append(qs, Score(g, Answer{Ranked: c.keys, Reply: reply(c.text, c.keys...)}))
	}
	if qs[2].ReplyRank != 3 || qs[4].ReplyRank != 6 || qs[5].ReplyRank != 0 || qs[5].ExpectInReply {
		t.Errorf("reply ranks %d %d %d", qs[2].ReplyRank, qs[4].ReplyRank, qs[5].ReplyRank)
	}
	want := []RankShare{{"1", 2, 0.5}, {"2-3", 2, 0.5}, {"4+", 1, 1}}
	if got := Total(qs).AnswerByRank; len(got) != 3 || got[0] != want[0] || got[1] != want[1] || got[2] != want[2] {
		t.Errorf("by rank %+v, want %+v", got, want)
	}
}

func TestTotalsAverageTheRightQuestions(t *testing.T) {
	qs := []Question{
		{ID: "a", Recall5: 1, MRR10: 1, NDCG10: 1, Recall1: 1, HasAnswer: true, AnswerOnCard: true, AnswerAt: 1200, ExpectInReply: true, ReplyChars: 100},
		{ID: "b", Recall5: 0, HasAnswer: true, AnswerOnCard: false, ExpectInReply: false, ReplyChars: 300},
		{ID: "c", Recall5: 1, MRR10: 0.5, NDCG10: 0.6, HasAnswer: true, ExpectInReply: true, ReplyChars: 200},
		{ID: "d", HasAnswer: true, AnswerOnCard: true, AnswerAt: 1000, ExpectInReply: true, ReplyChars: 1100},
		{ID: "n1", Negative: true, Empty: true, ReplyChars: 0},
		{ID: "n2", Negative: true, Empty: false, ReplyChars: 400},
	}
	tot := Total(qs)
	if tot.Answerable != 4 || tot.Negatives != 2 || !near(tot.Recall5, 2.0/4) || !near(tot.MRR10, 1.5/4) ||
		!near(tot.AnswerOnCard, 2.0/4) || !near(tot.AnswerWhenFound, 2.0/3) || !near(tot.HonestEmpty, 0.5) || !near(tot.MeanReplyChars, 2100.0/6) ||
		!near(tot.MedianReplyChars, 250) || !near(tot.AnswerWithin1000, 1.0/4) || !near(tot.AnswerWithin1500, 2.0/4) {
		t.Errorf("totals %+v", tot)
	}
}

// AnswerAt counts the reply's characters up to the end of the answer,
// whatever markdown, case and white space the reply puts around and inside
// it, in characters and not bytes. Catches: a position counted in the
// normalized text (shorter than the reply by its markup) or in bytes.
func TestTheAnswersPositionIsCountedInTheReplyAsPrinted(t *testing.T) {
	answer := "The path to the **image** is case-sensitive: `Ré.png`"
	printed := "the path to the image\n  is  CASE-sensitive: Ré.png"
	for _, prefix := range []string{"", "x", "é ", "answered: …\nkey  note · team · 2026-01-01\n  L4 > ", strings.Repeat("日本 *a* | ", 50)} {
		reply := prefix + printed + " and then more."
		want := utf8.RuneCountInString(prefix + printed)
		if got := answerAt(reply, answer); got != want {
			t.Errorf("prefix %q: answer at %d, want %d", prefix, got, want)
		}
	}
	if got := answerAt("the path to the image is case sensitive", answer); got != 0 {
		t.Errorf("a reply without the answer: at %d", got)
	}
}

// The split is FNV-1a 32 of the id modulo 5, checked against a second,
// independent FNV-1a (offset basis 2166136261, prime 16777619).
func TestSplitsFollowTheHashOfTheID(t *testing.T) {
	fnv1a := func(s string) uint32 {
		h := uint32(2166136261)
		for i := 0; i < len(s); i++ {
			h ^= uint32(s[i])
			h *= 16777619
		}
		return h
	}
	holdout := 0
	for i := 0; i < 1000; i++ {
		id := "q-" + strings.Repeat("x", i%7) + string(rune('a'+i%26)) + string(rune('0'+i%10))
		want := "tune"
		if fnv1a(id)%5 == 0 {
			want = "holdout"
			holdout++
		}
		if Split(id) != want {
			t.Fatalf("Split(%q) = %s, want %s", id, Split(id), want)
		}
	}
	if holdout < 100 || holdout > 300 {
		t.Errorf("%d of 1000 in holdout; a fifth expected", holdout)
	}
}

func TestABaselineFromAnotherStoreIsRefused(t *testing.T) {
	base := Report{Store: Store{Commit: "a", Schema: 1, Fingerprint: "f1"}, Questions: []Question{{ID: "q1", Recall5: 0}, {ID: "q2", Recall5: 1, AnswerOnCard: true}}}
	now := Report{Store: base.Store, Questions: []Question{{ID: "q1", Recall5: 1}, {ID: "q2", Recall5: 1}}}
	gained, lost, err := Compare(base, now)
	if err != nil || len(gained) != 1 || gained[0] != (Change{"q1", "recall@5"}) || len(lost) != 1 || lost[0] != (Change{"q2", "answer on card"}) {
		t.Errorf("gained %v lost %v err %v", gained, lost, err)
	}
	now.Store.Fingerprint = "f2"
	if _, _, err := Compare(base, now); err == nil {
		t.Error("a different store was compared")
	}
}

func TestGoldLinesAreCheckedAsRead(t *testing.T) {
	good := `{"id":"a","question":"q?","expect":["x"],"answer":"y","extra":1}

{"id":"n","question":"no?","negative":true}`
	gs, err := ReadGold(strings.NewReader(good))
	if err != nil || len(gs) != 2 || gs[0].Answer != "y" || !gs[1].Negative {
		t.Errorf("got %+v %v", gs, err)
	}
	for _, bad := range []string{`{"question":"q"}`, `{"id":"a","question":"q"}`, `not json`} {
		if _, err := ReadGold(strings.NewReader(bad)); err == nil {
			t.Errorf("accepted %s", bad)
		}
	}
}

// A key listed twice (its team and local notes) is one ranked place: the
// second listing neither pushes the next key down nor counts again.
func TestAKeyInBothLayersCountsOnce(t *testing.T) {
	m := MeasureRanking(map[string]float64{"a": 1, "b": 1}, []string{"a", "a", "b"})
	if m.Rank != 1 || m.Recall1 != 0.5 || m.Recall5 != 1 || m.NDCG10 != 1 {
		t.Errorf("%+v", m)
	}
}

// Hit@1 gives full credit when the first note is one of several right
// ones, where Recall@1 gives a share.
func TestHitAtOneCountsTheFirstNoteWhole(t *testing.T) {
	g := Gold{ID: "h", Question: "q", Expect: []string{"a", "b"}}
	q := Score(g, Answer{Ranked: []string{"b", "x", "a"}, Reply: reply("", "b", "x", "a")})
	if !q.Hit1 || q.Recall1 != 0.5 {
		t.Errorf("hit@1 %v, R@1 %v", q.Hit1, q.Recall1)
	}
	miss := Score(g, Answer{Ranked: []string{"x", "a"}, Reply: reply("", "x", "a")})
	if miss.Hit1 {
		t.Error("a wrong first note scored a hit")
	}
	if tot := Total([]Question{q, miss}); !near(tot.Hit1, 0.5) {
		t.Errorf("total hit@1 %v", tot.Hit1)
	}
}

// The verdict's accuracy: the share of negatives it doubted (weak or
// none), and the share of answerable questions it wrongly doubted.
func TestTheVerdictIsScoredOnBothKindsOfQuestion(t *testing.T) {
	withVerdict := func(v retrieve.Verdict) find.Reply {
		r := reply("", "x")
		r.Result.Verdict = v
		return r
	}
	qs := []Question{
		Score(Gold{ID: "n1", Question: "q", Negative: true}, Answer{Reply: withVerdict(retrieve.Weak)}),
		Score(Gold{ID: "n2", Question: "q", Negative: true}, Answer{Reply: withVerdict(retrieve.NoMatch)}),
		Score(Gold{ID: "n3", Question: "q", Negative: true}, Answer{Reply: withVerdict(retrieve.Answered)}),
		Score(Gold{ID: "a1", Question: "q", Expect: []string{"x"}}, Answer{Ranked: []string{"x"}, Reply: withVerdict(retrieve.Answered)}),
		Score(Gold{ID: "a2", Question: "q", Expect: []string{"x"}}, Answer{Ranked: []string{"x"}, Reply: withVerdict(retrieve.Weak)}),
		Score(Gold{ID: "a3", Question: "q", Expect: []string{"x"}}, Answer{Ranked: []string{"x"}, Reply: withVerdict(retrieve.Answered)}),
		Score(Gold{ID: "a4", Question: "q", Expect: []string{"x"}}, Answer{Ranked: []string{"x"}, Reply: withVerdict(retrieve.Answered)}),
	}
	tot := Total(qs)
	if !near(tot.NegativesDoubted, 2.0/3) || !near(tot.AnswerableDoubted, 0.25) {
		t.Errorf("negatives doubted %v, answerable doubted %v", tot.NegativesDoubted, tot.AnswerableDoubted)
	}
}
