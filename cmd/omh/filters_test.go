package main

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/omh-notes/omh/store"
	"github.com/omh-notes/omh/vault/vaulttest"
)

// filtersRepo is a store whose notes differ by tag, folder and commit.
func filtersRepo(t *testing.T) (*vaulttest.Repo, string) {
	r := vaulttest.New(t)
	r.Write("ops/deploy.md", note("tags: [ops, ops/release]", "# Deploy\n\nHow a release is deployed.\n"))
	r.Write("ops/oncall.md", note("tags: [ops]", "# On call\n\nWho answers a release page.\n"))
	r.Write("dev/build.md", "# Build\n\nA release build, #ops/release too.\n")
	first := r.Commit("2026-01-02T10:00:00Z", "first")
	r.Write("dev/test.md", "# Test\n\nTests before a release.\n")
	r.Commit("2026-01-09T10:00:00Z", "second")
	return r, first
}

// omh find and omh proof find take --tag (repeatable), --path and --since,
// together and with --layer; --json names them and how many notes they let
// through; a filter matching nothing answers with the sentence that says
// so and exits 0; a bad --since is refused with bad_since (exit 1). Catches:
// a flag parsed but not passed on, repeated --tag keeping only the last,
// the echo missing from the JSON.
func TestFindTakesTheFilterFlags(t *testing.T) {
	t.Parallel()
	r, first := filtersRepo(t)
	keys := func(args ...string) []string {
		var out []string
		for _, h := range findJSON(t, r.Dir, append(args, "release")...).Hits {
			if h.Depth == 0 {
				out = append(out, h.Key)
			}
		}
		slices.Sort(out)
		return out
	}
	for _, c := range []struct {
		args, want []string
	}{
		{[]string{"--tag", "ops"}, []string{"dev/build", "ops/deploy", "ops/oncall"}},
		{[]string{"--tag", "ops", "--tag", "ops/release"}, []string{"dev/build", "ops/deploy"}},
		{[]string{"--tag", "ops", "--path", "ops/"}, []string{"ops/deploy", "ops/oncall"}},
		{[]string{"--since", "2026-01-05"}, []string{"dev/test"}},
		{[]string{"--since", first, "--path", "dev", "--layer", "team"}, []string{"dev/test"}},
	} {
		if got := keys(c.args...); !slices.Equal(got, c.want) {
			t.Errorf("find %v: %q, want %q", c.args, got, c.want)
		}
	}
	reply := findJSON(t, r.Dir, "--tag", "ops", "--tag", "ops/release", "--path", "dev", "release")
	if f := reply.Filter; f == nil || !slices.Equal(f.Tags, []string{"ops", "ops/release"}) || f.Path != "dev" || f.Notes != 1 {
		t.Errorf("the JSON's filter: %+v", f)
	}
	if out := ok(t, r.Dir, "find", "--tag", "nosuch", "release"); !strings.HasPrefix(out, "No note is tagged `nosuch`.\n@ ") {
		t.Errorf("a tag no note carries: %q", out)
	}
	if out := ok(t, r.Dir, "proof", "find", "--path", "ops", "release"); !strings.HasPrefix(out, "The store holds no proof records yet") {
		t.Errorf("proof find --path: %q", out)
	}
	res := omh(t, r.Dir, "--json", "find", "--since", "last week", "release")
	var e struct {
		Error struct{ Code, Message string }
	}
	if json.Unmarshal([]byte(res.stderr), &e) != nil || e.Error.Code != "bad_since" || res.status != exitRefused {
		t.Errorf("a bad --since: exit %d, %s", res.status, res.stderr)
	}
}

// omh changes prints what changed, newest first, with the commit it runs
// up to last, and --json the same list; --limit and --offset page it and
// the text says where the next page starts; bad paging is a usage error
// (exit 2), a bad --since refused (exit 1). Catches: flags not passed on,
// the text and JSON listing different changes.
func TestChangesCommand(t *testing.T) {
	t.Parallel()
	r, first := filtersRepo(t)
	r.Write("dev/new.md", "Uncommitted.\n")
	var all store.Changes
	if err := json.Unmarshal([]byte(ok(t, r.Dir, "--json", "changes", "--since", first)), &all); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range all.List {
		got = append(got, string(c.Kind)+" "+c.Key)
	}
	if want := []string{"added dev/new", "added dev/test"}; !slices.Equal(got, want) || all.Commit == nil || all.List[0].Commit != nil || !all.List[0].Uncommitted {
		t.Errorf("changes --json: %q (%+v)", got, all)
	}
	text := ok(t, r.Dir, "changes", "--since", first, "--limit", "1")
	lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
	if !strings.HasPrefix(lines[0], "Changes 1-1 of 2 since "+first) || !strings.HasPrefix(lines[1], "dev/new  added · uncommitted") ||
		lines[len(lines)-2] != "… 1 more change; --offset 1 for the next" || lines[len(lines)-1] != "@ "+r.Git("rev-parse", "HEAD") {
		t.Errorf("changes --limit 1:\n%s", text)
	}
	next := ok(t, r.Dir, "changes", "--since", first, "--limit", "1", "--offset", "1")
	if !strings.Contains(next, "\ndev/test  added · 2026-01-09 · Test Author · ") {
		t.Errorf("the next page:\n%s", next)
	}
	if res := omh(t, r.Dir, "changes", "--limit", "-1"); res.status != exitUsage || !strings.Contains(res.stderr, "how many changes") {
		t.Errorf("--limit -1: exit %d", res.status)
	}
	if res := omh(t, r.Dir, "changes", "--since", "someday"); res.status != exitRefused || !strings.Contains(res.stderr, "--since someday") {
		t.Errorf("--since someday: exit %d %s", res.status, res.stderr)
	}
}
