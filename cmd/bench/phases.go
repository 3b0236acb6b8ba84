package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"
)

// Tool names as they appear in tables and JSON. The omh ones are per
// binary: "omh" for the build measured, "base" for the one compared with.
const (
	toolOmh       = "omh"
	toolBase      = "base"
	noWorktree    = " --no-worktree"
	asOfFind      = " --as-of"
	headFind      = " at HEAD"
	statusCall    = " status --json"
	cardsFind     = " --cards"
	cardsNoWT     = " --cards --no-worktree"
	jsonFind      = " --json"
	alsoFind      = " --also ×3"
	versionCall   = " version"
	toolRg        = "rg"
	toolFTS       = "fts5"
	toolFTSBare   = "fts5 bare"
	toolGitStatus = "git status"
	toolTrue      = "true"
	toolOmhNoWT   = toolOmh + noWorktree
	toolOmhStatus = toolOmh + statusCall
)

// bench measures one vault.
type bench struct {
	cfg    config
	tools  tools
	name   string // the vault's name in tables and file names
	repo   string
	root   string // the notes folder, relative to repo; "" for its top
	rn     *runner
	vocab  *vocabulary
	qs     []question
	res    *result
	issues map[string]*issue
}

// omhBin is one omh binary measured, by its label in tables.
type omhBin struct {
	label, path string
}

// omhs are the omh binaries measured: the build, then the base if any.
func (b *bench) omhs() []omhBin {
	out := []omhBin{{toolOmh, b.tools.omh}}
	if b.tools.base != "" {
		out = append(out, omhBin{toolBase, b.tools.base})
	}
	return out
}

// omhsInTurn are the omh binaries in the order round takes them: the one
// first after a change pays for what the change left cold (new objects,
// the page cache), so the order turns each round rather than favouring one.
func (b *bench) omhsInTurn(round int) []omhBin {
	out := b.omhs()
	k := round % len(out)
	return append(out[k:], out[:k]...)
}

// notesPath is the notes folder as a path argument to git, rg and the peer.
func (b *bench) notesPath() string {
	if b.root == "" {
		return "."
	}
	return b.root
}

// issue gathers the unexpected things one tool did (exit status, stderr
// output) so a run with many of them prints one line, not hundreds.
type issue struct {
	count int
	first string
}

// note records one unexpected thing a tool did; the first of each kind is
// printed at once, the rest only counted.
func (b *bench) note(tool, format string, args ...any) {
	is := b.issues[tool]
	if is == nil {
		is = &issue{first: fmt.Sprintf(format, args...)}
		b.issues[tool] = is
		fmt.Fprintf(os.Stderr, "  note: %s: %s\n", tool, is.first)
	}
	is.count++
}

// flushIssues turns the gathered issues into the result's anomaly list.
func (b *bench) flushIssues() {
	names := make([]string, 0, len(b.issues))
	for name := range b.issues {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		is := b.issues[name]
		b.res.Anomalies = append(b.res.Anomalies, fmt.Sprintf("%s (%d times): %s", name, is.count, is.first))
	}
	b.issues = map[string]*issue{}
}

// phase runs fn and records how long it took.
func (b *bench) phase(name string, fn func() error) error {
	fmt.Fprintf(os.Stderr, "%s: %s …\n", b.name, name)
	start := time.Now()
	err := fn()
	b.res.Phases = append(b.res.Phases, phaseTime{name, math.Round(time.Since(start).Seconds()*10) / 10})
	if err != nil {
		return fmt.Errorf("%s, %s: %w", b.name, name, err)
	}
	return nil
}

// accept checks one sample against the exit statuses the tool may use and
// says whether its time counts; omh should also print nothing on stderr
// when nothing is wrong.
func (b *bench) accept(tool string, s sample, okExit ...int) bool {
	for _, code := range okExit {
		if s.exit == code {
			if (strings.HasPrefix(tool, toolOmh) || strings.HasPrefix(tool, toolBase)) && strings.TrimSpace(s.stderr) != "" {
				b.note(tool+" stderr", "%s", firstLine(s.stderr))
			}
			return true
		}
	}
	b.note(tool+" exit", "%s: %s", s.state, firstLine(s.stderr))
	return false
}

func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i] + " …"
	}
	return s
}

// omhStatus is the part of `omh status --json` (and `omh index --json`)
// the benchmark reads.
type omhStatus struct {
	Fresh bool `json:"fresh"`
	Notes struct {
		Team  int `json:"team"`
		Local int `json:"local"`
	} `json:"notes"`
	Uncommitted []string `json:"uncommitted"`
	Parsed      int      `json:"parsed"`
	Cache       struct {
		Path string `json:"path"`
	} `json:"cache"`
}

func parseStatus(s sample) (omhStatus, error) {
	var st omhStatus
	if err := json.Unmarshal(s.stdout, &st); err != nil {
		return st, fmt.Errorf("reading omh's status JSON: %w (%q)", err, firstLine(string(s.stdout)))
	}
	return st, nil
}

func (b *bench) omhStatus(bin string) (omhStatus, error) {
	s, err := b.rn.run(b.repo, nil, bin, "status", "--json")
	if err != nil {
		return omhStatus{}, err
	}
	if s.exit != 0 {
		return omhStatus{}, fmt.Errorf("omh status: exit %d: %s", s.exit, firstLine(s.stderr))
	}
	return parseStatus(s)
}

