// Package retrieve ranks the notes of a store against a question, expands one
// hop along their links, and renders the answer.
//
// Ranking orders notes by the rarity of the question's terms they contain. A
// word in every note cannot tell two notes apart, so it barely counts; a word
// in one note counts a lot. Rarity alone does not silence "how", "is" and
// "the" in a small store, so the default ranker leaves the question's
// function words out (see token.IsFunctionWord). Matching is on whole terms
// (see token.EachToken). Ties fall to recency, then to how many notes link to
// a note, then to its name; never to its layer, because choosing between a
// team note and a local one that disagree is the reader's call, made with
// both in hand. Every reply says whether its notes cover the question
// (Verdict).
package retrieve

import (
	"cmp"
	"container/heap"
	"fmt"
	"math"
	"slices"
	"sort"

	"github.com/omh-notes/omh/token"
	"github.com/omh-notes/omh/vault"
	"github.com/omh-notes/omh/vault/corpus"
)

// askedFields hold text written to name the note rather than to be read; a
// term found there is about the note's subject and counts double in the
// baseline.
const askedFields = token.InKey | token.InTitle | token.InFolder

// nameFields name this one note: the tuned ranker's asked terms.
const nameFields = token.InKey | token.InTitle

// Corpus is a store as ranking reads it. Documents are numbered by ids below
// Span; Postings and Count cover exactly the documents whose Info is Present.
type Corpus interface {
	Count() int
	// Words is the number of words in the bodies of the notes counted.
	Words() int64
	Span() int
	Postings(term string) ([]token.Posting, error)
	Info(doc uint32) corpus.DocInfo
	// DocWords is Info(doc).Words, read alone: the tuned ranker needs it
	// for every posting of every scored term.
	DocWords(doc uint32) int
	Note(doc uint32) (corpus.Note, error)
	// Links returns the documents a note links to, in the order the links
	// first appear in it, each once; a key held in both layers yields both.
	Links(doc uint32) ([]uint32, error)
}

// Parted is a corpus made of several stores' (a union of them): its notes'
// NameRank orders them within their own store only, and ByName orders any
// two as NameRank would in one store holding both, so the last tie-break
// is the one that store would make.
type Parted interface {
	ByName(a, b uint32) int
}

// Query is one question, possibly asked several ways.
type Query struct {
	Phrasings []string
	Roots     int         // how many ranked notes to print; the rest are counted
	Layer     vault.Layer // 0 for both layers
	Type      string      // "" for every type; filters ranked notes only
	Ranker    Ranker      // "" is the baseline; commands pass ParseRanker's choice
	// Explain sets each hit's Explanation: a ranked note's score term by
	// term, a linked note's origin.
	Explain bool
	// Keep, when set, decides which notes may appear at all, ranked or
	// linked (proof records hide what is retracted).
	Keep func(doc uint32, info corpus.DocInfo) bool
	// Only, when set, decides which notes may be ranked, as Type does (a
	// filter on tags, folder or time); linked notes are shown wherever
	// they are. Rarity is still the whole store's.
	Only func(doc uint32) bool
}

// ranks reports whether an admitted note may be ranked.
func (q Query) ranks(doc uint32, info corpus.DocInfo) bool {
	return (q.Type == "" || info.Type == q.Type) && (q.Only == nil || q.Only(doc))
}

// admits reports whether a note may appear in the answer at all.
func (q Query) admits(doc uint32, info corpus.DocInfo) bool {
	return info.Present && (q.Layer == 0 || info.Layer == q.Layer) && (q.Keep == nil || q.Keep(doc, info))
}

// DefaultRoots is the budget of ranked notes per answer.
const DefaultRoots = 8

