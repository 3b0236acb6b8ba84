package template

import (
	"fmt"
	"slices"
	"strings"

	"github.com/omh-notes/omh/vault"
)

// A body given to omh new may bring its own sections, as an agent writes
// a note: "## Claim ... ## Evidence ...". Those fill the template's
// sections of the same name, so the note has each section once, in the
// template's order:
//
//   - text before the body's first heading goes where the template says
//     {{body}} (for omh's own templates: the statement section of a
//     finding, decision, issue or citation; under the title for a surprise,
//     stub, topic or note, whose sections hold no statement), or, in a
//     template without {{body}}, into its first section;
//   - a body section whose heading names one of the template's sections
//     (ignoring case and a trailing colon) fills it: its text goes where
//     the section says {{body}}, else before the section's first
//     placeholder (so the body's evidence comes before the --link list),
//     else at the section's end; the template's heading is kept;
//   - a body section the template does not have is kept as a section of
//     its own, right after the template section it followed in the body,
//     or, before any of them, right after the lead text's section: the
//     body's order stays, and the type's statement stays first;
//   - a heading of level 1 that repeats the title is dropped: the note
//     has its title already.
//
// The body's sections are re-levelled to the template's (an agent writing
// "# Claim" gets "## Claim"), their subheadings with them.

// section is a run of a template or body from one heading to the next of
// its level or above.
type section struct {
	name    string // the heading's plain text; "" for what precedes the first heading
	heading string // the heading's line (or lines, for a setext heading)
	text    string // what follows the heading
	level   int
}

// splitSections cuts md at its headings of level at most level (each
// whose index keep allows), returning the text before the first and the
// sections. skip, when set, marks headings that are not sections at all:
// their line is dropped.
func splitSections(md string, hs []vault.Heading, isCut func(vault.Heading) bool) (lead string, secs []section) {
	var cuts []vault.Heading
	for _, h := range hs {
		if isCut(h) {
			cuts = append(cuts, h)
		}
	}
	if len(cuts) == 0 {
		return md, nil
	}
	lead = md[:cuts[0].Start]
	for i, h := range cuts {
		end := len(md)
		if i+1 < len(cuts) {
			end = cuts[i+1].Start
		}
		headEnd := headingEnd(md, h.Start)
		secs = append(secs, section{name: h.Text, heading: md[h.Start:headEnd], text: md[headEnd:end], level: h.Level})
	}
	return lead, secs
}

// setextUnderline matches the line under a setext heading.
var setextUnderline = vault.LazyRegexp(`^ {0,3}(=+|-+)[ \t]*$`)

// headingEnd is where the heading whose line starts at start ends: after
// its line, and after the underline of a setext heading.
func headingEnd(md string, start int) int {
	end := lineEnd(md, start)
	if !strings.HasPrefix(strings.TrimLeft(md[start:end], " "), "#") && end < len(md) {
		if next := lineEnd(md, end); setextUnderline().MatchString(strings.TrimSuffix(md[end:next], "\n")) {
			end = next
		}
	}
	return end
}

// lineEnd is the offset just past the line starting at start (its
// newline included).
func lineEnd(md string, start int) int {
	if i := strings.IndexByte(md[start:], '\n'); i >= 0 {
		return start + i + 1
	}
	return len(md)
}

// atxHeading matches an ATX heading's marks.
var atxHeading = vault.LazyRegexp(`^( {0,3})(#{1,6})([ \t]|$)`)

// relevel moves every ATX heading of md down (or up) by delta levels,
// within 1 to 6; setext headings, rare in what agents write, stay.
func relevel(md string, delta int) string {
	if delta == 0 || strings.TrimSpace(md) == "" {
		return md
	}
	hs := vault.Parse([]byte(md)).Headings
	var b strings.Builder
	last := 0
	for _, h := range hs {
		m := atxHeading().FindStringSubmatchIndex(md[h.Start:])
		if m == nil {
			continue
		}
		level := min(max(m[5]-m[4]+delta, 1), 6)
		b.WriteString(md[last : h.Start+m[4]])
		b.WriteString(strings.Repeat("#", level))
		last = h.Start + m[5]
	}
	b.WriteString(md[last:])
	return b.String()
}

