package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"
)

const (
	authorName  = "Omh Bench"
	authorEmail = "bench@omh.invalid"
	// genVersion changes whenever the generator writes different bytes, so
	// a vault cached by an older generator is made again, not reused.
	genVersion = 1
	// firstCommitUnix is 2024-01-01T00:00:00Z, the date of the bulk import.
	firstCommitUnix = 1704067200
)

// vaultInfo describes a generated vault; it is stored beside the vault so a
// re-run can reuse it.
type vaultInfo struct {
	Version     int     `json:"generator_version"`
	Seed        uint64  `json:"seed"`
	N           int     `json:"n"`
	Head        string  `json:"head"`
	Commits     int     `json:"commits"`
	Notes       int     `json:"notes"`
	Folders     int     `json:"folders"`
	MDBytes     int64   `json:"md_bytes"`
	MedianBytes int     `json:"median_note_bytes"`
	LastCommit  int64   `json:"last_commit_unix"`
	GenSeconds  float64 `json:"generation_seconds"`
	Reused      bool    `json:"reused"`
	// Repacked: the objects were packed again as git packs a clone or a
	// gc'd repository (git repack -adf). fast-import stores each version
	// of a tree as a delta on the one before, so reading history backwards
	// from HEAD resolves long chains, a cost no cloned repository has.
	Repacked bool `json:"repacked"`
}

// prepareVault returns the vault for (seed, n) under work, generating it
// unless an earlier run left a complete one, which it resets to the
// generated head (the after-commit phase keeps committing on top of it).
func prepareVault(rn *runner, work string, seed uint64, n int) (string, vaultInfo, error) {
	dir := filepath.Join(work, fmt.Sprintf("vault-s%d-n%d", seed, n))
	marker := dir + ".json"
	if info, ok := loadMarker(marker, seed, n); ok {
		if _, err := os.Stat(filepath.Join(dir, ".git")); err == nil {
			start := time.Now()
			if err := resetVault(rn, dir, info.Head); err != nil {
				return "", info, err
			}
			if !info.Repacked {
				fmt.Fprintf(os.Stderr, "repacking %s …\n", dir)
				if err := repack(rn, dir); err != nil {
					return "", info, err
				}
				info.Repacked = true
				b, _ := json.MarshalIndent(info, "", "  ")
				if err := os.WriteFile(marker, append(b, '\n'), 0o644); err != nil {
					return "", info, err
				}
			}
			info.Reused = true
			fmt.Printf("reused the vault %s (head %s, reset in %.1fs)\n", dir, info.Head[:12], time.Since(start).Seconds())
			return dir, info, nil
		}
	}
	fmt.Fprintf(os.Stderr, "generating a vault of %d notes in %s …\n", n, dir)
	info, err := generate(rn, dir, seed, n)
	if err != nil {
		return "", info, err
	}
	b, _ := json.MarshalIndent(info, "", "  ")
	if err := os.WriteFile(marker, append(b, '\n'), 0o644); err != nil {
		return "", info, err
	}
	fmt.Printf("generated the vault %s in %.1fs (head %s)\n", dir, info.GenSeconds, info.Head[:12])
	return dir, info, nil
}

func loadMarker(path string, seed uint64, n int) (vaultInfo, bool) {
	var info vaultInfo
	b, err := os.ReadFile(path)
	if err != nil || json.Unmarshal(b, &info) != nil {
		return info, false
	}
	return info, info.Version == genVersion && info.Seed == seed && info.N == n && info.Head != ""
}

// resetVault puts a reused vault back at the generated head with a clean
// working tree, so every run measures the same store.
func resetVault(rn *runner, dir, head string) error {
	cur, err := rn.must(dir, nil, "git", "rev-parse", "HEAD")
	if err != nil {
		return err
	}
	dirty, err := rn.must(dir, nil, "git", "status", "--porcelain", "--untracked-files=all")
	if err != nil {
		return err
	}
	if strings.TrimSpace(cur) == head && dirty == "" {
		return nil
	}
	if _, err := rn.must(dir, nil, "git", "reset", "-q", "--hard", head); err != nil {
		return err
	}
	if _, err := rn.must(dir, nil, "git", "clean", "-fdq"); err != nil {
		return err
	}
	return settleIndex(rn, dir)
}

