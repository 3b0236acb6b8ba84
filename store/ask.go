package store

import (
	"errors"
	"fmt"
	"strings"

	"github.com/omh-notes/omh/find"
	"github.com/omh-notes/omh/proof"
	"github.com/omh-notes/omh/reply"
	"github.com/omh-notes/omh/retrieve"
	"github.com/omh-notes/omh/vault"
	"github.com/omh-notes/omh/vault/gitrepo"
)

// Question is a question and how to answer it.
type Question struct {
	// Phrasings are the question, then other ways of asking it; each is
	// scored alone and adds to the question's own score, which counts most.
	Phrasings []string
	Roots     int         // ranked notes in the answer; the rest are counted
	Layer     vault.Layer // 0 for both layers
	Type      string      // only ranked notes of this type; "" for any
	Ranker    retrieve.Ranker
	// NoWorktree leaves uncommitted working copies out, for the fastest
	// answer.
	NoWorktree bool
	// AsOf answers from the store as it stood at a date (YYYY-MM-DD) or a
	// commit; "" is now.
	AsOf string
	// MaxChars is the size the cards aim at.
	MaxChars int
	// Explain gives each hit why it is there: a ranked note's score term
	// by term (field, count, share), a linked note's origin.
	Explain bool
	// Cards builds the reply's cards (passages, links both ways, where each
	// proof record stands), which cards and JSON show and the tree does
	// not need.
	Cards bool
	// Records asks among proof records only, with Retracted saying what to
	// do with withdrawn ones; otherwise every note is asked and retracted
	// records are shown marked.
	Records   bool
	Retracted proof.Retraction
	// Filter narrows which notes are ranked (tags, folder, changed since).
	Filter Filter
	// Stores names the stores that answer ("." the one omh runs in); all
	// of them when empty.
	Stores []string
}

// Answer is what the store answers: the ranked notes with their
// neighbours and, when asked for, their cards.
type Answer struct {
	Result retrieve.Result
	Commit string      // the commit the answer was computed at; "" before the first
	Reply  *find.Reply // the cards; nil unless the question asked for them
	// Absent says, in a sentence, why there is no store to answer from: a
	// moment before the first commit, or past a shallow clone's boundary
	// (then Incomplete). It is an answer, not a failure.
	Absent     string
	Incomplete bool
	asked      string        // the --as-of of an absent answer
	filter     *reply.Filter // the filters asked for, for the JSON answer
}

// Check refuses a malformed question; Ask checks too, and a front end may
// check before it opens anything.
func (q Question) Check() error {
	if len(q.Phrasings) == 0 || strings.TrimSpace(q.Phrasings[0]) == "" {
		return invalid(errors.New("the question is empty"))
	}
	if q.Roots < 0 {
		return invalid(fmt.Errorf("--roots is how many ranked notes to print, 0 or more, not %d", q.Roots))
	}
	if q.MaxChars <= 0 {
		return invalid(fmt.Errorf("--max-chars is the size in characters the reply aims at, 1 or more (%d by default), not %d", DefaultMaxChars, q.MaxChars))
	}
	return nil
}

// Ask answers a question: it ranks the notes, expands one hop along their
// links, and with q.Cards builds their cards, proof records showing where
// they stand at the answer's moment.
func (s *Store) Ask(q Question) (Answer, error) {
	if err := q.Check(); err != nil {
		return Answer{}, err
	}
	var ans Answer
	err := s.readAcross(q.AsOf, Scope{Stores: q.Stores, Layer: q.Layer, NoWorktree: q.NoWorktree}, func(a *across) error {
		sel, err := a.selectNotes(q.Filter, q.Layer, q.Type)
		if err != nil {
			return err
		}
		ans, err = a.ask(q, sel)
		return err
	})
	if err == nil && ans.Result.Question.Cut {
		s.warn("the question and its phrasings hold more than %d distinct words; only the first %d were looked up", retrieve.MaxQueryTerms, retrieve.MaxQueryTerms)
	}
	if absent, ok := absentAnswer(err, q.Phrasings, q.AsOf); ok {
		return absent, nil
	}
	return ans, err
}

