package main

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// afterCommit measures what a question costs right after a commit that
// changed one note, and what `omh index` alone costs for the same, for
// each binary (each keeps its own cache, so each pays its own refresh).
func (b *bench) afterCommit(lastCommit int64) error {
	commitOne, err := b.noteCommitter(lastCommit, 4)
	if err != nil {
		return err
	}
	b.res.AfterCommit = map[string]*afterCommitResult{}
	finds, indexes := map[string][]time.Duration{}, map[string][]time.Duration{}
	var commits []time.Duration
	for i := 0; i < b.cfg.runs; i++ {
		fmt.Fprintf(os.Stderr, "\r  round %d/%d", i+1, b.cfg.runs)
		for _, what := range []string{"find", "index"} {
			d, err := commitOne("bench: one-note commit before "+what, nil)
			if err != nil {
				return err
			}
			commits = append(commits, d)
			for _, o := range b.omhsInTurn(i) {
				ac := b.res.AfterCommit[o.label]
				if ac == nil {
					ac = &afterCommitResult{}
					b.res.AfterCommit[o.label] = ac
				}
				args := b.findArgs(b.qs[i%len(b.qs)], false)
				if what == "index" {
					args = []string{"index", "--json"}
				}
				s, err := b.rn.run(b.repo, nil, o.path, args...)
				if err != nil {
					return err
				}
				if !b.accept(o.label+" "+what+" after commit", s, 0) {
					continue
				}
				if what == "index" {
					indexes[o.label] = append(indexes[o.label], s.wall)
					if st, err := parseStatus(s); err == nil {
						ac.ParsedByIndex = append(ac.ParsedByIndex, st.Parsed)
					}
					continue
				}
				finds[o.label] = append(finds[o.label], s.wall)
				st, err := b.omhStatus(o.path)
				if err != nil {
					return err
				}
				ac.ParsedByFind = append(ac.ParsedByFind, st.Parsed)
				if !st.Fresh {
					b.note(o.label+" find after commit", "status is not fresh after the find")
				}
			}
		}
	}
	fmt.Fprintln(os.Stderr)
	for label, ac := range b.res.AfterCommit {
		ac.Commit, ac.Find, ac.Index = summarize(commits), summarize(finds[label]), summarize(indexes[label])
		for _, p := range slices.Concat(ac.ParsedByFind, ac.ParsedByIndex) {
			if p != 1 {
				b.note(label+" refresh after one-note commit", "parsed %d blobs (expected 1): find %v, index %v", p, ac.ParsedByFind, ac.ParsedByIndex)
				break
			}
		}
	}
	return nil
}

// noteCommitter returns a function that appends a sentence to a note picked
// at random (Zipf: some notes are edited often) and commits it with the
// next fixed date, with extra environment for git; it returns how long
// `git commit` took. stream keeps the phases' choices apart.
func (b *bench) noteCommitter(lastCommit int64, stream uint64) (func(msg string, env []string, gitArgs ...string) (time.Duration, error), error) {
	out, err := b.rn.must(b.repo, nil, "git", "ls-files", "-z", "--", b.notesPath())
	if err != nil {
		return nil, err
	}
	var files []string
	for f := range strings.SplitSeq(out, "\x00") {
		if strings.HasSuffix(f, ".md") {
			files = append(files, f)
		}
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("no notes in the index of %s", b.repo)
	}
	r := rand.New(rand.NewPCG(b.cfg.seed, stream<<40|uint64(len(files))))
	pick := newNotePicker(r, len(files))
	words := newZipfWords(b.vocab, r)
	when := lastCommit
	return func(msg string, env []string, gitArgs ...string) (time.Duration, error) {
		path := files[pick.Uint64()]
		when += 3600
		return b.commitSentence(path, capital(words.phrase(10))+".", when, msg, env, gitArgs...)
	}, nil
}

// commitSentence appends a sentence to one note and commits it with a
// fixed date; it returns how long `git commit` took. gitArgs go before
// "commit" (a -c setting).
func (b *bench) commitSentence(path, sentence string, when int64, msg string, env []string, gitArgs ...string) (time.Duration, error) {
	f, err := os.OpenFile(filepath.Join(b.repo, path), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		return 0, err
	}
	_, err = fmt.Fprintf(f, "\n%s\n", sentence)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return 0, err
	}
	if _, err := b.rn.must(b.repo, nil, "git", "add", "--", path); err != nil {
		return 0, err
	}
	date := fmt.Sprintf("%d +0000", when)
	env = append([]string{"GIT_AUTHOR_DATE=" + date, "GIT_COMMITTER_DATE=" + date}, env...)
	s, err := b.rn.runAndWaitLeft(b.repo, env, "git", append(gitArgs, "commit", "-q", "-m", msg)...)
	if err != nil {
		return 0, err
	}
	if s.exit != 0 {
		return 0, fmt.Errorf("git commit: exit %d: %s", s.exit, strings.TrimSpace(s.stderr))
	}
	return s.wall, nil
}
