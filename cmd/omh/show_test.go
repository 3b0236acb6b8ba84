package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/omh-notes/omh/store"
	"github.com/omh-notes/omh/vault/vaulttest"
)

// recordsRepo: typed links between records of both layers, with
// pairwise-distinct dates so a date shown under the wrong note is caught.
func recordsRepo(t *testing.T) *vaulttest.Repo {
	r := vaulttest.New(t)
	r.Write("issue/login-does-not-persist.md", "---\ntype: issue\nrecorded: 2026-01-05\nsource: support ticket 12\n---\n# Login does not persist\n\n## Problem\n\nSee [[topic/auth]].\n\n## Answers\n\n- why am I logged out\n")
	r.Write("topic/auth.md", "---\ntype: topic\nrecorded: 2026-01-03\n---\n# Auth\n\n[[issue/login-does-not-persist]]\n")
	r.Write("finding/cookie-is-session-only.md", "---\ntype: finding\nrecorded: 2026-02-07\n---\n# The cookie is session-only\n\n## Claim\n\n## Evidence\n\n- resolves [[issue/login-does-not-persist]]\n- cites [[topic/auth]]\n\n## Answers\n")
	r.Commit("2026-03-01T10:00:00Z", "records")
	vaulttest.WriteFile(t, filepath.Join(r.Private, "decision", "keep-cookies.md"),
		"---\ntype: decision\nrecorded: 2026-04-09\n---\n# Keep cookies\n\n## Decision\n\n## Context\n\n- mitigates [[issue/login-does-not-persist]]\n\n## Answers\n")
	return r
}

// omh show prints a provenance header (key, type, title, layer and where
// the note was read from, date and the rule that gave it, source, path,
// blob), the links out and in with verbs and each end's own layer and
// date, then the content, then the commit. Catches: a neighbour given the
// shown note's layer or date, verbs lost, in links not verdicts first.
func TestShowPrintsProvenanceAndLinksBothWays(t *testing.T) {
	t.Parallel()
	r := recordsRepo(t)
	out := ok(t, r.Dir, "show", "issue/login-does-not-persist")
	head := r.Git("rev-parse", "HEAD")
	for _, want := range []string{
		"issue/login-does-not-persist  team · 2026-01-05\n",
		"type     issue\n",
		"title    Login does not persist\n",
		"layer    team: committed at " + head[:12] + "\n",
		"date     2026-01-05 (from recorded)\n",
		"source   support ticket 12\n",
		"path     issue/login-does-not-persist.md\n",
		"links    topic/auth  team · 2026-01-03\n",
		"in       finding/cookie-is-session-only resolves  team · 2026-02-07\n" +
			"         decision/keep-cookies mitigates  local · 2026-04-09\n" +
			"         topic/auth  team · 2026-01-03\n",
		"\n---\ntype: issue\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("lacks %q:\n%s", want, out)
		}
	}
	if !strings.HasSuffix(out, "- why am I logged out\n@ "+head+"\n") {
		t.Errorf("ends %q", out[len(out)-60:])
	}
	private := ok(t, r.Dir, "show", "decision/keep-cookies")
	if !strings.Contains(private, "layer    local: the private folder, on this machine only\n") ||
		!strings.Contains(private, "links    mitigates issue/login-does-not-persist  team · 2026-01-05\n") ||
		!strings.Contains(private, "in       (none)\n") {
		t.Errorf("%s", private)
	}
}

// The JSON reply carries the same provenance and links.
func TestShowJSONCarriesWhereSourceAndLinks(t *testing.T) {
	t.Parallel()
	r := recordsRepo(t)
	var reply struct {
		SchemaVersion int     `json:"schema_version"`
		Commit        *string `json:"commit"`
		Notes         []store.ShownNote
	}
	if err := json.Unmarshal([]byte(ok(t, r.Dir, "--json", "show", "finding/cookie-is-session-only")), &reply); err != nil {
		t.Fatal(err)
	}
	if reply.SchemaVersion != 1 || reply.Commit == nil || len(reply.Notes) != 1 {
		t.Fatalf("%+v", reply)
	}
	n := reply.Notes[0]
	if n.Where != "head" || n.DateSource != "recorded" || n.Type != "finding" || len(n.Links) != 2 ||
		n.Links[0].Verb != "resolves" || n.Links[0].Date != "2026-01-05" || n.Links[1].Verb != "cites" || len(n.In) != 0 ||
		!strings.HasPrefix(n.Content, "---\ntype: finding") {
		t.Errorf("%+v", n)
	}
}

// An unknown key is refused; when a link written that way would reach a
// note, the refusal names it.
func TestShowSuggestsTheNoteANameReaches(t *testing.T) {
	t.Parallel()
	r := recordsRepo(t)
	res := omh(t, r.Dir, "show", "login-does-not-persist")
	if res.status != exitRefused || !strings.Contains(res.stderr, "did you mean issue/login-does-not-persist?") {
		t.Errorf("exit %d %q", res.status, res.stderr)
	}
}
