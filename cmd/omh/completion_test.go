package main

import (
	"context"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/alecthomas/kong"

	"github.com/omh-notes/omh/vault"
	"github.com/omh-notes/omh/vault/vaulttest"
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
	words=(${(s: :)l}); CURRENT=${#words}; PREFIX=${words[CURRENT]}; _omh
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
		"--dir --help --in --json --layer --limit --offset --out --quiet --store",
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

// What omh hands bash to insert reads back, as bash splits the line, as
// the candidate itself, however the word was begun: bare, in double or in
// single quotes. Catches: a key inserted with its spaces bare, a quote in
// a key closing the quote it is in, an escape bash keeps inside quotes.
func TestBashQuotingReadsBackAsTheCandidate(t *testing.T) {
	t.Parallel()
	keys := []string{"Plugins/Command palette", "People/O'Brien (draft)", `a "b" $c \d`, "Tom & Jerry; `x`!", "plain/key", "é à"}
	for _, key := range keys {
		for _, q := range []string{"", `"`, "'"} {
			var quote byte
			if q != "" {
				quote = q[0]
			}
			line := "omh show " + q + bashQuote(key, quote) + q
			words, open, _ := splitBashLine(line)
			if len(words) != 3 || words[2] != key || open != 0 {
				t.Errorf("%q read back as %q (quote left open: %q)", line, words, open)
			}
		}
	}
	// Where readline's word starts, which the candidate replaces.
	for line, want := range map[string]struct {
		cur   string
		quote byte
		lead  int
	}{
		"omh show Obsidian\\ Sync/Ver": {"Obsidian Sync/Ver", 0, 0},
		`omh show "Obsidian Sync/Ver`:  {"Obsidian Sync/Ver", '"', 0},
		`omh show 'it''s`:              {"its", '\'', 2},
		`omh show "Obsidian Sync"/Ver`: {"Obsidian Sync/Ver", 0, 0},
		`omh show ab"cd`:               {"abcd", '"', 2},
		"omh find --layer=t":           {"--layer=t", 0, 8},
		"omh show a:b":                 {"a:b", 0, 2},
		"omh show a\\:b":               {"a:b", 0, 0},
		"omh show ":                    {"", 0, 0},
		"omh show \"a\\\"b":            {`a"b`, '"', 0},
	} {
		words, quote, lead := splitBashLine(line)
		if got := words[len(words)-1]; got != want.cur || quote != want.quote || lead != want.lead {
			t.Errorf("%s: word %q, quote %q, lead %d; want %q, %q, %d", line, got, quote, lead, want.cur, want.quote, want.lead)
		}
	}
}

// spacedStore is a store whose keys hold spaces and characters shells
// read otherwise, as Obsidian's do, its cache built.
func spacedStore(t *testing.T) string {
	t.Helper()
	r := vaulttest.New(t)
	for _, key := range []string{"Plugins/Command palette", "Obsidian Sync/Version history", "Obsidian Sync/Versions & restores", "People/O'Brien (draft)"} {
		r.Write(key+".md", "# "+filepath.Base(key)+"\n")
	}
	r.Commit("2026-03-01T10:00:00Z", "notes")
	ok(t, r.Dir, "index")
	return r.Dir
}

// shell runs script in the named shell in dir, or skips when the shell is
// not installed.
func shell(t *testing.T, dir, name, script string) string {
	t.Helper()
	if _, err := exec.LookPath(name); err != nil {
		t.Skipf("%s is not installed, so its completion goes untested here (apt-get install %s)", name, name)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, name, "-c", script)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s: %v\n%s", name, err, out)
	}
	return string(out)
}

// Bash completes a key with spaces into one word, whether the word was
// begun bare, with an escaped space or in quotes: the completion function
// bash names (complete -p) is run as bash runs it, on COMP_LINE, and what
// it offers is read back by bash. Catches: "omh show Plugins/Comm<TAB>"
// inserting "Plugins/Command palette" bare ("unexpected argument
// palette"), "Obsidian\ Sync/Ver<TAB>" completing nothing.
func TestBashCompletesKeysWithSpacesIntoOneWord(t *testing.T) {
	t.Parallel()
	dir := spacedStore(t)
	out := shell(t, dir, "bash", `source <(omh completion bash)
fn=$(complete -p omh | sed -n 's/.*-F \([^ ]*\) .*/\1/p')
while IFS= read -r l; do
	COMP_LINE=$l COMP_POINT=${#l}
	"$fn"
	printf '%s\n' "$(IFS='|'; echo "${COMPREPLY[*]}")"
	# What the line reads as once the first candidate is inserted.
	[[ $l == *[\"\']* ]] || { eval "w=(${COMPREPLY[0]})"; printf '%s\n' "${w[0]}"; }
done <<'EOF'
omh show Plugins/Comm
omh show Obsidian\ Sync/Ver
omh show "Obsidian Sync/Version h
omh show 'People/O
omh links People/O
omh find --layer=t
EOF`)
	want := []string{
		`Plugins/Command\ palette`, "Plugins/Command palette",
		`Obsidian\ Sync/Version\ history|Obsidian\ Sync/Versions\ \&\ restores`, "Obsidian Sync/Version history",
		"Obsidian Sync/Version history", // readline closes the quote
		`People/O'\''Brien (draft)`,
		`People/O\'Brien\ \(draft\)`, "People/O'Brien (draft)",
		"team", "team",
	}
	if got := strings.Split(strings.TrimSuffix(out, "\n"), "\n"); !slices.Equal(got, want) {
		t.Errorf("bash offers\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// Zsh completes a key with spaces, its line editor running in a pseudo
// terminal (zsh/zpty) as a person types: the line is read back after
// each TAB. Catches: the escaped or quoted word handed to omh as typed
// ("Obsidian\ Sync/Ver" matches no key).
func TestZshCompletesKeysWithSpacesIntoOneWord(t *testing.T) {
	t.Parallel()
	dir := spacedStore(t)
	lines := []string{`omh show Plugins/Comm`, `omh show Obsidian\ Sync/Version\ h`, `omh show "Obsidian Sync/Version h`, `omh show 'People/O`}
	out := shell(t, dir, "zsh", `zmodload zsh/zpty
export log=$PWD/.buffers # the line after each TAB, written by the zsh typed into
zpty z zsh -f -i
zpty -w z 'autoload -U compinit; compinit -u -D; source <(omh completion zsh); dump() { print -r -- "$BUFFER" >> $log; BUFFER= }; zle -N dump; bindkey "^X" dump'
n=0
for l in `+strings.Join(quoteAll(lines), " ")+`; do
	zpty -w -n z "$l"$'\t\x18'
	(( n++ ))
	for i in {1..400}; do [[ -f $log && $(wc -l < $log) -ge $n ]] && break; sleep 0.05; done
done
zpty -d z
cat $log`)
	want := []string{`omh show Plugins/Command\ palette `, `omh show Obsidian\ Sync/Version\ history `, `omh show "Obsidian Sync/Version history" `, `omh show 'People/O'\''Brien (draft)' `}
	if got := strings.Split(strings.TrimSuffix(out, "\n"), "\n"); !slices.Equal(got, want) {
		t.Errorf("zsh's line after TAB:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// Fish offers the key with spaces whether its word was begun bare, with
// an escaped space or in quotes (fish escapes what it inserts itself).
// Catches: the word being typed handed to omh with its escapes.
func TestFishCompletesKeysWithSpaces(t *testing.T) {
	t.Parallel()
	dir := spacedStore(t)
	out := shell(t, dir, "fish", `omh completion fish | source
for l in "omh show Plugins/Comm" "omh show Obsidian\\ Sync/Version\\ h" "omh show \"Obsidian Sync/Version h" "omh show 'People/O" "omh -C . links People/"
	echo (complete -C"$l" | string join '|')
end`)
	want := []string{"Plugins/Command palette", "Obsidian Sync/Version history", "Obsidian Sync/Version history", "People/O'Brien (draft)", "People/O'Brien (draft)"}
	if got := strings.Split(strings.TrimSuffix(out, "\n"), "\n"); !slices.Equal(got, want) {
		t.Errorf("fish offers\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// quoteAll writes each string in single quotes for a shell script.
func quoteAll(ss []string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
	}
	return out
}
