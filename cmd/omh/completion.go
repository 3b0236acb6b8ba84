package main

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/alecthomas/kong"

	"github.com/omh-notes/omh/store"
)

// Shell completion is omh's own: each shell's script hands the words typed
// so far to the hidden `omh __complete`, which walks the command model kong
// built (commands, flags, enum values) and reads note keys from the cache
// without refreshing it. kongplete and kong-completion do the model walk
// too, but both sit on posener/complete v1 (2019), whose zsh support goes
// through bashcompinit and shows no descriptions, and neither has had a
// release for kong v1 (kongplete's last is from 2023, kong-completion's
// from 2022); the walk is a page of code.

// CompletionCmd is `omh completion`.
type CompletionCmd struct {
	Shell string `arg:"" enum:"bash,zsh,fish" help:"The shell: bash, zsh or fish."`
}

// Help is the detail under `omh completion --help`.
func (c *CompletionCmd) Help() string {
	return `Prints the script that completes omh's commands, flags, flag values and note keys (for show, links, mv, promote, lint and proof show and retract; read from the cache as the last command left it, so a tab never waits for a refresh). Load it from your shell's startup file:

  bash  (~/.bashrc)                     source <(omh completion bash)
  zsh   (~/.zshrc, after compinit)      source <(omh completion zsh)
  fish  (~/.config/fish/config.fish)    omh completion fish | source`
}

func (c *CompletionCmd) Run(e *env) error {
	_, err := io.WriteString(e.stdout, completionScripts[c.Shell])
	return err
}

// CompleteCmd is `omh __complete`, what the scripts call.
type CompleteCmd struct {
	Bash  bool     `name:"bash" help:"The one word is bash's command line up to the cursor, omh included: split it as bash does and print each candidate as it is to be inserted."`
	Words []string `arg:"" optional:"" help:"The words after omh, unquoted, the last one being completed (empty after a space)."`
}

// Run prints one candidate a line, with a tab and a description where
// there is one; or the single line :files or :dirs for the shell to
// complete paths itself. It never fails: a completion has nowhere to
// report.
func (c *CompleteCmd) Run(e *env, k *kong.Context) error {
	if c.Bash {
		for _, line := range completeBash(k.Model.Node, strings.Join(c.Words, " "), e.keys) {
			fmt.Fprintln(e.stdout, line)
		}
		return nil
	}
	words := c.Words
	if len(words) == 0 {
		words = []string{""}
	}
	for _, cand := range complete(k.Model.Node, words, e.keys) {
		fmt.Fprintln(e.stdout, cand)
	}
	return nil
}

// zsh and fish hand the script the words typed, unquoted, and quote what
// they insert themselves. Bash hands it the line as typed and inserts
// what it is given as it is, in place of the part of the last word after
// its last quote, space or COMP_WORDBREAKS character (readline's word):
// so omh reads the line's quoting, and quotes each candidate for where it
// goes. Obsidian's keys hold spaces ("Plugins/Command palette").

// completeBash returns, for bash's line up to the cursor, the text that
// replaces readline's word for each candidate, or a path marker with the
// unquoted word after a tab, for compgen.
func completeBash(root *kong.Node, line string, keys func(dir, prefix string) []string) []string {
	words, quote, lead := splitBashLine(line)
	if len(words) < 2 {
		return nil // the command's own name is bash's to complete
	}
	cur := words[len(words)-1]
	var out []string
	for _, cand := range complete(root, words[1:], keys) {
		cand, _, _ = strings.Cut(cand, "\t")
		switch {
		case cand == completeFiles || cand == completeDirs:
			return []string{cand + "\t" + cur}
		case strings.HasPrefix(cand, cur[:lead]):
			out = append(out, bashQuote(cand[lead:], quote))
		}
	}
	return out
}

