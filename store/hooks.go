package store

import (
	"errors"
	"fmt"
	"hash/fnv"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"

	"github.com/omh-notes/omh/hooks"
	"github.com/omh-notes/omh/index"
	"github.com/omh-notes/omh/reply"
	"github.com/omh-notes/omh/vault/disk"
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

// RunHook is what a hook runs: after git moved HEAD, it hands the cache's
// refresh to omh hooks run --detached in a process of its own and returns
// at once, so git (and whatever reads git's output) waits for no refresh;
// the shims start that process themselves, in the background. A
// post-checkout of files (third argument 0), the post-rewrite of an amend
// (its post-commit refreshed) and the commits a rebase picks need no
// refresh; the rebase's post-rewrite does it once. A repository omh was
// never used in is left alone.
func (s *Store) RunHook(name string, args []string) error {
	if ok, err := s.hookRefreshes(name, args); !ok || err != nil {
		return err
	}
	return s.background(append([]string{"-C", s.Repo.Root, "--quiet", "hooks", "run", "--detached", name}, args...)...)
}

// RunDetachedHook is a hook's refresh, in the background process the hook
// started: it brings in what git changed (the team layer; the working
// tree is checked by the next command, as always). One such process
// refreshes at a time: one that finds another at work leaves it a request
// and returns, and the one at work refreshes again while requests come, so
// no commit is left out; and whatever happens to it, the next command
// catches up by itself.
func (s *Store) RunDetachedHook(name string, args []string) error {
	if ok, err := s.hookRefreshes(name, args); !ok || err != nil {
		return err
	}
	cache, err := s.openCache()
	if err != nil {
		return err
	}
	// Named after the working tree's git folder: worktrees of one clone
	// share the cache, and each refreshes its own snapshot.
	h := fnv.New32a()
	h.Write([]byte(s.Repo.GitDir))
	base := filepath.Join(cache.Dir, fmt.Sprintf("hook-%08x", h.Sum32()))
	request := base + ".again"
	if err := os.WriteFile(request, nil, 0o644); err != nil {
		return fmt.Errorf("asking for a refresh: %w", err)
	}
	for {
		lock, err := os.OpenFile(base+".lock", os.O_CREATE|os.O_RDWR, 0o644)
		if err != nil {
			return fmt.Errorf("opening the hook's lock: %w", err)
		}
		if err := disk.LockFile(lock, true, false); err != nil {
			lock.Close()
			if errors.Is(err, disk.ErrLocked) {
				return nil // the process at work takes the request
			}
			return fmt.Errorf("taking the hook's lock: %w", err)
		}
		err = s.refreshWhileAsked(cache, request)
		lock.Close()
		if err != nil || !exists(request) {
			return err
		}
		// A request came between the last look and the unlock: take the
		// lock again, unless the process that sent it took it first.
	}
}

// refreshWhileAsked refreshes the cache until no request for a refresh
// is left, each request taken before the refresh that answers it.
func (s *Store) refreshWhileAsked(cache *index.Cache, request string) error {
	for exists(request) {
		if err := os.Remove(request); err != nil {
			return fmt.Errorf("taking the request for a refresh: %w", err)
		}
		_, err := cache.Refresh(s.Repo, index.Options{NoWorktree: true}) // waits for any other refresh
		if index.IsDamaged(err) {
			// omh index replaces a damaged cache; that is a first build.
			return s.background("-C", s.Repo.Root, "--quiet", "index")
		}
		if err != nil {
			return classify(err)
		}
	}
	return nil
}

// hookRefreshes reports whether the hook name, run with git's args,
// calls for a refresh.
func (s *Store) hookRefreshes(name string, args []string) (bool, error) {
	if !slices.Contains(hooks.Names, name) {
		return false, fmt.Errorf("omh has no %q hook (it has %s)", name, strings.Join(hooks.Names, ", "))
	}
	switch {
	case name == "post-checkout" && len(args) >= 3 && args[2] == "0":
		return false, nil // files were checked out; HEAD did not move
	case name == "post-rewrite" && len(args) >= 1 && args[0] == "amend":
		return false, nil // git commit --amend ran post-commit just before
	}
	r := s.Repo
	if name != "post-rewrite" && (isFolder(filepath.Join(r.GitDir, "rebase-merge")) || isFolder(filepath.Join(r.GitDir, "rebase-apply"))) {
		// A rebase fires post-checkout and a post-commit per picked commit;
		// its post-rewrite refreshes once at the end.
		return false, nil
	}
	// omh was never used here; the first command builds the cache.
	return isFolder(filepath.Join(r.CommonDir, "omh")), nil
}

func exists(path string) bool {
	_, err := os.Lstat(path)
	return err == nil
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
