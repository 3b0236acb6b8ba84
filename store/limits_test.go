package main

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/omh-notes/omh/vault/vaulttest"
)

// lintFindings runs omh lint --json and returns its findings.
func lintFindings(t *testing.T, dir string) []struct{ Rule, Key, Path, Message string } {
	t.Helper()
	var rep struct {
		Findings []struct{ Rule, Key, Path, Message string }
	}
	res := omh(t, dir, "--json", "lint")
	if err := json.Unmarshal([]byte(res.stdout), &rep); err != nil {
		t.Fatalf("omh lint --json: %v\n%s", err, res.stdout)
	}
	return rep.Findings
}

// A note longer than the part omh parses as markdown says where the cut
// is (lint: markdown-too-costly), and omh mv of a note it names past the
// cut refuses, saying why, instead of leaving those links dangling.
// Catches: a note of 100,000 links parsed in its first 512 KiB without a
// word (lint counted a third of its links), and mv then refusing with
// "rewriting would change how many links it holds".
func TestANoteCutForMarkdownSaysSoAndMvRefusesToMissItsLinks(t *testing.T) {
	r := vaulttest.New(t)
	r.Write("topic/hub.md", "# Hub\n")
	var b strings.Builder
	b.WriteString("# Many links\n\n")
	for i := 0; b.Len() < 700<<10; i++ {
		fmt.Fprintf(&b, "- see [[topic/hub]] and [[missing-%d]]\n", i)
	}
	r.Write("many.md", b.String())
	r.Commit("2026-01-02T10:00:00Z", "notes")
	cutLine := 0
	dangling := 0
	for _, f := range lintFindings(t, r.Dir) {
		switch {
		case f.Key == "many" && f.Rule == "markdown-too-costly":
			cutLine++
			if !strings.Contains(f.Message, "512 KiB") {
				t.Errorf("the cut is reported as %q", f.Message)
			}
		case f.Key == "many" && f.Rule == "dangling-link":
			dangling++
		}
	}
	if cutLine != 1 {
		t.Errorf("lint reports the cut %d times, want once", cutLine)
	}
	before := r.Git("status", "--porcelain")
	res := omh(t, r.Dir, "mv", "topic/hub", "topic/centre")
	if res.status != 1 || !strings.Contains(res.stderr, "markdown-too-costly") || !strings.Contains(res.stderr, "many.md") {
		t.Errorf("omh mv = exit %d: %s; want a refusal naming many.md and the cut", res.status, res.stderr)
	}
	if after := r.Git("status", "--porcelain"); after != before {
		t.Errorf("the refused mv changed the store: %q", after)
	}
	t.Logf("%d dangling links read before the cut", dangling)
}

// Files whose names are not valid UTF-8 get distinct keys (their bad
// bytes written %XX), each hit carries its own file's blob, show reaches
// each by its key, and lint names them. Catches: bad\xff.md, bad\xfe.md
// and bad\xef\xbf\xbd.md answering as three hits with one key, one of them
// with another file's blob, and show reaching only one.
func TestNamesThatAreNotUTF8GetDistinctKeys(t *testing.T) {
	r := vaulttest.New(t)
	files := map[string]string{"bad\xff.md": "one", "bad\xfe.md": "two", "bad\xef\xbf\xbd.md": "three"}
	for name, word := range files {
		r.Write(name, "# "+word+"\n\nwalrus "+word+"\n")
	}
	r.Commit("2026-01-02T10:00:00Z", "notes")
	blobs := map[string]string{} // key → the blob git holds for its file
	for key, name := range map[string]string{"bad%FF": "bad\xff.md", "bad%FE": "bad\xfe.md", "bad\ufffd": "bad\xef\xbf\xbd.md"} {
		blobs[key] = r.Git("rev-parse", "HEAD:"+name)
		if show := ok(t, r.Dir, "show", key); !strings.Contains(show, "walrus "+files[name]) {
			t.Errorf("omh show %s does not show %s:\n%s", key, name, show)
		}
	}
	reply := findJSON(t, r.Dir, "walrus")
	if len(reply.Hits) != 3 {
		t.Fatalf("%d hits, want 3", len(reply.Hits))
	}
	for _, h := range reply.Hits {
		if want, ok := blobs[h.Key]; !ok || h.Blob != want {
			t.Errorf("hit %s has blob %s, want %s", h.Key, h.Blob, want)
		}
		delete(blobs, h.Key)
	}
	named := map[string]bool{}
	for _, f := range lintFindings(t, r.Dir) {
		if f.Rule == "name-not-utf8" {
			named[f.Key] = true
		}
	}
	if len(named) != 2 || !named["bad%FF"] || !named["bad%FE"] {
		t.Errorf("lint's name-not-utf8 names %v, want bad%%FF and bad%%FE", named)
	}
}

// omh show prints a note past what was indexed, up to 16 MiB, and says
// where the rest is. Catches: show --json of a 500 MB note taking 3.8 GB.
func TestShowPrintsALongNoteUpToItsCap(t *testing.T) {
	r := vaulttest.New(t)
	line := "the walrus swims past the heron\n"
	r.Write("long.md", "# Long\n\n"+strings.Repeat(line, (17<<20)/len(line)))
	r.Commit("2026-01-02T10:00:00Z", "a long note")
	res := omh(t, r.Dir, "--json", "show", "long")
	var shown struct{ Notes []struct{ Content string } }
	if err := json.Unmarshal([]byte(res.stdout), &shown); err != nil || len(shown.Notes) != 1 {
		t.Fatalf("%v: %.200s", err, res.stdout)
	}
	if got := len(shown.Notes[0].Content); got != 16<<20 {
		t.Errorf("show printed %d bytes, want 16 MiB", got)
	}
	if blob := r.Git("rev-parse", "HEAD:long.md"); !strings.Contains(res.stderr, "git cat-file -p "+blob) {
		t.Errorf("the warning does not say where the rest is: %q", res.stderr)
	}
}
