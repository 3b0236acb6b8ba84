package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/omh-notes/omh/reply"
	"github.com/omh-notes/omh/retrieve"
	"github.com/omh-notes/omh/store"
	"github.com/omh-notes/omh/vault/vaulttest"
)

// proofStore is a history of records committed on different days:
//
//	2026-01-10  blob/weights-log; citation/bench-run attaches it; finding/model-load
//	            cites the citation; issue/slow-start; decision/cache-weights
//	2026-02-10  finding/disk-reads supersedes finding/model-load and cites the
//	            citation; decision/preload resolves the issue, derives from
//	            finding/model-load and rejects decision/cache-weights
//	2026-02-20  (private, recorded that day) finding/local-hunch derives from
//	            finding/disk-reads
//	2026-03-10  the citation is retracted; finding/disk-reads attaches
//	            blob/disk-trace directly
//	now         (uncommitted) finding/newest supersedes finding/disk-reads
//
// Every record but the blobs holds the words "cold start"; the blobs hold
// none of them, so they are reached by links only.
type proofStore struct {
	*vaulttest.Repo
	commits map[string]string // day → the commit made that day
}

func newProofStore(t *testing.T) proofStore {
	r := vaulttest.New(t)
	s := proofStore{Repo: r, commits: map[string]string{}}
	rec := func(path, typ, extra, body string) {
		fm := "type: " + typ
		if extra != "" {
			fm += "\n" + extra
		}
		r.Write(".omh/notes/"+path+".md", note(fm, body))
	}
	rec("blob/weights-log", "blob", "", "```\n12:00:01 weights loaded in 4.2 s\n```\n")
	rec("citation/bench-run", "citation", "", "# Bench run\n\nThe nightly cold start benchmark.\n\n- attaches [[blob/weights-log]]\n")
	rec("finding/model-load", "finding", "", "# Cold start waits on the model\n\nCold start is slow: loading the model.\n\n- cites [[citation/bench-run]]\n")
	rec("issue/slow-start", "issue", "", "# Slow cold start\n\nCold start takes seconds.\n")
	rec("decision/cache-weights", "decision", "", "# Cache the weights\n\nCache weights to speed cold start.\n")
	s.commits["2026-01-10"] = r.Commit("2026-01-10T12:00:00+01:00", "first records")
	rec("finding/disk-reads", "finding", "", "# Cold start waits on disk\n\nCold start is slow because of disk reads.\n\n- supersedes [[finding/model-load]]\n- cites [[citation/bench-run]]\n")
	rec("decision/preload", "decision", "", "# Preload at boot\n\nPreload so cold start is fast.\n\n- resolves [[issue/slow-start]]\n- derives_from [[finding/model-load]]\n- rejects [[decision/cache-weights]]\n")
	s.commits["2026-02-10"] = r.Commit("2026-02-10T12:00:00-05:00", "disk reads")
	vaulttest.WriteFile(t, filepath.Join(r.Private, "finding/local-hunch.md"), note("type: finding\nrecorded: 2026-02-20",
		"# A hunch about cold start\n\nCold start may be the page cache.\n\n- derives_from [[finding/disk-reads]]\n"))
	rec("citation/bench-run", "citation", "retracted: 2026-03-10\nretracted_reason: the machine was misconfigured",
		"# Bench run\n\nThe nightly cold start benchmark.\n\n- attaches [[blob/weights-log]]\n")
	rec("blob/disk-trace", "blob", "", "read 3 GB in 3.9 s\n")
	rec("finding/disk-reads", "finding", "", "# Cold start waits on disk\n\nCold start is slow because of disk reads.\n\n- supersedes [[finding/model-load]]\n- cites [[citation/bench-run]]\n- attaches [[blob/disk-trace]]\n")
	s.commits["2026-03-10"] = r.Commit("2026-03-10T23:30:00+00:00", "retract the bench run")
	rec("finding/newest", "finding", "recorded: 2026-11-01", "# Cold start, the newest view\n\nCold start is fine now.\n\n- supersedes [[finding/disk-reads]]\n")
	return s
}