// chunk is a piece of the rendered body: template text, whose
// placeholders are filled and whose empty placeholder lines go, or text
// from the draft's body, kept as written.
type chunk struct {
	text    string
	literal bool
}

// mergeBody lays the draft's body into the template's body text (the
// template without its frontmatter), returning the chunks to render. It
// sets values["body"] to the lead text, which {{body}} stands for.
func mergeBody(tmpl, body, title string, required []string, values map[string]string) []chunk {
	tmplHeadings := vault.Parse([]byte(tmpl)).Headings
	isTitle := func(h vault.Heading) bool { return holds(h.Text, "title") }
	level := 0
	for _, h := range tmplHeadings {
		if !isTitle(h) && (level == 0 || h.Level < level) {
			level = h.Level
		}
	}
	preamble, tsecs := splitSections(tmpl, tmplHeadings, func(h vault.Heading) bool { return !isTitle(h) && h.Level == level })

	lead, bsecs := splitBody(body, title, tsecs)
	lead = strings.TrimRight(strings.TrimLeft(lead, "\n"), " \t\n")
	values["body"] = lead
	// Where the lead text goes: the section holding {{body}}, else (no
	// {{body}} in the template) the first section; -1 is the preamble.
	leadAt := -1
	if !hasBodyPlaceholder(preamble) {
		leadAt = slices.IndexFunc(tsecs, func(s section) bool { return hasBodyPlaceholder(s.heading + s.text) })
		if leadAt < 0 && len(tsecs) > 0 && !hasBodyPlaceholder(tmpl) {
			leadAt = 0
		}
	}
	fills := make([][]string, len(tsecs))
	after := make([][]string, len(tsecs)+1) // after[i+1]: extra sections after template section i; after[0]: after the preamble
	prev := leadAt
	for _, b := range bsecs {
		shift := 0 // a template without sections keeps the body's levels
		if level > 0 {
			shift = level - b.level
		}
		i := slices.IndexFunc(tsecs, func(t section) bool { return vault.SameHeading(b.name, expandText(t.name)) })
		if i >= 0 {
			fills[i] = append(fills[i], relevel(b.text, shift))
			prev = i
			continue
		}
		after[prev+1] = append(after[prev+1], strings.TrimRight(relevel(b.heading, shift), "\n")+"\n\n"+relevel(b.text, shift))
	}

	chunks := []chunk{{text: preamble}}
	if leadAt == -1 && !hasBodyPlaceholder(preamble) && len(tsecs) == 0 {
		chunks = append(chunks, chunk{text: lead, literal: true}) // nowhere else to go
	}
	for _, extra := range after[0] {
		chunks = append(chunks, chunk{text: extra, literal: true})
	}
	for i, t := range tsecs {
		text := t.text
		var filled []string
		if i == leadAt && !hasBodyPlaceholder(text) {
			filled = append(filled, lead) // a template without {{body}}
		}
		filled = append(filled, fills[i]...)
		if emptyOptional(t, text, filled, required, values) {
			continue
		}
		at := insertionPoint(text)
		chunks = append(chunks, chunk{text: t.heading + text[:at]})
		for _, f := range filled {
			chunks = append(chunks, chunk{text: f, literal: true})
		}
		chunks = append(chunks, chunk{text: text[at:]})
		for _, extra := range after[i+1] {
			chunks = append(chunks, chunk{text: extra, literal: true})
		}
	}
	return chunks
}