// coldIndex deletes the cache and times one `omh index`, for each binary;
// then each binary's cache is built again (untimed) where another's cold
// index removed it.
func (b *bench) coldIndex() error {
	b.res.Cold = map[string]coldResult{}
	for _, o := range b.omhs() {
		if err := b.coldIndexOf(o); err != nil {
			return err
		}
	}
	for _, o := range b.omhs() {
		if _, err := b.rn.must(b.repo, nil, o.path, "index"); err != nil {
			return err
		}
	}
	return nil
}

func (b *bench) coldIndexOf(o omhBin) error {
	if err := os.RemoveAll(filepath.Join(b.repo, ".git", "omh")); err != nil {
		return err
	}
	s, err := b.rn.runWithRSS(b.repo, o.path, "index", "--json")
	if err != nil {
		return err
	}
	if s.exit != 0 {
		return fmt.Errorf("%s index failed after %.1f s (%s, peak RSS %s MiB): %s",
			o.label, s.wall.Seconds(), s.state, mib(s.maxRSSKB), strings.TrimSpace(s.stderr))
	}
	st, err := parseStatus(s)
	if err != nil {
		return err
	}
	secs := s.wall.Seconds()
	c := coldResult{
		Seconds: round3(secs), MaxRSSKB: s.maxRSSKB, SecondsPer1000: round3(secs / (float64(b.res.Vault.Notes) / 1000)),
		TeamNotes: st.Notes.Team, LocalNotes: st.Notes.Local, Parsed: st.Parsed, Stderr: strings.TrimSpace(s.stderr),
	}
	if st.Notes.Team != b.res.Vault.Notes {
		b.note(o.label+" index", "indexed %d team notes, the vault has %d", st.Notes.Team, b.res.Vault.Notes)
	}
	if st.Notes.Local != 0 {
		b.note(o.label+" index", "indexed %d local notes in a clean working tree", st.Notes.Local)
	}
	// The first question after a cold index may still pay one-off work.
	f, err := b.rn.run(b.repo, nil, o.path, b.findArgs(b.qs[0], false)...)
	if err != nil {
		return err
	}
	if b.accept(o.label, f, 0) {
		c.FirstFindMS = round2(float64(f.wall.Microseconds()) / 1000)
	}
	b.res.Cold[o.label] = c
	return nil
}

func round3(x float64) float64 { return math.Round(x*1000) / 1000 }

// cacheSizes compares each binary's cache files (the database its status
// names, with its -wal and -shm) with the markdown at HEAD.
func (b *bench) cacheSizes() (map[string]cacheResult, error) {
	md, count, err := b.markdownAtHead()
	if err != nil {
		return nil, err
	}
	out := map[string]cacheResult{}
	for _, o := range b.omhs() {
		st, err := b.omhStatus(o.path)
		if err != nil {
			return nil, err
		}
		total, files, err := dirBytesMatching(filepath.Dir(st.Cache.Path), filepath.Base(st.Cache.Path))
		if err != nil {
			return nil, err
		}
		out[o.label] = cacheResult{CacheBytes: total, Files: files, MarkdownBytes: md, MarkdownFiles: count, Ratio: ratio(float64(total), float64(md))}
	}
	return out, nil
}

// markdownAtHead sums the blob sizes of HEAD's *.md files in the notes
// folder, as git reports them.
func (b *bench) markdownAtHead() (int64, int, error) {
	out, err := b.rn.must(b.repo, nil, "git", "ls-tree", "-r", "-l", "-z", "HEAD", "--", b.notesPath())
	if err != nil {
		return 0, 0, err
	}
	var total int64
	count := 0
	for entry := range strings.SplitSeq(out, "\x00") {
		meta, path, ok := strings.Cut(entry, "\t")
		fields := strings.Fields(meta)
		if !ok || len(fields) != 4 || fields[1] != "blob" || !strings.HasSuffix(path, ".md") {
			continue
		}
		size, err := strconv.ParseInt(fields[3], 10, 64)
		if err != nil {
			return 0, 0, fmt.Errorf("git ls-tree size %q: %w", fields[3], err)
		}
		total += size
		count++
	}
	return total, count, nil
}

// buildFTS makes the FTS5 peer's database from the working tree (not timed
// as a query; its build time is reported for context).
func (b *bench) buildFTS() error {
	db := b.ftsDB()
	start := time.Now()
	if _, err := b.rn.must(b.repo, nil, b.tools.fts, "build", "-db", db, "-root", b.notesPath()); err != nil {
		return err
	}
	size, _, err := dirBytesMatching(filepath.Dir(db), filepath.Base(db))
	if err != nil {
		return err
	}
	b.res.FTS = ftsInfo{DB: db, BuildSeconds: round3(time.Since(start).Seconds()), DBBytes: size}
	return nil
}

// dirBytes sums the sizes of the regular files directly inside dir, by name.
func dirBytes(dir string) (int64, map[string]int64, error) {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return 0, map[string]int64{}, nil
	}
	if err != nil {
		return 0, nil, err
	}
	var total int64
	files := map[string]int64{}
	for _, e := range entries {
		info, err := e.Info()
		if err != nil || !info.Mode().IsRegular() {
			continue
		}
		files[e.Name()] = info.Size()
		total += info.Size()
	}
	return total, files, nil
}

func (b *bench) ftsDB() string { return filepath.Join(b.cfg.work, "fts-"+b.name+".db") }

// dirBytesMatching sums the files of dir whose names start with prefix (a
// database and its -wal and -shm files).
func dirBytesMatching(dir, prefix string) (int64, map[string]int64, error) {
	_, all, err := dirBytes(dir)
	if err != nil {
		return 0, nil, err
	}
	var total int64
	files := map[string]int64{}
	for name, size := range all {
		if strings.HasPrefix(name, prefix) {
			files[name] = size
			total += size
		}
	}
	return total, files, nil
}

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
