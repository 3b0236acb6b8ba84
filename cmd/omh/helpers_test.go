package main

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/omh-notes/omh/reply"
	"github.com/omh-notes/omh/store"
	"github.com/omh-notes/omh/vault/vaulttest"
)

// result is one run of omh.
type result struct {
	stdout, stderr string
	status         int
}

// omh runs one command line in-process against the repository at dir.
func omh(t *testing.T, dir string, args ...string) result {
	t.Helper()
	var out, errOut bytes.Buffer
	status := run(append([]string{"-C", dir}, args...), strings.NewReader(""), &out, &errOut)
	return result{out.String(), errOut.String(), status}
}

// ok runs omh and fails the test unless it exits 0.
func ok(t *testing.T, dir string, args ...string) string {
	t.Helper()
	r := omh(t, dir, args...)
	if r.status != 0 {
		t.Fatalf("omh %s: exit %d\nstdout: %s\nstderr: %s", strings.Join(args, " "), r.status, r.stdout, r.stderr)
	}
	return r.stdout
}

// findJSON runs `omh find --json` and decodes the reply.
func findJSON(t *testing.T, dir string, args ...string) reply.Answer {
	t.Helper()
	var reply reply.Answer
	out := ok(t, dir, append([]string{"find", "--json"}, args...)...)
	if err := json.Unmarshal([]byte(out), &reply); err != nil {
		t.Fatalf("find --json printed something that is not its reply: %v\n%s", err, out)
	}
	return reply
}

// status runs omh status --json and decodes the reply.
func status(t *testing.T, dir string) store.Status {
	t.Helper()
	var st store.Status
	if err := json.Unmarshal([]byte(ok(t, dir, "status", "--json")), &st); err != nil {
		t.Fatal(err)
	}
	return st
}

// note renders a note file with frontmatter and a body.
func note(frontmatter, body string) string {
	if frontmatter == "" {
		return body
	}
	return "---\n" + frontmatter + "\n---\n" + body
}

// provenanceRepo builds the store the provenance tests need, as a real
// repository: pairwise-distinct dates; both layers among ranked notes and
// among neighbours (a team note's neighbour is local); one key in both
// layers (a committed note with an uncommitted edit); one note reachable
// from two ranked notes; two ranked notes with their own neighbours.
func provenanceRepo(t *testing.T) *vaulttest.Repo {
	r := vaulttest.New(t)
	r.Write(".omh/notes/credentials-are-a-named-volume.md", note("recorded: 2026-06-12",
		"# Credentials are a named volume\n\nSee [[mount-returns-ebusy]] and [[accounts-are-single-path-components]].\n"))
	r.Write(".omh/notes/accounts-are-single-path-components.md", note("recorded: 2026-06-14",
		"# Accounts are single path components\n\nNo slashes in account names.\n"))
	r.Write(".omh/notes/credentials-the-image-ends-unprivileged.md", note("recorded: 2026-07-20",
		"# The image ends unprivileged\n\nWhich is why [[mount-returns-ebusy]] bites, and see [[sandbox-user-is-uid-1000]].\n"))
	r.Commit("2026-07-21T10:00:00Z", "team notes")
	// The same key, edited and not committed: a local note beside the team one.
	r.Write(".omh/notes/credentials-are-a-named-volume.md", note("recorded: 2026-07-02",
		"# Credentials are a named volume\n\nStill true, but see [[mount-returns-ebusy]] and [[accounts-are-single-path-components]].\n"))
	// A new, uncommitted note and a private one.
	r.Write(".omh/notes/sandbox-user-is-uid-1000.md", note("recorded: 2026-05-03", "# The sandbox user is uid 1000\n"))
	vaulttest.WriteFile(t, filepath.Join(r.Private, "mount-returns-ebusy.md"), note("recorded: 2026-08-07",
		"# Mounting returns EBUSY\n\nA bind-mounted file cannot be renamed over.\n"))
	return r
}
