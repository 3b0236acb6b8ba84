package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/omh-notes/omh/reply"
	"github.com/omh-notes/omh/store"
	"github.com/omh-notes/omh/vault/vaulttest"
)

// omh links lists links out (in the order written, verbs shown) and in
// (verdicts first), each end with its own layer and date; --in and --out
// keep one side. Catches: the shown note's date printed for its
// neighbours, a local source left out, verbs dropped.
func TestLinksListsBothWaysWithLayersDatesAndVerbs(t *testing.T) {
	t.Parallel()
	r := recordsRepo(t)
	out := ok(t, r.Dir, "links", "issue/login-does-not-persist")
	want := "issue/login-does-not-persist  team · 2026-01-05\n" +
		"links out (1):\n  topic/auth  team · 2026-01-03\n" +
		"links in (3):\n" +
		"  finding/cookie-is-session-only resolves  team · 2026-02-07\n" +
		"  decision/keep-cookies mitigates  local · 2026-04-09\n" +
		"  topic/auth  team · 2026-01-03\n"
	if !strings.HasPrefix(out, want) {
		t.Errorf("got\n%s\nwant\n%s", out, want)
	}
	if in := ok(t, r.Dir, "links", "--in", "issue/login-does-not-persist"); strings.Contains(in, "links out") || !strings.Contains(in, "links in (3)") {
		t.Errorf("--in: %s", in)
	}
	if o := ok(t, r.Dir, "links", "--out", "finding/cookie-is-session-only"); !strings.Contains(o, "  resolves issue/login-does-not-persist  team · 2026-01-05\n  cites topic/auth  team · 2026-01-03\n") ||
		strings.Contains(o, "links in") {
		t.Errorf("--out: %s", o)
	}
	if res := omh(t, r.Dir, "links", "--in", "--out", "topic/auth"); res.status != exitUsage {
		t.Errorf("--in with --out: exit %d", res.status)
	}
}

func TestLinksJSONLeavesOutTheSideNotAskedFor(t *testing.T) {
	t.Parallel()
	r := recordsRepo(t)
	var reply struct {
		Notes []map[string]json.RawMessage
	}
	if err := json.Unmarshal([]byte(ok(t, r.Dir, "--json", "links", "--in", "topic/auth")), &reply); err != nil || len(reply.Notes) != 1 {
		t.Fatalf("%v %+v", err, reply)
	}
	n := reply.Notes[0]
	if _, has := n["links"]; has {
		t.Error("--in printed links out")
	}
	var in []struct{ Key, Layer, Date, Verb string }
	json.Unmarshal(n["in"], &in)
	if len(in) != 2 || in[0].Key != "finding/cookie-is-session-only" || in[0].Verb != "cites" || in[1].Key != "issue/login-does-not-persist" || in[1].Verb != "" {
		t.Errorf("%+v", in)
	}
	if res := omh(t, r.Dir, "links", "nothing/here"); res.status != exitRefused {
		t.Errorf("unknown key: exit %d", res.status)
	}
}

// A link is listed once: to a key a team note and a private note both hold
// (a private note written under a team key before omh new refused it) it
// reaches the team note, and to a committed note with an uncommitted edit
// the working copy; the private note takes none of the team note's links
// in, so none of its standing: a supersedes aimed at the team note leaves
// it current. Catches: omh links listing the supersedes twice and an empty
// private note shown as "superseded by" the team note's successor.
func TestALinkIsListedOnceAndAPrivateNoteTakesNoTeamStanding(t *testing.T) {
	t.Parallel()
	r := vaulttest.New(t)
	r.Write("finding/t5000.md", note("type: finding\nrecorded: 2026-01-01", "# Throughput is 5000\n\n## Claim\n\n5000.\n\n## Evidence\n\nA run.\n\n## Answers\n\n- what is the throughput\n"))
	r.Write("finding/t6000.md", note("type: finding\nrecorded: 2026-01-02", "# Throughput is 6000\n\n## Claim\n\n6000.\n\n## Evidence\n\n- supersedes [[finding/t5000]]\n\n## Answers\n\n- what is the throughput\n"))
	r.Commit("2026-01-02T10:00:00Z", "throughput")
	vaulttest.WriteFile(t, filepath.Join(r.Private, "finding", "t5000.md"), note("type: finding\nrecorded: 2026-02-01", "# Mine\n\n## Claim\n\n## Evidence\n\n## Answers\n"))
	linksOut := func() []reply.Ref {
		t.Helper()
		var rep store.Linked
		if err := json.Unmarshal([]byte(ok(t, r.Dir, "--json", "links", "--out", "finding/t6000")), &rep); err != nil || len(rep.Notes) != 1 {
			t.Fatalf("%v %+v", err, rep)
		}
		return *rep.Notes[0].Links
	}
	if out := linksOut(); len(out) != 1 || out[0].Layer != "team" || out[0].Verb != "supersedes" {
		t.Errorf("links out: %+v", out)
	}
	var recs store.Records
	if err := json.Unmarshal([]byte(ok(t, r.Dir, "--json", "proof", "show", "finding/t5000")), &recs); err != nil {
		t.Fatal(err)
	}
	states := map[string]string{}
	for _, rec := range recs.Records {
		states[rec.Layer] = rec.State
	}
	if states["team"] != "superseded" || states["local"] != "current" {
		t.Errorf("states by layer: %v", states)
	}
	r.Write("finding/t5000.md", note("type: finding\nrecorded: 2026-01-01", "# Throughput is 5000\n\n## Claim\n\n5000, edited.\n"))
	if out := linksOut(); len(out) != 1 || out[0].Layer != "local" {
		t.Errorf("links out with a working copy: %+v", out)
	}
}
