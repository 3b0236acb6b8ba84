package store

import (
	"fmt"
	"io"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/omh-notes/omh/hooks"
	"github.com/omh-notes/omh/reply"
	"github.com/omh-notes/omh/retrieve"
	"github.com/omh-notes/omh/vault"
)

// The replies as text for people. Each value's JSON rendering is its
// fields' tags; a front end chooses one or the other, and prints nothing
// of its own.

// Text prints omh show's reply: each note's provenance, links and content,
// then the commit.
func (shown Shown) Text(w io.Writer) {
	commit := CommitID(shown.Commit)
	for i, n := range shown.Notes {
		if i > 0 {
			fmt.Fprintln(w)
		}
		fmt.Fprintf(w, "%s  %s · %s\n", n.Key, n.Layer, n.Date)
		if n.ranged {
			n.lines(w)
		} else {
			n.fields(w, commit)
		}
		n.cutLine(w, shown.MaxChars)
	}
	fmt.Fprintf(w, "@ %s\n", retrieve.CommitLabel(commit))
}

// fields prints what omh show says of a note after its first line:
// labelled fields, links both ways, then the content.
func (n ShownNote) fields(w io.Writer, commit string) {
	where := map[string]string{
		"head":     "committed at " + shortCommitID(commit),
		"worktree": "an uncommitted working copy",
		"private":  "the private folder, on this machine only",
	}[n.Where]
	field := func(name, value string) { fmt.Fprintf(w, "%-8s %s\n", name, reply.OneLine(value)) }
	field("type", n.Type)
	field("title", n.Title)
	field("layer", n.Layer+": "+where)
	field("date", n.Date+" (from "+n.DateSource+")")
	if n.Source != "" {
		field("source", n.Source)
	}
	field("path", n.Path)
	field("blob", n.Blob)
	refLines(w, "links", n.Links, false)
	moreLine(w, n.LinksMore, "links out", "--out")
	refLines(w, "in", n.In, true)
	moreLine(w, n.InMore, "links in", "--in")
	n.content(w)
}

// moreLine says how many links a list of omh show left out, and where the
// rest are.
func moreLine(w io.Writer, more int, what, flag string) {
	if more > 0 {
		fmt.Fprintf(w, "%-8s … %d more %s; omh links %s --offset %d for the next\n", "", more, what, flag, showRefs)
	}
}

// cutLine says what the size aim left out of the note's text and which
// lines to ask for next.
func (n ShownNote) cutLine(w io.Writer, maxChars int) {
	if !n.Cut {
		return
	}
	fmt.Fprintln(w)
	if !strings.HasSuffix(n.Content, "\n") {
		fmt.Fprintf(w, "… line %d is cut at %d characters (git cat-file -p %s prints the note whole)\n", n.LineEnd, maxChars, n.Blob)
	}
	if n.NextLines != "" {
		left := n.NextLines
		if strings.HasSuffix(left, "-") {
			left += strconv.Itoa(n.LineCount)
		}
		fmt.Fprintf(w, "… lines %s left out to keep the reply near %d characters (--max-chars); --lines %s for the next\n", left, maxChars, n.NextLines)
	}
}

// lines prints a range of a note under only the range it is, named as a
// card names a passage's lines: whoever asked for lines came from a card
// and has read the rest of the header there.
func (n ShownNote) lines(w io.Writer) {
	fmt.Fprintf(w, "%-8s L%d-%d of %d\n", "lines", n.LineStart, n.LineEnd, n.LineCount)
	n.content(w)
}

// content prints the note's text after a blank line, ending it with a
// line break.
func (n ShownNote) content(w io.Writer) {
	fmt.Fprintln(w)
	fmt.Fprint(w, n.Content)
	if len(n.Content) > 0 && !strings.HasSuffix(n.Content, "\n") {
		fmt.Fprintln(w)
	}
}

// refLines prints links one a line under a label: "verb key" out,
// "key verb" in, each with its own layer and date.
func refLines(w io.Writer, label string, refs []reply.Ref, incoming bool) {
	if len(refs) == 0 {
		fmt.Fprintf(w, "%-8s (none)\n", label)
		return
	}
	for i, r := range refs {
		if i > 0 {
			label = ""
		}
		retracted := ""
		if r.Retracted != "" {
			retracted = " (retracted " + r.Retracted + ")"
		}
		fmt.Fprintf(w, "%-8s %s  %s · %s%s\n", label, refName(r, incoming), r.Layer, r.Date, retracted)
	}
}

