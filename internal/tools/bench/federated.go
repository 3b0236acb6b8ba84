package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// federatedResult is a question asked of three stores beside the same
// question asked of one repository holding all their notes: omh find
// --cards processes and a warm server's find calls, in alternating rounds.
type federatedResult struct {
	Notes  []int `json:"notes"` // per store: the repository omh runs in, then the two it lists
	Folder int   `json:"folders"`
	// By "one" (a repository holding every note) and "three" (the three
	// stores), and each with " --no-worktree": each call's wall time, and
	// its CPU time (user and system). The team's stores are read without
	// their working trees, so --no-worktree on both sides shows what
	// reading three caches costs beside one, the scan of the other
	// stores' working trees left out of both.
	CardsWall map[string]stats   `json:"cards_wall"`
	CardsCPU  map[string]stats   `json:"cards_cpu"`
	MCPWall   map[string]stats   `json:"mcp_find_wall"`
	MCPCPUMS  map[string]float64 `json:"mcp_find_cpu_ms_per_call"`
	Ratios    map[string]float64 `json:"ratios"` // three / one, by median
}

// federatedStores are the store names of the split, after the repository
// omh runs in.
var federatedStores = []string{"bee", "sea"}

// federated splits the vault's notes by top folder among three fresh
// repositories (the first listing the other two in its config's stores:)
// and copies them all into a fourth, each one commit, and times omh find
// --cards and MCP find on each side in turn: the target is three stores
// costing at most 1.3× one repository holding their notes. The ranking is
// the same (store's TestFederatedFindRanksAsOneRepositoryHoldingEveryStore);
// this measures only what answering from three caches costs.
func (b *bench) federated() error {
	dir := filepath.Join(b.cfg.work, fmt.Sprintf("federated-s%d-%s", b.cfg.seed, b.name))
	repos, notes, folders, err := b.splitVault(dir)
	if err != nil {
		return err
	}
	r := &federatedResult{Notes: notes, Folder: folders, CardsWall: map[string]stats{}, CardsCPU: map[string]stats{},
		MCPWall: map[string]stats{}, MCPCPUMS: map[string]float64{}, Ratios: map[string]float64{}}
	b.res.Federated = r
	for _, repo := range repos {
		if _, err := b.rn.must(repo, nil, b.tools.omh, "index"); err != nil {
			return err
		}
	}
	type side struct{ label, repo, flag string }
	var sides []side
	for _, flag := range []string{"", "--no-worktree"} {
		for i, label := range []string{"one", "three"} {
			sides = append(sides, side{strings.TrimSpace(label + " " + flag), repos[i], flag})
		}
	}
	walls, cpus := map[string][]time.Duration{}, map[string][]time.Duration{}
	for run := -1; run < b.cfg.runs; run++ { // run -1 warms the page cache
		fmt.Fprintf(os.Stderr, "\r  cards round %d/%d", run+1, b.cfg.runs)
		for qi, q := range b.qs {
			for i := range sides {
				// One and three in turn, each first in every other pair.
				sd := sides[i&^1+(i+run+qi+1)%2]
				args := []string{"find", "--cards"}
				if sd.flag != "" {
					args = append(args, sd.flag)
				}
				s, err := b.rn.run(sd.repo, nil, b.tools.omh, append(args, q.Words...)...)
				if err != nil {
					return err
				}
				if !b.accept(toolOmh+" "+sd.label, s, 0) || run < 0 {
					continue
				}
				walls[sd.label] = append(walls[sd.label], s.wall)
				cpus[sd.label] = append(cpus[sd.label], s.cpu)
			}
		}
	}
	fmt.Fprintln(os.Stderr)
	for label := range walls {
		r.CardsWall[label], r.CardsCPU[label] = summarize(walls[label]), summarize(cpus[label])
	}
	if err := b.federatedMCP(r, repos[0], repos[1]); err != nil {
		return err
	}
	for _, flag := range []string{"", " --no-worktree"} {
		r.Ratios["cards wall"+flag] = ratio(r.CardsWall["three"+flag].Median, r.CardsWall["one"+flag].Median)
		r.Ratios["cards cpu"+flag] = ratio(r.CardsCPU["three"+flag].Median, r.CardsCPU["one"+flag].Median)
	}
	r.Ratios["mcp find wall"] = ratio(r.MCPWall["three"].Median, r.MCPWall["one"].Median)
	r.Ratios["mcp find cpu"] = ratio(r.MCPCPUMS["three"], r.MCPCPUMS["one"])
	return nil
}