// proofHit is what a test compares of one hit: who, how deep, where it stands.
type proofHit struct {
	Key, State, Issue string
	By, ResolvedBy    []string
	Depth             int
	Retracted         string
}

func (h proofHit) String() string {
	s := fmt.Sprintf("%s d%d %s", h.Key, h.Depth, h.State)
	if len(h.By) > 0 {
		s += " by " + strings.Join(h.By, ",")
	}
	if h.Retracted != "" {
		s += " " + h.Retracted
	}
	if h.Issue != "" {
		s += " " + h.Issue
	}
	if len(h.ResolvedBy) > 0 {
		s += " by " + strings.Join(h.ResolvedBy, ",")
	}
	return s
}

// proofReply runs omh proof find --json and decodes it.
func proofReply(t *testing.T, dir string, args ...string) reply.Cards {
	t.Helper()
	out := ok(t, dir, append([]string{"proof", "find", "--json", "--roots", "20"}, args...)...)
	var reply reply.Cards
	if err := json.Unmarshal([]byte(out), &reply); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	return reply
}

func hitSet(reply reply.Cards) []string {
	var out []string
	for _, h := range reply.Hits {
		out = append(out, proofHit{Key: h.Key, State: h.State, Issue: h.Issue, By: h.By, ResolvedBy: h.ResolvedBy, Depth: h.Depth, Retracted: h.Retracted}.String())
	}
	sort.Strings(out)
	return out
}

// blobLines maps each card to the blob it quotes, with the citation it came
// through.
func blobLines(reply reply.Cards) map[string]string {
	out := map[string]string{}
	for _, h := range reply.Hits {
		if q := h.BlobQuote; q != nil {
			out[h.Key] = q.Key + " via " + q.Via
		}
	}
	return out
}

// inSets lists each ranked card's links in, as "key verb (retracted DATE)".
func inSets(reply reply.Cards) map[string][]string {
	out := map[string][]string{}
	for _, h := range reply.Hits {
		if h.Depth != 0 || len(h.In) == 0 {
			continue
		}
		var in []string
		for _, r := range h.In {
			s := r.Key + " " + r.Verb
			if r.Retracted != "" {
				s += " (retracted " + r.Retracted + ")"
			}
			in = append(in, strings.TrimSpace(s))
		}
		sort.Strings(in)
		out[h.Key] = in
	}
	return out
}

// rankOf is a ranked card's position in the reply, from 1.
// fullRanks is how many ranked cards of a reply are full, by its verdict:
// the one that leads clearly, three close ones, two weak ones, none of
// notes sharing only common words; the others are one line.
func fullRanks(r reply.Cards) int {
	switch {
	case r.Verdict == "answered" && r.Leads:
		return 1
	case r.Verdict == "answered":
		return 3
	case r.Verdict == "weak":
		return 2
	}
	return 0
}

func rankOf(reply reply.Cards, key string) int {
	n := 0
	for _, h := range reply.Hits {
		if h.Depth == 0 {
			n++
			if h.Key == key {
				return n
			}
		}
	}
	return 0
}

// owner is the first ranked card of the reply among candidates: the one a
// blob is quoted on, since no blob is quoted twice.
func owner(reply reply.Cards, candidates ...string) string {
	for _, h := range reply.Hits {
		for _, c := range candidates {
			if h.Depth == 0 && h.Key == c {
				return c
			}
		}
	}
	return ""
}