// refName is a link end as lists show it: "verb key" out, "key verb" in.
func refName(r reply.Ref, incoming bool) string {
	switch {
	case r.Verb != "" && incoming:
		return r.Key + " " + r.Verb
	case r.Verb != "":
		return r.Verb + " " + r.Key
	}
	return r.Key
}

func shortCommitID(c string) string {
	if c == "" {
		return "no commit"
	}
	return c[:min(len(c), 12)]
}

// Text prints omh links' reply, then the commit.
func (linked Linked) Text(w io.Writer) {
	for i, n := range linked.Notes {
		if i > 0 {
			fmt.Fprintln(w)
		}
		n.text(w, linked.Offset)
	}
	fmt.Fprintf(w, "@ %s\n", retrieve.CommitLabel(CommitID(linked.Commit)))
}

// text prints a note's header line, then the notes it links to ("verb
// key", in the order its links appear) and the notes linking to it ("key
// verb", verdicts first), each with its own layer and date.
func (n LinkedNote) text(w io.Writer, offset int) {
	fmt.Fprintf(w, "%s  %s · %s\n", n.Key, n.Layer, n.Date)
	section := func(title string, refs []reply.Ref, more int, incoming bool) {
		switch total := offset + len(refs) + more; {
		case offset == 0 && more == 0:
			fmt.Fprintf(w, "%s (%d):\n", title, total)
		case len(refs) == 0:
			fmt.Fprintf(w, "%s (none past the first %d):\n", title, offset)
		default:
			fmt.Fprintf(w, "%s (%d-%d of %d):\n", title, offset+1, offset+len(refs), total)
		}
		for _, r := range refs {
			fmt.Fprintf(w, "  %s  %s · %s\n", refName(r, incoming), r.Layer, r.Date)
		}
		if more > 0 {
			fmt.Fprintf(w, "  … %d more %s; --offset %d for the next\n", more, title, offset+len(refs))
		}
	}
	if n.Links != nil {
		section("links out", *n.Links, n.LinksMore, false)
	}
	if n.In != nil {
		section("links in", *n.In, n.InMore, true)
	}
}

// Text prints omh proof show's reply, then the commit and the day asked
// for.
func (recs Records) Text(w io.Writer) {
	commit := CommitID(recs.Commit)
	for i, r := range recs.Records {
		if i > 0 {
			fmt.Fprintln(w)
		}
		r.text(w, commit)
	}
	io.WriteString(w, retrieve.Footer(commit, vault.Date(recs.AsOf)))
}

// text prints a record: its provenance and standing, then what omh show
// prints.
func (r ShownRecord) text(w io.Writer, commit string) {
	state := r.State
	if r.Retracted != "" {
		state = "retracted " + r.Retracted
		if r.RetractedReason != "" {
			state += ": " + r.RetractedReason
		}
	}
	fmt.Fprintf(w, "%s  %s · %s\n", r.Key, r.Layer, r.Date)
	fmt.Fprintf(w, "%-8s %s\n", "state", reply.OneLine(state))
	for _, by := range r.By {
		fmt.Fprintf(w, "%-8s %s %s  %s · %s\n", "", by.Key, by.Verb, by.Layer, by.Date)
	}
	if r.Issue != "" {
		fmt.Fprintf(w, "%-8s %s\n", "issue", r.Issue)
		for _, by := range r.ResolvedBy {
			fmt.Fprintf(w, "%-8s %s %s  %s · %s\n", "", by.Key, by.Verb, by.Layer, by.Date)
		}
	}
	r.ShownNote.fields(w, commit)
}

// Text prints what omh proof retract did.
func (rep Retraction) Text(w io.Writer) {
	fmt.Fprintf(w, "retracted %s on %s\npath: %s\n", rep.Key, rep.Day, rep.Path)
	if rep.Tracked {
		fmt.Fprintf(w, "The edit is in the working tree: review it with git diff, then commit it.\n")
	}
}

// Text prints what omh new wrote, or found there already.
func (rep Written) Text(w io.Writer) {
	verb := "wrote"
	if !rep.Created {
		verb = "exists"
	}
	fmt.Fprintf(w, "%s %s\npath: %s\n", verb, rep.Key, rep.Path)
	for _, n := range rep.TeamNamesakes {
		if n.By == "key" {
			fmt.Fprintf(w, "the team note %s has this key too; rename one of them before promoting this one\n", n.Key)
		} else {
			fmt.Fprintf(w, "the team note %s has this %s; add to it rather than keep two notes, or give this one a title of its own\n", n.Key, n.By)
		}
	}
}