// Hit is one note in an answer. Its position in Result.Hits is its rank;
// there is no second copy of the ranking to keep in step.
type Hit struct {
	Doc    uint32
	Note   corpus.Note
	Depth  int   // 0 for a ranked note, 1 for a note one link away from it
	Parent int   // index in Result.Hits of the ranked note that reached this one; -1 on ranked notes
	Score  int64 // thousandths; 0 on neighbours
	// Coverage is the share of the question's meaningful weight the note
	// holds (see weight), 0–1 in thousandths; ranked notes only.
	Coverage float64
	// Matched lists the question's terms the note holds, in question
	// order; set on ranked notes only.
	Matched []string
	// MoreLinked counts, on a ranked note, the notes it links to that the
	// answer lists nowhere: those past MaxNeighbours.
	MoreLinked int
	// Retracted is the day a proof record was retracted, when it is on or
	// before the answer's moment; the tree marks it.
	Retracted vault.Date
	// Explain says why the note is in the answer, when the query asked.
	Explain *Explanation
}

// Result is the answer to a Query.
type Result struct {
	// Question is the question and its phrasings as parsed, each term's
	// notes counted (DF) as the ranker reads them.
	Question Question
	Count    int // notes in the corpus, the n of rarity
	Hits     []Hit
	Omitted  int // matching notes beyond the budget, never silently dropped
	// FilteredOut counts the notes holding a word of the question that the
	// query's filters (layer, type, Keep) left out, so an answer emptied by
	// a filter says so rather than that the store holds nothing.
	FilteredOut int
	StoreEmpty  bool // the corpus holds no notes at all
	// Verdict says whether the first ranked notes answer the question.
	Verdict Verdict
	// Uncovered are the question's own meaningful words, as written, that
	// none of the notes the verdict read holds (its phrasings' when the
	// question's own are all held); set when it is Weak.
	Uncovered []string
	// Unheld are the question's own meaningful words no note holds at
	// all; set when the verdict is Weak.
	Unheld []string
	// Leads: the verdict is Answered and the first ranked note stands
	// clearly ahead of the second (see leads).
	Leads bool
	// AsOf is the day a past moment was asked for; "" for now.
	AsOf vault.Date
	// Stores are the stores the answer read beside the one omh runs in,
	// and those it could not read; nil when it read that store alone.
	Stores []Source
}

// QueryTerm is one distinct term of a question.
type QueryTerm struct {
	Term string // as indexed
	Word string // as first written in the question
	DF   int    // notes holding it
	// Meaningful is false for a function word of the question's language
	// (see token.IsFunctionWord): it neither scores nor counts towards
	// coverage while the question holds other words.
	Meaningful bool
	// Name: the question itself writes the word as a name (see isName).
	Name bool
}

// Rarity is the term's weight in ranking, ln((n+1)/df); 0 for a term no
// note holds.
func (r Result) Rarity(t QueryTerm) float64 {
	if t.DF == 0 {
		return 0
	}
	return math.Log(float64(r.Count+1) / float64(t.DF))
}

// Contribution is a matched term's share of a score in thousandths:
// ln((n+1)/df), doubled for an asked term, rounded so that scores are exact
// integers on every machine. The +1 keeps a term held by every note positive
// (rarity orders, it never excludes), and the floor of one thousandth keeps it
// positive after rounding in a large store.
func Contribution(n, df int, asked bool) int64 {
	r := math.Log(float64(n+1) / float64(df))
	if asked {
		r *= 2
	}
	return max(1, int64(math.Round(r*1000)))
}