func TestProofFindAtEachMomentAndRetractionMode(t *testing.T) {
	t.Parallel()
	s := newProofStore(t)
	const q = "cold start"
	type want struct {
		hits  []string
		blobs func(reply.Cards) map[string]string
		in    map[string][]string
	}
	noBlobs := func(reply.Cards) map[string]string { return map[string]string{} }
	// Before the retraction every record resting on the citation may quote
	// its blob; the first ranked one does.
	viaCitation := func(candidates ...string) func(reply.Cards) map[string]string {
		return func(r reply.Cards) map[string]string {
			o := owner(r, candidates...)
			if o == "citation/bench-run" {
				return map[string]string{o: "blob/weights-log via "}
			}
			return map[string]string{o: "blob/weights-log via citation/bench-run"}
		}
	}
	january := []string{
		"citation/bench-run d0 current", "decision/cache-weights d0 current", "finding/model-load d0 current",
		"issue/slow-start d0 current open", "blob/weights-log d1 current",
	}
	february := []string{
		"citation/bench-run d0 current", "decision/cache-weights d0 rejected by decision/preload",
		"decision/preload d0 current", "finding/disk-reads d0 current",
		"finding/model-load d0 superseded by finding/disk-reads",
		"issue/slow-start d0 current resolved by decision/preload", "blob/weights-log d1 current",
	}
	februaryIn := map[string][]string{
		"citation/bench-run":     {"finding/disk-reads cites", "finding/model-load cites"},
		"decision/cache-weights": {"decision/preload rejects"},
		"finding/model-load":     {"decision/preload derives_from", "finding/disk-reads supersedes"},
		"issue/slow-start":       {"decision/preload resolves"},
	}
	withHunch := func(hits []string, in map[string][]string) ([]string, map[string][]string) {
		hits = append(append([]string{}, hits...), "finding/local-hunch d0 current")
		in2 := map[string][]string{"finding/disk-reads": {"finding/local-hunch derives_from"}}
		for k, v := range in {
			in2[k] = v
		}
		return hits, in2
	}
	febHunch, febHunchIn := withHunch(february, februaryIn)
	march := []string{
		"decision/cache-weights d0 rejected by decision/preload", "decision/preload d0 current",
		"finding/disk-reads d0 current", "finding/local-hunch d0 current",
		"finding/model-load d0 superseded by finding/disk-reads",
		"issue/slow-start d0 current resolved by decision/preload", "blob/disk-trace d1 current",
	}
	marchIn := map[string][]string{
		"decision/cache-weights": {"decision/preload rejects"},
		"finding/disk-reads":     {"finding/local-hunch derives_from"},
		"finding/model-load":     {"decision/preload derives_from", "finding/disk-reads supersedes"},
		"issue/slow-start":       {"decision/preload resolves"},
	}
	marchIncluded := append(append([]string{}, march...), "citation/bench-run d0 retracted 2026-03-10", "blob/weights-log d1 current")
	marchIncludedIn := map[string][]string{
		"citation/bench-run": {"finding/disk-reads cites", "finding/model-load cites"},
	}
	for k, v := range marchIn {
		marchIncludedIn[k] = v
	}
	directOnly := func(reply.Cards) map[string]string {
		return map[string]string{"finding/disk-reads": "blob/disk-trace via "}
	}
	marchBlobsIncluded := func(reply.Cards) map[string]string {
		return map[string]string{"finding/disk-reads": "blob/disk-trace via ", "citation/bench-run": "blob/weights-log via "}
	}
	for _, tc := range []struct {
		asOf, mode string
		want       want
	}{
		{"2026-01-20", "exclude", want{january, viaCitation("citation/bench-run", "finding/model-load"), map[string][]string{"citation/bench-run": {"finding/model-load cites"}}}},
		{"2026-01-20", "include", want{january, viaCitation("citation/bench-run", "finding/model-load"), map[string][]string{"citation/bench-run": {"finding/model-load cites"}}}},
		{"2026-01-20", "only", want{nil, noBlobs, map[string][]string{}}},
		// A commit answers for the day it was made: the private hunch,
		// recorded later, is not there yet.
		{s.commits["2026-02-10"][:10], "exclude", want{february, viaCitation("citation/bench-run", "finding/model-load", "finding/disk-reads"), februaryIn}},
		{"2026-02-15", "include", want{february, viaCitation("citation/bench-run", "finding/model-load", "finding/disk-reads"), februaryIn}},
		{"2026-02-25", "exclude", want{febHunch, viaCitation("citation/bench-run", "finding/model-load", "finding/disk-reads"), febHunchIn}},
		// After the retraction: the citation and what only it reached are
		// gone, and no blob is quoted through it.
		{"2026-03-15", "exclude", want{march, directOnly, marchIn}},
		{"2026-03-15", "include", want{marchIncluded, marchBlobsIncluded, marchIncludedIn}},
		{"2026-03-15", "only", want{[]string{"citation/bench-run d0 retracted 2026-03-10"},
			func(reply.Cards) map[string]string {
				return map[string]string{"citation/bench-run": "blob/weights-log via "}
			},
			map[string][]string{"citation/bench-run": {"finding/disk-reads cites", "finding/model-load cites"}}}},
	} {
		t.Run(tc.asOf+"/"+tc.mode, func(t *testing.T) {
			reply := proofReply(t, s.Dir, "--as-of", tc.asOf, "--retracted", tc.mode, q)
			wantHits := append([]string{}, tc.want.hits...)
			sort.Strings(wantHits)
			if got := hitSet(reply); !reflect.DeepEqual(got, wantHits) && !(len(got) == 0 && len(wantHits) == 0) {
				t.Errorf("hits:\n got %q\nwant %q", got, wantHits)
			}
			// One-line cards quote no blob.
			want := map[string]string{}
			for k, v := range tc.want.blobs(reply) {
				if rankOf(reply, k) <= fullRanks(reply) {
					want[k] = v
				}
			}
			if got := blobLines(reply); !reflect.DeepEqual(got, want) {
				t.Errorf("blob lines: got %v, want %v", got, want)
			}
			if got := inSets(reply); !reflect.DeepEqual(got, tc.want.in) {
				t.Errorf("in lines:\n got %v\nwant %v", got, tc.want.in)
			}
			day := tc.asOf
			if len(day) != 10 || day[4] != '-' {
				day = "2026-02-10"
			}
			// After the retraction, what cites the citation says so, in every mode.
			for _, h := range reply.Hits {
				var stale []string
				for _, r := range h.CitesRetracted {
					stale = append(stale, r.Verb+" "+r.Key+" "+r.Retracted)
				}
				var want []string
				if day >= "2026-03-10" && (h.Key == "finding/model-load" || h.Key == "finding/disk-reads") {
					want = []string{"cites citation/bench-run 2026-03-10"}
				}
				if !reflect.DeepEqual(stale, want) {
					t.Errorf("%s cites retracted %q, want %q", h.Key, stale, want)
				}
			}
			var at string
			for d := range s.commits {
				if d <= day && d > at {
					at = d
				}
			}
			if reply.Commit == nil || *reply.Commit != s.commits[at] || reply.AsOf != day {
				t.Errorf("answered at %v as of %q, want %s as of %s", reply.Commit, reply.AsOf, s.commits[at], day)
			}
			// The blob id is the git blob id of the file at that commit.
			for _, h := range reply.Hits {
				if q := h.BlobQuote; q != nil {
					if id := s.Git("rev-parse", s.commits[at]+":.omh/notes/"+q.Key+".md"); q.ID != id {
						t.Errorf("%s quotes %s as blob %s; git says %s", h.Key, q.Key, q.ID, id)
					}
				}
			}
			cardsAgreeWithJSON(t, s.Dir, reply, "proof", "find", "--roots", "20", "--as-of", tc.asOf, "--retracted", tc.mode, q)
		})
	}
}