// splitBashLine splits a command line into words the way bash reads it
// (spaces between words; backslashes, single and double quotes), and says
// of the last word whether it is inside a quote still open and how much
// of it, unquoted, comes before readline's word.
func splitBashLine(line string) (words []string, quote byte, lead int) {
	var w strings.Builder
	inWord, outer := false, 0 // outer: lead before the quote opened
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case quote != 0 && c == quote: // readline's word spans a closed quote
			quote, lead = 0, outer
			continue
		case quote == '\'':
		case quote == '"':
			if c == '\\' && i+1 < len(line) && strings.IndexByte("$`\"\\", line[i+1]) >= 0 {
				i++
				c = line[i]
			}
		case c == ' ' || c == '\t' || c == '\n':
			if inWord {
				words, inWord, lead = append(words, w.String()), false, 0
				w.Reset()
			}
			continue
		case c == '\\':
			if i+1 == len(line) {
				continue
			}
			i++
			c = line[i]
		case c == '\'' || c == '"': // readline's word starts inside a quote left open
			quote, inWord, outer, lead = c, true, lead, w.Len()
			continue
		case strings.IndexByte(bashWordBreaks, c) >= 0:
			w.WriteByte(c)
			inWord, lead = true, w.Len()
			continue
		}
		w.WriteByte(c)
		inWord = true
	}
	return append(words, w.String()), quote, lead
}

// bashWordBreaks are the characters of bash's default COMP_WORDBREAKS
// but the quotes and spaces, which split readline's word where they are
// not quoted: "--layer=t" completes "t".
const bashWordBreaks = "><=;|&(:"

// bashQuote writes s as it must be typed: inside the quote open, or
// with a backslash before each character bash would read otherwise.
func bashQuote(s string, quote byte) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case quote == '\'':
			if c == '\'' {
				b.WriteString(`'\''`) // close, a quoted quote, open again
				continue
			}
		case quote == '"':
			if strings.IndexByte("$`\"\\", c) >= 0 {
				b.WriteByte('\\')
			}
		case !plainInBash(c):
			b.WriteByte('\\')
		}
		b.WriteByte(c)
	}
	return b.String()
}

// plainInBash reports whether bash reads c as itself outside quotes: letters,
// digits, a few marks, and every byte of a character beyond ASCII.
func plainInBash(c byte) bool {
	return c >= 0x80 || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || strings.IndexByte("/._-+,@%^", c) >= 0
}

// keys lists note keys starting with prefix in the store at dir, as the
// cache last saw them; none when anything is amiss.
func (e *env) keys(dir, prefix string) []string {
	s, err := store.Open(dir, store.Options{})
	if err != nil {
		return nil
	}
	defer s.Close()
	keys, _ := s.Keys(prefix)
	return keys
}

// Markers a candidate list may be instead: the shell completes paths.
const (
	completeFiles = ":files"
	completeDirs  = ":dirs"
)

// complete returns the candidates for the last of words, the words after
// omh. Flags and their values are read the way kong reads them: a flag
// that is not a switch takes the next word, or the part after "=".
func complete(root *kong.Node, words []string, keys func(dir, prefix string) []string) []string {
	node, dir, args := root, "", 0
	cur := words[len(words)-1]
	var pending *kong.Flag // a flag whose value is the current word
	afterDashes := false
	for _, w := range words[:len(words)-1] {
		switch {
		case pending != nil:
			if pending.Name == "dir" {
				dir = w
			}
			pending = nil
		case w == "--" && !afterDashes:
			afterDashes = true
		case strings.HasPrefix(w, "-") && w != "-" && !afterDashes:
			name, value, hasValue := strings.Cut(w, "=")
			f := flagOf(node, name)
			if f != nil && f.Name == "dir" && hasValue {
				dir = value
			}
			if f != nil && !f.IsBool() && !f.IsCounter() && !hasValue {
				pending = f
			}
		default:
			if child := childOf(node, w); child != nil && args == 0 {
				node = child
				continue
			}
			args++
		}
	}
	if pending != nil {
		return values(pending.Value, "", cur, dir, keys)
	}
	if strings.HasPrefix(cur, "-") && !afterDashes {
		if name, value, ok := strings.Cut(cur, "="); ok {
			if f := flagOf(node, name); f != nil {
				return values(f.Value, name+"=", value, dir, keys)
			}
			return nil
		}
		return flagsOf(node, cur)
	}
	var out []string
	if args == 0 {
		for _, c := range node.Children {
			if !c.Hidden && strings.HasPrefix(c.Name, cur) {
				out = append(out, c.Name+"\t"+c.Help)
			}
		}
	}
	if p := positionalAt(node, args); p != nil {
		out = append(out, values(p, "", cur, dir, keys)...)
	}
	return out
}

