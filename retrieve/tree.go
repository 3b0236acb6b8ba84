package retrieve

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode"

	"golang.org/x/text/width"

	"github.com/omh-notes/omh/reply"
	"github.com/omh-notes/omh/vault"
)

// The tree is the answer for people: one line per note, `key  layer · date`,
// neighbours drawn under the ranked note that reached them. Every line that
// names a note carries that note's own layer and date, and ParseTree reads
// the lines back, so tests can hold the printed form to the hits it came from.

const (
	provenanceSep    = " · "
	branchMid        = "├─ "
	branchLast       = "└─ "
	omittedPrefix    = "… "
	commitPrefix     = "@ "
	moreLinkedPrefix = "and "
	retractedWord    = "retracted "
	// explainIndent starts the line under a ranked note that explains its
	// score (--explain).
	explainIndent = "   "
)

// Every answer opens with its verdict, the first word of its first line
// (answered, weak or none), so an agent reads whether to trust the notes
// below before it reads them. Sentences printed instead of notes, which
// ParseTree accepts exactly:
const (
	emptyStoreSentence = "none: the store has no notes yet, so there is nothing to search."
	noMatchPrefix      = "none: no note contains any meaningful word of "
	noMatchSuffix      = "; the store holds nothing on this yet."
	filteredPrefix     = "none: no note the filters let through contains any meaningful word of "
	filteredSuffix     = " outside the filters."
)

// The line printed above the notes, by verdict.
const (
	leadsLine       = "answered: the first note leads clearly"
	closeLine       = "answered: several notes score close; compare them"
	unheldPrefix    = "weak: no note holds "
	uncoveredPrefix = "weak: the closest notes lack "
	commonPrefix    = "none: only common words of "
	commonSuffix    = " match"
	closestSuffix   = "; the closest notes follow"
)

// VerdictLine is the line an answer with notes opens with: its verdict and
// what it rests on. A weak one names the question's words no note holds,
// or else those the closest notes lack. It is "" for an answer without
// notes, whose sentence says it all.
func VerdictLine(r Result) string {
	switch {
	case len(r.Hits) == 0 && r.Omitted == 0, r.Verdict == "":
		return ""
	case r.Verdict == Answered && r.Leads:
		return leadsLine
	case r.Verdict == Answered:
		return closeLine
	case r.Verdict == Weak && len(r.Unheld) > 0:
		return unheldPrefix + "`" + strings.Join(r.Unheld, " ") + "`" + closestSuffix
	case r.Verdict == Weak:
		return uncoveredPrefix + "`" + strings.Join(r.Uncovered, " ") + "`" + closestSuffix
	}
	return commonPrefix + quoteQuestion(r.Question.Phrasings) + commonSuffix + closestSuffix
}

// OmittedLine counts the matching notes the answer leaves out, or is ""
// when it need not: only a weak answer whose closest notes lack some of
// its words says so, where a narrower question would help, or one that
// lists no note (--roots 0). Below an answered question's notes the count
// was noise (an agent read "5,656 more matches; ask a narrower question"
// under the card that answered it), and under words no note holds too: no
// narrower question finds them. JSON keeps it in omitted.
func OmittedLine(r Result) string {
	if r.Omitted == 0 || (r.Verdict != Weak || len(r.Unheld) > 0) && len(r.Hits) > 0 {
		return ""
	}
	return fmt.Sprintf("%s%s; ask a narrower question.\n", omittedPrefix, reply.CountOf(r.Omitted, "more match", "more matches"))
}

// CommitLabel is how an answer names the commit it was computed at.
func CommitLabel(commit string) string {
	if commit == "" {
		return "no commits"
	}
	return commit
}

