package store_test

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/omh-notes/omh/reply"
	"github.com/omh-notes/omh/store"
	"github.com/omh-notes/omh/vault"

	"github.com/omh-notes/omh/vault/vaulttest"
)

// lintFindings lints the whole store at dir as omh lint does and returns
// its findings.
func lintFindings(t *testing.T, dir string) []reply.Finding {
	t.Helper()
	s, _ := openStore(t, dir)
	rep, err := s.Lint(nil, false)
	if err != nil {
		t.Fatal(err)
	}
	return rep.Findings
}

// refusedCode is the stable code of a use case's refusal; "" for another
// error or none.
func refusedCode(err error) string {
	var se *store.Error
	if errors.As(err, &se) && se.Kind == store.Refused {
		return se.Code
	}
	return ""
}

// A note longer than the part omh parses as markdown says where the cut
// is (lint: markdown-too-costly), and omh mv of a note it names past the
// cut refuses, saying why, instead of leaving those links dangling.
// Catches: a note of 100,000 links parsed in its first 512 KiB without a
// word (lint counted a third of its links), and mv then refusing with
// "rewriting would change how many links it holds".
func TestANoteCutForMarkdownSaysSoAndMvRefusesToMissItsLinks(t *testing.T) {
	t.Parallel()
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
	s, _ := openStore(t, r.Dir)
	_, err := s.Move("topic/hub", "topic/centre")
	if refusedCode(err) == "" || !strings.Contains(err.Error(), "markdown-too-costly") || !strings.Contains(err.Error(), "many.md") {
		t.Errorf("the move = %v; want a refusal naming many.md and the cut", err)
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
	t.Parallel()
	r := vaulttest.New(t)
	files := map[string]string{"bad\xff.md": "one", "bad\xfe.md": "two", "bad\xef\xbf\xbd.md": "three"}
	for name, word := range files {
		r.Write(name, "# "+word+"\n\nwalrus "+word+"\n")
	}
	r.Commit("2026-01-02T10:00:00Z", "notes")
	blobs := map[string]string{} // key → the blob git holds for its file
	s, _ := openStore(t, r.Dir)
	for key, name := range map[string]string{"bad%FF": "bad\xff.md", "bad%FE": "bad\xfe.md", "bad\ufffd": "bad\xef\xbf\xbd.md"} {
		blobs[key] = r.Git("rev-parse", "HEAD:"+name)
		shown, err := s.Show(key, 0, store.Lines{}, store.DefaultShowChars)
		if err != nil || len(shown.Notes) != 1 || !strings.Contains(shown.Notes[0].Content, "walrus "+files[name]) {
			t.Errorf("show %s does not show %s (%v): %+v", key, name, err, shown)
		}
	}
	a, err := s.Ask(question("walrus"))
	if err != nil {
		t.Fatal(err)
	}
	if len(a.Result.Hits) != 3 {
		t.Fatalf("%d hits, want 3", len(a.Result.Hits))
	}
	for _, h := range a.Result.Hits {
		if want, ok := blobs[h.Note.Key]; !ok || h.Note.Blob.String() != want {
			t.Errorf("hit %s has blob %s, want %s", h.Note.Key, h.Note.Blob, want)
		}
		delete(blobs, h.Note.Key)
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

// Show gives a note past what was indexed, up to 16 MiB, and says where
// the rest is. Catches: show --json of a 500 MB note taking 3.8 GB.
func TestShowPrintsALongNoteUpToItsCap(t *testing.T) {
	t.Parallel()
	r := vaulttest.New(t)
	line := "the walrus swims past the heron\n"
	r.Write("long.md", "# Long\n\n"+strings.Repeat(line, (17<<20)/len(line)))
	r.Commit("2026-01-02T10:00:00Z", "a long note")
	s, warnings := openStore(t, r.Dir)
	shown, err := s.Show("long", 0, store.Lines{}, 1<<30)
	if err != nil || len(shown.Notes) != 1 {
		t.Fatalf("%v: %d notes", err, len(shown.Notes))
	}
	if got := len(shown.Notes[0].Content); got != 16<<20 {
		t.Errorf("show gave %d bytes, want 16 MiB", got)
	}
	if blob := r.Git("rev-parse", "HEAD:long.md"); !strings.Contains(strings.Join(*warnings, "\n"), "git cat-file -p "+blob) {
		t.Errorf("the warning does not say where the rest is: %q", *warnings)
	}
}

// Frontmatter larger than what omh reads is reported as that, not as
// never closed. Catches: 200,000 keys of frontmatter called "frontmatter
// opened on line 1 is never closed".
func TestOversizedFrontmatterIsNotCalledUnclosed(t *testing.T) {
	t.Parallel()
	r := vaulttest.New(t)
	var b strings.Builder
	b.WriteString("---\n")
	for i := 0; b.Len() < 1<<20; i++ {
		fmt.Fprintf(&b, "k%d: v\n", i)
	}
	b.WriteString("---\n# Big\n")
	r.Write("big.md", b.String())
	r.Commit("2026-01-02T10:00:00Z", "notes")
	var rules []string
	for _, f := range lintFindings(t, r.Dir) {
		rules = append(rules, f.Rule+": "+f.Message)
	}
	got := strings.Join(rules, "\n")
	if !strings.Contains(got, "larger than") || strings.Contains(got, "never closed") {
		t.Errorf("lint says:\n%s", got)
	}
}

// A huge note is indexed from its start, with a warning; nothing runs out
// of memory and the note is not skipped.
func TestAHugeNoteIsIndexedInPart(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("writes a 50 MB file")
	}
	r := vaulttest.New(t)
	var b bytes.Buffer
	b.WriteString("# Huge log of quokka sightings\n\n")
	for b.Len() < 50<<20 {
		b.WriteString("line of filler words repeated many times over and over again\n")
	}
	b.WriteString("the very last word is wombat\n")
	r.Write("huge.md", b.String())
	r.Commit("2026-01-01T10:00:00Z", "huge")
	s, warnings := openStore(t, r.Dir)
	a, err := s.Ask(question("quokka"))
	if err != nil || len(a.Result.Hits) == 0 || a.Result.Hits[0].Note.Key != "huge" || a.Result.Hits[0].Note.Layer != vault.Team ||
		!strings.Contains(strings.Join(*warnings, "\n"), "only the first") {
		t.Errorf("%v: %+v, warnings %q", err, a.Result.Hits, *warnings)
	}
	if a, err := s.Ask(question("wombat")); err != nil || len(a.Result.Hits) != 0 || a.Result.StoreEmpty {
		t.Errorf("words past the cut were indexed (%v): %+v", err, a.Result.Hits)
	}
}

// Questions while a note is rewritten in place, again and again
// (truncated, then written in pieces, as many editors save), all answer: a
// note caught half written is read again once, then left out with a
// warning. Catches: "… changed while being read" failing a find with exit
// 3 under concurrent edits.
func TestFindsDuringRewritesOfANoteAllAnswer(t *testing.T) {
	t.Parallel()
	r := vaulttest.New(t)
	r.Write("walrus.md", "# Walrus\n\nThe walrus swims.\n")
	r.Commit("2026-01-02T10:00:00Z", "notes")
	refresh(t, r.Dir)
	path := filepath.Join(r.Dir, "draft.md")
	chunk := []byte(strings.Repeat("the draft swims on and on\n", 4096))
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			default:
			}
			f, err := os.Create(path)
			if err != nil {
				continue
			}
			for j := 0; j < 1+i%4; j++ {
				f.Write(chunk)
			}
			f.Close()
		}
	}()
	failed := 0
	for i := 0; i < 40; i++ {
		if _, _, err := find(r.Dir, question("swims")); err != nil {
			failed++
			t.Errorf("find %d: %v", i, err)
		}
	}
	close(stop)
	<-done
	if failed > 0 {
		t.Errorf("%d of 40 finds failed", failed)
	}
}
