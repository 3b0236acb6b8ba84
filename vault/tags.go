package vault

import (
	"strings"

	"golang.org/x/text/unicode/norm"
)

// dendronTags is the hierarchy of Dendron's tag notes: #a.b is the note
// tags.a.b.
const dendronTags = "tags."

// Tags lists the tags a note carries as the dialect reads them, each once
// (FoldTag decides sameness), in the order first written: the frontmatter's
// tags, a Logseq page's tags:: property, and the hashtags of its body.
// Dendron reads every link to a note tags.x as the tag x, since #x is only
// a shorter way to write it; a markdown site has no hashtags (a "#word" in
// its prose is text).
func (d Dialect) Tags(p Parsed) []string {
	var out []string
	seen := map[string]bool{}
	add := func(tag string) {
		if f := FoldTag(tag); f != "" && !seen[f] {
			seen[f] = true
			out = append(out, strings.TrimSpace(tag))
		}
	}
	for _, t := range p.Tags {
		add(t)
	}
	if d.String() == DialectLogseq {
		for _, t := range p.PageTags {
			add(t)
		}
	}
	for _, l := range p.Links {
		switch d.String() {
		case DialectMarkdown:
		case DialectDendron:
			if r, ok := d.Read(l); ok {
				if tag, ok := cutPrefixFold(r.Name, dendronTags); ok {
					add(tag)
				}
			}
		default:
			if l.Kind == TagLink {
				add(l.Target)
			}
		}
	}
	return out
}

// TagNesting is what nests one tag under another in the dialect: Dendron's
// hierarchies are a.b, every other tool's tags a/b.
func (d Dialect) TagNesting() string {
	if d.String() == DialectDendron {
		return "."
	}
	return "/"
}

// FoldTag is a tag as tags are compared: without a leading '#', in lower
// case and Unicode NFC, as Obsidian and Logseq match tags whatever their
// letter case.
func FoldTag(tag string) string {
	return norm.NFC.String(strings.ToLower(strings.TrimPrefix(strings.TrimSpace(tag), "#")))
}
