package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"
)

// asOf times a warm `omh find --as-of` (the snapshot of a commit ten steps
// back, built by an untimed first call) against `omh find` at HEAD, in
// turn, for each binary.
func (b *bench) asOf() error {
	back := min(10, b.res.Vault.Commits-1)
	commit, err := b.rn.must(b.repo, nil, "git", "rev-parse", fmt.Sprintf("HEAD~%d", back))
	if err != nil {
		return err
	}
	commit = strings.TrimSpace(commit)
	b.res.AsOfCommit = commit
	for _, o := range b.omhs() {
		if _, err := b.rn.must(b.repo, nil, o.path, append([]string{"find", "--as-of", commit}, b.qs[0].Words...)...); err != nil {
			return err
		}
	}
	times := map[string][]time.Duration{}
	for run := 0; run < b.cfg.runs; run++ {
		fmt.Fprintf(os.Stderr, "\r  round %d/%d", run+1, b.cfg.runs)
		for _, q := range b.qs {
			for _, o := range b.omhsInTurn(run) {
				for _, c := range []call{
					{o.label + asOfFind, o.path, append([]string{"find", "--as-of", commit}, q.Words...), []int{0}},
					{o.label + headFind, o.path, b.findArgs(q, false), []int{0}},
				} {
					s, err := b.rn.run(b.repo, nil, c.name, c.args...)
					if err != nil {
						return err
					}
					if b.accept(c.tool, s, c.okExit...) {
						times[c.tool] = append(times[c.tool], s.wall)
					}
				}
			}
		}
	}
	fmt.Fprintln(os.Stderr)
	for tool, ds := range times {
		b.res.Overall[tool] = summarize(ds)
	}
	return nil
}

// startUp times `omh version`, the cost of starting omh at all, beside
// starting /bin/true.
func (b *bench) startUp() error {
	calls := []call{{toolTrue + " (start-up)", b.tools.noop, nil, []int{0}}}
	for _, o := range b.omhs() {
		calls = append(calls, call{o.label + versionCall, o.path, []string{"version"}, []int{0}})
	}
	times := map[string][]time.Duration{}
	for run := 0; run < 5*b.cfg.runs; run++ {
		for _, c := range calls {
			s, err := b.rn.run(b.repo, nil, c.name, c.args...)
			if err != nil {
				return err
			}
			if b.accept(c.tool, s, c.okExit...) {
				times[c.tool] = append(times[c.tool], s.wall)
			}
		}
	}
	for tool, ds := range times {
		b.res.Overall[tool] = summarize(ds)
	}
	return nil
}

// hookCost measures what omh's post-commit hook adds to a one-note `git
// commit`: commits run in turn without the hook (followed by an untimed
// `omh index`, so both kinds start from a fresh cache) and with it (git
// pointed at a folder holding only omh's post-commit shim, which finds the
// omh measured first on PATH). The refresh the hook leaves running in the
// background is waited for untimed (see runAndWaitLeft), so it never
// shares the machine with the next timed commit.
func (b *bench) hookCost(lastCommit int64) error {
	hooks, err := b.shimFolder()
	if err != nil {
		return err
	}
	empty := filepath.Join(b.cfg.work, "env", "no-hooks")
	if err := os.MkdirAll(empty, 0o755); err != nil {
		return err
	}
	path := []string{"PATH=" + filepath.Dir(b.tools.omh) + string(os.PathListSeparator) + os.Getenv("PATH")}
	// Far from the after-commit phase's dates, so the two never collide.
	commitOne, err := b.noteCommitter(lastCommit+10*365*24*3600, 5)
	if err != nil {
		return err
	}
	var with, without []time.Duration
	for i := 0; i < b.cfg.runs; i++ {
		fmt.Fprintf(os.Stderr, "\r  round %d/%d", i+1, b.cfg.runs)
		d, err := commitOne("bench: one-note commit without hooks", path, "-c", "core.hooksPath="+empty)
		if err != nil {
			return err
		}
		without = append(without, d)
		if _, err := b.rn.must(b.repo, nil, b.tools.omh, "index"); err != nil {
			return err
		}
		d, err = commitOne("bench: one-note commit with omh's hook", path, "-c", "core.hooksPath="+hooks)
		if err != nil {
			return err
		}
		with = append(with, d)
		st, err := b.omhStatus(b.tools.omh)
		if err != nil {
			return err
		}
		if !st.Fresh || st.Parsed != 1 {
			b.note("post-commit hook", "after the hooked commit the cache is fresh=%v, the refresh parsed %d blobs", st.Fresh, st.Parsed)
		}
	}
	fmt.Fprintln(os.Stderr)
	h := hookResult{Without: summarize(without), With: summarize(with)}
	h.AddedMS = round2(h.With.Median - h.Without.Median)
	b.res.Hook = h
	return nil
}