// splitBody cuts the draft's body into its lead text and its sections:
// the headings at the level of the first that names one of the template's
// sections (else at the body's top level), and any above it. A level-1
// heading repeating the title is dropped.
func splitBody(body, title string, tsecs []section) (string, []section) {
	if strings.TrimSpace(body) == "" {
		return "", nil
	}
	hs := vault.Parse([]byte(body)).Headings
	if i := slices.IndexFunc(hs, func(h vault.Heading) bool { return h.Level == 1 && vault.SameHeading(h.Text, title) }); i >= 0 {
		h := hs[i]
		body = body[:h.Start] + body[headingEnd(body, h.Start):]
		hs = vault.Parse([]byte(body)).Headings
	}
	level := 0
	for _, h := range hs {
		known := slices.ContainsFunc(tsecs, func(t section) bool { return vault.SameHeading(h.Text, expandText(t.name)) })
		if known && (level == 0 || h.Level < level) {
			level = h.Level
		}
	}
	if level == 0 {
		for _, h := range hs {
			if level == 0 || h.Level < level {
				level = h.Level
			}
		}
	}
	return splitSections(body, hs, func(h vault.Heading) bool { return h.Level <= level })
}

// expandText is a template heading's text with its placeholders taken
// out, for comparing it with the body's headings.
func expandText(s string) string { return strings.TrimSpace(placeholder().ReplaceAllString(s, "")) }

func hasBodyPlaceholder(s string) bool { return holds(s, "body") }

// holds reports whether s names the placeholder called name.
func holds(s, name string) bool {
	return slices.ContainsFunc(placeholder().FindAllString(s, -1), func(m string) bool { return placeholderName(m) == name })
}

// insertionPoint is where a template section's text takes the body's text
// for it: just after {{body}}, else just before the first placeholder's
// line, else at the end, before trailing blank lines.
func insertionPoint(text string) int {
	locs := placeholder().FindAllStringIndex(text, -1)
	for _, l := range locs {
		if placeholderName(text[l[0]:l[1]]) == "body" {
			return l[1]
		}
	}
	if len(locs) > 0 {
		return strings.LastIndexByte(text[:locs[0][0]], '\n') + 1
	}
	return len(strings.TrimRight(text, " \t\n"))
}

// emptyOptional reports whether a template section is to be left out: a
// section only for links ("## Links" holding {{links}}) when there are
// none, nothing from the body fills it and the type does not require it.
// A section waiting for a person's text (answers, the body) stays.
func emptyOptional(t section, text string, filled, required []string, values map[string]string) bool {
	if values["links"] != "" || slices.ContainsFunc(required, func(r string) bool { return vault.SameHeading(expandText(t.name), r) }) {
		return false
	}
	for _, f := range filled {
		if strings.TrimSpace(f) != "" {
			return false
		}
	}
	names := placeholder().FindAllString(text, -1)
	return len(names) > 0 && !slices.ContainsFunc(names, func(m string) bool { return placeholderName(m) != "links" }) &&
		strings.TrimSpace(placeholder().ReplaceAllString(text, "")) == ""
}

// renderChunks fills the template's chunks and joins them with the body's,
// each of those set off by blank lines. Only the template's own text is
// folded: the body's is put in afterwards, as written, where a line of its
// own marks its place.
func renderChunks(chunks []chunk, values map[string]string) string {
	var text strings.Builder
	var literals []string
	for _, c := range chunks {
		if !c.literal {
			text.WriteString(c.text)
			continue
		}
		if lit := strings.TrimRight(strings.TrimLeft(c.text, "\n"), " \t\n"); lit != "" {
			text.WriteString("\n\n" + literalMark(len(literals)) + "\n\n")
			literals = append(literals, lit)
		}
	}
	out := expand(removeEmptyPlaceholderLines(text.String(), values), values)
	for i, lit := range literals {
		mark := literalMark(i)
		if at := strings.Index(out, mark); at >= 0 && endsInListItem(lit) && strings.HasPrefix(out[at+len(mark):], "\n\n- ") {
			mark += "\n" // the body's list and the template's (--answers, --link) are one list
		}
		out = strings.Replace(out, mark, lit, 1)
	}
	return out
}

// endsInListItem reports whether md's last line is a "- " list item.
func endsInListItem(md string) bool {
	return strings.HasPrefix(strings.TrimLeft(md[strings.LastIndexByte(md, '\n')+1:], " "), "- ")
}

// literalMark holds the place of the body's i-th piece in the template's
// text: a line no template or value holds (a NUL byte is no text).
func literalMark(i int) string { return fmt.Sprintf("\x00omh-body-%d\x00", i) }
