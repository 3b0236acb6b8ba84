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

// result is everything measured on one vault; it is also
// results-NAME.json. Maps by binary are keyed "omh" and "base".
type result struct {
	Name        string                        `json:"name"`
	N           int                           `json:"n"`
	Seed        uint64                        `json:"seed"`
	Runs        int                           `json:"runs"`
	Started     string                        `json:"started"`
	Machine     machine                       `json:"machine"`
	Vault       vaultInfo                     `json:"vault"`
	Phases      []phaseTime                   `json:"phase_seconds"`
	Cold        map[string]coldResult         `json:"cold_index"`
	Cache       map[string]cacheResult        `json:"cache_after_cold_index"`
	CacheAfter  map[string]cacheResult        `json:"cache_after_commits"`
	FTS         ftsInfo                       `json:"fts5"`
	Questions   []questionResult              `json:"questions"`
	Overall     map[string]stats              `json:"no_change"` // by tool, pooled over all questions
	MedianRSSKB map[string]int64              `json:"no_change_median_rss_kib"`
	CPU         map[string]stats              `json:"no_change_cpu"`         // by tool, user + system time
	ReplyBytes  map[string]int64              `json:"no_change_reply_bytes"` // by tool, median bytes of standard output
	MCP         map[string]*mcpResult         `json:"mcp"`                   // by binary
	Ratios      map[string]float64            `json:"ratios"`                // peer median / omh median
	AsOfCommit  string                        `json:"as_of_commit"`
	AfterCommit map[string]*afterCommitResult `json:"after_one_note_commit"`
	Hook        hookResult                    `json:"post_commit_hook"`
	Federated   *federatedResult              `json:"federated,omitempty"`
	Anomalies   []string                      `json:"anomalies"`
}

// hookResult is a one-note `git commit` with and without omh's hook.
type hookResult struct {
	Without stats   `json:"without_hook"`
	With    stats   `json:"with_hook"`
	AddedMS float64 `json:"added_ms"` // difference of the medians
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
	TopKey     string           `json:"top_key"`     // omh's first note
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

// printResult writes the tables for one vault: first the summary, then
// each measurement in detail.
func printResult(w io.Writer, r *result) {
	fmt.Fprintf(w, "== %s: %s notes (seed %d, %d runs per measurement) ==\n", r.Name, thousands(int64(r.N)), r.Seed, r.Runs)
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
	printSummary(w, r)

	labels := binLabels(r)
	fmt.Fprintf(w, "1. cold index (rm -r .git/omh; omh index)\n")
	for _, l := range labels {
		c := r.Cold[l]
		fmt.Fprintf(w, "   %s: wall %.2f s · peak RSS %s MiB · %.3f s per 1,000 notes · %s team notes, %d local, %s blobs parsed · first find after it %.1f ms\n",
			l, c.Seconds, mib(c.MaxRSSKB), c.SecondsPer1000, thousands(int64(c.TeamNotes)), c.LocalNotes, thousands(int64(c.Parsed)), c.FirstFindMS)
		if c.Stderr != "" {
			fmt.Fprintf(w, "      said: %s\n", firstLine(c.Stderr))
		}
	}
	fmt.Fprintln(w)

	fmt.Fprintf(w, "2. cache size vs markdown\n")
	for _, l := range labels {
		printCache(w, l+", after cold index", r.Cache[l])
		printCache(w, l+", after the commits", r.CacheAfter[l])
	}
	fmt.Fprintf(w, "   fts5 peer db: %s (built in %.1f s, not timed below)\n\n", mb(r.FTS.DBBytes), r.FTS.BuildSeconds)

	printQuestions(w, r)

	fmt.Fprintf(w, "4. after a one-note commit (ms)\n")
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "   \tmedian\tp90\tmin\tmax\t\n")
	row := func(name string, s stats) {
		fmt.Fprintf(tw, "   %s\t%.1f\t%.1f\t%.1f\t%.1f\t\n", name, s.Median, s.P90, s.Min, s.Max)
	}
	for _, l := range labels {
		if ac := r.AfterCommit[l]; ac != nil {
			row(l+": first find", ac.Find)
			row(l+": index alone", ac.Index)
		}
	}
	if ac := r.AfterCommit[toolOmh]; ac != nil {
		row("git commit (context)", ac.Commit)
	}
	row("git commit without hooks", r.Hook.Without)
	row("git commit with omh's post-commit hook", r.Hook.With)
	tw.Flush()
	for _, l := range labels {
		if ac := r.AfterCommit[l]; ac != nil {
			fmt.Fprintf(w, "   %s: blobs parsed by each refresh: find %v, index %v\n", l, ac.ParsedByFind, ac.ParsedByIndex)
		}
	}
	fmt.Fprintf(w, "   the hook adds %.1f ms to a one-note git commit (difference of the medians)\n\n", r.Hook.AddedMS)

	fmt.Fprintf(w, "5. warm find --as-of %.12s (the snapshot built by an untimed first call) and start-up (ms)\n", r.AsOfCommit)
	tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "   \tmedian\tp90\tmin\tmax\t\n")
	for _, l := range labels {
		row(l+" find --as-of", r.Overall[l+asOfFind])
		row(l+" find at HEAD, in the same rounds", r.Overall[l+headFind])
		row(l+" version", r.Overall[l+versionCall])
	}
	row("/bin/true", r.Overall[toolTrue+" (start-up)"])
	tw.Flush()
	fmt.Fprintln(w)
	printFederated(w, r.Federated)

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

