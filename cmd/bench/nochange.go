package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"
)

func (b *bench) findArgs(q question, noWorktree bool) []string {
	args := []string{"find"}
	if noWorktree {
		args = append(args, "--no-worktree")
	}
	return append(args, q.Words...)
}

// ftsMatch quotes each word and ORs them: the loosest bm25 question, the
// same bag of words omh and rg get.
func ftsMatch(q question) string {
	quoted := make([]string, len(q.Words))
	for i, w := range q.Words {
		quoted[i] = `"` + strings.ReplaceAll(w, `"`, `""`) + `"`
	}
	return strings.Join(quoted, " OR ")
}

// call is one timed command of the no-change phase.
type call struct {
	tool   string
	name   string
	args   []string
	okExit []int
}

// calls lists, for one question, the command each tool runs.
func (b *bench) calls(q question) []call {
	var out []call
	for _, o := range b.omhs() {
		tree := b.findArgs(q, false)
		out = append(out, call{o.label, o.path, tree, []int{0}},
			call{o.label + noWorktree, o.path, b.findArgs(q, true), []int{0}},
			call{o.label + cardsFind, o.path, append([]string{"find", "--cards"}, q.Words...), []int{0}},
			call{o.label + cardsNoWT, o.path, append([]string{"find", "--cards", "--no-worktree"}, q.Words...), []int{0}},
			call{o.label + jsonFind, o.path, append([]string{"--json", "find"}, q.Words...), []int{0}})
		if len(q.Also) > 0 {
			args := slices.Clone(tree)
			for _, a := range q.Also {
				args = append(args, "--also", a)
			}
			out = append(out, call{o.label + alsoFind, o.path, args, []int{0}})
		}
	}
	if b.tools.rg != "" {
		args := []string{"-l", "-i", "-w"}
		for _, w := range q.Words {
			args = append(args, "-e", w)
		}
		out = append(out, call{toolRg, b.tools.rg, append(args, b.notesPath()), []int{0, 1}}) // 1: no match
	}
	return append(out, call{toolFTS, b.tools.fts, []string{"query", "-db", b.ftsDB(), "-root", b.notesPath(), ftsMatch(q)}, []int{0}},
		call{toolFTSBare, b.tools.fts, []string{"query", "-bare", "-db", b.ftsDB(), "-root", b.notesPath(), ftsMatch(q)}, []int{0}})
}

// roundCalls are timed once per round, beside the questions.
func (b *bench) roundCalls() []call {
	var out []call
	for _, o := range b.omhs() {
		out = append(out, call{o.label + statusCall, o.path, []string{"status", "--json"}, []int{0}})
	}
	return append(out,
		call{toolGitStatus, "git", []string{"status", "--porcelain"}, []int{0}},
		call{toolTrue, b.tools.noop, nil, []int{0}}, // the floor every tool stands on
	)
}

// noChange times every tool on every question with nothing changed since
// the index. The tools take turns inside each round, so a burst of load
// from other work on the machine hits them alike rather than one of them.
func (b *bench) noChange() error {
	st, err := b.omhStatus(b.tools.omh)
	if err != nil {
		return err
	}
	if !st.Fresh {
		b.note("omh status", "not fresh right after omh index")
	}
	beforeStamp := cacheStamp(b.repo)
	times := map[string][][]time.Duration{}
	rss := map[string][]int64{}
	// The machine is shared: a child's CPU time is what its work costs,
	// the wall time what it took; agents pay for the bytes of a reply.
	cpus := map[string][]time.Duration{}
	replies := map[string][]int64{}
	b.res.Questions = make([]questionResult, len(b.qs))
	// One untimed round warms the page cache for every tool and gives the
	// match counts and each tool's peak memory.
	for qi, q := range b.qs {
		qr := &b.res.Questions[qi]
		qr.question, qr.FTSMatch = q, ftsMatch(q)
		if err := b.countOmh(qr); err != nil {
			return err
		}
		for _, c := range b.calls(q) {
			s, err := b.rn.runWithRSS(b.repo, c.name, c.args...)
			if err != nil {
				return err
			}
			if b.accept(c.tool, s, c.okExit...) {
				rss[c.tool] = append(rss[c.tool], s.maxRSSKB)
				switch c.tool {
				case toolRg:
					qr.RgFiles = s.lines()
				case toolFTS:
					qr.FTSRows = s.lines()
				}
			}
		}
	}
	start := time.Now()
	for run := 0; run < b.cfg.runs; run++ {
		fmt.Fprintf(os.Stderr, "\r  round %d/%d (%.0f s so far)", run+1, b.cfg.runs, time.Since(start).Seconds())
		for qi, q := range b.qs {
			for _, c := range b.calls(q) {
				s, err := b.rn.run(b.repo, nil, c.name, c.args...)
				if err != nil {
					return err
				}
				if !b.accept(c.tool, s, c.okExit...) {
					continue
				}
				if times[c.tool] == nil {
					times[c.tool] = make([][]time.Duration, len(b.qs))
				}
				times[c.tool][qi] = append(times[c.tool][qi], s.wall)
				cpus[c.tool] = append(cpus[c.tool], s.cpu)
				replies[c.tool] = append(replies[c.tool], int64(len(s.stdout)))
			}
		}
		for _, c := range b.roundCalls() {
			s, err := b.rn.run(b.repo, nil, c.name, c.args...)
			if err != nil {
				return err
			}
			if b.accept(c.tool, s, c.okExit...) {
				times[c.tool] = append(times[c.tool], []time.Duration{s.wall})
			}
		}
	}
	fmt.Fprintln(os.Stderr)
	b.summarizeNoChange(times, rss)
	b.res.CPU, b.res.ReplyBytes = map[string]stats{}, map[string]int64{}
	for tool, ds := range cpus {
		b.res.CPU[tool] = summarize(ds)
		b.res.ReplyBytes[tool] = medianInt(replies[tool])
	}
	// A question asked of an unchanged store need not write the cache.
	if changed := stampDiff(beforeStamp, cacheStamp(b.repo)); changed != "" {
		b.note("omh find", "cache files were modified by no-change calls: %s", changed)
	}
	return nil
}