// ask answers q from the open snapshots of the stores answering, read as
// one, ranking only the notes sel admits.
func (a *across) ask(q Question, sel selection) (Answer, error) {
	v := a.home
	if sel.none != "" && a.union.Count() > 0 {
		// Nothing to rank: the reply names the filter that left nothing,
		// not the store.
		return Answer{Result: retrieve.Result{Question: retrieve.ParseQuestion(q.Phrasings), Count: a.union.Count(), Verdict: retrieve.NoMatch, AsOf: v.asOf(), Stores: a.sources},
			Commit: v.snap.Commit(), Absent: sel.none, filter: sel.echo}, nil
	}
	// Proof records among the hits show where they stand. A plain question
	// hides nothing: retracted records are marked.
	mode := proof.IncludeRetracted
	if q.Records {
		mode = q.Retracted
	}
	proofs := proof.NewProof(a.union, v.proofDay(), mode)
	rq := retrieve.Query{Phrasings: q.Phrasings, Roots: q.Roots, Layer: q.Layer, Type: q.Type, Ranker: q.Ranker, Explain: q.Explain, Only: sel.only()}
	if q.Records {
		rq.Keep = proofs.KeepRecords
	}
	res, err := retrieve.Search(a.union, rq)
	if err != nil {
		return Answer{}, err
	}
	if err := proofs.DecidersFirst(&res); err != nil {
		return Answer{}, err
	}
	res.AsOf, res.Stores = v.asOf(), a.sources
	for i, h := range res.Hits {
		res.Hits[i].Retracted = proofs.Retracted(h.Doc) // the tree marks them as cards do
	}
	ans := Answer{Result: res, Commit: v.snap.Commit(), filter: sel.echo}
	if q.Records && len(res.Hits) == 0 && res.Omitted == 0 && !res.StoreEmpty && !a.holdsRecords() {
		ans.Absent = "the store holds no proof records yet (notes of the types " + vault.OrList(vault.TypeNames(true)) +
			"); omh new finding TITLE writes one"
		return ans, nil
	}
	if q.Cards {
		reply, err := find.Build(res, ans.Commit, a.union, q.MaxChars, proofs)
		if err != nil {
			return Answer{}, err
		}
		ans.Reply = &reply
	}
	return ans, nil
}

// holdsRecords reports whether the stores hold any proof record, so an
// empty answer among records can say whether there were any to ask.
func (a *across) holdsRecords() bool {
	for d := range a.union.Span() {
		if info := a.union.Info(uint32(d)); info.Present && vault.IsProofType(info.Type) {
			return true
		}
	}
	return false
}

// proofDay is the moment proof records are read at: the day asked for
// with --as-of, else today.
func (v *view) proofDay() vault.Date {
	if day := v.asOf(); day != "" {
		return day
	}
	return v.today
}

// absentAnswer turns the errors that mean "no store at that moment" into
// the answer that says so instead: before the first commit, or past a
// shallow clone's boundary (incomplete).
func absentAnswer(err error, question []string, asOf string) (Answer, bool) {
	a := Answer{Result: retrieve.Result{Question: retrieve.Question{Phrasings: question}, StoreEmpty: true}, asked: asOf}
	switch {
	case errors.Is(err, gitrepo.ErrBeforeHistory):
		a.Absent = "the store did not exist yet on " + asOf
	case errors.Is(err, gitrepo.ErrPastShallow):
		a.Absent, a.Incomplete = "the history of "+asOf+" is not in this clone: it is shallow", true
	default:
		return Answer{}, false
	}
	return a, true
}

// Tree renders the answer for people: one line per note, its provenance,
// neighbours under the note that reached them.
func (a Answer) Tree() string {
	if a.Absent != "" {
		return a.absence()
	}
	return retrieve.RenderTree(a.Result, a.Commit)
}

// Cards renders the answer for agents, one card per note; an answer
// built without cards (the question did not ask for them) renders as the
// tree.
func (a Answer) Cards() string {
	if a.Absent != "" {
		return a.absence()
	}
	if a.Reply == nil {
		return a.Tree()
	}
	return a.Reply.Text()
}

// JSON is the answer for programs (schema_version 1): with cards when the
// question asked for them, else the ranked notes and their neighbours; an
// absent answer says why in its note.
func (a Answer) JSON() reply.Cards {
	var out reply.Cards
	switch {
	case a.Absent != "":
		out.Answer = find.AnswerJSON(a.Result, a.Commit)
		out.Note, out.Incomplete = a.Absent, a.Incomplete
		if day := vault.Date(a.asked); day.Valid() {
			out.AsOf = string(day)
		}
	case a.Reply == nil:
		out.Answer = find.AnswerJSON(a.Result, a.Commit)
	default:
		out = a.Reply.JSON()
	}
	out.SchemaVersion, out.Filter = reply.SchemaVersion, a.filter
	return out
}

// absence is the sentence that stands for the answer, and the commit it was
// read at when there was a store to read.
func (a Answer) absence() string {
	if a.Commit == "" {
		return sentence(a.Absent)
	}
	return sentence(a.Absent) + retrieve.SourceLines(a.Result.Stores) + retrieve.Footer(a.Commit, a.Result.AsOf)
}

// sentence writes a note as a line: a capital first letter, a full stop.
func sentence(note string) string {
	return strings.ToUpper(note[:1]) + note[1:] + ".\n"
}