// binLabels are the omh binaries a result holds, the build first.
func binLabels(r *result) []string {
	out := []string{toolOmh}
	if _, ok := r.Cold[toolBase]; ok {
		out = append(out, toolBase)
	}
	return out
}

// printSummary is the table README's Speed section shows: each binary's
// medians beside the peers'.
func printSummary(w io.Writer, r *result) {
	labels := binLabels(r)
	ms := func(tool string) string {
		s, ok := r.Overall[tool]
		if !ok || s.N == 0 {
			return "-"
		}
		return fmt.Sprintf("%s ms", num(s.Median))
	}
	header := "| " + r.Name + " |"
	rule := "|---|"
	for _, l := range labels {
		header += " " + l + " |"
		rule += "---|"
	}
	fmt.Fprintln(w, header+" peers, same machine |")
	fmt.Fprintln(w, rule+"---|")
	line := func(what string, cell func(l string) string, peer string) {
		fmt.Fprintf(w, "| %s |", what)
		for _, l := range labels {
			fmt.Fprintf(w, " %s |", cell(l))
		}
		fmt.Fprintf(w, " %s |\n", peer)
	}
	md := float64(r.Vault.MDBytes)
	line("`omh find`, nothing changed", func(l string) string { return ms(l) },
		fmt.Sprintf("FTS5 %s (stat of every file, then bm25) · rg %s", ms(toolFTS), ms(toolRg)))
	line("`omh find --no-worktree`", func(l string) string { return ms(l + noWorktree) }, "")
	againstTree := func(variant string) func(l string) string {
		return func(l string) string {
			v, tree := r.Overall[l+variant], r.Overall[l]
			if v.N == 0 || tree.N == 0 {
				return "-"
			}
			cell := fmt.Sprintf("%s ms (%.2f× the tree", num(v.Median), ratio(v.Median, tree.Median))
			if c, t := r.CPU[l+variant], r.CPU[l]; c.N > 0 && t.Median > 0 {
				cell += fmt.Sprintf("; CPU %.2f×", ratio(c.Median, t.Median))
			}
			return cell + ")"
		}
	}
	line("`omh find --cards`", againstTree(cardsFind), "")
	line("`omh --json find`", againstTree(jsonFind), "")
	line("`omh find --cards --no-worktree`", func(l string) string {
		v, bare := r.Overall[l+cardsNoWT], r.Overall[toolFTSBare]
		if v.N == 0 || bare.N == 0 {
			return "-"
		}
		return fmt.Sprintf("%s ms (%.2f× bare FTS5)", num(v.Median), ratio(v.Median, bare.Median))
	}, fmt.Sprintf("a bare FTS5 query process %s", ms(toolFTSBare)))
	line("MCP `find`, warm server (÷ a `--cards` process)", func(l string) string {
		m, cards := r.MCP[l], r.Overall[l+cardsFind]
		if m == nil || cards.N == 0 {
			return "-"
		}
		return fmt.Sprintf("%s ms (%.2f×), CPU %s ms", num(m.Wall["find"].Median), ratio(m.Wall["find"].Median, cards.Median), num(m.CPUMS["find"]))
	}, "")
	line("MCP `show` · `links` of the first note", func(l string) string {
		m := r.MCP[l]
		if m == nil {
			return "-"
		}
		return fmt.Sprintf("%s ms · %s ms", num(m.Wall["show"].Median), num(m.Wall["links"].Median))
	}, "")
	line("reply bytes: tree · `--cards` · `--json`", func(l string) string {
		return fmt.Sprintf("%s · %s · %s", thousands(r.ReplyBytes[l]), thousands(r.ReplyBytes[l+cardsFind]), thousands(r.ReplyBytes[l+jsonFind]))
	}, "")
	line("MCP reply bytes: `find` text + structured · `show` · `links`", func(l string) string {
		m := r.MCP[l]
		if m == nil {
			return "-"
		}
		f := m.Bytes["find"]
		return fmt.Sprintf("%s + %s · %s · %s", thousands(f.Text), thousands(f.Structured),
			thousands(m.Bytes["show"].Line), thousands(m.Bytes["links"].Line))
	}, "")
	line("`omh find` with three `--also` phrasings", againstTree(alsoFind), "")
	line("`omh status` (freshness check)", func(l string) string { return ms(l + statusCall) },
		fmt.Sprintf("`git status` %s", ms(toolGitStatus)))
	line("first `omh find` after a one-note commit, no hooks", func(l string) string {
		if ac := r.AfterCommit[l]; ac != nil {
			return fmt.Sprintf("%s ms", num(ac.Find.Median))
		}
		return "-"
	}, "")
	line("post-commit hook's cost to `git commit`", func(l string) string {
		if l != toolOmh {
			return "-"
		}
		sign := "+"
		if r.Hook.AddedMS < 0 {
			sign = ""
		}
		return fmt.Sprintf("%s%s ms (%.2f× the commit)", sign, num(r.Hook.AddedMS), ratio(r.Hook.AddedMS, r.Hook.Without.Median))
	}, fmt.Sprintf("`git commit` alone %s ms", num(r.Hook.Without.Median)))
	line("warm `omh find --as-of` (÷ find at HEAD)", func(l string) string {
		a, h := r.Overall[l+asOfFind], r.Overall[l+headFind]
		if a.N == 0 {
			return "-"
		}
		return fmt.Sprintf("%s ms (%.2f×)", num(a.Median), ratio(a.Median, h.Median))
	}, "")
	line("cold index", func(l string) string {
		c := r.Cold[l]
		return fmt.Sprintf("%.1f s, %s MiB peak", c.Seconds, mib(c.MaxRSSKB))
	}, fmt.Sprintf("FTS5 build %.1f s", r.FTS.BuildSeconds))
	line("cache ÷ markdown", func(l string) string { return fmt.Sprintf("%.2f×", r.Cache[l].Ratio) },
		fmt.Sprintf("FTS5 %.2f×", float64(r.FTS.DBBytes)/md))
	line("start-up (`omh version`)", func(l string) string { return ms(l + versionCall) },
		fmt.Sprintf("/bin/true %s", ms(toolTrue+" (start-up)")))
	fmt.Fprintln(w)
}

