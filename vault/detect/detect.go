package detect

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/omh-notes/omh/internal/procs"
	"github.com/omh-notes/omh/vault"
	"go.yaml.in/yaml/v3"
)

// Detected is what omh works out about a vault that has no config: where
// its notes are and which tool's dialect they are written in.
type Detected struct {
	Notes   string // the notes root; "" for the default rule
	Dialect vault.Dialect
	// Why says, one line a choice, what each choice rests on, for people.
	Why []string
}

// Markers are the files and folders each tool keeps in a vault, relative to
// the vault's folder.
var dialectMarkers = []struct{ file, dialect string }{
	{".obsidian", vault.DialectObsidian},
	{"dendron.yml", vault.DialectDendron},
	{".foam", vault.DialectFoam},
	{"logseq/config.edn", vault.DialectLogseq},
	{".zk", vault.DialectZk},
	{"docfx.json", vault.DialectMarkdown},
}

// repoFiles are the markdown files a repository keeps at its root about
// itself, which are no reason to keep the notes root at the top.
var repoFiles = vault.LazyRegexp(`(?i)^(readme|changelog|contributing|security|code_of_conduct|license|licence|support|authors|history)(\.[a-z-]+)?\.md$`)

// detectSample bounds how many notes detection reads: enough to count link
// forms in a vault of any size (vba-docs, 38,187 notes, reads 2,000 files
// in about 0.1 s), once, before the config exists.
const detectSample = 2000

// Detect looks at the markdown files git shows in the working tree of the
// repository at root (tracked, and untracked ones it does not ignore; shown
// lists them, and is asked only when there is no notes folder) and decides
// the notes root and the dialect: a tool's own marker file first
// (.obsidian/, dendron.yml, .foam/, logseq/, .zk/, docfx.json), else how
// the notes write their links.
func Detect(root string, shown func(root string) ([]string, error)) (Detected, error) {
	var det Detected
	if isDir(filepath.Join(root, filepath.FromSlash(vault.DefaultNotesDir))) {
		det.Dialect.Name = vault.DialectOmh
		det.Why = append(det.Why, fmt.Sprintf("notes root %s and dialect omh: the folder %s exists", vault.DefaultNotesDir, vault.DefaultNotesDir))
		return det, nil
	}
	all, err := shown(root)
	if err != nil {
		return Detected{}, err
	}
	var files []string
	for _, f := range all {
		if strings.HasSuffix(f, vault.NoteExt) && !strings.HasPrefix(f, ".omh/") {
			files = append(files, f)
		}
	}
	sort.Strings(files)
	if dir, dialect, marker := findMarker(root, files); marker != "" {
		det.Notes, det.Dialect.Name = dir, dialect
		det.Why = append(det.Why, fmt.Sprintf("dialect %s: %s is there", dialect, path.Join(dir, marker)))
		if dialect == vault.DialectDendron {
			det.dendronVaults(root, dir)
		}
	}
	forms := countForms(root, files, detectSample)
	if det.Dialect.Name == "" {
		det.Dialect.Name = forms.dialect()
		det.Why = append(det.Why, fmt.Sprintf("dialect %s: %s", det.Dialect.Name, forms.String()))
		// A vault written for another tool may keep its notes in a folder
		// of the repository (obsidian-help's en/); omh's own notes are
		// keyed from the root, and keep their folders in their keys.
		if det.Dialect.Name != vault.DialectOmh {
			if det.Notes = commonFolder(files); det.Notes != "" {
				det.Why = append(det.Why, fmt.Sprintf("notes root %s: every markdown file but the repository's own (README.md and the like) is under it", det.Notes))
			}
		}
	}
	var notes []string
	for _, f := range files {
		if det.Notes == "" {
			notes = append(notes, f)
		} else if rel, ok := strings.CutPrefix(f, det.Notes+"/"); ok {
			notes = append(notes, rel)
		}
	}
	switch det.Dialect.Name {
	case vault.DialectDendron:
		if det.Dialect.Vaults == nil {
			if name := forms.ownVault(notes); name != "" {
				det.Dialect.Vaults = map[string]string{name: "."}
				det.Why = append(det.Why, fmt.Sprintf("vault %s is the notes root: most dendron://%s/ links name notes here", name, name))
			}
		}
	case vault.DialectMarkdown:
		dir := filepath.Join(root, filepath.FromSlash(det.Notes))
		// Links to the site's own pages are a few in a thousand notes
		// (175 in vba-docs' 38,187): read them all.
		if site := siteOf(siteLinks(dir, notes), notes); site != "" {
			det.Dialect.Site = site
			det.Why = append(det.Why, fmt.Sprintf("site %s: links to %s... name notes here, other site-absolute links lead elsewhere", site, site))
		}
	}
	return det, nil
}

