package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"runtime/debug"
	"strings"

	"github.com/omh-notes/omh/reply"
	"github.com/omh-notes/omh/store"
)

// HooksCmd is `omh hooks`: the git hooks that keep the cache fresh.
type HooksCmd struct {
	Install   HooksInstallCmd   `cmd:"" help:"Install the hooks in the folder git runs hooks from, chaining any hook already there."`
	Uninstall HooksUninstallCmd `cmd:"" help:"Take omh's hooks out again, putting back the hooks they chained."`
	Status    HooksStatusCmd    `cmd:"" help:"Say for each hook whether it is installed, chained, missing or managed elsewhere."`
	Run       HooksRunCmd       `cmd:"" help:"What a hook runs: refresh the cache in the background; git returns at once. Never fails."`
}

// Help is the detail under `omh hooks --help`.
func (c *HooksCmd) Help() string {
	return `The hooks are post-commit, post-merge, post-checkout and post-rewrite, installed in the folder git reports (git rev-parse --git-path hooks, which follows core.hooksPath and linked worktrees). A hook already there is never overwritten: it is moved to NAME.omh-chained, runs first, and keeps its exit status; uninstall puts it back byte for byte. Where husky, the pre-commit framework, lefthook, a global core.hooksPath or a hooks folder inside the working tree owns the hooks, nothing is changed and the line to add there is printed (exit 0).

A refresh facing more than 100 changed notes runs in the background. To wait for it, run omh index: it waits for any refresh in progress and returns when the cache is at HEAD.`
}

// HooksInstallCmd is `omh hooks install`.
type HooksInstallCmd struct{}

func (c *HooksInstallCmd) Run(e *env) error {
	return e.withStore(func(s *store.Store) error {
		rep, err := s.InstallHooks()
		if err != nil {
			return err
		}
		return e.reportHooks(rep, "a hook could not be installed; see above")
	})
}

// reportHooks prints what install or uninstall did, and refuses when a hook
// could not be handled.
func (e *env) reportHooks(rep *store.HooksReport, refusal string) error {
	if err := e.print(rep); err != nil {
		return err
	}
	if rep.Refused() {
		return refuse(reply.HookRefused, errors.New(refusal))
	}
	return nil
}

// HooksUninstallCmd is `omh hooks uninstall`.
type HooksUninstallCmd struct{}

func (c *HooksUninstallCmd) Run(e *env) error {
	return e.withStore(func(s *store.Store) error {
		rep, err := s.UninstallHooks()
		if err != nil {
			return err
		}
		return e.reportHooks(rep, "a hook could not be put back; see above")
	})
}

// HooksStatusCmd is `omh hooks status`.
type HooksStatusCmd struct{}

func (c *HooksStatusCmd) Run(e *env) error {
	return e.withStore(func(s *store.Store) error {
		rep, err := s.HooksStatus()
		if err != nil {
			return err
		}
		return e.print(rep)
	})
}

// HooksRunCmd is `omh hooks run`, what each shim runs.
type HooksRunCmd struct {
	Name     string   `arg:"" name:"hook" help:"The hook git ran: post-commit, post-merge, post-checkout or post-rewrite."`
	Args     []string `arg:"" optional:"" passthrough:"partial" name:"args" help:"The arguments git gave the hook."`
	Detached bool     `name:"detached" help:"Refresh here: the hook started this process in the background (omh's shims do)."`
}

// Help is the detail under `omh hooks run --help`.
func (c *HooksRunCmd) Help() string {
	return `Starts the refresh of the cache in a process of its own (omh hooks run --detached, in a session of its own, its streams on /dev/null) and returns at once, so git waits for no refresh; omh's shims start that process in the background themselves. The refresh brings in what git changed, as omh index does; one runs at a time: a hook that finds another at work leaves it a request, and that one refreshes again before it stops, so no commit is left out. A post-checkout of files (third argument 0), the post-rewrite of an amend (its post-commit refreshed) and the commits a rebase picks need no refresh; the rebase's post-rewrite does it once. A repository omh was never used in is left alone. Any failure is one line on standard error and exit status 0: a hook never fails git. omh index waits for a refresh in progress and returns when the cache is at HEAD; every other command catches up by itself.`
}

func (c *HooksRunCmd) Run(e *env) error {
	// The shim hands omh git's standard error as it is: omh itself keeps
	// to one line, however many warnings or errors come.
	e.stderr = &firstLine{w: e.stderr}
	defer collectLess()()
	err := noPanic(func() error {
		return e.withStore(func(s *store.Store) error {
			if c.Detached {
				runInBackground()
				return s.RunDetachedHook(c.Name, c.Args)
			}
			return s.RunHook(c.Name, c.Args)
		})
	})
	if err != nil {
		// A hook never fails git: one line, and exit 0.
		msg := strings.ReplaceAll(err.Error(), "\n", " ")
		if e.cli.JSON {
			_ = reply.JSONLine(e.stderr, reply.Failure(reply.HookFailed, errors.New(msg)))
		} else {
			fmt.Fprintf(e.stderr, "omh: %s hook: %s; the next omh command refreshes the cache\n", c.Name, msg)
		}
	}
	return nil
}

// hookMemory is the heap a hook may reach before Go collects garbage at
// all: a one-note commit's refresh at 10,000 notes peaks at 25 MB resident.
const hookMemory = 128 << 20

// collectLess turns the garbage collector off, up to hookMemory, until the
// returned func puts the settings back: a hook is short and allocates
// little, and collecting cost it a tenth of its CPU on a core git and the
// shell compete for (3.7 ms of CPU, 1.5 ms of wall per one-note commit at
// 10,000 notes).
func collectLess() (restore func()) {
	limit := debug.SetMemoryLimit(-1)
	debug.SetMemoryLimit(min(limit, hookMemory))
	percent := debug.SetGCPercent(-1)
	return func() {
		debug.SetGCPercent(percent)
		debug.SetMemoryLimit(limit)
	}
}

// noPanic runs fn and returns a panic as an error: a hook that crashed
// says so in its one line rather than in a stack on git's output.
func noPanic(fn func() error) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("omh crashed: %v", r)
		}
	}()
	return fn()
}

// firstLine passes on the first line written through it and drops the
// rest, reporting every write as done so no writer stops early.
type firstLine struct {
	w    io.Writer
	done bool
}

func (f *firstLine) Write(p []byte) (int, error) {
	if f.done {
		return len(p), nil
	}
	line := p
	if i := bytes.IndexByte(p, '\n'); i >= 0 {
		line, f.done = p[:i+1], true
	}
	if _, err := f.w.Write(line); err != nil {
		return 0, err
	}
	return len(p), nil
}
