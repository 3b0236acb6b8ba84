package store

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/omh-notes/omh/hooks"
	"github.com/omh-notes/omh/index"
	"github.com/omh-notes/omh/reply"
)

// HooksReport is the state of every hook and, after install or
// uninstall, what was done to it.
type HooksReport struct {
	SchemaVersion int `json:"schema_version"`

	HooksDir string     `json:"hooks_dir"`
	Manager  *string    `json:"manager"` // who owns the whole folder, when someone else does
	Hooks    []HookInfo `json:"hooks"`
	Changed  *bool      `json:"changed,omitempty"` // install, uninstall: whether any file changed
	report   *hooks.Report
}

// HookInfo is one hook's state and, for install and uninstall, what the
// command did to it.
type HookInfo struct {
	Name     string  `json:"name"`
	State    string  `json:"state"` // installed, chained, missing or managed
	Path     string  `json:"path"`
	Chained  *string `json:"chained"`          // the user's hook the shim runs first
	Manager  *string `json:"manager"`          // who owns the hook when it is managed elsewhere
	CallsOmh bool    `json:"calls_omh"`        // the hook runs omh hooks run, whoever wrote it
	Add      *string `json:"add"`              // managed: the line to add
	AddTo    *string `json:"add_to"`           // managed: where to add it
	Change   string  `json:"change,omitempty"` // install, uninstall: written, updated, chained, removed, restored, unchanged, refused
	Note     string  `json:"note,omitempty"`
}

// hooksReport is r as the store reports it; version 0 for the report
// nested in omh init's, which has its own.
func hooksReport(r *hooks.Report, version int) *HooksReport {
	out := &HooksReport{SchemaVersion: version, HooksDir: r.HooksDir, Manager: orNull(r.Manager), Changed: r.Changed, report: r}
	if r.Hooks != nil {
		out.Hooks = make([]HookInfo, len(r.Hooks))
		for i, h := range r.Hooks {
			out.Hooks[i] = HookInfo{Name: h.Name, State: string(h.State), Path: h.Path, Chained: orNull(h.Chained), Manager: orNull(h.Manager),
				CallsOmh: h.CallsOmh, Add: orNull(h.Add), AddTo: orNull(h.AddTo), Change: string(h.Change), Note: h.Note}
		}
	}
	return out
}

// Shown is a path for people: relative to the working tree when inside it.
func (r *HooksReport) Shown(path string) string { return r.report.Shown(path) }

// Refused reports whether a hook could not be handled.
func (r *HooksReport) Refused() bool { return r.report.Refused() }

// hookPlace finds where git runs this repository's hooks from.
func (s *Store) hookPlace() (*hooks.Place, error) {
	p, err := hooks.FindPlace(s.Repo)
	if err != nil {
		return nil, refuse(reply.GitFailed, err)
	}
	return p, nil
}

// HooksStatus says for each hook whether it is installed, chained, missing
// or managed elsewhere.
func (s *Store) HooksStatus() (*HooksReport, error) {
	p, err := s.hookPlace()
	if err != nil {
		return nil, err
	}
	rep, err := p.Status()
	if err != nil {
		return nil, err
	}
	return hooksReport(rep, reply.SchemaVersion), nil
}

// InstallHooks installs the shims and makes sure the repository has a
// cache folder: hooks refresh only a repository omh has been used in, so
// the same shim is harmless in a hooks folder shared by other repositories.
func (s *Store) InstallHooks() (*HooksReport, error) {
	p, err := s.hookPlace()
	if err != nil {
		return nil, err
	}
	t, err := s.begin("omh hooks install")
	if err != nil {
		return nil, err
	}
	defer t.Close()
	rep, err := p.Install(t)
	if err == nil {
		err = commit(t, "no hook was changed")
	}
	if err != nil {
		return nil, err
	}
	s.openCache()
	return hooksReport(rep, reply.SchemaVersion), nil
}

// UninstallHooks takes omh's shims out, putting back the hooks they
// chained, all or none.
func (s *Store) UninstallHooks() (*HooksReport, error) {
	p, err := s.hookPlace()
	if err != nil {
		return nil, err
	}
	t, err := s.begin("omh hooks uninstall")
	if err != nil {
		return nil, err
	}
	defer t.Close()
	rep, err := p.Uninstall(t)
	if err == nil {
		err = commit(t, "no hook was changed")
	}
	if err != nil {
		return nil, err
	}
	return hooksReport(rep, reply.SchemaVersion), nil
}