// Default reports whether what was detected is what omh does with no
// config: omh's own dialect and the default notes root.
func (det Detected) Default() bool {
	d := det.Dialect
	return det.Notes == "" && d.String() == vault.DialectOmh && len(d.Vaults) == 0 && d.Site == ""
}

func isDir(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.IsDir()
}

// findMarker finds the shallowest folder holding markdown files (or above
// them) that also holds a tool's marker.
func findMarker(root string, files []string) (dir, dialect, marker string) {
	dirs := map[string]bool{".": true}
	for _, f := range files {
		for d := path.Dir(f); d != "."; d = path.Dir(d) {
			dirs[d] = true
		}
	}
	ordered := make([]string, 0, len(dirs))
	for d := range dirs {
		ordered = append(ordered, d)
	}
	sort.Slice(ordered, func(i, j int) bool {
		di, dj := strings.Count(ordered[i], "/"), strings.Count(ordered[j], "/")
		if ordered[i] == "." || ordered[j] == "." {
			return ordered[i] == "." && ordered[j] != "."
		}
		if di != dj {
			return di < dj
		}
		return ordered[i] < ordered[j]
	})
	for _, d := range ordered {
		for _, m := range dialectMarkers {
			if _, err := os.Stat(filepath.Join(root, filepath.FromSlash(d), filepath.FromSlash(m.file))); err == nil {
				if d == "." {
					d = ""
				}
				return d, m.dialect, m.file
			}
		}
	}
	return "", "", ""
}

// commonFolder is the deepest folder holding every markdown file except
// the repository's own files at its top.
func commonFolder(files []string) string {
	common, first := "", true
	for _, f := range files {
		if !strings.Contains(f, "/") && repoFiles().MatchString(f) {
			continue
		}
		dir := path.Dir(f)
		if dir == "." {
			return ""
		}
		if first {
			common, first = dir, false
			continue
		}
		for common != "" && dir != common && !strings.HasPrefix(dir, common+"/") {
			common = path.Dir(common)
			if common == "." {
				return ""
			}
		}
	}
	return common
}

// dendronVaults reads the vaults dendron.yml names (workspace.vaults in
// newer configs, vaults in older ones): a single vault becomes the notes
// root, several are each mapped to their folders.
func (det *Detected) dendronVaults(root, dir string) {
	raw, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(dir), "dendron.yml"))
	if err != nil {
		return
	}
	type dendronVault struct {
		FsPath string `yaml:"fsPath"`
		Name   string `yaml:"name"`
	}
	var cfg struct {
		Vaults    []dendronVault `yaml:"vaults"`
		Workspace struct {
			Vaults []dendronVault `yaml:"vaults"`
		} `yaml:"workspace"`
	}
	if yaml.Unmarshal(raw, &cfg) != nil {
		return
	}
	vaults := append(cfg.Workspace.Vaults, cfg.Vaults...)
	if len(vaults) == 0 {
		return
	}
	det.Dialect.Vaults = map[string]string{}
	for _, v := range vaults {
		fs, err := vault.CleanNotesDir(v.FsPath, "") // under the notes root: never absolute
		if err != nil {
			continue
		}
		name := v.Name
		if name == "" {
			name = path.Base(fs)
		}
		det.Dialect.Vaults[name] = fs
	}
	if len(vaults) == 1 {
		for name, fs := range det.Dialect.Vaults {
			det.Notes = path.Join(dir, fs)
			det.Dialect.Vaults[name] = "."
			det.Why = append(det.Why, fmt.Sprintf("notes root %s: the only vault dendron.yml names", det.Notes))
		}
		return
	}
	det.Why = append(det.Why, fmt.Sprintf("notes root %s: dendron.yml names %d vaults under it", describeRoot(dir), len(vaults)))
}

func describeRoot(dir string) string {
	if dir == "" {
		return "the repository root"
	}
	return dir
}