// stampDiff names the cache files whose size or modification time differ
// between two stamps.
func stampDiff(before, after map[string]fileStamp) string {
	var changed []string
	for name, a := range after {
		bs, ok := before[name]
		switch {
		case !ok:
			changed = append(changed, fmt.Sprintf("%s (new, %d B)", name, a.size))
		case bs != a:
			changed = append(changed, fmt.Sprintf("%s (%d → %d B, mtime moved %s)", name, bs.size, a.size, time.Duration(a.mtime-bs.mtime).Round(time.Millisecond)))
		}
	}
	for name := range before {
		if _, ok := after[name]; !ok {
			changed = append(changed, name+" (removed)")
		}
	}
	sort.Strings(changed)
	return strings.Join(changed, ", ")
}

// countOmh asks omh once for JSON to learn how many notes matched and
// which came first (the note MCP's show and links are timed on).
func (b *bench) countOmh(qr *questionResult) error {
	args := append([]string{"find", "--json"}, qr.Words...)
	s, err := b.rn.run(b.repo, nil, b.tools.omh, args...)
	if err != nil {
		return err
	}
	if !b.accept(toolOmh, s, 0) {
		return nil
	}
	var reply struct {
		Hits []struct {
			Key   string `json:"key"`
			Depth int    `json:"depth"`
		} `json:"hits"`
		Omitted int `json:"omitted"`
	}
	if err := json.Unmarshal(s.stdout, &reply); err != nil {
		return fmt.Errorf("reading omh find --json: %w", err)
	}
	for _, h := range reply.Hits {
		if h.Depth == 0 {
			if qr.OmhRoots == 0 {
				qr.TopKey = h.Key
			}
			qr.OmhRoots++
		}
	}
	qr.OmhHits, qr.OmhMatches = len(reply.Hits), qr.OmhRoots+reply.Omitted
	return nil
}

func (b *bench) summarizeNoChange(times map[string][][]time.Duration, rss map[string][]int64) {
	b.res.Overall = map[string]stats{}
	b.res.MedianRSSKB = map[string]int64{}
	for tool, perQ := range times {
		var all []time.Duration
		for _, ds := range perQ {
			all = append(all, ds...)
		}
		b.res.Overall[tool] = summarize(all)
		if len(perQ) != len(b.qs) {
			continue // a call of each round, not of each question
		}
		b.res.MedianRSSKB[tool] = medianInt(rss[tool])
		for qi, ds := range perQ {
			qr := &b.res.Questions[qi]
			if qr.Tools == nil {
				qr.Tools = map[string]stats{}
			}
			qr.Tools[tool] = summarize(ds)
		}
	}
	omh, omhNWT := b.res.Overall[toolOmh].Median, b.res.Overall[toolOmhNoWT].Median
	b.res.Ratios = map[string]float64{
		"rg/omh":                 ratio(b.res.Overall[toolRg].Median, omh),
		"fts5/omh":               ratio(b.res.Overall[toolFTS].Median, omh),
		"rg/omh --no-worktree":   ratio(b.res.Overall[toolRg].Median, omhNWT),
		"fts5/omh --no-worktree": ratio(b.res.Overall[toolFTS].Median, omhNWT),
	}
}

func medianInt(xs []int64) int64 {
	if len(xs) == 0 {
		return 0
	}
	s := append([]int64(nil), xs...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	return s[len(s)/2]
}

type fileStamp struct{ size, mtime int64 }

// cacheStamp is the sizes and modification times of the cache files by
// name, to notice a command that wrote to the cache.
func cacheStamp(repo string) map[string]fileStamp {
	stamps := map[string]fileStamp{}
	entries, err := os.ReadDir(filepath.Join(repo, ".git", "omh"))
	if err != nil {
		return stamps
	}
	for _, e := range entries {
		if info, err := e.Info(); err == nil {
			stamps[e.Name()] = fileStamp{info.Size(), info.ModTime().UnixNano()}
		}
	}
	return stamps
}