// Text prints what omh promote moved and the command that commits it.
func (rep Promoted) Text(w io.Writer) {
	for _, p := range rep.Promoted {
		fmt.Fprintf(w, "promoted %s -> %s (staged)\n", p.Key, p.To)
	}
	fmt.Fprintf(w, "commit with:\n  %s\n", rep.Commit)
}

// Text prints what omh mv renamed, rewrote and staged. Its notices are
// warnings, which the front end prints where it prints warnings.
func (r Moved) Text(w io.Writer) {
	if r.How == "links" {
		fmt.Fprintf(w, "no note has the key %s: links to it now reach %s\n", r.Old, r.New)
	} else {
		fmt.Fprintf(w, "renamed %s -> %s (%s)\n  %s -> %s\n", r.Old, r.New, r.How, r.From, r.To)
	}
	links := 0
	for _, rw := range r.Rewritten {
		links += rw.Links
	}
	if links == 0 {
		fmt.Fprintln(w, "no link needed rewriting")
	} else {
		fmt.Fprintf(w, "rewrote %s in %s:\n", reply.CountOf(links, "link", "links"), reply.CountNotes(len(r.Rewritten)))
		for _, rw := range r.Rewritten {
			fmt.Fprintf(w, "  %s (%d)\n", rw.Path, rw.Links)
		}
	}
	if len(r.Staged) > 0 {
		fmt.Fprintf(w, "staged: %s\n", strings.Join(r.Staged, " "))
	}
	for _, u := range r.Unstaged {
		fmt.Fprintf(w, "not staged (its staged version has no link to rewrite; the rewrite joins its unstaged changes): %s\n", u)
	}
}

// Text prints what omh recover finished.
func (rep Recovered) Text(w io.Writer) {
	switch {
	case rep.Undone != "":
		fmt.Fprintf(w, "undid %s: finishing it failed (%s)\n", rep.Undone, rep.Why)
	case rep.Finished != "":
		fmt.Fprintf(w, "finished %s\n", rep.Finished)
	default:
		fmt.Fprintln(w, "nothing was left half done")
	}
}

// Text prints the findings: "path:line: severity rule: message", the fix
// indented below; then, per rule, its counts; then the totals. Unless
// rules were asked for, a long list is cut to a screen (see screenful).
func (r LintReport) Text(w io.Writer) {
	shown := r.screenful()
	for _, f := range shown {
		io.WriteString(w, findingText(f))
	}
	if len(shown) < len(r.Findings) {
		fmt.Fprintf(w, "(%d of %d findings shown; omh lint --rule ID lists every finding of a rule, --json all of them)\n", len(shown), len(r.Findings))
	}
	for _, c := range r.Rules {
		var parts []string
		if c.Errors > 0 {
			parts = append(parts, reply.CountOf(c.Errors, "error", "errors"))
		}
		if c.Warnings > 0 {
			parts = append(parts, reply.CountOf(c.Warnings, "warning", "warnings"))
		}
		fmt.Fprintf(w, "%-20s %s in %s\n", c.Rule, strings.Join(parts, " and "), reply.CountNotes(c.Notes))
	}
	notes := map[string]bool{}
	for _, f := range r.Findings {
		notes[f.Layer+"\x00"+f.Path] = true
	}
	switch {
	case len(r.Findings) == 0:
		fmt.Fprintf(w, "no problems in %s\n", reply.CountNotes(r.Checked))
	default:
		fmt.Fprintf(w, "%s and %s in %d of %s\n", reply.CountOf(r.Errors, "error", "errors"), reply.CountOf(r.Warnings, "warning", "warnings"),
			len(notes), reply.CountNotes(r.Checked))
	}
}