// linkForms counts how a sample of notes write links.
type linkForms struct {
	read                int
	dendronFrontmatter  int // notes with Dendron's id, updated and created fields
	omhFrontmatter      int // notes with a type: of omh's, recorded: or answers:
	wiki, markdown      int // wiki links and embeds; markdown links to paths
	obsidianOnly        int // embeds, pipes escaped inside wiki links, %% comments
	dendronLinks        int
	includes, docfxMeta int // [!include[...](...)] and ms.* frontmatter fields
	vaults              map[string][]string
}

var (
	wikiPattern      = vault.LazyRegexp(`\[\[[^\]\n]+\]\]`)
	markdownDest     = vault.LazyRegexp(`\]\(\s*<?([^)\s>]+)`)
	dendronPattern   = vault.LazyRegexp(`dendron://([^/\s|\]]+)/([^\s|\]#]+)`)
	dendronFrontKeys = vault.LazyRegexp(`(?m)^(id|updated|created):`)
	docfxFrontKey    = vault.LazyRegexp(`(?m)^ms\.[a-z]+:`)
	includePattern   = vault.LazyRegexp(`\[!(?i:include)\s*\[`)
	omhFrontKeys     = vault.LazyRegexp(`(?m)^(recorded:|answers:|type:[ \t]*["']?([a-z]+))`)
)

// countForms reads up to sample notes, spread evenly over the sorted list,
// from the first 64 KB of each.
func countForms(dir string, notes []string, sample int) linkForms {
	f := linkForms{vaults: map[string][]string{}}
	step := max(1, (len(notes)+sample-1)/sample)
	buf := make([]byte, 64<<10)
	for i := 0; i < len(notes); i += step {
		file, err := os.Open(filepath.Join(dir, filepath.FromSlash(notes[i])))
		if err != nil {
			continue
		}
		n, _ := io.ReadFull(file, buf)
		file.Close()
		f.add(buf[:n])
	}
	return f
}

// siteLinks lists the site-absolute markdown link paths of every note, in
// the notes' order. The notes are read on every core: read one by one,
// vba-docs' 38,187 took half a second of its first command.
func siteLinks(dir string, notes []string) []string {
	workers := procs.Workers(len(notes) / 256)
	found := make([][]string, workers)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for _, n := range notes[w*len(notes)/workers : (w+1)*len(notes)/workers] {
				found[w] = appendSiteLinks(found[w], dir, n)
			}
		}()
	}
	wg.Wait()
	return slices.Concat(found...)
}

// appendSiteLinks adds the site-absolute markdown link paths of note to out.
func appendSiteLinks(out []string, dir, note string) []string {
	b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(note)))
	if err != nil {
		return out
	}
	for i := bytes.Index(b, []byte("](/")); i >= 0; {
		rest := b[i+2:]
		end := bytes.IndexAny(rest, ") \t\n#?")
		if end < 0 {
			end = len(rest)
		}
		out = append(out, string(rest[:end]))
		next := bytes.Index(rest, []byte("](/"))
		if next < 0 {
			break
		}
		i += 2 + next
	}
	return out
}

func (f *linkForms) add(b []byte) {
	f.read++
	if bytes.HasPrefix(b, []byte("---")) {
		fm := b
		if end := bytes.Index(b[3:], []byte("\n---")); end >= 0 {
			fm = b[:end+3]
		}
		if len(dendronFrontKeys().FindAll(fm, -1)) >= 3 {
			f.dendronFrontmatter++
		}
		if docfxFrontKey().Match(fm) {
			f.docfxMeta++
		}
		if m := omhFrontKeys().FindSubmatch(fm); m != nil && (len(m[2]) == 0 || vault.KnownType(string(m[2]))) {
			f.omhFrontmatter++
		}
	}
	for _, m := range wikiPattern().FindAllIndex(b, -1) {
		f.wiki++
		if m[0] > 0 && b[m[0]-1] == '!' || bytes.Contains(b[m[0]:m[1]], []byte(`\|`)) {
			f.obsidianOnly++
		}
	}
	f.obsidianOnly += bytes.Count(b, []byte("%%")) / 2
	f.includes += len(includePattern().FindAll(b, -1))
	for _, m := range markdownDest().FindAllSubmatch(b, -1) {
		if m[1][0] == '#' || vault.URLScheme().Match(m[1]) {
			continue
		}
		f.markdown++
	}
	for _, m := range dendronPattern().FindAllSubmatch(b, -1) {
		f.dendronLinks++
		f.vaults[string(m[1])] = append(f.vaults[string(m[1])], string(m[2]))
	}
}