// Search ranks the corpus against q and expands one hop from each ranked note.
func Search(c Corpus, q Query) (Result, error) {
	asked := ParseQuestion(q.Phrasings)
	res := Result{Question: asked, Count: c.Count()}
	if res.Count == 0 {
		res.StoreEmpty, res.Verdict = true, NoMatch
		return res, nil
	}
	lists, err := readLists(c, asked)
	if err != nil {
		return res, err
	}
	scorer, err := newScorer(q.Ranker, c)
	if err != nil {
		return res, err
	}
	if scorer.reads != nil {
		lists = readable(lists, scorer.reads)
	}
	for i := range asked.Terms {
		asked.Terms[i].DF = len(lists[i])
	}
	res.Question = asked
	scores := asked.scoring(scorer.everyTerm)
	best, scales := bestScores(c, scorer, asked, lists, scores)

	top := &rankHeap{}
	if p, ok := c.(Parted); ok {
		top.byName = p.ByName
	}
	matches := 0
	for doc, score := range best {
		if score == 0 {
			continue
		}
		info := c.Info(uint32(doc))
		if !q.admits(uint32(doc), info) || !q.ranks(uint32(doc), info) {
			if info.Present {
				res.FilteredOut++
			}
			continue
		}
		matches++
		top.keep(ranked{doc: uint32(doc), score: score, day: info.Day, inbound: info.Inbound, nameRank: info.NameRank, scaffold: info.Scaffold}, max(q.Roots, verdictRoots))
	}
	first := make([]ranked, top.Len())
	for i := len(first) - 1; i >= 0; i-- {
		first[i] = heap.Pop(top).(ranked)
	}
	cover := newCoverer(res.Count, asked, lists)
	res.Verdict, res.Unheld, res.Uncovered = cover.verdict(first, asked)
	res.Leads = res.Verdict == Answered && leads(first)
	roots := first[:min(len(first), q.Roots)]
	res.Omitted = matches - len(roots)
	res, err = expand(c, q, roots, res, lists, cover)
	if err != nil || !q.Explain {
		return res, err
	}
	ex := explainer{sc: scorer, asked: asked, scales: scales, lists: lists, scores: scores}
	for i, h := range res.Hits {
		if h.Depth == 0 {
			res.Hits[i].Explain = ex.of(h.Doc)
		} else {
			res.Hits[i].Explain = &Explanation{LinkedFrom: res.Hits[h.Parent].Note.Key}
		}
	}
	return res, nil
}

// readLists reads the posting list of every distinct term of the
// question once, by term.
func readLists(c Corpus, q Question) ([][]token.Posting, error) {
	lists := make([][]token.Posting, len(q.Terms))
	for i, t := range q.Terms {
		list, err := c.Postings(t.Term)
		if err != nil {
			return nil, fmt.Errorf("reading postings of %q: %w", t.Term, err)
		}
		// A store lists a term's notes part by part (committed, then
		// uncommitted), and a note added late may take a low number: put
		// each list in note order, which holds and the coverage rely on.
		if !slices.IsSortedFunc(list, byDoc) {
			list = slices.Clone(list)
			slices.SortFunc(list, byDoc)
		}
		lists[i] = list
	}
	return lists, nil
}

// readable keeps the postings a ranker reads: a note whose only mention is
// in a field the ranker does not read does not hold the term for it.
func readable(lists [][]token.Posting, reads func(token.Posting) bool) [][]token.Posting {
	out := make([][]token.Posting, len(lists))
	for i, list := range lists {
		var kept []token.Posting
		for _, p := range list {
			if reads(p) {
				kept = append(kept, p)
			}
		}
		out[i] = kept
	}
	return out
}

func byDoc(a, b token.Posting) int { return cmp.Compare(a.Doc, b.Doc) }

// holds reports whether a sorted posting list includes doc.
func holds(list []token.Posting, doc uint32) bool {
	i := sort.Search(len(list), func(i int) bool { return list[i].Doc >= doc })
	return i < len(list) && list[i].Doc == doc
}

