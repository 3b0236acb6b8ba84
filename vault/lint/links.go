package lint

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/omh-notes/omh/internal/exclude"
	"github.com/omh-notes/omh/vault"
	"github.com/omh-notes/omh/vault/rename"
)

// The link rules: links that reach no note (and what they likely meant),
// links under the notes root's exclusions, verbs lint does not know and
// verbs whose target is of the wrong type.

func (l *linter) links() {
	n := l.n
	src := typeOf(n.Parsed)
	headed := n.Layer == vault.Team || n.Worktree // notes that are or will be team knowledge
	reached, localOnly := 0, 0
	for j, link := range n.Parsed.Links {
		res := l.resolved[j]
		if link.Lead != "" {
			l.unknownVerb(link)
		}
		switch {
		case len(res.Candidates) > 1:
			if !l.ignored(link) {
				l.add("ambiguous-link", SevError, link.Line,
					fmt.Sprintf("%s could mean %s, so it reaches none of them", l.show(link), strings.Join(res.Candidates, ", ")),
					"write "+l.linksTo(link, res.Candidates))
			}
			continue
		case res.Key == "":
			if l.dangles(link) && !l.ignored(link) && !l.elsewhere(link) {
				l.add("dangling-link", SevError, link.Line, fmt.Sprintf("%s reaches no note", l.show(link)), l.danglingFix(link))
			}
			continue
		case res.Key == n.Key:
			continue
		}
		l.linksOut = true
		target := l.keys[res.Key]
		if link.Verb != "" {
			l.verbType(link, src, res.Key, target.types)
		}
		if !headed {
			continue
		}
		reached++
		only := !target.team && (n.Layer == vault.Team || !target.worktree)
		if !only {
			continue
		}
		localOnly++
		sev, what := SevWarning, "links to"
		if v, _ := vault.LookupVerb(link.Verb); v.Verdict {
			sev, what = SevError, "says it "+link.Verb
		}
		where := "an uncommitted file"
		if !target.worktree {
			where = "a private note"
		}
		l.add("team-links-local", sev, link.Line,
			fmt.Sprintf("%s %s, which is only on this machine (%s)", what, res.Key, where),
			fmt.Sprintf("promote it (omh promote %s) or commit it first, or drop the link", res.Key))
	}
	if headed && reached > 0 && reached == localOnly {
		l.add("links-only-local", SevWarning, 0, "every note it links to exists only on this machine",
			"promote or commit the notes it links to, so the team can follow them")
	}
}

// dangles reports whether a link that reaches no note is a broken link
// rather than no note link at all (a hashtag where tags are no pages, a
// markdown link climbing out of the notes root or to another site), a link
// to an attachment ("diagram.png"), or a markdown link to an existing file
// that is not a note.
func (l *linter) dangles(link vault.Link) bool {
	if !l.opt.Dialect.IsLink(link, l.n.Key) {
		return false
	}
	// Dendron names notes with dots: only its markdown links name files.
	if (l.opt.Dialect.String() != vault.DialectDendron || link.Kind == vault.MarkdownLink) && isAttachment(l.opt.Dialect.Written(link)) {
		return false
	}
	return link.Kind != vault.MarkdownLink || l.opt.NotANote == nil || !l.opt.NotANote(l.n, link)
}

// ignored reports whether the config says not to check a link.
func (l *linter) ignored(link vault.Link) bool {
	if len(l.opt.IgnoreLinks) == 0 {
		return false
	}
	written := strings.Split(l.opt.Dialect.Written(link), "/")
	return slices.ContainsFunc(l.opt.IgnoreLinks, func(g string) bool {
		return exclude.MatchSegments(strings.Split(strings.TrimSpace(g), "/"), written)
	})
}

// show is a link as its note writes it, for messages.
func (l *linter) show(link vault.Link) string { return l.opt.Dialect.Show(link) }

// linksTo says how to write a link of link's kind to each of keys from
// this note so that the dialect resolves it to that key alone.
func (l *linter) linksTo(link vault.Link, keys []string) string {
	var out []string
	for _, k := range keys {
		text := rename.LinkText(l.opt.Dialect, k, link.Kind, l.n.Key, l.names)
		if link.Kind == vault.MarkdownLink {
			out = append(out, "("+text+")")
		} else {
			out = append(out, "[["+text+"]]")
		}
	}
	return vault.OrList(out)
}

