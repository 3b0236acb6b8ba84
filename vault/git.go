package vault

import (
	"bytes"
	"fmt"
	"os/exec"
	"slices"
	"strings"
)

// Git runs the git command line in dir, with input on its standard input,
// and returns what it printed. Reading is go-git's job; this is for what
// only git itself does right: staging (never rewrite .git/index by hand),
// moving tracked files, asking where hooks live and how settings resolve.
// Paths are read as paths, never as patterns (--literal-pathspecs): a note
// may be called "[draft].md". (check-ignore refuses the option; it reads
// its paths from the standard input, where they are paths anyway.) A
// failure carries git's own message.
func Git(dir, input string, args ...string) (string, error) {
	sub := "" // the subcommand, after git's own options
	if i := slices.IndexFunc(args, func(a string) bool { return !strings.HasPrefix(a, "-") }); i >= 0 {
		sub = args[i]
	}
	if sub != "check-ignore" {
		args = append([]string{"--literal-pathspecs"}, args...)
	}
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Stdin = strings.NewReader(input)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		msg := strings.TrimSpace(stderr.String())
		if msg == "" {
			msg = err.Error()
		}
		return stdout.String(), fmt.Errorf("git %s: %s", sub, msg)
	}
	return stdout.String(), nil
}

// GitPaths runs a git command that prints NUL-separated paths (-z) and
// returns them as a set.
func GitPaths(dir string, args ...string) (map[string]bool, error) {
	out, err := Git(dir, "", args...)
	if err != nil {
		return nil, err
	}
	set := map[string]bool{}
	for _, f := range strings.Split(out, "\x00") {
		if f != "" {
			set[f] = true
		}
	}
	return set, nil
}

// GitSetting reads one git setting as git itself resolves it (system,
// global, repository, includes); "" when it is not set.
func GitSetting(dir, name string) string {
	out, err := Git(dir, "", "config", "--get", name)
	if err != nil {
		return ""
	}
	return strings.TrimSpace(out)
}