// DetachAbove is the most changed team notes a hook refreshes while git
// waits. Measured on the 10k-note benchmark vault on two shared cores
// (in-process, load about 4): a hook's refresh (the team layer only) costs
// about 50 ms whatever changed plus about 2.5 ms per changed note (1 note
// 56 ms, 10 notes 53 ms, 100 notes 287 ms). At 100 a git command waits a
// third of a second or so, and commits, merges and branch switches, which
// change a handful of notes, still leave the cache fresh when git returns;
// a checkout far away or a big pull refreshes in the background instead of
// holding git for seconds.
const DetachAbove = 100

// RunHook is what a hook runs: it brings the cache up to date after git
// moved HEAD, in the background when the work is long or another process
// holds the refresh. A post-checkout of files (third argument 0), the
// post-rewrite of an amend (its post-commit refreshed) and the commits a
// rebase picks need no refresh; the rebase's post-rewrite does it once. A
// repository omh was never used in is left alone.
func (s *Store) RunHook(name string, args []string) error {
	if !slices.Contains(hooks.Names, name) {
		return fmt.Errorf("omh has no %q hook (it has %s)", name, strings.Join(hooks.Names, ", "))
	}
	switch {
	case name == "post-checkout" && len(args) >= 3 && args[2] == "0":
		return nil // files were checked out; HEAD did not move
	case name == "post-rewrite" && len(args) >= 1 && args[0] == "amend":
		return nil // git commit --amend ran post-commit just before
	}
	r := s.Repo
	if name != "post-rewrite" && (isFolder(filepath.Join(r.GitDir, "rebase-merge")) || isFolder(filepath.Join(r.GitDir, "rebase-apply"))) {
		// A rebase fires post-checkout and a post-commit per picked commit;
		// its post-rewrite refreshes once at the end.
		return nil
	}
	if !isFolder(filepath.Join(r.CommonDir, "omh")) {
		return nil // omh was never used here; the first command builds the cache
	}
	cache, err := s.openCache()
	if err != nil {
		return err
	}
	background := []string{"-C", r.Root, "--quiet", "index"}
	// Wait for no other refresh: when one holds the lock, a background
	// omh index queues behind it, so the cache still ends at HEAD. A hook
	// brings in what git changed, the team layer; the working tree is
	// checked by the next command, as always, so the hook costs what the
	// commit changed rather than a stat of every note. The refresh itself
	// says when the commit changed too many notes to wait for.
	rep, err := cache.Refresh(r, index.Options{LockWait: time.Nanosecond, NoWorktree: true, MaxTeamChanges: DetachAbove})
	var many *index.TooManyChanges
	switch {
	case index.IsDamaged(err):
		// omh index replaces a damaged cache; that is a first build.
		s.warn("the cache %s is damaged; rebuilding it in the background (omh index waits for it)", cache.Path)
		return s.background(background...)
	case errors.As(err, &many):
		if err := s.background(background...); err != nil {
			return err
		}
		s.warn("%d notes changed; refreshing the cache in the background (omh index waits for it)", many.Changes)
		return nil
	case err != nil:
		return classify(err)
	}
	if len(rep.Warnings) > 0 {
		more := ""
		if n := len(rep.Warnings) - 1; n > 0 {
			more = fmt.Sprintf(" (and %d more like it)", n)
		}
		s.warn("%s%s", rep.Warnings[0], more)
	}
	if rep.Stale {
		return s.background(background...)
	}
	return nil
}

// background starts omh with args in a session of its own, its standard
// streams on /dev/null, and does not wait for it: git, and whatever reads
// git's output, return at once.
func (s *Store) background(args ...string) error {
	if s.opt.Background != nil {
		return s.opt.Background(args...)
	}
	self, err := os.Executable()
	if err != nil {
		return err
	}
	return Detach(self, args...)
}

// Detach starts exe with args in a session of its own with its standard
// streams on /dev/null, and does not wait for it.
func Detach(exe string, args ...string) error {
	cmd := exec.Command(exe, args...)
	cmd.SysProcAttr = detached()
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("starting a background refresh: %w", err)
	}
	return cmd.Process.Release()
}