// bestScores scores every phrasing on its own and fuses the scores: the
// question's own, plus each other phrasing's scaled so that its best note
// scores what the question's best does, times extraWeight. Each phrasing is
// scored alone because pooling their words would let two vague phrasings
// outvote a precise one; each is scaled because a long phrasing's scores run
// higher than a short one's, and it must not win by length alone. A note
// every phrasing ranks first keeps the highest fused score, so adding a
// phrasing never demotes it. With the question alone, the scores are the
// question's.
// It returns the fused scores and each phrasing's scale.
func bestScores(c Corpus, sc scorer, q Question, lists [][]token.Posting, scores []bool) ([]int64, []float64) {
	fused := make([]int64, c.Span())
	scales := make([]float64, len(q.Uses))
	score := make([]int64, c.Span())
	var ref int64 // the best score of the first phrasing that matched, the scale of the rest
	for i, uses := range q.Uses {
		var touched []uint32
		var top int64
		for _, u := range uses {
			list := lists[u.Term]
			if len(list) == 0 || !scores[u.Term] {
				continue
			}
			weigh := sc.term(len(list), u.Count)
			for _, p := range list {
				if score[p.Doc] == 0 {
					touched = append(touched, p.Doc)
				}
				score[p.Doc] += weigh(p)
				top = max(top, score[p.Doc])
			}
		}
		scale := 1.0
		switch {
		case top == 0:
		case ref == 0:
			ref = top
		case i > 0:
			scale = extraWeight * float64(ref) / float64(top)
		}
		scales[i] = scale
		for _, doc := range touched {
			fused[doc] += int64(math.Round(float64(score[doc]) * scale))
			score[doc] = 0
		}
	}
	return fused, scales
}

// leadShare is how far ahead of the second ranked note the first must
// score to stand clearly ahead: by this share of its own score. A reply
// whose first note leads gives it the only full card. On the tune
// questions of the real vaults with phrasings, 0.15 lets 52 of the 84
// answerable questions lead, 2 of them wrongly (the answer on a lower
// note); 0.10 59, 4 wrongly; 0.25 34, none. Without phrasings, where the
// first note is right half as often, 0.15 lets 34 lead, 9 wrongly; a
// stricter share for them (0.25, 0.35) put no answer back on a card and
// made their replies 200 characters longer.
const leadShare = 0.15

// leads reports whether the first of the ranked notes stands clearly
// ahead of the second.
func leads(first []ranked) bool {
	switch len(first) {
	case 0:
		return false
	case 1:
		return true
	}
	return float64(first[1].score) <= (1-leadShare)*float64(first[0].score)
}

// extraWeight is what a phrasing other than the question counts for beside
// the question itself, once both are on one scale. Measured with omh eval on
// the tune questions with agents' extras (hit@1 / R@5 / MRR@10, mean of
// obsidian-help-en, dendron-site and vba-docs): the best phrasing's score
// alone .832/.879/.875; an unweighted sum 1.0 .818/.923/.885; 0.9
// .832/.923/.892; 0.8 and 0.75 .832/.937/.893; 0.7 .817/.937/.884; 0.5
// .789/.923/.863; 1.5, trusting the question less, .832/.930/.888; 0.25 .705/.897/.802; reciprocal-rank fusion (k 60)
// .706/.909/.813, with the question counted twice .706/.866/.797.
const extraWeight = 0.75

// ranked is a candidate with what ordering needs; it holds no pointers, so
// the heap moves it cheaply.
type ranked struct {
	doc          uint32
	score        int64
	day, inbound int
	nameRank     int
	scaffold     bool
}

// before is the answer's order: a note with content before a template's
// bare scaffolding, then score, then the newer note, then the note more of
// the store links to, then name. Layer only separates notes whose key is
// the same, and then by a fixed rule, not as a preference. Scaffolding
// comes last whatever its score: it holds the question's words only in its
// title and headings, the fields that score most, and nothing to read.
func (h *rankHeap) before(a, b ranked) bool {
	if a.scaffold != b.scaffold {
		return b.scaffold
	}
	if a.score != b.score {
		return a.score > b.score
	}
	if a.day != b.day {
		return a.day > b.day
	}
	if a.inbound != b.inbound {
		return a.inbound > b.inbound
	}
	if h.byName != nil {
		return h.byName(a.doc, b.doc) < 0
	}
	return a.nameRank < b.nameRank
}

// rankHeap keeps the best Roots candidates with the worst on top.
type rankHeap struct {
	items []ranked
	// byName orders names across a Parted corpus's stores; nil compares
	// NameRank.
	byName func(a, b uint32) int
}

