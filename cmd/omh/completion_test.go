package main

import (
	"os/exec"
	"slices"
	"strings"
	"testing"

	"github.com/alecthomas/kong"

	"github.com/omh-notes/omh/vault"
)

// completionModel is omh's command model as kong builds it.
func completionModel(t *testing.T) *kong.Node {
	t.Helper()
	parser, err := kong.New(&CLI{}, kong.Name("omh"), vocabulary())
	if err != nil {
		t.Fatal(err)
	}
	return parser.Model.Node
}

// candidates completes words with a store whose keys are given, and
// returns the candidates without their descriptions.
func candidates(t *testing.T, root *kong.Node, keys []string, words ...string) []string {
	t.Helper()
	var asked []string
	got := complete(root, words, func(dir, prefix string) []string {
		asked = append(asked, dir)
		var out []string
		for _, k := range keys {
			if strings.HasPrefix(k, prefix) {
				out = append(out, k)
			}
		}
		return out
	})
	for i, c := range got {
		got[i], _, _ = strings.Cut(c, "\t")
	}
	return got
}

// Completion offers what can be typed at each place: commands and
// subcommands, the flags of the command and the global ones, a flag's
// values after a space or "=", note types and note keys where a command
// takes them (from the store -C names), paths where a flag takes them.
// Catches: a flag's value read as a command, a key offered where a flag's
// value goes, -C ignored, a hidden command offered.
func TestCompletionOffersWhatFitsWhereTheCursorIs(t *testing.T) {
	t.Parallel()
	root := completionModel(t)
	keys := []string{"tools", "topic/auth", "topic/cache"} // as the cache lists them
	for _, c := range []struct {
		words []string
		want  []string
	}{
		{[]string{"pro"}, []string{"promote", "proof"}},
		{[]string{"proof", ""}, []string{"find", "show", "retract"}},
		{[]string{"hooks", "st"}, []string{"status"}},
		{[]string{"show", "topic/"}, []string{"topic/auth", "topic/cache"}},
		{[]string{"show", "--layer", "team", "to"}, []string{"tools", "topic/auth", "topic/cache"}},
		{[]string{"show", "--layer", ""}, []string{"team", "local"}},
		{[]string{"find", "--layer=l"}, []string{"--layer=local"}},
		{[]string{"find", "--ran"}, []string{"--ranker"}},
		{[]string{"find", "--ranker", ""}, []string{"default", "baseline", "tuned"}},
		{[]string{"find", "--type", ""}, vault.TypeNames(false)},
		{[]string{"new", ""}, vault.TypeNames(false)},
		{[]string{"new", "finding", "a", "title", "--if-exists", "s"}, []string{"skip", "suffix"}},
		{[]string{"proof", "find", "--retracted", ""}, []string{"exclude", "include", "only"}},
		{[]string{"proof", "find", "--type", ""}, vault.TypeNames(true)},
		{[]string{"proof", "show", "t"}, []string{"tools", "topic/auth", "topic/cache"}},
		{[]string{"promote", "topic/auth", "topic/c"}, []string{"topic/cache"}},
		{[]string{"mv", "tools", ""}, nil}, // the new key is the user's to choose
		{[]string{"find", "why", "is", "it", "slow"}, nil},
		{[]string{"-C", ""}, []string{completeDirs}},
		{[]string{"new", "finding", "t", "--body", ""}, []string{completeFiles}},
		{[]string{"eval", ""}, []string{completeFiles}},
		{[]string{"completion", ""}, []string{"bash", "zsh", "fish"}},
		{[]string{"__comp"}, nil},
		{[]string{"-q", "--json", "sh"}, []string{"show"}},
	} {
		got := candidates(t, root, keys, c.words...)
		if !slices.Equal(got, c.want) {
			t.Errorf("omh %s<TAB>: %q, want %q", strings.Join(c.words, " "), got, c.want)
		}
	}
	flags := candidates(t, root, nil, "links", "--")
	for _, want := range []string{"--in", "--out", "--layer", "--json", "--dir", "--quiet", "--help"} {
		if !slices.Contains(flags, want) {
			t.Errorf("omh links --<TAB> lacks %s: %q", want, flags)
		}
	}
	var dirs []string
	complete(root, []string{"-C", "/some/store", "show", ""}, func(dir, _ string) []string { dirs = append(dirs, dir); return nil })
	complete(root, []string{"--dir=/other", "links", "x"}, func(dir, _ string) []string { dirs = append(dirs, dir); return nil })
	if !slices.Equal(dirs, []string{"/some/store", "/other"}) {
		t.Errorf("keys were read from %q", dirs)
	}
}

// Each shell's script, loaded into the shell itself, offers what omh
// __complete prints, note keys read from the demo store's cache included.
// A shell that is not installed is skipped. Catches: a script that splits
// candidates wrongly, drops a flag's "=" value, or calls omh with the
// wrong words.
func TestCompletionScriptsWorkInTheirShells(t *testing.T) {
	t.Parallel()
	dir := demoStore(t)
	ok(t, dir, "index") // keys come from the cache, which a command builds
	scripts := map[string]string{
		"bash": `source <(omh completion bash)
for l in "omh sh" "omh show topic/" "omh find --layer=t" "omh -q links --"; do
	COMP_LINE=$l COMP_POINT=${#l}; _omh; echo "${COMPREPLY[*]}"
done`,
		"zsh": `compdef() { :; }
_describe() { local c; local -a v; for c in "${(@P)2}"; do v+=("${c%%:*}"); done; print -r -- "$v" }
source <(omh completion zsh)
for l in "omh sh" "omh show topic/" "omh find --layer=t" "omh -q links --"; do
	words=(${(s: :)l}); CURRENT=${#words}; _omh
done`,
		"fish": `omh completion fish | source
for l in "omh sh" "omh show topic/" "omh find --layer=t" "omh -q links --"
	echo (complete -C"$l" | string split -f1 \t)
end`,
	}
	want := []string{
		"show",
		"topic/credentials topic/sandbox",
		"team",
		"--dir --help --in --json --layer --out --quiet",
	}
	for shell, script := range scripts {
		if _, err := exec.LookPath(shell); err != nil {
			t.Logf("%s is not installed; its script goes untested", shell)
			continue
		}
		cmd := exec.Command(shell, "-c", script)
		cmd.Dir = dir
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Errorf("%s: %v\n%s", shell, err, out)
			continue
		}
		got := strings.Split(strings.TrimSpace(string(out)), "\n")
		if shell != "bash" && len(got) > 2 { // zsh and fish complete --layer=t as one word
			got[2] = strings.TrimPrefix(got[2], "--layer=")
		}
		if !slices.Equal(got, want) {
			t.Errorf("%s offers %q, want %q", shell, got, want)
		}
	}
}
