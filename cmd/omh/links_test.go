package main

import (
	"encoding/json"
	"strings"
	"testing"
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
