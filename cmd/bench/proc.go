package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"
)

// runner starts child processes in an environment cut off from the user's
// own: its HOME, XDG folders, git config and omh private folder all live
// under the work folder, so a developer's settings (a global hooksPath, gpg
// signing, private notes) cannot change what is measured.
type runner struct {
	env []string
	// timeBin is GNU time when it works here. A child's own ru_maxrss is
	// no good for small programs: Linux starts it from the peak of the
	// parent that forked it (this benchmark, which may have held a whole
	// generated vault), so peak memory is read through time(1), whose own
	// footprint is tiny.
	timeBin string
	rssFile string
}

// isolatedEnv builds the environment for every git, omh, rg and FTS child.
// local is the omh private-notes folder for one vault (kept empty).
func isolatedEnv(work, local string) ([]string, error) {
	base := filepath.Join(work, "env")
	dirs := map[string]string{
		"HOME":            filepath.Join(base, "home"),
		"XDG_CONFIG_HOME": filepath.Join(base, "xdg", "config"),
		"XDG_DATA_HOME":   filepath.Join(base, "xdg", "data"),
		"XDG_CACHE_HOME":  filepath.Join(base, "xdg", "cache"),
		"XDG_STATE_HOME":  filepath.Join(base, "xdg", "state"),
		"OMH_LOCAL_DIR":   local,
	}
	var env []string
	for _, name := range []string{"HOME", "XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME", "XDG_STATE_HOME", "OMH_LOCAL_DIR"} {
		if err := os.MkdirAll(dirs[name], 0o755); err != nil {
			return nil, err
		}
		env = append(env, name+"="+dirs[name])
	}
	gitconfig := filepath.Join(base, "gitconfig")
	if err := os.WriteFile(gitconfig, nil, 0o644); err != nil {
		return nil, err
	}
	env = append(env,
		"PATH="+os.Getenv("PATH"),
		"GIT_CONFIG_GLOBAL="+gitconfig,
		"GIT_CONFIG_NOSYSTEM=1",
		"GIT_AUTHOR_NAME="+authorName, "GIT_AUTHOR_EMAIL="+authorEmail,
		"GIT_COMMITTER_NAME="+authorName, "GIT_COMMITTER_EMAIL="+authorEmail,
		"TZ=UTC", "LC_ALL=C",
	)
	if tmp := os.Getenv("TMPDIR"); tmp != "" {
		env = append(env, "TMPDIR="+tmp)
	}
	return env, nil
}

// sample is one finished child process.
type sample struct {
	wall     time.Duration
	cpu      time.Duration // user and system time of the child
	maxRSSKB int64
	exit     int    // -1 when a signal ended the child
	state    string // "exit status 3", "signal: killed", …
	stdout   []byte
	stderr   string
}

// lines counts the non-empty lines the child printed.
func (s sample) lines() int {
	n := 0
	for l := range strings.SplitSeq(string(s.stdout), "\n") {
		if strings.TrimSpace(l) != "" {
			n++
		}
	}
	return n
}

// run starts one child in dir and waits for it. Its standard output goes
// through a pipe and is read to the end (never to /dev/null: ripgrep stops
// at the first match when it sees /dev/null), and the wall time includes
// that read. extraEnv adds variables such as commit dates. A start failure
// is an error; a non-zero exit is reported in sample.exit.
func (rn *runner) run(dir string, extraEnv []string, name string, args ...string) (sample, error) {
	return rn.start(dir, extraEnv, nil, name, args...)
}

// runAndWaitLeft is run, and after the timed run waits, untimed, for
// every process the command left running (a hook's background refresh),
// each holding the write end of a pipe whose other end meets its end when
// the last of them is gone: the next timed call shares the machine with
// none of them.
func (rn *runner) runAndWaitLeft(dir string, extraEnv []string, name string, args ...string) (sample, error) {
	rd, wr, err := os.Pipe()
	if err != nil {
		return sample{}, err
	}
	defer rd.Close()
	s, err := rn.start(dir, extraEnv, wr, name, args...)
	wr.Close()
	io.Copy(io.Discard, rd)
	return s, err
}