// num prints a millisecond figure with the precision it deserves.
func num(x float64) string {
	if x >= 100 || x <= -100 {
		return thousands(int64(x + 0.5))
	}
	return strconv.FormatFloat(x, 'f', 1, 64)
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
	fmt.Fprintf(w, "   %s: %s (%s) vs %s of markdown in %s files at HEAD: ratio %.2f\n",
		when, mb(c.CacheBytes), strings.Join(parts, ", "), mb(c.MarkdownBytes), thousands(int64(c.MarkdownFiles)), c.Ratio)
}

// printQuestions is the no-change table (3) with the ratios.
func printQuestions(w io.Writer, r *result) {
	var tools []string
	for _, l := range binLabels(r) {
		tools = append(tools, l, l+noWorktree)
	}
	tools = append(tools, toolRg, toolFTS)
	fmt.Fprintf(w, "3. no-change queries, one process per call (ms, median / p90 over %d runs each)\n", r.Runs)
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
	var rounds []string
	for _, l := range binLabels(r) {
		rounds = append(rounds, fmt.Sprintf("%s status --json %s ms", l, medP90(r.Overall[l+statusCall])))
	}
	fmt.Fprintf(w, "   once a round: %s · git status --porcelain %s ms · /bin/true %s ms\n",
		strings.Join(rounds, " · "), medP90(r.Overall[toolGitStatus]), medP90(r.Overall[toolTrue]))
	fmt.Fprintf(w, "   ratios of medians, all questions: rg/omh %.2f · fts5/omh %.2f · rg/(omh --no-worktree) %.2f · fts5/(omh --no-worktree) %.2f\n",
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
	fmt.Fprintln(w, "== scaling across N (omh) ==")
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "N\tcold index s\ts / 1k notes\tpeak RSS MiB\tcache/md\tfind med ms\tfind --no-wt med ms\tstatus med ms\tfind after commit med ms\tindex after commit med ms\t\n")
	for _, r := range rs {
		c, ac := r.Cold[toolOmh], r.AfterCommit[toolOmh]
		if ac == nil {
			ac = &afterCommitResult{}
		}
		fmt.Fprintf(tw, "%s\t%.2f\t%.3f\t%s\t%.2f\t%.1f\t%.1f\t%.1f\t%.1f\t%.1f\t\n", thousands(int64(r.N)),
			c.Seconds, c.SecondsPer1000, mib(c.MaxRSSKB), r.Cache[toolOmh].Ratio,
			r.Overall[toolOmh].Median, r.Overall[toolOmhNoWT].Median, r.Overall[toolOmhStatus].Median,
			ac.Find.Median, ac.Index.Median)
	}
	tw.Flush()
	if len(rs) > 1 {
		first, last := rs[0], rs[len(rs)-1]
		fmt.Fprintf(w, "cold index seconds per 1,000 notes grew %.2f× from N=%d to N=%d (1.00× is linear)\n",
			ratio(last.Cold[toolOmh].SecondsPer1000, first.Cold[toolOmh].SecondsPer1000), first.N, last.N)
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

// printFederated is the federated phase: three stores beside one
// repository holding their notes.
func printFederated(w io.Writer, f *federatedResult) {
	if f == nil {
		return
	}
	fmt.Fprintf(w, "6. three stores (%v notes, %d top folders split in turn) beside one repository holding them all (ms; calls alternating)\n", f.Notes, f.Folder)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "   \tone\tthree\tthree/one\t\n")
	fmt.Fprintf(tw, "   find --cards, wall median\t%.1f\t%.1f\t%.2f\t\n", f.CardsWall["one"].Median, f.CardsWall["three"].Median, f.Ratios["cards wall"])
	fmt.Fprintf(tw, "   find --cards, CPU median\t%.1f\t%.1f\t%.2f\t\n", f.CardsCPU["one"].Median, f.CardsCPU["three"].Median, f.Ratios["cards cpu"])
	fmt.Fprintf(tw, "   find --cards --no-worktree, wall median\t%.1f\t%.1f\t%.2f\t\n", f.CardsWall["one --no-worktree"].Median, f.CardsWall["three --no-worktree"].Median, f.Ratios["cards wall --no-worktree"])
	fmt.Fprintf(tw, "   find --cards --no-worktree, CPU median\t%.1f\t%.1f\t%.2f\t\n", f.CardsCPU["one --no-worktree"].Median, f.CardsCPU["three --no-worktree"].Median, f.Ratios["cards cpu --no-worktree"])
	fmt.Fprintf(tw, "   MCP find (warm), wall median\t%.1f\t%.1f\t%.2f\t\n", f.MCPWall["one"].Median, f.MCPWall["three"].Median, f.Ratios["mcp find wall"])
	fmt.Fprintf(tw, "   MCP find (warm), CPU mean\t%.1f\t%.1f\t%.2f\t\n", f.MCPCPUMS["one"], f.MCPCPUMS["three"], f.Ratios["mcp find cpu"])
	tw.Flush()
	fmt.Fprintln(w)
}