// repack packs the vault's objects the way a clone or a gc'd repository
// has them (see vaultInfo.Repacked).
func repack(rn *runner, dir string) error {
	_, err := rn.must(dir, nil, "git", "repack", "-a", "-d", "-f", "-q")
	return err
}

// settleIndex waits out git's racy-timestamp window and refreshes the index,
// so its stat data matches the files as in a repository that has been in
// use for a while; otherwise every file checked out in the same second as
// the index was written would have to be re-hashed by whoever looks next.
func settleIndex(rn *runner, dir string) error {
	time.Sleep(1100 * time.Millisecond)
	_, err := rn.must(dir, nil, "git", "update-index", "-q", "--refresh")
	return err
}

// generate writes a new vault into dir through git fast-import and checks
// it out.
func generate(rn *runner, dir string, seed uint64, n int) (vaultInfo, error) {
	start := time.Now()
	info := vaultInfo{Version: genVersion, Seed: seed, N: n}
	if err := os.RemoveAll(dir); err != nil {
		return info, err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return info, err
	}
	setup := [][]string{
		{"init", "-q", "-b", "main"},
		{"config", "commit.gpgsign", "false"},
		{"config", "gc.auto", "0"}, // no background gc in the middle of a timing
		{"config", "core.autocrlf", "false"},
	}
	for _, args := range setup {
		if _, err := rn.must(dir, nil, "git", args...); err != nil {
			return info, err
		}
	}
	g := newGenerator(seed, n)
	if err := fastImport(rn, dir, g.write); err != nil {
		return info, err
	}
	if _, err := rn.must(dir, nil, "git", "reset", "-q", "--hard", "main"); err != nil {
		return info, err
	}
	if err := repack(rn, dir); err != nil {
		return info, err
	}
	info.Repacked = true
	if err := settleIndex(rn, dir); err != nil {
		return info, err
	}
	head, err := rn.must(dir, nil, "git", "rev-parse", "HEAD")
	if err != nil {
		return info, err
	}
	info.Head = strings.TrimSpace(head)
	info.Commits, info.Notes, info.Folders = g.commits, len(g.notes), len(g.folders)
	info.MDBytes, info.MedianBytes = g.sizes()
	info.LastCommit = g.when
	info.GenSeconds = math.Round(time.Since(start).Seconds()*10) / 10
	return info, nil
}

// fastImport streams what write produces into git fast-import.
func fastImport(rn *runner, dir string, write func(*importer) error) error {
	cmd := exec.Command("git", "fast-import", "--quiet", "--done")
	cmd.Dir, cmd.Env = dir, rn.env
	var errb bytes.Buffer
	cmd.Stderr = &errb
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		return err
	}
	im := &importer{w: bufio.NewWriterSize(stdin, 1<<20)}
	werr := write(im)
	if werr == nil {
		werr = im.finish()
	}
	stdin.Close()
	if err := cmd.Wait(); err != nil {
		return fmt.Errorf("git fast-import: %v: %s", err, strings.TrimSpace(errb.String()))
	}
	return werr
}

// importer writes a git fast-import stream for the one branch main.
type importer struct {
	w *bufio.Writer
}

// commit starts a commit; without a "from" line fast-import continues
// from the branch's previous commit in the same stream.
func (im *importer) commit(msg string, when int64) {
	fmt.Fprintf(im.w, "commit refs/heads/main\nauthor %s <%s> %d +0000\ncommitter %s <%s> %d +0000\ndata %d\n%s\n",
		authorName, authorEmail, when, authorName, authorEmail, when, len(msg), msg)
}