// federatedMCP times find on a warm server of each side, calls in turn.
func (b *bench) federatedMCP(r *federatedResult, one, three string) error {
	repo := b.repo
	defer func() { b.repo = repo }()
	sessions := map[string]*mcpSession{}
	for label, dir := range map[string]string{"one": one, "three": three} {
		b.repo = dir
		s, err := b.startMCP(b.tools.omh)
		if err != nil {
			return err
		}
		defer s.close()
		sessions[label] = s
	}
	walls, cpus := map[string][]time.Duration{}, map[string]time.Duration{}
	labels := []string{"one", "three"}
	for run := -1; run < b.cfg.runs; run++ {
		for qi, q := range b.qs {
			for i := range labels {
				label := labels[(i+run+qi+1)%2]
				s := sessions[label]
				cpu, start := s.cpuTime(), time.Now()
				if _, err := s.toolCall("find", map[string]any{"question": strings.Join(q.Words, " ")}); err != nil {
					return fmt.Errorf("%s: %w", label, err)
				}
				if run >= 0 {
					walls[label] = append(walls[label], time.Since(start))
					cpus[label] += s.cpuTime() - cpu
				}
			}
		}
	}
	for label, ds := range walls {
		r.MCPWall[label] = summarize(ds)
		r.MCPCPUMS[label] = round2(float64(cpus[label].Microseconds()) / 1000 / float64(len(ds)))
	}
	return nil
}

// splitVault makes (or reuses) the four repositories under dir: whole
// (every note) and home, bee and sea (the notes of every third top folder
// each, home's config listing the other two), each one commit of the
// vault's notes as they are at its head. It returns the four folders,
// whole's and home's first, each store's count of notes and the folders
// split.
func (b *bench) splitVault(dir string) ([]string, []int, int, error) {
	names := append([]string{"whole", "home"}, federatedStores...)
	repos := make([]string, len(names))
	for i, n := range names {
		repos[i] = filepath.Join(dir, n)
	}
	marker := filepath.Join(dir, "head")
	if head, err := os.ReadFile(marker); err == nil && strings.TrimSpace(string(head)) == b.res.Vault.Head {
		counts, folders, err := countSplit(repos[1:], b.notesPath())
		return repos, counts, folders, err
	}
	if err := os.RemoveAll(dir); err != nil {
		return nil, nil, 0, err
	}
	src := filepath.Join(b.repo, b.notesPath())
	var folders []string
	entries, err := os.ReadDir(src)
	if err != nil {
		return nil, nil, 0, err
	}
	for _, e := range entries {
		if e.IsDir() {
			folders = append(folders, e.Name())
		}
	}
	if len(folders) < 3 {
		return nil, nil, 0, fmt.Errorf("the vault has %d top folders, too few to split among three stores", len(folders))
	}
	slices.Sort(folders)
	for i, repo := range repos {
		if err := os.MkdirAll(filepath.Join(repo, b.notesPath()), 0o755); err != nil {
			return nil, nil, 0, err
		}
		config := "notes: " + b.notesPath() + "\n"
		if names[i] == "home" {
			config += "stores:\n"
			for _, s := range federatedStores {
				config += fmt.Sprintf("  - name: %s\n    path: ../%s\n", s, s)
			}
		}
		if err := os.MkdirAll(filepath.Join(repo, ".omh"), 0o755); err != nil {
			return nil, nil, 0, err
		}
		if err := os.WriteFile(filepath.Join(repo, ".omh", "config.yaml"), []byte(config), 0o644); err != nil {
			return nil, nil, 0, err
		}
	}
	for i, f := range folders {
		for _, to := range []string{repos[0], repos[1+i%3]} {
			if err := copyTree(filepath.Join(src, f), filepath.Join(to, b.notesPath(), f)); err != nil {
				return nil, nil, 0, err
			}
		}
	}
	for _, repo := range repos {
		for _, args := range [][]string{{"init", "-q", "-b", "main"}, {"add", "-A"}, {"commit", "-q", "-m", "the notes"}} {
			if _, err := b.rn.must(repo, []string{"GIT_AUTHOR_DATE=2024-06-01T00:00:00Z", "GIT_COMMITTER_DATE=2024-06-01T00:00:00Z"}, "git", args...); err != nil {
				return nil, nil, 0, err
			}
		}
	}
	if err := os.WriteFile(marker, []byte(b.res.Vault.Head+"\n"), 0o644); err != nil {
		return nil, nil, 0, err
	}
	counts, _, err := countSplit(repos[1:], b.notesPath())
	return repos, counts, len(folders), err
}

// countSplit counts the notes of each store and the top folders of its
// notes root they hold.
func countSplit(stores []string, root string) ([]int, int, error) {
	counts := make([]int, len(stores))
	folders := 0
	for i, repo := range stores {
		err := filepath.WalkDir(repo, func(p string, d fs.DirEntry, err error) error {
			switch {
			case err != nil:
				return err
			case d.IsDir() && d.Name() == ".git":
				return filepath.SkipDir
			case !d.IsDir() && strings.HasSuffix(p, ".md"):
				counts[i]++
			}
			return nil
		})
		if err != nil {
			return nil, 0, err
		}
		notes, err := os.ReadDir(filepath.Join(repo, root))
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return nil, 0, err
		}
		folders += len(notes)
	}
	return counts, folders, nil
}

// copyTree copies the regular files under from to to.
func copyTree(from, to string) error {
	return filepath.WalkDir(from, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(from, p)
		if err != nil {
			return err
		}
		target := filepath.Join(to, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		if !d.Type().IsRegular() {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(target, b, 0o644)
	})
}