// cardsAgreeWithJSON checks the printed cards show what the JSON says:
// each header's state, each blob line, a retraction mark on every retracted
// end of an in: line.
func cardsAgreeWithJSON(t *testing.T, dir string, reply reply.Cards, args ...string) {
	t.Helper()
	text := ok(t, dir, args...)
	headers := map[string]string{}
	blobs := map[string]string{}
	stale := map[string][]string{}
	var card string
	header := regexp.MustCompile(`^(\S+)  (\w+) · (team|local) · (\d{4}-\d{2}-\d{2})(?: · (.*?))?(?:  L\d+(?:-\d+)? > .*)?$`)
	for _, line := range strings.Split(text, "\n") {
		if m := header.FindStringSubmatch(line); m != nil {
			card = m[1]
			headers[card] = m[5]
		}
		if rest, ok := strings.CutPrefix(line, "  cites retracted "); ok {
			stale[card] = append(stale[card], rest)
		}
		if rest, ok := strings.CutPrefix(line, "  blob "); ok {
			id, _, _ := strings.Cut(rest, ":")
			blobs[card] = id
		}
		if rest, ok := strings.CutPrefix(line, "  in: "); ok {
			for _, h := range reply.Hits {
				for _, r := range h.In {
					if h.Key == card && r.Retracted != "" && strings.Contains(rest, r.Key) && !strings.Contains(rest, r.Key+" (retracted "+r.Retracted+")") {
						t.Errorf("%s: in: line does not mark %s retracted: %s", card, r.Key, rest)
					}
				}
			}
		}
	}
	for _, h := range reply.Hits {
		label := h.State
		if h.Retracted != "" {
			label = "retracted " + h.Retracted
		} else if len(h.By) > 0 {
			label += " by " + strings.Join(h.By, ", ")
		}
		if h.Issue == "open" {
			label += " · open"
		} else if h.Issue == "resolved" {
			label += " · resolved by " + strings.Join(h.ResolvedBy, ", ")
		}
		if h.Depth == 1 {
			continue // a linked note is named on its card's links line, with no header of its own
		}
		if headers[h.Key] != label {
			t.Errorf("%s: header says %q, JSON %q", h.Key, headers[h.Key], label)
		}
		var want []string
		for _, r := range h.CitesRetracted {
			want = append(want, r.Key+" ("+r.Retracted+")")
		}
		if !reflect.DeepEqual(stale[h.Key], want) {
			t.Errorf("%s: cards say it cites retracted %q, JSON %q", h.Key, stale[h.Key], want)
		}
		if q := h.BlobQuote; q != nil && blobs[h.Key] != q.ID {
			t.Errorf("%s: blob line %q, JSON %q", h.Key, blobs[h.Key], q.ID)
		}
	}
	if len(blobs) != len(blobLines(reply)) {
		t.Errorf("cards quote %d blobs, JSON %d:\n%s", len(blobs), len(blobLines(reply)), text)
	}
}