// elsewhere reports whether a link names a note of another store the
// repository answers with.
func (l *linter) elsewhere(link vault.Link) bool {
	store, _, ok := vault.SplitQualified(l.opt.Dialect.QualifiedKey(link))
	return ok && slices.Contains(l.opt.Stores, store)
}

// danglingFix names the notes a dangling link was likely meant for: those
// whose last name differs from the link's only in letter case, spaces and
// punctuation, else by one typo.
func (l *linter) danglingFix(link vault.Link) string {
	const generic = "correct the link, or write the note it names"
	if from, r, ok := l.renamedTarget(link); ok {
		return fmt.Sprintf("%s was renamed to %s (commit %s): write %s, or run omh mv --fix-links %s to rewrite every link to it",
			from, r.To, r.Commit, l.linksTo(link, []string{r.To}), from)
	}
	if l.near.keys == nil {
		l.near.build(l.keys)
	}
	meant := l.near.meant(l.opt.Dialect.Written(link))
	if len(meant) == 0 || len(meant) > 3 {
		return generic
	}
	return "did you mean " + l.linksTo(link, meant) + "? Otherwise " + generic
}

// renameHistory is the renames git's history records, read when a link
// first dangles: the old keys as names links resolve against.
type renameHistory struct {
	read    bool
	renamed map[string]Renamed
	names   vault.MemNames
}

// renamedTarget finds the old key a dangling link reaches among the notes
// git's history renamed, and where that note is now: a note of the store.
func (l *linter) renamedTarget(link vault.Link) (string, Renamed, bool) {
	h := l.history
	if !h.read {
		h.read = true
		if l.opt.Renamed != nil {
			h.renamed = l.opt.Renamed()
		}
		h.names = make(vault.MemNames, len(h.renamed))
		for _, from := range slices.Sorted(maps.Keys(h.renamed)) {
			h.names.Add(from, nil)
		}
	}
	if len(h.renamed) == 0 {
		return "", Renamed{}, false
	}
	res, err := l.opt.Dialect.Resolve(link, l.n.Key, h.names)
	if err != nil || res.Key == "" {
		return "", Renamed{}, false
	}
	r := h.renamed[res.Key]
	return res.Key, r, l.keys[r.To] != nil
}

// unknownVerb reports a list item's leading word that was meant as a
// verb: a verb in capitals, a snake_case word (derived_from), or a near
// miss of a verb (supercedes, resolved). Such a link is read as a plain
// link, so the record's state silently ignores it.
func (l *linter) unknownVerb(link vault.Link) {
	word := link.Lead
	lower := strings.ToLower(word)
	var fix string
	switch {
	case vault.IsVerb(lower):
		fix = fmt.Sprintf("write the verb in lower case: %q", lower)
	case nearVerb(lower) != "":
		fix = fmt.Sprintf("write %q", nearVerb(lower))
	case strings.Contains(strings.Trim(lower, "_"), "_"):
		fix = "use one of the verbs " + strings.Join(vault.VerbNames(), ", ") + ", or reword the item so it does not start with the word"
	default:
		return
	}
	l.add("unknown-verb", SevError, link.Line, fmt.Sprintf("%q is not a link verb, so %s is read as a plain link", word, l.show(link)), fix)
}

func (l *linter) verbType(link vault.Link, from, targetKey string, targetTypes []string) {
	rule, ok := vault.LookupVerb(link.Verb)
	if !ok {
		return
	}
	if rule.From != nil && !slices.Contains(rule.From, from) {
		l.add("verb-type", SevError, link.Line,
			fmt.Sprintf("%q is written on %s, but only %s %s", link.Verb, withArticle(from), articles(rule.From), link.Verb),
			fmt.Sprintf("make it a plain link, or use a verb that fits %s", withArticle(from)))
		return
	}
	fits := slices.ContainsFunc(targetTypes, func(t string) bool {
		switch {
		case rule.Same:
			return t == from
		case rule.To != nil:
			return slices.Contains(rule.To, t)
		}
		return true
	})
	if fits {
		return
	}
	want := articles(rule.To)
	if rule.Same {
		want = "another " + from
	}
	l.add("verb-type", SevError, link.Line,
		fmt.Sprintf("%s %s %s, which is %s; only %s can be %s here", withArticle(from), link.Verb, targetKey,
			articles(distinct(targetTypes)), want, pastTense(link.Verb)),
		"link the record the verb is about, or make it a plain link")
}