// shimFolder is a folder holding omh's post-commit shim, as `omh hooks
// install` writes it (installed into the vault, copied, uninstalled).
func (b *bench) shimFolder() (string, error) {
	dir := filepath.Join(b.cfg.work, "env", "hooks-"+b.name)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	if _, err := b.rn.must(b.repo, nil, b.tools.omh, "hooks", "install"); err != nil {
		return "", err
	}
	shim, err := os.ReadFile(filepath.Join(b.repo, ".git", "hooks", "post-commit"))
	if err != nil {
		return "", err
	}
	if _, err := b.rn.must(b.repo, nil, b.tools.omh, "hooks", "uninstall"); err != nil {
		return "", err
	}
	return dir, os.WriteFile(filepath.Join(dir, "post-commit"), shim, 0o755)
}

// prepareReal clones a real vault's bundle into the work folder once, and
// resets it to the bundle's head (the commit phases commit on top).
func prepareReal(rn *runner, work, name, bundle string) (string, vaultInfo, error) {
	dir := filepath.Join(work, "vault-"+name)
	if _, err := os.Stat(filepath.Join(dir, ".git")); err != nil {
		if _, err := rn.must(work, nil, "git", "clone", "-q", bundle, dir); err != nil {
			return "", vaultInfo{}, err
		}
		if _, err := rn.must(dir, nil, "git", "config", "gc.auto", "0"); err != nil {
			return "", vaultInfo{}, err
		}
	}
	head, err := rn.must(dir, nil, "git", "rev-parse", "refs/remotes/origin/HEAD")
	if err != nil {
		return "", vaultInfo{}, err
	}
	info := vaultInfo{Head: strings.TrimSpace(head), Reused: true}
	if err := resetVault(rn, dir, info.Head); err != nil {
		return "", info, err
	}
	out, err := rn.must(dir, nil, "git", "ls-tree", "-r", "-l", "-z", "HEAD")
	if err != nil {
		return "", info, err
	}
	folders := map[string]bool{}
	var sizes []int
	for entry := range strings.SplitSeq(out, "\x00") {
		meta, path, ok := strings.Cut(entry, "\t")
		fields := strings.Fields(meta)
		if !ok || len(fields) != 4 || fields[1] != "blob" || !strings.HasSuffix(path, ".md") {
			continue
		}
		size, err := strconv.Atoi(fields[3])
		if err != nil {
			return "", info, fmt.Errorf("git ls-tree size %q: %w", fields[3], err)
		}
		sizes = append(sizes, size)
		info.MDBytes += int64(size)
		folders[filepath.Dir(path)] = true
	}
	info.Notes, info.Folders = len(sizes), len(folders)
	if len(sizes) > 0 {
		slices.Sort(sizes)
		info.MedianBytes = sizes[len(sizes)/2]
	}
	count, err := rn.must(dir, nil, "git", "rev-list", "--count", "HEAD")
	if err != nil {
		return "", info, err
	}
	info.Commits, _ = strconv.Atoi(strings.TrimSpace(count))
	when, err := rn.must(dir, nil, "git", "log", "-1", "--format=%ct")
	if err != nil {
		return "", info, err
	}
	info.LastCommit, _ = strconv.ParseInt(strings.TrimSpace(when), 10, 64)
	return dir, info, nil
}

// goldQuestions reads the first n questions of a gold file as word lists:
// letters and digits, lower-cased, as rg and the FTS5 peer take them.
func goldQuestions(path string, n int) ([]question, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []question
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() && len(out) < n {
		var g struct {
			ID       string   `json:"id"`
			Question string   `json:"question"`
			Also     []string `json:"also"`
		}
		if strings.TrimSpace(sc.Text()) == "" {
			continue
		}
		if err := json.Unmarshal(sc.Bytes(), &g); err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		words := strings.FieldsFunc(strings.ToLower(g.Question), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
		out = append(out, question{Words: words, Kind: g.ID, Also: g.Also})
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s holds no questions", path)
	}
	return out, nil
}