// dialect decides from the counts: Dendron's frontmatter in most notes or
// any dendron:// link; else omh's own when most notes have omh's fields;
// else Obsidian when wiki links are at least as many as markdown links and
// some use what only Obsidian writes (embeds, a pipe escaped in a table,
// %% comments); else omh's own rules for other wiki links; else a markdown
// site when notes link at all; else omh's own.
func (f linkForms) dialect() string {
	switch {
	case f.read > 0 && (f.dendronFrontmatter*2 >= f.read || f.dendronLinks > 0):
		return vault.DialectDendron
	case f.read > 0 && f.omhFrontmatter*2 >= f.read:
		return vault.DialectOmh
	case f.wiki > 0 && f.wiki >= f.markdown && f.obsidianOnly > 0:
		return vault.DialectObsidian
	case f.wiki > 0 && f.wiki >= f.markdown:
		return vault.DialectOmh
	case f.markdown > 0 || f.includes > 0:
		return vault.DialectMarkdown
	}
	return vault.DialectOmh
}

func (f linkForms) String() string {
	switch f.dialect() {
	case vault.DialectDendron:
		return fmt.Sprintf("%d of %d notes read have Dendron's id, updated and created fields, %d dendron:// links", f.dendronFrontmatter, f.read, f.dendronLinks)
	case vault.DialectObsidian:
		return fmt.Sprintf("%d wiki links (%d embeds, escaped pipes or %%%% comments) and %d markdown links in %d notes read", f.wiki, f.obsidianOnly, f.markdown, f.read)
	case vault.DialectMarkdown:
		return fmt.Sprintf("%d markdown links, %d wiki links, %d DocFX includes in %d notes read", f.markdown, f.wiki, f.includes, f.read)
	}
	if f.wiki > 0 {
		return fmt.Sprintf("%d wiki links and %d markdown links in %d notes read, none of what only Obsidian writes", f.wiki, f.markdown, f.read)
	}
	if f.omhFrontmatter > 0 {
		return fmt.Sprintf("%d of %d notes read have omh's fields (type:, recorded:, answers:)", f.omhFrontmatter, f.read)
	}
	return fmt.Sprintf("no links in %d notes read", f.read)
}

// ownVault is the Dendron vault name whose dendron:// links mostly name
// notes of this vault, the one with the most such links.
func (f linkForms) ownVault(notes []string) string {
	have := map[string]bool{}
	for _, n := range notes {
		have[strings.ToLower(strings.TrimSuffix(n, vault.NoteExt))] = true
	}
	best, bestHits := "", 0
	for name, targets := range f.vaults {
		hits := 0
		for _, t := range targets {
			if have[strings.ToLower(t)] {
				hits++
			}
		}
		if hits*2 > len(targets) && (hits > bestHits || hits == bestHits && name < best) {
			best, bestHits = name, hits
		}
	}
	return best
}

// siteOf finds the URL path a markdown site is published under: the
// leading folders (one to three) of site-absolute links that, taken away,
// leave the paths of notes here, for at least 4 links in 5 that start with
// them.
func siteOf(links, notes []string) string {
	have := map[string]bool{}
	for _, n := range notes {
		have[strings.ToLower(strings.TrimSuffix(n, vault.NoteExt))] = true
	}
	type tally struct{ links, hits int }
	prefixes := map[string]*tally{}
	for _, l := range links {
		parts := strings.Split(strings.Trim(l, "/"), "/")
		for k := 1; k <= 3 && k < len(parts); k++ {
			p := "/" + strings.Join(parts[:k], "/") + "/"
			t := prefixes[p]
			if t == nil {
				t = &tally{}
				prefixes[p] = t
			}
			t.links++
			rest := strings.ToLower(vault.TrimNoteExt(vault.PathUnescape(strings.Join(parts[k:], "/"))))
			if have[rest] {
				t.hits++
			}
		}
	}
	best := ""
	for p, t := range prefixes {
		if t.hits < 2 || t.hits*5 < t.links*4 {
			continue
		}
		if b := prefixes[best]; best == "" || t.hits > b.hits || t.hits == b.hits && len(p) < len(best) {
			best = p
		}
	}
	return best
}