func TestProofFindNowSeesUncommittedRecords(t *testing.T) {
	t.Parallel()
	s := newProofStore(t)
	reply := proofReply(t, s.Dir, "cold start")
	states := map[string]string{}
	for _, h := range reply.Hits {
		states[h.Key] = h.State + " " + strings.Join(h.By, ",")
	}
	if states["finding/newest"] != "current " || states["finding/disk-reads"] != "superseded finding/newest" {
		t.Errorf("an uncommitted record's verdict is missing now: %v", states)
	}
	// As of the last commit's day, the working copy is "now" and not there.
	past := proofReply(t, s.Dir, "--as-of", "2026-03-10", "cold start")
	for _, h := range past.Hits {
		if h.Key == "finding/newest" || h.Key == "finding/disk-reads" && h.State != "current" {
			t.Errorf("an uncommitted edit leaked into the past: %s %s", h.Key, h.State)
		}
	}
}

func TestProofFindBeforeTheFirstCommitSaysTheStoreDidNotExist(t *testing.T) {
	t.Parallel()
	s := newProofStore(t)
	r := omh(t, s.Dir, "proof", "find", "--as-of", "2026-01-09", "cold start")
	if r.status != 0 || r.stdout != "The store did not exist yet on 2026-01-09.\n" {
		t.Errorf("exit %d: %q %q", r.status, r.stdout, r.stderr)
	}
	reply := proofReply(t, s.Dir, "--as-of", "2026-01-09", "cold start")
	if len(reply.Hits) != 0 || reply.Note == "" || reply.Commit != nil || reply.Incomplete {
		t.Errorf("%+v", reply)
	}
}

