// Command bench measures omh's speed against two peers, ripgrep and a SQLite
// FTS5 index, on the same git vaults, in one run.
//
//	go run ./cmd/bench -n 10000 -n 100000 -omh /tmp/omh -work /tmp/omh-bench [-runs 20] [-seed 1] [-base /tmp/omh-main]
//
// For each N it generates (or reuses) a deterministic synthetic vault of N
// notes with N/10 commits; with the project's data beside the checkout
// (../shared/data, or -data) it also measures a clone of the real vba-docs
// vault, asked its tune questions. On each it measures: a cold `omh index`
// (wall time, peak RSS), the cache's size against the markdown, no-change
// `omh find` (with and without --no-worktree) and `omh status`, the same
// questions asked of rg and of the FTS5 peer, `git status` on the same
// repository, a warm `omh find --as-of`, `omh version` (start-up), `omh
// find` / `omh index` right after a one-note commit, and what omh's
// post-commit hook adds to `git commit` (commits with and without it, in
// turn). With -base, a second omh binary (the build a change is measured
// against) takes every omh measurement in the same rounds. Every call is a
// separate process, as an agent makes it. Tables go to standard output,
// progress to standard error, and each vault's numbers to
// WORK/results-NAME.json.
//
// It is a program, not a test: `go test ./...` never runs it.
package main

import (
	"errors"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"
)

// config is the command line.
type config struct {
	sizes []int
	omh   string // omh binary; built from src when empty
	base  string // a second omh binary to compare with; "" for none
	fts   string // FTS5 peer binary; built from src when empty
	data  string // the project's data folder (real vaults, gold questions); "" for none
	rg    string
	src   string // the omh module's folder, for building
	work  string
	runs  int
	seed  uint64
	gen   bool // only generate the vaults
	// phases, when not empty, are the only phases measured (by name, as
	// the progress lines give them): one measurement without the hour of
	// the others.
	phases phaseList
}

// phaseList collects repeated -phase flags.
type phaseList []string

func (p *phaseList) String() string { return strings.Join(*p, ",") }
func (p *phaseList) Set(v string) error {
	*p = append(*p, v)
	return nil
}

// sizeList collects repeated -n flags.
type sizeList []int

func (s *sizeList) String() string { return fmt.Sprint(*s) }
func (s *sizeList) Set(v string) error {
	n, err := strconv.Atoi(strings.ReplaceAll(v, "_", ""))
	if err != nil || n < 20 {
		return fmt.Errorf("want a number of notes of at least 20, got %q", v)
	}
	*s = append(*s, n)
	return nil
}

func parseFlags(args []string) (config, error) {
	var cfg config
	var sizes sizeList
	fl := flag.NewFlagSet("bench", flag.ContinueOnError)
	fl.Var(&sizes, "n", "number of notes in a vault; repeat for several sizes (default 10000 and 100000)")
	fl.StringVar(&cfg.omh, "omh", "", "the omh binary to measure (default: build ./cmd/omh into WORK/bin)")
	fl.StringVar(&cfg.base, "base", "", "another omh binary measured beside -omh in the same rounds (the build a change is compared with)")
	fl.StringVar(&cfg.fts, "fts", "", "the FTS5 peer binary (default: build ./cmd/bench/fts into WORK/bin)")
	fl.StringVar(&cfg.data, "data", "auto", "the data folder holding vaults/vba-docs.bundle and gold/vba-tune-also.jsonl; auto: ../shared/data beside the checkout when there; none: skip the real vault")
	fl.StringVar(&cfg.rg, "rg", "rg", "ripgrep; empty to skip it")
	fl.StringVar(&cfg.src, "src", "", "the omh checkout to build from (default: the module of the current folder)")
	fl.StringVar(&cfg.work, "work", filepath.Join(os.TempDir(), "omh-bench"), "folder for vaults, databases, the isolated HOME and results")
	fl.IntVar(&cfg.runs, "runs", 20, "timed runs of each measurement")
	fl.Uint64Var(&cfg.seed, "seed", 1, "seed of the generated vaults and questions")
	fl.BoolVar(&cfg.gen, "generate-only", false, "generate (or reuse) the vaults, print their head commits and stop")
	fl.Var(&cfg.phases, "phase", `measure only this phase ("hook", "after-commit", "cold index", ...); repeat for several`)
	if err := fl.Parse(args); err != nil {
		return cfg, err
	}
	if fl.NArg() > 0 {
		return cfg, fmt.Errorf("unexpected arguments %q", fl.Args())
	}
	if cfg.runs < 1 {
		return cfg, errors.New("-runs must be at least 1")
	}
	cfg.sizes = sizes
	if len(cfg.sizes) == 0 {
		cfg.sizes = []int{10000, 100000}
	}
	return cfg, nil
}

func main() {
	cfg, err := parseFlags(os.Args[1:])
	if errors.Is(err, flag.ErrHelp) {
		os.Exit(0)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(2)
	}
	if err := run(cfg); err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(1)
	}
}

