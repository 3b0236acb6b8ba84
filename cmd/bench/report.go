package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"
)

// result is everything measured for one N; it is also results-N.json.
type result struct {
	N           int                `json:"n"`
	Seed        uint64             `json:"seed"`
	Runs        int                `json:"runs"`
	Started     string             `json:"started"`
	Machine     machine            `json:"machine"`
	Vault       vaultInfo          `json:"vault"`
	Phases      []phaseTime        `json:"phase_seconds"`
	Cold        coldResult         `json:"cold_index"`
	Cache       cacheResult        `json:"cache_after_cold_index"`
	CacheAfter  cacheResult        `json:"cache_after_commits"`
	FTS         ftsInfo            `json:"fts5"`
	Questions   []questionResult   `json:"questions"`
	Overall     map[string]stats   `json:"no_change"` // by tool, pooled over all questions
	MedianRSSKB map[string]int64   `json:"no_change_median_rss_kib"`
	Ratios      map[string]float64 `json:"ratios"` // peer median / omh median
	AfterCommit afterCommitResult  `json:"after_one_note_commit"`
	Anomalies   []string           `json:"anomalies"`
}

type phaseTime struct {
	Name    string  `json:"name"`
	Seconds float64 `json:"seconds"`
}

type coldResult struct {
	Seconds        float64 `json:"seconds"`
	MaxRSSKB       int64   `json:"max_rss_kib"`
	SecondsPer1000 float64 `json:"seconds_per_1000_notes"`
	TeamNotes      int     `json:"team_notes"`
	LocalNotes     int     `json:"local_notes"`
	Parsed         int     `json:"parsed"`
	FirstFindMS    float64 `json:"first_find_after_ms"`
	Stderr         string  `json:"stderr,omitempty"`
}

type cacheResult struct {
	CacheBytes    int64            `json:"cache_bytes"`
	Files         map[string]int64 `json:"files"`
	MarkdownBytes int64            `json:"markdown_bytes"`
	MarkdownFiles int              `json:"markdown_files"`
	Ratio         float64          `json:"ratio"`
}

type ftsInfo struct {
	DB           string  `json:"db"`
	BuildSeconds float64 `json:"build_seconds"`
	DBBytes      int64   `json:"db_bytes"`
	DDL          string  `json:"ddl"`
	Query        string  `json:"query"`
}

type questionResult struct {
	question
	FTSMatch   string           `json:"fts_match"`
	OmhRoots   int              `json:"omh_roots"`
	OmhHits    int              `json:"omh_hits"`    // roots and their neighbours
	OmhMatches int              `json:"omh_matches"` // roots printed plus omitted
	RgFiles    int              `json:"rg_files"`
	FTSRows    int              `json:"fts_rows"`
	Tools      map[string]stats `json:"tools"`
}

type afterCommitResult struct {
	Commit        stats `json:"git_commit"`
	Find          stats `json:"first_find"`
	Index         stats `json:"index"`
	ParsedByFind  []int `json:"parsed_by_find"`
	ParsedByIndex []int `json:"parsed_by_index"`
}

// machine is what the numbers were measured on.
type machine struct {
	CPU        string `json:"cpu"`
	Cores      int    `json:"cores"`
	MemGiB     string `json:"memory_gib"`
	Kernel     string `json:"kernel"`
	Go         string `json:"go"`
	Git        string `json:"git"`
	Ripgrep    string `json:"ripgrep"`
	SQLite     string `json:"sqlite"`
	Omh        string `json:"omh"`
	OmhBinary  string `json:"omh_binary"`
	OmhSource  string `json:"omh_source,omitempty"`
	BenchBuild string `json:"bench_go"`
}

// machineFacts reads the facts from /proc and the tools themselves;
// whatever cannot be read is left as "?".
func machineFacts(rn *runner, t tools) machine {
	m := machine{Cores: runtime.NumCPU(), BenchBuild: runtime.Version(), OmhBinary: t.omh, OmhSource: t.omhSource}
	m.CPU = procField("/proc/cpuinfo", "model name")
	if kb, err := strconv.ParseFloat(strings.Fields(procField("/proc/meminfo", "MemTotal") + " 0")[0], 64); err == nil && kb > 0 {
		m.MemGiB = fmt.Sprintf("%.1f", kb/(1<<20))
	}
	m.Kernel = firstLine(readFile("/proc/sys/kernel/osrelease"))
	m.Go = toolLine(rn, "go", "version")
	m.Git = toolLine(rn, "git", "--version")
	if t.rg != "" {
		m.Ripgrep = toolLine(rn, t.rg, "--version")
	}
	m.SQLite = toolLine(rn, t.fts, "version")
	m.Omh = toolLine(rn, t.omh, "version")
	return m
}

func readFile(path string) string {
	b, _ := os.ReadFile(path)
	return string(b)
}