func (im *importer) put(path string, body []byte) {
	fmt.Fprintf(im.w, "M 100644 inline %s\ndata %d\n", path, len(body))
	im.w.Write(body)
	im.w.WriteByte('\n')
}

func (im *importer) rename(from, to string) {
	fmt.Fprintf(im.w, "R %s %s\n", from, to)
}

func (im *importer) finish() error {
	io.WriteString(im.w, "done\n")
	return im.w.Flush()
}

// genNote is one note as the generator last wrote it.
type genNote struct {
	key  string // path under notes/ without .md
	slug string // last path segment, unique in the vault
	body []byte
}

func (n *genNote) path() string { return "notes/" + n.key + ".md" }

// generator holds every random choice of one vault. All its randomness
// comes from streams seeded by (seed, n), and nothing iterates a map, so the
// same flags give the same bytes and the same commit ids.
type generator struct {
	r       *rand.Rand
	vocab   *vocabulary
	words   *zipfWords
	folders []string
	tags    []string
	notes   []*genNote
	slugs   map[string]bool
	pick    *rand.Zipf // which of the first notes a link or an edit goes to
	n       int
	commits int
	when    int64 // date of the last commit written
}

func newGenerator(seed uint64, n int) *generator {
	vocab := newVocabulary(rand.New(rand.NewPCG(seed, 1)))
	layout := rand.New(rand.NewPCG(seed, 2))
	r := rand.New(rand.NewPCG(seed, 1<<40|uint64(n)))
	g := &generator{r: r, vocab: vocab, words: newZipfWords(vocab, r), slugs: map[string]bool{}}
	g.folders = makeFolders(vocab, layout)
	for range 40 {
		g.tags = append(g.tags, vocab.pickBand(layout, 'm'))
	}
	g.n, g.commits = n, max(1, n/10)
	return g
}

// newNotePicker chooses among n notes by a Zipf law whose head is
// flattened (v = 30), so a few dozen notes are hot (often edited, often
// linked) without a single note taking a tenth of every edit and growing
// to hundreds of kilobytes.
func newNotePicker(r *rand.Rand, n int) *rand.Zipf {
	return rand.NewZipf(r, 1.1, 30, uint64(max(0, n-1)))
}

// pickBand draws a word uniformly from one rank band (see rankBand).
func (v *vocabulary) pickBand(r *rand.Rand, band byte) string {
	lo, hi := v.rankBand(band)
	return v.words[lo+r.IntN(hi-lo)]
}

// makeFolders lays out about 35 folders up to three levels deep; the layout
// depends on the seed only, so every N shares it.
func makeFolders(v *vocabulary, r *rand.Rand) []string {
	var out []string
	for _, top := range []string{"projects", "areas", "research", "journal", "people", "ops"} {
		out = append(out, top)
		for range 2 + r.IntN(3) {
			child := top + "/" + v.pickBand(r, 'm')
			out = append(out, child)
			if r.IntN(2) == 0 {
				for range 1 + r.IntN(2) {
					out = append(out, child+"/"+v.pickBand(r, 'm'))
				}
			}
		}
	}
	return out
}

// commitKind decides, by position alone, what history commit k (k ≥ 1) does,
// so the number of notes added later is known before the first commit.
func commitKind(k int) string {
	switch {
	case k%10 == 5:
		return "add"
	case k%29 == 7:
		return "rename"
	}
	return "edit"
}

// write produces the whole history: one bulk commit, then small commits.
func (g *generator) write(im *importer) error {
	adds := 0
	for k := 1; k < g.commits; k++ {
		if commitKind(k) == "add" {
			adds++
		}
	}
	initial := max(1, g.n-adds) // so that HEAD ends with exactly N notes
	for range initial {
		g.notes = append(g.notes, g.newNote())
	}
	g.pick = newNotePicker(g.r, initial)
	g.when = firstCommitUnix
	im.commit(fmt.Sprintf("Import %d notes", initial), g.when)
	im.put(".omh/config.yaml", []byte("notes: notes\n"))
	im.put("README.md", []byte("# Synthetic notes\n\nGenerated by omh's benchmark (internal/tools/bench).\n"))
	for i, note := range g.notes {
		note.body = g.content(note, i)
		im.put(note.path(), note.body)
	}
	for k := 1; k < g.commits; k++ {
		g.when += 1200 + int64(g.r.IntN(6*3600))
		switch commitKind(k) {
		case "add":
			g.addNote(im)
		case "rename":
			g.renameNote(im)
		default:
			g.editNotes(im)
		}
	}
	return nil
}

