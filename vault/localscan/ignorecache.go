package localscan

import (
	"bufio"
	"os"
	"path"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/omh-notes/omh/internal/safefile"
)

// ignored applies git's ignore rules to a path relative to the notes root:
// .gitignore files from the repository root down, the repository's
// info/exclude and the user's global excludes file.
func (sc *scanner) ignored(st *ScanState, full string, dir bool) bool {
	parts := strings.Split(full, "/")
	return sc.patternsFor(st, path.Dir(full)).ignored(parts, dir)
}

func (sc *scanner) patternsFor(st *ScanState, dir string) *ignoreRules {
	if dir == "." {
		dir = ""
	}
	if rules, ok := sc.patterns[dir]; ok {
		return rules
	}
	var rules *ignoreRules
	var domain []string
	if dir == "" {
		for _, f := range sc.globalIgnoreFiles() {
			rules = rules.with(sc.readIgnore(st, f, nil, true))
		}
	} else {
		rules = sc.patternsFor(st, path.Dir(dir))
		domain = strings.Split(dir, "/")
	}
	rules = rules.with(sc.readIgnore(st, filepath.Join(sc.Repo.Root, filepath.FromSlash(dir), ".gitignore"), domain, false))
	sc.patterns[dir] = rules
	return rules
}

// globalIgnoreFiles are the ignore files outside the working tree.
func (sc *scanner) globalIgnoreFiles() []string {
	files := []string{filepath.Join(sc.Repo.CommonDir, "info", "exclude")}
	if f := sc.Repo.ConfigValue("core", "excludesfile"); f != "" {
		if home, err := os.UserHomeDir(); err == nil && strings.HasPrefix(f, "~/") {
			f = filepath.Join(home, f[2:])
		}
		return append(files, f)
	}
	base := os.Getenv("XDG_CONFIG_HOME")
	if base == "" {
		home, err := os.UserHomeDir()
		if err != nil {
			return files
		}
		base = filepath.Join(home, ".config")
	}
	return append(files, filepath.Join(base, "git", "ignore"))
}

// readIgnore parses one ignore file and records its stat, so a later edit
// invalidates every folder listing made under its rules. An absent
// .gitignore need not be recorded: creating one changes its folder's
// modification time, which lists the folder again; files outside the working
// tree are recorded absent too, since nothing else would notice them appear.
func (sc *scanner) readIgnore(st *ScanState, file string, domain []string, recordAbsent bool) *ignoreFile {
	stat := FileStat{Size: -1}
	var rules *ignoreFile
	open := safefile.Open // git reads no .gitignore through a link either
	if recordAbsent {
		open = safefile.OpenFollowing
	}
	if f, err := open(file); err == nil {
		if fi, err := f.Stat(); err == nil {
			stat = statOf(fi)
		}
		rules = parsedIgnores.get(file, domain, stat, f)
		f.Close()
	}
	if stat.Size < 0 && !recordAbsent {
		return nil
	}
	if prev, ok := st.ignores[file]; !ok || prev != stat {
		st.ignores[file] = stat
		st.headDirty = true
		sc.rulesChanged = true
	}
	if rules == nil {
		rules = parseIgnore(nil, domain)
	}
	return rules
}

// parsedIgnores keeps each ignore file parsed for the life of the process:
// a command that checks freshness and then refreshes scans twice, and the
// MCP server scans on every call. A 300,000-line .gitignore took 61 % of
// such a find's CPU to read and parse twice.
var parsedIgnores = ignoreCache{files: map[string]parsedIgnore{}}

type ignoreCache struct {
	mu    sync.Mutex
	files map[string]parsedIgnore // by file and the folder it applies to
}

type parsedIgnore struct {
	stat  FileStat
	rules *ignoreFile
}

// get returns the rules of the ignore file open as f, parsed again when
// its stat differs from when it was last parsed, or when it was modified
// so lately that an edit in the same clock tick would leave the stat as
// it is.
func (c *ignoreCache) get(file string, domain []string, stat FileStat, f *os.File) *ignoreFile {
	key := file + "\x00" + strings.Join(domain, "/")
	c.mu.Lock()
	p, ok := c.files[key]
	c.mu.Unlock()
	if ok && p.stat == stat && time.Now().UnixNano()-stat.Mtime >= racyWindow {
		return p.rules
	}
	var ps []string
	lines := bufio.NewScanner(f)
	for lines.Scan() {
		line := strings.TrimSuffix(lines.Text(), "\r")
		if strings.TrimSpace(line) == "" || strings.HasPrefix(line, "#") {
			continue
		}
		ps = append(ps, line)
	}
	rules := parseIgnore(ps, domain)
	c.mu.Lock()
	c.files[key] = parsedIgnore{stat, rules}
	c.mu.Unlock()
	return rules
}

// ignoresChanged reports whether an ignore file read by an earlier scan has
// changed since; folder listings made under the old rules are then stale.
func (s *ScanState) ignoresChanged() bool {
	for file, was := range s.ignores {
		st := FileStat{Size: -1}
		if fi, err := os.Stat(file); err == nil {
			st = statOf(fi)
		}
		if st != was {
			return true
		}
	}
	return false
}