// start runs a command as run does, handing it extra as its fourth file
// (descriptor 3) when not nil.
func (rn *runner) start(dir string, extraEnv []string, extra *os.File, name string, args ...string) (sample, error) {
	cmd := exec.Command(name, args...)
	if extra != nil {
		cmd.ExtraFiles = []*os.File{extra}
	}
	cmd.Dir = dir
	cmd.Env = append(slices.Clone(rn.env), extraEnv...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	start := time.Now()
	err := cmd.Run()
	s := sample{wall: time.Since(start), stdout: out.Bytes(), stderr: errb.String()}
	if cmd.ProcessState != nil {
		s.maxRSSKB = maxRSSKB(cmd.ProcessState)
		s.cpu = cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
		s.exit = cmd.ProcessState.ExitCode()
		s.state = cmd.ProcessState.String()
	}
	var exitErr *exec.ExitError
	if err != nil && !errors.As(err, &exitErr) {
		return s, fmt.Errorf("running %s: %w", name, err)
	}
	return s, nil
}

// runWithRSS is run with the child's peak resident set measured by GNU
// time when available (its wall time then includes time's own start, a
// millisecond or two, so timed rounds use run).
func (rn *runner) runWithRSS(dir, name string, args ...string) (sample, error) {
	if rn.timeBin == "" {
		return rn.run(dir, nil, name, args...)
	}
	s, err := rn.run(dir, nil, rn.timeBin, append([]string{"-f", "%M", "-o", rn.rssFile, name}, args...)...)
	if err != nil {
		return s, err
	}
	out, err := os.ReadFile(rn.rssFile)
	if err != nil {
		return s, fmt.Errorf("reading time(1)'s report: %w", err)
	}
	// The last line is %M; a line before it says when a signal ended the child.
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if kb, err := strconv.ParseInt(lines[len(lines)-1], 10, 64); err == nil {
		s.maxRSSKB = kb
	}
	if len(lines) > 1 {
		s.stderr = strings.Join(lines[:len(lines)-1], "; ") + "; " + s.stderr
	}
	return s, nil
}

// findGNUTime returns /usr/bin/time when it takes GNU's -f and -o.
func findGNUTime(work string) (bin, report string) {
	bin, report = "/usr/bin/time", filepath.Join(work, "env", "time-report.txt")
	if exec.Command(bin, "-f", "%M", "-o", report, "true").Run() != nil {
		return "", ""
	}
	return bin, report
}

// must runs a child that has to succeed (git plumbing, builds) and returns
// its standard output.
func (rn *runner) must(dir string, extraEnv []string, name string, args ...string) (string, error) {
	s, err := rn.run(dir, extraEnv, name, args...)
	if err != nil {
		return "", err
	}
	if s.exit != 0 {
		return "", fmt.Errorf("%s %s: %s: %s", filepath.Base(name), strings.Join(args, " "), s.state, strings.TrimSpace(s.stderr))
	}
	return string(s.stdout), nil
}

// stats summarises repeated timings in milliseconds.
type stats struct {
	N      int     `json:"n"`
	Median float64 `json:"median_ms"`
	P90    float64 `json:"p90_ms"`
	Min    float64 `json:"min_ms"`
	Max    float64 `json:"max_ms"`
	Mean   float64 `json:"mean_ms"`
}

// summarize computes the median and the nearest-rank 90th percentile: the
// median because the machine is shared and a few runs are hit by others'
// work, p90 to show how bad the bad runs are.
func summarize(ds []time.Duration) stats {
	if len(ds) == 0 {
		return stats{}
	}
	ms := make([]float64, len(ds))
	sum := 0.0
	for i, d := range ds {
		ms[i] = float64(d.Microseconds()) / 1000
		sum += ms[i]
	}
	slices.Sort(ms)
	n := len(ms)
	median := ms[n/2]
	if n%2 == 0 {
		median = (ms[n/2-1] + ms[n/2]) / 2
	}
	p90 := ms[int(math.Ceil(0.9*float64(n)))-1]
	return stats{N: n, Median: round2(median), P90: round2(p90), Min: round2(ms[0]), Max: round2(ms[n-1]), Mean: round2(sum / float64(n))}
}

func round2(x float64) float64 { return math.Round(x*100) / 100 }

// ratio is a/b, or 0 when b is 0 (nothing measured).
func ratio(a, b float64) float64 {
	if b == 0 {
		return 0
	}
	return round2(a / b)
}