// Text prints what omh init wrote, found and installed.
func (rep Initialized) Text(w io.Writer) {
	if rep.Config.Change == "written" {
		fmt.Fprintf(w, "wrote %s (notes root: %s; dialect: %s); commit it to share it with everyone who clones the repository\n", vault.ConfigPath, DescribeNotes(rep.NotesRoot.Path), rep.Dialect.Name)
		for _, why := range rep.Detected {
			fmt.Fprintf(w, "  %s\n", why)
		}
		fmt.Fprintf(w, "  to change them, edit notes: and dialect: in %s (dialects: %s)\n", vault.ConfigPath, strings.Join(vault.DialectNames(), ", "))
	} else {
		fmt.Fprintf(w, "kept %s as it is (notes root: %s; dialect: %s)\n", vault.ConfigPath, DescribeNotes(rep.NotesRoot.Path), rep.Dialect.Name)
	}
	switch rep.NotesRoot.Change {
	case "created":
		fmt.Fprintf(w, "created the notes folder %s/\n", rep.NotesRoot.Path)
	case "exists":
		fmt.Fprintf(w, "the notes folder %s/ exists\n", rep.NotesRoot.Path)
	}
	if rep.Hooks != nil {
		fmt.Fprintf(w, "git hooks in %s:\n", rep.Hooks.Shown(rep.Hooks.HooksDir))
		rep.Hooks.lines(w)
	} else {
		fmt.Fprintln(w, "git hooks left alone (--no-hooks); omh hooks install adds them later")
	}
	if !rep.Changed {
		fmt.Fprintln(w, "nothing changed: omh was already set up here")
	}
}

// Text prints the state of every hook and, after install or uninstall,
// says when nothing changed.
func (rep *HooksReport) Text(w io.Writer) {
	rep.lines(w)
	if rep.Changed != nil && !*rep.Changed && !rep.Refused() {
		fmt.Fprintln(w, "nothing changed")
	}
}

// lines prints one line per hook, and for a managed hook the line to add
// on a line of its own.
func (rep *HooksReport) lines(w io.Writer) {
	for _, h := range rep.Hooks {
		line := fmt.Sprintf("%-14s %-10s %s", h.Name, h.State, rep.Shown(h.Path))
		switch {
		case h.State == string(hooks.Managed) && h.Add != nil:
			line = fmt.Sprintf("%-14s %-10s by %s; add this line to %s:\n%26s%s", h.Name, "managed", *h.Manager, *h.AddTo, "", *h.Add)
		case h.State == string(hooks.Managed):
			line = fmt.Sprintf("%-14s %-10s by %s, and it already runs omh", h.Name, "managed", *h.Manager)
		case h.State == string(hooks.Chained):
			line += fmt.Sprintf(" (runs your hook %s first)", filepath.Base(*h.Chained))
		}
		if h.Change != "" && h.Change != "unchanged" {
			line += " [" + h.Change + "]"
		}
		if h.Note != "" {
			line += "\n" + strings.Repeat(" ", 26) + h.Note
		}
		fmt.Fprintln(w, line)
	}
}

// Text prints what the cache holds and whether it is current.
func (s Status) Text(w io.Writer) {
	orNone := func(p *string) string {
		if p == nil {
			return "none"
		}
		return *p
	}
	fresh := "no: the next command refreshes it"
	if s.Fresh {
		fresh = "yes"
	}
	fmt.Fprintf(w, "indexed      %s\n", orNone(s.Indexed))
	fmt.Fprintf(w, "head         %s\n", orNone(s.Head))
	fmt.Fprintf(w, "fresh        %s\n", fresh)
	fmt.Fprintf(w, "notes        %d team, %d local\n", s.Notes.Team, s.Notes.Local)
	root := s.NotesRoot
	if root == "" {
		root = "the repository root"
	}
	fmt.Fprintf(w, "notes root   %s\n", root)
	fmt.Fprintf(w, "private      %s\n", s.PrivateDir)
	if len(s.Uncommitted) > 0 {
		fmt.Fprintf(w, "uncommitted  %s\n", strings.Join(s.Uncommitted, ", "))
	}
	if len(s.Deleted) > 0 {
		fmt.Fprintf(w, "deleted      %s (in the working tree, not committed)\n", strings.Join(s.Deleted, ", "))
	}
	if len(s.Skipped) > 0 {
		fmt.Fprintf(w, "skipped      %d unreadable: %s\n", len(s.Skipped), strings.Join(s.Skipped, ", "))
	}
	fmt.Fprintf(w, "parsed       %s in the last refresh\n", reply.CountOf(s.Parsed, "blob", "blobs"))
	fmt.Fprintf(w, "cache        %s (%d bytes)\n", s.Cache.Path, s.Cache.Size)
	if s.Shallow {
		io.WriteString(w, "history      shallow clone: dates of old notes are those of its oldest commit\n")
	}
}

// Text prints what omh index brought the cache to.
func (st Indexed) Text(w io.Writer) {
	fmt.Fprintf(w, "indexed %d team and %d local notes at %s; parsed %s\n",
		st.Notes.Team, st.Notes.Local, retrieve.CommitLabel(CommitID(st.Status.Indexed)), reply.CountOf(st.Parsed, "blob", "blobs"))
}