// RenderTree prints r as a provenance tree ending with the commit line.
func RenderTree(r Result, commit string) string {
	var b strings.Builder
	switch {
	case r.StoreEmpty:
		b.WriteString(emptyStoreSentence + "\n")
	case len(r.Hits) == 0 && r.Omitted == 0 && r.FilteredOut > 0:
		fmt.Fprintf(&b, "%s%s; %s%s\n", filteredPrefix, quoteQuestion(r.Question.Phrasings), reply.CountOf(r.FilteredOut, "note does", "notes do"), filteredSuffix)
	case len(r.Hits) == 0 && r.Omitted == 0:
		b.WriteString(noMatchPrefix + quoteQuestion(r.Question.Phrasings) + noMatchSuffix + "\n")
	}
	if line := VerdictLine(r); line != "" {
		b.WriteString(line + "\n")
	}
	labels := make([]string, len(r.Hits))
	column := 0
	for i := range r.Hits {
		labels[i] = treeLabel(r.Hits, i)
		column = max(column, displayWidth(labels[i]))
	}
	// Two spaces at least between the widest label and its provenance, so a
	// long key never runs into its layer.
	column += 2
	for i, h := range r.Hits {
		b.WriteString(labels[i])
		b.WriteString(strings.Repeat(" ", column-displayWidth(labels[i])))
		fmt.Fprintf(&b, "%s%s%s", h.Note.Layer, provenanceSep, h.Note.Date)
		if h.Retracted != "" {
			fmt.Fprintf(&b, "%s%s%s", provenanceSep, retractedWord, h.Retracted)
		}
		b.WriteByte('\n')
		if h.Depth == 0 && h.Explain != nil {
			b.WriteString(explainIndent + ExplainLine(h.Score, h.Explain) + "\n")
		}
		if more := moreUnder(r.Hits, i); more > 0 {
			fmt.Fprintf(&b, "%s%s%s\n", branchLast, moreLinkedPrefix, reply.CountOf(more, "more linked note", "more linked notes"))
		}
	}
	b.WriteString(OmittedLine(r))
	b.WriteString(SourceLines(r.Stores))
	b.WriteString(Footer(commit, r.AsOf))
	return b.String()
}

// Footer is an answer's last line: the commit it was computed at and, for
// a past moment, the day asked for.
func Footer(commit string, asOf vault.Date) string {
	if asOf != "" {
		return commitPrefix + CommitLabel(commit) + asOfSep + string(asOf) + "\n"
	}
	return commitPrefix + CommitLabel(commit) + "\n"
}

const asOfSep = " as of "

func treeLabel(hits []Hit, i int) string {
	h := hits[i]
	if h.Depth == 0 {
		return h.Note.Key
	}
	if i+1 < len(hits) && hits[i+1].Depth > 0 || hits[h.Parent].MoreLinked > 0 {
		return branchMid + h.Note.Key
	}
	return branchLast + h.Note.Key
}

// moreUnder is the count of linked notes left out under hit i when it is
// the last line of its ranked note's branch, else 0.
func moreUnder(hits []Hit, i int) int {
	if i+1 < len(hits) && hits[i+1].Depth > 0 {
		return 0
	}
	root := i
	if hits[i].Depth > 0 {
		root = hits[i].Parent
	}
	return hits[root].MoreLinked
}

func quoteQuestion(q []string) string {
	quoted := make([]string, len(q))
	for i, p := range q {
		quoted[i] = "`" + strings.TrimSpace(p) + "`"
	}
	return strings.Join(quoted, " or ")
}

// displayWidth counts terminal columns: wide East Asian characters take two,
// combining marks and format characters none.
func displayWidth(s string) int {
	w := 0
	for _, r := range s {
		switch {
		case unicode.In(r, unicode.Mn, unicode.Me, unicode.Cf):
		case width.LookupRune(r).Kind() == width.EastAsianWide, width.LookupRune(r).Kind() == width.EastAsianFullwidth:
			w += 2
		default:
			w++
		}
	}
	return w
}

// TreeNote is one note line of a rendered tree.
type TreeNote struct {
	Key         string
	Layer       vault.Layer
	Date        vault.Date
	Retracted   vault.Date
	Depth       int
	Parent      string // key of the ranked note above a neighbour
	ParentLayer vault.Layer
	MoreLinked  int  // on a ranked note: its linked notes counted, not listed
	Explained   bool // on a ranked note: the line under it explains its score
}