func (g *generator) addNote(im *importer) {
	note := g.newNote()
	g.notes = append(g.notes, note)
	note.body = g.content(note, len(g.notes)-1)
	im.commit("Add "+note.key, g.when)
	im.put(note.path(), note.body)
}

func (g *generator) renameNote(im *importer) {
	note := g.notes[g.pick.Uint64()]
	old := note.path()
	folder := g.folders[g.r.IntN(len(g.folders))]
	for folder == path.Dir(note.key) {
		folder = g.folders[g.r.IntN(len(g.folders))]
	}
	newKey := folder + "/" + note.slug
	im.commit(fmt.Sprintf("Move %s to %s", note.key, newKey), g.when)
	note.key = newKey
	im.rename(old, note.path())
}

// editNotes changes one to four notes chosen by a Zipf law, so a few notes
// are edited again and again, as in a real store.
func (g *generator) editNotes(im *importer) {
	var chosen []*genNote
	for range 1 + g.r.IntN(4) {
		note := g.notes[g.pick.Uint64()]
		if !containsNote(chosen, note) {
			chosen = append(chosen, note)
		}
	}
	keys := make([]string, len(chosen))
	for i, note := range chosen {
		keys[i] = note.key
	}
	im.commit("Edit "+strings.Join(keys, ", "), g.when)
	for _, note := range chosen {
		g.edit(note)
		im.put(note.path(), note.body)
	}
}

func containsNote(list []*genNote, n *genNote) bool {
	for _, x := range list {
		if x == n {
			return true
		}
	}
	return false
}

// edit appends a sentence (most edits) or a new section to a note.
func (g *generator) edit(note *genNote) {
	if g.r.IntN(10) < 7 {
		note.body = fmt.Appendf(note.body, "\n%s\n", g.sentence())
		return
	}
	note.body = fmt.Appendf(note.body, "\n## %s\n\n%s", capital(g.phrase(2+g.r.IntN(3))), g.paragraph())
}

// newNote picks a folder and a slug of two to four mid-frequency words; a
// taken slug gets a number, so the last path segment names one note.
func (g *generator) newNote() *genNote {
	folder := g.folders[g.r.IntN(len(g.folders))]
	parts := make([]string, 2+g.r.IntN(3))
	for i := range parts {
		parts[i] = g.vocab.pickBand(g.r, 'm')
	}
	base := strings.Join(parts, "-")
	slug := base
	for i := 2; g.slugs[slug]; i++ {
		slug = fmt.Sprintf("%s-%d", base, i)
	}
	g.slugs[slug] = true
	return &genNote{key: folder + "/" + slug, slug: slug}
}

var noteTypes = []struct {
	name   string
	weight int
}{{"note", 35}, {"topic", 20}, {"surprise", 15}, {"finding", 12}, {"decision", 10}, {"issue", 5}, {"stub", 3}}

func (g *generator) noteType() string {
	x := g.r.IntN(100)
	for _, t := range noteTypes {
		if x < t.weight {
			return t.name
		}
		x -= t.weight
	}
	return "note"
}

// sizes returns the total and median byte size of the notes at HEAD.
func (g *generator) sizes() (total int64, median int) {
	lens := make([]int, len(g.notes))
	for i, n := range g.notes {
		lens[i] = len(n.body)
		total += int64(lens[i])
	}
	if len(lens) == 0 {
		return 0, 0
	}
	slices.Sort(lens)
	return total, lens[len(lens)/2]
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