// procField returns the value of the first "name: value" line of a /proc file.
func procField(path, name string) string {
	sc := bufio.NewScanner(strings.NewReader(readFile(path)))
	for sc.Scan() {
		k, v, ok := strings.Cut(sc.Text(), ":")
		if ok && strings.TrimSpace(k) == name {
			return strings.TrimSpace(v)
		}
	}
	return "?"
}

func toolLine(rn *runner, name string, args ...string) string {
	out, err := rn.must(".", nil, name, args...)
	if err != nil {
		return "?"
	}
	return firstLine(out)
}

func writeJSONFile(path string, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(path, append(b, '\n'), 0o644)
}

func printMachine(w io.Writer, m machine, t tools) {
	fmt.Fprintln(w, "== machine ==")
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for _, row := range [][2]string{
		{"cpu", fmt.Sprintf("%s, %d cores, %s GiB", m.CPU, m.Cores, m.MemGiB)},
		{"kernel", m.Kernel}, {"go", m.Go}, {"git", m.Git}, {"ripgrep", m.Ripgrep},
		{"sqlite (fts5 peer)", m.SQLite}, {"omh", m.Omh + "  (" + m.OmhBinary + ")"},
	} {
		if row[1] == "" {
			row[1] = "?"
		}
		fmt.Fprintf(tw, "%s\t%s\n", row[0], row[1])
	}
	if m.OmhSource != "" {
		fmt.Fprintf(tw, "omh built from\t%s\n", m.OmhSource)
	}
	tw.Flush()
	fmt.Fprintf(w, "fts5 peer schema and query:\n%s\n", indent(t.ftsDDL, "  "))
	fmt.Fprintln(w)
}

func indent(s, pre string) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	for i := range lines {
		lines[i] = pre + lines[i]
	}
	return strings.Join(lines, "\n")
}

// printResult writes the tables for one N.
func printResult(w io.Writer, r *result) {
	fmt.Fprintf(w, "== N = %s notes (seed %d, %d runs per measurement) ==\n", thousands(int64(r.N)), r.Seed, r.Runs)
	v := r.Vault
	how := fmt.Sprintf("generated in %.1f s", v.GenSeconds)
	if v.Reused {
		how = fmt.Sprintf("reused (first generated in %.1f s)", v.GenSeconds)
	}
	fmt.Fprintf(w, "vault: %s; %s commits; %s notes in %d folders; %s of markdown (median note %s B); head %s\n",
		how, thousands(int64(v.Commits)), thousands(int64(v.Notes)), v.Folders, mb(v.MDBytes), thousands(int64(v.MedianBytes)), v.Head)
	var phases []string
	for _, p := range r.Phases {
		phases = append(phases, fmt.Sprintf("%s %.1f s", p.Name, p.Seconds))
	}
	fmt.Fprintf(w, "phase times: %s\n\n", strings.Join(phases, " · "))

	c := r.Cold
	fmt.Fprintf(w, "1. cold index (rm -r .git/omh; omh index)\n")
	fmt.Fprintf(w, "   wall %.2f s · peak RSS %s MiB · %.3f s per 1,000 notes · %s team notes, %d local, %s blobs parsed\n",
		c.Seconds, mib(c.MaxRSSKB), c.SecondsPer1000, thousands(int64(c.TeamNotes)), c.LocalNotes, thousands(int64(c.Parsed)))
	fmt.Fprintf(w, "   first omh find after it: %.1f ms\n\n", c.FirstFindMS)

	fmt.Fprintf(w, "2. cache size vs markdown\n")
	printCache(w, "after cold index", r.Cache)
	printCache(w, "after the commits", r.CacheAfter)
	fmt.Fprintf(w, "   fts5 peer db: %s (built in %.1f s, not timed below)\n\n", mb(r.FTS.DBBytes), r.FTS.BuildSeconds)

	printQuestions(w, r)

	ac := r.AfterCommit
	fmt.Fprintf(w, "4. after a one-note commit (ms, median / p90 over %d)\n", ac.Find.N)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "   \tmedian\tp90\tmin\tmax\t\n")
	for _, row := range []struct {
		name string
		s    stats
	}{{"first omh find", ac.Find}, {"omh index alone", ac.Index}, {"git commit (context)", ac.Commit}} {
		fmt.Fprintf(tw, "   %s\t%.1f\t%.1f\t%.1f\t%.1f\t\n", row.name, row.s.Median, row.s.P90, row.s.Min, row.s.Max)
	}
	tw.Flush()
	fmt.Fprintf(w, "   blobs parsed by each refresh: find %v, index %v\n\n", ac.ParsedByFind, ac.ParsedByIndex)

	if len(r.Anomalies) == 0 {
		fmt.Fprintf(w, "anomalies: none\n\n")
		return
	}
	fmt.Fprintf(w, "anomalies:\n")
	for _, a := range r.Anomalies {
		fmt.Fprintf(w, "   - %s\n", a)
	}
	fmt.Fprintln(w)
}