// values are the candidates for a flag's or an argument's value.
func values(v *kong.Value, prefix, cur, dir string, keys func(dir, prefix string) []string) []string {
	var out []string
	add := func(vals ...string) {
		for _, s := range vals {
			if s != "" && strings.HasPrefix(s, cur) {
				out = append(out, prefix+s)
			}
		}
	}
	switch what := v.Tag.Get("complete"); {
	case v.Enum != "":
		add(v.EnumSlice()...)
	case what == "key":
		add(keys(dir, cur)...)
	case what == "type":
		add(store.NoteTypes(false)...)
	case what == "dir":
		return []string{completeDirs}
	case what == "file" || v.Tag.Type == "existingfile" || v.Tag.Type == "path":
		return []string{completeFiles}
	}
	return out
}

// flagOf finds a flag of node or of the commands above it by its written
// form: --name or -s.
func flagOf(node *kong.Node, written string) *kong.Flag {
	for _, group := range node.AllFlags(false) {
		for _, f := range group {
			if written == "--"+f.Name || f.Short != 0 && written == "-"+string(f.Short) {
				return f
			}
		}
	}
	return nil
}

// flagsOf lists the long flags of node and the commands above it that
// start with prefix, with their help.
func flagsOf(node *kong.Node, prefix string) []string {
	var out []string
	for _, group := range node.AllFlags(true) {
		for _, f := range group {
			if name := "--" + f.Name; strings.HasPrefix(name, prefix) {
				out = append(out, name+"\t"+firstSentence(f.Help))
			}
		}
	}
	slices.Sort(out)
	return out
}

// childOf is node's subcommand named name.
func childOf(node *kong.Node, name string) *kong.Node {
	for _, c := range node.Children {
		if c.Name == name {
			return c
		}
	}
	return nil
}

// positionalAt is the argument that the word after n others fills: the
// last one when it takes many words.
func positionalAt(node *kong.Node, n int) *kong.Value {
	switch ps := node.Positional; {
	case n < len(ps):
		return ps[n]
	case len(ps) > 0 && ps[len(ps)-1].IsCumulative():
		return ps[len(ps)-1]
	}
	return nil
}

// firstSentence is a help text's first sentence, as a description beside
// a candidate.
func firstSentence(help string) string {
	if i := strings.Index(help, ". "); i >= 0 {
		help = help[:i]
	}
	return strings.TrimSuffix(help, ".")
}

// completionScripts hand the words typed so far to omh __complete and
// offer what it prints: zsh and fish unquote the words, bash hands over
// the line as typed.
var completionScripts = map[string]string{
	"bash": `# omh completion for bash: source <(omh completion bash)
_omh() {
	local out line
	out=$(omh __complete --bash -- "${COMP_LINE:0:COMP_POINT}" 2>/dev/null)
	COMPREPLY=()
	case $out in
	:dirs$'\t'*|:files$'\t'*)
		compopt -o filenames 2>/dev/null # readline quotes the paths (bash 4 and later)
		local IFS=$'\n' what=-f
		[[ $out == :dirs* ]] && what=-d
		COMPREPLY=($(compgen "$what" -- "${out#*$'\t'}"))
		return ;;
	esac
	# Each line is a candidate as it is to be inserted, quoted already.
	while IFS= read -r line; do
		[[ -n $line ]] && COMPREPLY+=("$line")
	done <<< "$out"
}
complete -F _omh omh
`,
	"zsh": `#compdef omh
# omh completion for zsh: source <(omh completion zsh), after compinit
_omh() {
	local out line
	local -a cands
	out=$(omh __complete -- "${(@Q)words[2,CURRENT-1]}" "${(Q)PREFIX}" 2>/dev/null)
	case $out in
	:dirs) _files -/; return ;;
	:files) _files; return ;;
	esac
	for line in "${(@f)out}"; do
		[[ -z $line ]] && continue
		if [[ $line == *$'\t'* ]]; then
			cands+=("${${line%%$'\t'*}//:/\\:}:${line#*$'\t'}")
		else
			cands+=("${line//:/\\:}")
		fi
	done
	_describe omh cands
}
compdef _omh omh
`,
	"fish": `# omh completion for fish: omh completion fish | source
function __omh_complete
	# -o unquotes the words before the cursor's; the one being typed is
	# unquoted here ("Obsidian\ Sync/Ver", "'Obsidian Sync/Ver").
	set -l words (commandline -opc) (commandline -ct | string unescape)
	set -l out (omh __complete -- $words[2..-1] 2>/dev/null)
	switch "$out"
	case :dirs
		__fish_complete_directories (commandline -ct)
	case :files
		__fish_complete_path (commandline -ct)
	case '*'
		printf '%s\n' $out
	end
end
complete -c omh -f -a '(__omh_complete)'
`,
}