func TestFindAsOfCarriesStatesOnProofHits(t *testing.T) {
	t.Parallel()
	s := newProofStore(t)
	out := ok(t, s.Dir, "find", "--json", "--roots", "20", "--as-of", "2026-02-25", "cold start")
	var reply reply.Cards
	if err := json.Unmarshal([]byte(out), &reply); err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, h := range reply.Hits {
		got[h.Key] = h.State + " " + strings.Join(h.By, ",")
	}
	if got["finding/model-load"] != "superseded finding/disk-reads" || got["decision/preload"] != "current " {
		t.Errorf("find --json hits lack their states: %v", got)
	}
}

// The tree marks a retracted record as its card does, from the day it
// was retracted.
func TestTheTreeMarksRetractedRecordsFromTheirDay(t *testing.T) {
	t.Parallel()
	s := newProofStore(t)
	for asOf, marked := range map[string]bool{"2026-03-15": true, "2026-03-05": false} {
		tree, err := retrieve.ParseTree(ok(t, s.Dir, "find", "--roots", "20", "--as-of", asOf, "bench run"))
		if err != nil {
			t.Fatal(err)
		}
		found := false
		for _, n := range tree.Notes {
			if n.Key == "citation/bench-run" {
				found = true
				if got := n.Retracted == "2026-03-10"; got != marked {
					t.Errorf("as of %s the tree marks the citation retracted %q", asOf, n.Retracted)
				}
			} else if n.Retracted != "" {
				t.Errorf("as of %s %s is marked retracted", asOf, n.Key)
			}
		}
		if !found {
			t.Errorf("as of %s the citation is not in the tree", asOf)
		}
	}
}

func TestProofShowNamesTheDecidingRecordsWithTheirProvenance(t *testing.T) {
	t.Parallel()
	s := newProofStore(t)
	out := ok(t, s.Dir, "proof", "show", "--json", "--as-of", "2026-02-25", "finding/model-load")
	var shown struct {
		AsOf    string              `json:"as_of"`
		Records []store.ShownRecord `json:"records"`
	}
	if err := json.Unmarshal([]byte(out), &shown); err != nil {
		t.Fatal(err)
	}
	if len(shown.Records) != 1 || shown.AsOf != "2026-02-25" {
		t.Fatalf("%s", out)
	}
	r := shown.Records[0]
	want := []reply.Ref{{Key: "finding/disk-reads", Layer: "team", Date: "2026-02-10", Verb: "supersedes"}}
	if r.State != "superseded" || !reflect.DeepEqual(r.By, want) {
		t.Errorf("state %s by %+v", r.State, r.By)
	}
	var in []string
	for _, ref := range r.In {
		in = append(in, ref.Key+" "+ref.Verb+" "+ref.Layer+" "+ref.Date)
	}
	if want := []string{"finding/disk-reads supersedes team 2026-02-10", "decision/preload derives_from team 2026-02-10"}; !reflect.DeepEqual(in, want) {
		t.Errorf("links in %q, want %q", in, want)
	}
	issue := ok(t, s.Dir, "proof", "show", "issue/slow-start")
	if !strings.Contains(issue, "issue    resolved\n         decision/preload resolves  team · 2026-02-10\n") {
		t.Errorf("an issue's resolution is not shown with its record:\n%s", issue)
	}
	early := ok(t, s.Dir, "proof", "show", "--as-of", "2026-01-20", "issue/slow-start")
	if !strings.Contains(early, "state    current\nissue    open\n") || !strings.HasSuffix(early, " as of 2026-01-20\n") {
		t.Errorf("as of January the issue was open:\n%s", early)
	}
	// The citation, retracted since, shows its reason.
	cit := ok(t, s.Dir, "proof", "show", "citation/bench-run")
	if !strings.Contains(cit, "state    retracted 2026-03-10: the machine was misconfigured\n") {
		t.Errorf("%s", cit)
	}
	if r := omh(t, s.Dir, "proof", "show", "no/such-record"); r.status != 1 {
		t.Errorf("an unknown key: exit %d", r.status)
	}
}