// tools are the absolute paths of what is measured.
type tools struct {
	omh, fts, rg string
	base         string // a second omh, or ""
	noop         string // /bin/true: what starting any process costs here
	omhSource    string // the checkout and commit omh was built from, when built here
	ftsDDL       string // schema and query of the FTS5 peer, as it prints them
}

func run(cfg config) error {
	var err error
	if cfg.work, err = filepath.Abs(cfg.work); err != nil {
		return err
	}
	if err := os.MkdirAll(cfg.work, 0o755); err != nil {
		return err
	}
	if cfg.gen {
		return generateOnly(cfg)
	}
	t, err := prepareTools(cfg)
	if err != nil {
		return err
	}
	rn, err := newRunner(cfg.work, "0")
	if err != nil {
		return err
	}
	if t.ftsDDL, err = rn.must(".", nil, t.fts, "ddl"); err != nil {
		return err
	}
	m := machineFacts(rn, t)
	printMachine(os.Stdout, m, t)
	var all []*result
	specs := make([]targetSpec, 0, len(cfg.sizes)+1)
	for _, n := range cfg.sizes {
		specs = append(specs, targetSpec{name: fmt.Sprint(n), n: n})
	}
	if data := dataDir(cfg); data != "" {
		specs = append(specs, targetSpec{name: "vba-docs", bundle: filepath.Join(data, "vaults", "vba-docs.bundle"),
			gold: filepath.Join(data, "gold", "vba-tune-also.jsonl")})
	}
	for _, spec := range specs {
		r, err := benchTarget(cfg, t, m, spec)
		if err != nil {
			return err
		}
		path := resultsPath(cfg.work, spec.name)
		if err := writeJSONFile(path, r); err != nil {
			return err
		}
		printResult(os.Stdout, r)
		fmt.Printf("results written to %s\n\n", path)
		if spec.bundle == "" {
			all = append(all, r)
		}
	}
	printScaling(os.Stdout, all)
	return nil
}

// dataDir is the data folder holding the real vault, or "" to skip it.
func dataDir(cfg config) string {
	switch cfg.data {
	case "none", "":
		return ""
	case "auto":
		src, err := moduleDir(cfg.src)
		if err != nil {
			return ""
		}
		dir := filepath.Join(src, "..", "shared", "data")
		if _, err := os.Stat(filepath.Join(dir, "vaults", "vba-docs.bundle")); err != nil {
			return ""
		}
		return dir
	}
	return cfg.data
}

// generateOnly makes the vaults without measuring anything; two work
// folders given the same flags must print the same head commits.
func generateOnly(cfg config) error {
	for _, n := range cfg.sizes {
		rn, err := newRunner(cfg.work, fmt.Sprint(n))
		if err != nil {
			return err
		}
		_, info, err := prepareVault(rn, cfg.work, cfg.seed, n)
		if err != nil {
			return err
		}
		fmt.Printf("N=%d seed=%d head=%s commits=%d notes=%d markdown=%d bytes median=%d bytes\n",
			n, cfg.seed, info.Head, info.Commits, info.Notes, info.MDBytes, info.MedianBytes)
	}
	return nil
}

func resultsPath(work, name string) string {
	return filepath.Join(work, "results-"+name+".json")
}

// newRunner isolates children under work; each vault gets its own (empty)
// omh private folder, "0" stands for "no vault".
func newRunner(work, name string) (*runner, error) {
	env, err := isolatedEnv(work, filepath.Join(work, "env", "local-"+name))
	if err != nil {
		return nil, err
	}
	rn := &runner{env: env}
	rn.timeBin, rn.rssFile = findGNUTime(work)
	return rn, nil
}

// prepareTools finds or builds omh and the FTS5 peer, and finds rg.
func prepareTools(cfg config) (tools, error) {
	var t tools
	bin := filepath.Join(cfg.work, "bin")
	var err error
	if t.omh, err = toolOrBuild(cfg, cfg.omh, "./cmd/omh", filepath.Join(bin, "omh")); err != nil {
		return t, err
	}
	if cfg.omh == "" {
		t.omhSource = sourceRevision(cfg.src)
	}
	if t.fts, err = toolOrBuild(cfg, cfg.fts, "./cmd/bench/fts", filepath.Join(bin, "omh-bench-fts")); err != nil {
		return t, err
	}
	if cfg.base != "" {
		p, err := exec.LookPath(cfg.base)
		if err != nil {
			return t, err
		}
		if t.base, err = filepath.Abs(p); err != nil {
			return t, err
		}
	}
	if t.noop, err = exec.LookPath("true"); err != nil {
		return t, err
	}
	if cfg.rg != "" {
		if t.rg, err = exec.LookPath(cfg.rg); err != nil {
			fmt.Fprintf(os.Stderr, "bench: %v; measuring without ripgrep\n", err)
			t.rg = ""
		}
	}
	return t, nil
}