// Tree is a rendered answer read back.
type Tree struct {
	// Verdict is the one the answer opens with.
	Verdict Verdict
	// Leads: an answered line says the first note stands clearly ahead.
	Leads bool
	// Unheld and Uncovered are the words a Weak verdict line names as held
	// by no note, or lacked by the closest notes.
	Unheld, Uncovered []string
	Notes             []TreeNote
	Omitted           int
	Commit            string     // "" for "no commits"
	AsOf              vault.Date // the day a past moment was asked for; "" for now
	// Stores are the lines naming the other stores the answer read.
	Stores []TreeSource
}

// ParseTree reads RenderTree's output back. It is strict and total: a line
// it cannot take apart completely is an error, so a note printed without its
// layer or date fails rather than quietly not matching.
func ParseTree(s string) (Tree, error) {
	var t Tree
	if !strings.HasSuffix(s, "\n") {
		return t, errors.New("the answer does not end with a newline")
	}
	lines := strings.Split(strings.TrimSuffix(s, "\n"), "\n")
	last := lines[len(lines)-1]
	commit, ok := strings.CutPrefix(last, commitPrefix)
	if !ok || commit == "" {
		return t, fmt.Errorf("last line %q does not name a commit", last)
	}
	if c, day, ok := strings.Cut(commit, asOfSep); ok {
		if !vault.Date(day).Valid() {
			return t, fmt.Errorf("last line %q names no valid day", last)
		}
		commit, t.AsOf = c, vault.Date(day)
	}
	if commit != "no commits" {
		t.Commit = commit
	}
	var body []string
	body, t.Stores = peelSources(lines[:len(lines)-1])
	lines = append(body, last)
	root := -1
	for i, line := range lines[:len(lines)-1] {
		switch {
		case line == emptyStoreSentence, strings.HasPrefix(line, noMatchPrefix) && strings.HasSuffix(line, noMatchSuffix),
			strings.HasPrefix(line, filteredPrefix) && strings.HasSuffix(line, filteredSuffix):
			if i != 0 || len(lines) != 2 {
				return t, fmt.Errorf("line %d: %q must be the whole answer", i+1, line)
			}
			t.Verdict = NoMatch
		case i == 0:
			if err := t.readVerdict(line); err != nil {
				return t, err
			}
			if len(lines) < 3 {
				return t, fmt.Errorf("line 1: %q stands above no note", line)
			}
		case strings.HasPrefix(line, omittedPrefix):
			n, err := parseOmitted(line)
			if err != nil || i != len(lines)-2 {
				return t, fmt.Errorf("line %d: %q is not a closing omitted-count line", i+1, line)
			}
			if t.Verdict == Answered && len(t.Notes) > 0 {
				return t, fmt.Errorf("line %d: %q counts matches below an answered question's notes", i+1, line)
			}
			t.Omitted = n
		case strings.HasPrefix(line, explainIndent+explainWord):
			if root < 0 || len(t.Notes)-1 != root || t.Notes[root].Explained {
				return t, fmt.Errorf("line %d: %q explains no ranked note", i+1, line)
			}
			t.Notes[root].Explained = true
		case strings.HasPrefix(line, branchLast+moreLinkedPrefix):
			n, err := parseMoreLinked(line)
			above := lines[max(i-1, 0)]
			if err != nil || root < 0 || t.Notes[root].MoreLinked > 0 || strings.HasPrefix(above, branchLast) || strings.HasPrefix(above, omittedPrefix) {
				return t, fmt.Errorf("line %d: %q does not close a ranked note's branch", i+1, line)
			}
			t.Notes[root].MoreLinked = n
		default:
			note, err := parseNoteLine(line)
			if err != nil {
				return t, fmt.Errorf("line %d: %w", i+1, err)
			}
			if note.Depth == 0 {
				root = len(t.Notes)
			} else {
				if root < 0 {
					return t, fmt.Errorf("line %d: a neighbour comes before any ranked note", i+1)
				}
				isLast := strings.HasPrefix(line, branchLast)
				nextIsChild := i+1 < len(lines)-1 && (strings.HasPrefix(lines[i+1], branchMid) || strings.HasPrefix(lines[i+1], branchLast))
				if isLast == nextIsChild {
					return t, fmt.Errorf("line %d: branch glyph does not match what follows", i+1)
				}
				note.Parent, note.ParentLayer = t.Notes[root].Key, t.Notes[root].Layer
			}
			t.Notes = append(t.Notes, note)
		}
	}
	return t, nil
}