func TestProofRetractEditsOnlyTheFrontmatter(t *testing.T) {
	t.Parallel()
	s := newProofStore(t)
	path := filepath.Join(s.Private, "finding/crlf.md")
	before := "---\r\ntype: finding\r\nrecorded: 2026-11-01\r\n---\r\n# A CRLF finding about cold start\r\n\r\nBody.\r\n"
	vaulttest.WriteFile(t, path, before)
	ok(t, s.Dir, "proof", "retract", "finding/crlf", "--reason", "measured wrong")
	after, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	today := string(testDay)
	want := strings.Replace(before, "---\r\n#", "retracted: "+today+"\r\nretracted_reason: \"measured wrong\"\r\n---\r\n#", 1)
	if string(after) != want {
		t.Errorf("got %q\nwant %q", after, want)
	}
	reply := proofReply(t, s.Dir, "--retracted", "only", "crlf finding")
	if len(reply.Hits) != 1 || reply.Hits[0].Key != "finding/crlf" || reply.Hits[0].Retracted != today {
		t.Errorf("the retraction does not show: %+v", reply.Hits)
	}
	if r := omh(t, s.Dir, "proof", "retract", "finding/crlf", "--reason", "again"); r.status != 1 || !strings.Contains(r.stderr, "already") {
		t.Errorf("a second retraction: exit %d %s", r.status, r.stderr)
	}
}

func TestProofRetractRefusesATeamRecordWithoutTeam(t *testing.T) {
	t.Parallel()
	s := newProofStore(t)
	file := filepath.Join(s.Dir, ".omh/notes/decision/preload.md")
	before, _ := os.ReadFile(file)
	r := omh(t, s.Dir, "proof", "retract", "decision/preload", "--reason", "no")
	if r.status != 1 || !strings.Contains(r.stderr, "--team") {
		t.Errorf("exit %d: %s", r.status, r.stderr)
	}
	if now, _ := os.ReadFile(file); string(now) != string(before) {
		t.Fatal("a refused retraction changed the file")
	}
	ok(t, s.Dir, "proof", "retract", "decision/preload", "--team", "--reason", "superseded by events")
	diff := s.Git("diff", "--no-color", "-U0", "--", ".omh/notes/decision/preload.md")
	var added []string
	for _, line := range strings.Split(diff, "\n") {
		if strings.HasPrefix(line, "+") && !strings.HasPrefix(line, "+++") {
			added = append(added, line)
		}
		if strings.HasPrefix(line, "-") && !strings.HasPrefix(line, "---") {
			t.Errorf("a line was removed: %s", line)
		}
	}
	if want := []string{"+retracted: " + string(testDay), `+retracted_reason: "superseded by events"`}; !reflect.DeepEqual(added, want) {
		t.Errorf("git diff adds %q, want %q", added, want)
	}
	if r := omh(t, s.Dir, "proof", "retract", "issue/../x", "--reason", "x"); r.status != 1 {
		t.Errorf("a bad key: exit %d", r.status)
	}
	s.Write(".omh/notes/plain.md", "# Plain\n")
	if r := omh(t, s.Dir, "proof", "retract", "plain", "--reason", "x"); r.status != 1 || !strings.Contains(r.stderr, "not a proof record") {
		t.Errorf("a plain note: exit %d %s", r.status, r.stderr)
	}
}