func printCache(w io.Writer, when string, c cacheResult) {
	names := make([]string, 0, len(c.Files))
	for name := range c.Files {
		names = append(names, name)
	}
	slices.Sort(names)
	var parts []string
	for _, name := range names {
		parts = append(parts, fmt.Sprintf("%s %s", name, mb(c.Files[name])))
	}
	fmt.Fprintf(w, "   %s: .git/omh %s (%s) vs %s of markdown in %s files at HEAD: ratio %.2f\n",
		when, mb(c.CacheBytes), strings.Join(parts, ", "), mb(c.MarkdownBytes), thousands(int64(c.MarkdownFiles)), c.Ratio)
}

// printQuestions is the no-change table (3 and 5) with the ratios (6).
func printQuestions(w io.Writer, r *result) {
	tools := []string{toolOmh, toolOmhNoWT, toolRg, toolFTS}
	fmt.Fprintf(w, "3/5. no-change queries, one process per call (ms, median / p90 over %d runs each)\n", r.Runs)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "   #\tkind\t%s\tmatches omh/rg/fts\trg/omh\tfts5/omh\n", strings.Join(tools, "\t"))
	for i, q := range r.Questions {
		var cells []string
		for _, t := range tools {
			cells = append(cells, medP90(q.Tools[t]))
		}
		fmt.Fprintf(tw, "   q%d\t%s\t%s\t%d/%d/%d\t%.2f\t%.2f\n", i+1, q.Kind, strings.Join(cells, "\t"),
			q.OmhMatches, q.RgFiles, q.FTSRows,
			ratio(q.Tools[toolRg].Median, q.Tools[toolOmh].Median), ratio(q.Tools[toolFTS].Median, q.Tools[toolOmh].Median))
	}
	var cells []string
	for _, t := range tools {
		cells = append(cells, medP90(r.Overall[t]))
	}
	fmt.Fprintf(tw, "   all\t\t%s\t\t%.2f\t%.2f\n", strings.Join(cells, "\t"), r.Ratios["rg/omh"], r.Ratios["fts5/omh"])
	var rss []string
	for _, t := range tools {
		rss = append(rss, mib(r.MedianRSSKB[t])+" MiB")
	}
	fmt.Fprintf(tw, "   peak RSS\tmedian\t%s\t\t\t\n", strings.Join(rss, "\t"))
	tw.Flush()
	fmt.Fprintf(w, "   omh status --json (freshness check alone): %s ms · starting /bin/true (any process): %s ms\n",
		medP90(r.Overall[toolOmhStatus]), medP90(r.Overall[toolTrue]))
	fmt.Fprintf(w, "6. ratios of medians, all questions: rg/omh %.2f · fts5/omh %.2f · rg/(omh --no-worktree) %.2f · fts5/(omh --no-worktree) %.2f\n",
		r.Ratios["rg/omh"], r.Ratios["fts5/omh"], r.Ratios["rg/omh --no-worktree"], r.Ratios["fts5/omh --no-worktree"])
	fmt.Fprintf(w, "   questions (words; fts5 MATCH string):\n")
	for i, q := range r.Questions {
		fmt.Fprintf(w, "   q%d %-13s %s\n      MATCH %s\n", i+1, q.Kind, strings.Join(q.Words, " "), q.FTSMatch)
	}
	fmt.Fprintln(w)
}

func medP90(s stats) string {
	if s.N == 0 {
		return "-"
	}
	return fmt.Sprintf("%.1f / %.1f", s.Median, s.P90)
}

// printScaling compares the sizes of one run: linear work keeps the
// seconds per 1,000 notes flat.
func printScaling(w io.Writer, rs []*result) {
	if len(rs) == 0 {
		return
	}
	fmt.Fprintln(w, "== scaling across N ==")
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "N\tcold index s\ts / 1k notes\tpeak RSS MiB\tcache/md\tfind med ms\tfind --no-wt med ms\tstatus med ms\tfind after commit med ms\tindex after commit med ms\t\n")
	for _, r := range rs {
		fmt.Fprintf(tw, "%s\t%.2f\t%.3f\t%s\t%.2f\t%.1f\t%.1f\t%.1f\t%.1f\t%.1f\t\n", thousands(int64(r.N)),
			r.Cold.Seconds, r.Cold.SecondsPer1000, mib(r.Cold.MaxRSSKB), r.Cache.Ratio,
			r.Overall[toolOmh].Median, r.Overall[toolOmhNoWT].Median, r.Overall[toolOmhStatus].Median,
			r.AfterCommit.Find.Median, r.AfterCommit.Index.Median)
	}
	tw.Flush()
	if len(rs) > 1 {
		first, last := rs[0], rs[len(rs)-1]
		fmt.Fprintf(w, "cold index seconds per 1,000 notes grew %.2f× from N=%d to N=%d (1.00× is linear)\n",
			ratio(last.Cold.SecondsPer1000, first.Cold.SecondsPer1000), first.N, last.N)
	}
}

func thousands(n int64) string {
	s := strconv.FormatInt(n, 10)
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}

func mb(n int64) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d B", n)
}

func mib(kib int64) string { return fmt.Sprintf("%.0f", float64(kib)/1024) }