// toolOrBuild returns the given binary's absolute path, or builds pkg from
// the omh checkout when none was given.
func toolOrBuild(cfg config, given, pkg, out string) (string, error) {
	if given != "" {
		p, err := exec.LookPath(given)
		if err != nil {
			return "", err
		}
		return filepath.Abs(p)
	}
	src, err := moduleDir(cfg.src)
	if err != nil {
		return "", err
	}
	fmt.Fprintf(os.Stderr, "building %s into %s …\n", pkg, out)
	// -buildvcs=auto overrides a GOFLAGS=-buildvcs=false, so that
	// `omh version` can name the revision measured.
	cmd := exec.Command("go", "build", "-buildvcs=auto", "-o", out, pkg)
	cmd.Dir, cmd.Stdout, cmd.Stderr = src, os.Stderr, os.Stderr
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("go build %s: %w", pkg, err)
	}
	return out, nil
}

// moduleDir is the omh checkout: -src, else the module of the current
// folder, which must be omh's.
func moduleDir(src string) (string, error) {
	if src == "" {
		out, err := exec.Command("go", "env", "GOMOD").Output()
		if err != nil {
			return "", fmt.Errorf("go env GOMOD: %w", err)
		}
		src = filepath.Dir(strings.TrimSpace(string(out)))
	}
	mod, err := os.ReadFile(filepath.Join(src, "go.mod"))
	if err != nil || !strings.Contains(string(mod), "module github.com/omh-notes/omh\n") {
		return "", fmt.Errorf("%s is not the omh checkout: run from it, or pass -src, or -omh and -fts", src)
	}
	return src, nil
}

// sourceRevision names the commit of the checkout omh is built from, and
// says when the working tree has changes on top of it.
func sourceRevision(src string) string {
	dir, err := moduleDir(src)
	if err != nil {
		return ""
	}
	rev, err := exec.Command("git", "-C", dir, "rev-parse", "HEAD").Output()
	if err != nil {
		return dir
	}
	desc := fmt.Sprintf("%s at %s", dir, strings.TrimSpace(string(rev)))
	if dirty, err := exec.Command("git", "-C", dir, "status", "--porcelain", "--untracked-files=no").Output(); err == nil && len(dirty) > 0 {
		desc += fmt.Sprintf(" with %d uncommitted changed files", strings.Count(string(dirty), "\n"))
	}
	return desc
}

// targetSpec is one vault to measure: a generated one of n notes, or a
// clone of a real vault's bundle asked the questions of a gold file.
type targetSpec struct {
	name         string
	n            int
	bundle, gold string
}

// benchTarget runs every measurement on one vault.
func benchTarget(cfg config, t tools, m machine, spec targetSpec) (*result, error) {
	rn, err := newRunner(cfg.work, spec.name)
	if err != nil {
		return nil, err
	}
	res := &result{Name: spec.name, N: spec.n, Seed: cfg.seed, Runs: cfg.runs, Started: time.Now().UTC().Format(time.RFC3339), Machine: m}
	vocab := newVocabulary(rand.New(rand.NewPCG(cfg.seed, 1)))
	b := &bench{cfg: cfg, tools: t, name: spec.name, rn: rn, vocab: vocab, res: res, issues: map[string]*issue{}}
	err = b.phase("vault", func() error {
		var err error
		if spec.bundle == "" {
			b.root = "notes"
			b.repo, res.Vault, err = prepareVault(rn, cfg.work, cfg.seed, spec.n)
			b.qs = vocab.questions(rand.New(rand.NewPCG(cfg.seed, 3)))
			vocab.phrasings(rand.New(rand.NewPCG(cfg.seed, 4)), b.qs)
			return err
		}
		b.repo, res.Vault, err = prepareReal(rn, cfg.work, spec.name, spec.bundle)
		if err == nil {
			b.qs, err = goldQuestions(spec.gold, 10)
		}
		res.N = res.Vault.Notes
		return err
	})
	if err != nil {
		return nil, err
	}
	steps := []struct {
		name string
		fn   func() error
	}{
		{"cold index", b.coldIndex},
		{"cache size", func() (err error) { res.Cache, err = b.cacheSizes(); return }},
		{"fts5 build", b.buildFTS},
		{"no-change queries", b.noChange},
		{"mcp", b.mcp},
		{"as-of", b.asOf},
		{"start-up", b.startUp},
		{"after-commit", func() error { return b.afterCommit(res.Vault.LastCommit) }},
		{"hook", func() error { return b.hookCost(res.Vault.LastCommit) }},
		{"cache size again", func() (err error) { res.CacheAfter, err = b.cacheSizes(); return }},
	}
	res.FTS.DDL, res.FTS.Query = ftsSchema(t.ftsDDL)
	for _, s := range steps {
		if len(cfg.phases) > 0 && !slices.Contains(cfg.phases, s.name) {
			continue
		}
		if err := b.phase(s.name, s.fn); err != nil {
			return nil, err
		}
		// Written after every phase, so an interrupted run of a large N
		// still leaves the phases it finished.
		if err := writeJSONFile(resultsPath(cfg.work, spec.name), res); err != nil {
			return nil, err
		}
	}
	b.flushIssues()
	return res, nil
}

// ftsSchema splits what `fts ddl` prints into the DDL and the query.
func ftsSchema(printed string) (ddl, query string) {
	lines := strings.Split(strings.TrimSpace(printed), "\n")
	if len(lines) == 0 {
		return "", ""
	}
	return strings.Join(lines[:len(lines)-1], "\n"), lines[len(lines)-1]
}
