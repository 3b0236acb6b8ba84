package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
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