// keep adds c to the candidates kept, limit at most. A candidate no better
// than the worst kept is turned away before it reaches the heap: a common
// word matches most of a large store (38,000 notes in vba-docs), and each
// push through container/heap's interface allocated the candidate. No two
// candidates are equal under before (names break every tie), so the notes
// kept are the same as pushing each and popping the worst.
func (h *rankHeap) keep(c ranked, limit int) {
	if len(h.items) < limit {
		heap.Push(h, c)
		return
	}
	if h.before(c, h.items[0]) {
		h.items[0] = c
		heap.Fix(h, 0)
	}
}

func (h *rankHeap) Len() int           { return len(h.items) }
func (h *rankHeap) Less(i, j int) bool { return h.before(h.items[j], h.items[i]) }
func (h *rankHeap) Swap(i, j int)      { h.items[i], h.items[j] = h.items[j], h.items[i] }
func (h *rankHeap) Push(x any)         { h.items = append(h.items, x.(ranked)) }
func (h *rankHeap) Pop() any {
	x := h.items[len(h.items)-1]
	h.items = h.items[:len(h.items)-1]
	return x
}

// MaxNeighbours bounds the linked notes listed under one ranked note; the
// rest are counted. A note that links to dozens (a table of contents, a
// keyword summary) listed them all and buried the next ranked note.
const MaxNeighbours = 3

// HubLinks is how many notes a note links to beyond which it is a hub, a
// table of contents: its links say little about any one of them. No note of
// the obsidian and dendron help vaults links to more than 61 notes but
// dendron's changelog (168); vba-docs' api/TOC links to 9,213.
const HubLinks = 100

// expand lists each ranked note followed by up to MaxNeighbours notes it
// links to, in the order its links first appear. A visited set, seeded
// with every ranked note, lists a note reachable from two roots once and
// stops cycles; each neighbour carries its own layer and date. Ranked
// notes claim their neighbours in rank order, hubs last, so a table of
// contents never takes a neighbour from a note that names it for a reason.
func expand(c Corpus, q Query, roots []ranked, res Result, lists [][]token.Posting, cover coverer) (Result, error) {
	visited := make(map[uint32]bool, len(roots))
	for _, r := range roots {
		visited[r.doc] = true
	}
	targets := make([][]uint32, len(roots))
	for i, r := range roots {
		var err error
		if targets[i], err = c.Links(r.doc); err != nil {
			return res, err
		}
	}
	claimed := make([][]uint32, len(roots))
	for _, hubs := range []bool{false, true} {
		for i := range roots {
			if len(targets[i]) > HubLinks != hubs {
				continue
			}
			for _, t := range targets[i] {
				if len(claimed[i]) == MaxNeighbours {
					break
				}
				if !visited[t] && q.admits(t, c.Info(t)) {
					visited[t] = true
					claimed[i] = append(claimed[i], t)
				}
			}
		}
	}
	// What a ranked note links to and the answer lists nowhere is counted.
	more := make([]int, len(roots))
	for i := range roots {
		for _, t := range targets[i] {
			if !visited[t] && q.admits(t, c.Info(t)) {
				more[i]++
			}
		}
	}
	for i, r := range roots {
		note, err := c.Note(r.doc)
		if err != nil {
			return res, err
		}
		parent := len(res.Hits)
		hit := Hit{Doc: r.doc, Note: note, Parent: -1, Score: r.score, MoreLinked: more[i], Coverage: float64(cover.of(r.doc)) / 1000}
		for i, t := range res.Question.Terms {
			if holds(lists[i], r.doc) {
				hit.Matched = append(hit.Matched, t.Term)
			}
		}
		res.Hits = append(res.Hits, hit)
		for _, t := range claimed[i] {
			note, err := c.Note(t)
			if err != nil {
				return res, err
			}
			res.Hits = append(res.Hits, Hit{Doc: t, Note: note, Depth: 1, Parent: parent})
		}
	}
	return res, nil
}