// readVerdict reads the verdict line an answer with notes opens with.
func (t *Tree) readVerdict(line string) error {
	words := func(prefix string) []string {
		return strings.Fields(strings.Trim(strings.TrimSuffix(strings.TrimPrefix(line, prefix), closestSuffix), "`"))
	}
	switch {
	case line == leadsLine:
		t.Verdict, t.Leads = Answered, true
	case line == closeLine:
		t.Verdict = Answered
	case strings.HasPrefix(line, unheldPrefix) && strings.HasSuffix(line, closestSuffix):
		t.Verdict, t.Unheld = Weak, words(unheldPrefix)
	case strings.HasPrefix(line, uncoveredPrefix) && strings.HasSuffix(line, closestSuffix):
		t.Verdict, t.Uncovered = Weak, words(uncoveredPrefix)
	case strings.HasPrefix(line, commonPrefix) && strings.HasSuffix(line, commonSuffix+closestSuffix):
		t.Verdict = NoMatch
	default:
		return fmt.Errorf("line 1: %q is not a verdict", line)
	}
	return nil
}

// parseMoreLinked reads "└─ and N more linked notes".
func parseMoreLinked(line string) (int, error) {
	rest := strings.TrimPrefix(line, branchLast+moreLinkedPrefix)
	num, tail, ok := strings.Cut(rest, " ")
	n, err := strconv.Atoi(num)
	if !ok || err != nil || n <= 0 || tail != reply.Plural(n, "more linked note", "more linked notes") {
		return 0, fmt.Errorf("no count in %q", line)
	}
	return n, nil
}

func parseOmitted(line string) (int, error) {
	rest := strings.TrimPrefix(line, omittedPrefix)
	num, tail, ok := strings.Cut(rest, " ")
	n, err := strconv.Atoi(num)
	if !ok || err != nil || n <= 0 {
		return 0, fmt.Errorf("no count in %q", line)
	}
	if tail != reply.Plural(n, "more match", "more matches")+"; ask a narrower question." {
		return 0, fmt.Errorf("unexpected wording in %q", line)
	}
	return n, nil
}

func parseNoteLine(line string) (TreeNote, error) {
	var n TreeNote
	label := line
	for _, glyph := range []string{branchMid, branchLast} {
		if rest, ok := strings.CutPrefix(line, glyph); ok {
			label, n.Depth = rest, 1
		}
	}
	sep := strings.LastIndex(label, provenanceSep)
	if sep >= 0 {
		if day, ok := strings.CutPrefix(label[sep+len(provenanceSep):], retractedWord); ok {
			if !vault.Date(day).Valid() {
				return n, fmt.Errorf("%q is retracted on %q, which is not a date", line, day)
			}
			n.Retracted, label = vault.Date(day), label[:sep]
			sep = strings.LastIndex(label, provenanceSep)
		}
	}
	if sep < 0 {
		return n, fmt.Errorf("%q carries no layer and date", line)
	}
	date := vault.Date(label[sep+len(provenanceSep):])
	if !date.Valid() {
		return n, fmt.Errorf("%q carries %q, which is not a date", line, date)
	}
	head := label[:sep]
	gap := strings.LastIndex(head, "  ")
	if gap < 0 {
		return n, fmt.Errorf("%q has no gap between key and layer", line)
	}
	layer, err := vault.ParseLayer(head[gap+2:])
	if err != nil {
		return n, fmt.Errorf("%q: %w", line, err)
	}
	key := strings.TrimRight(head[:gap], " ")
	if key == "" || strings.HasPrefix(key, " ") {
		return n, fmt.Errorf("%q has no key", line)
	}
	n.Key, n.Layer, n.Date = key, layer, date
	return n, nil
}
