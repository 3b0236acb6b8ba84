package vault

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"
)

// frontmatter is the YAML block delimited by "---" lines at the top of a note.
type frontmatter struct {
	yaml  []byte // the text between the delimiter lines
	start int    // offset of yaml in the file
	lines int    // lines occupied, delimiters included
	end   int    // offset just past the closing delimiter line
}

// SplitFrontmatter finds the frontmatter block opening content: its YAML,
// the offset where the rest begins, whether there is one, and whether it
// opens and is never closed.
func SplitFrontmatter(content []byte) (yaml []byte, end int, found, unclosed bool) {
	fm, found, unclosed := splitFrontmatter(content, 0)
	return fm.yaml, fm.end, found, unclosed
}

// splitFrontmatter looks for a frontmatter block whose opening line starts at
// offset start. found is false when there is none; unclosed reports an
// opening line that no closing line matches.
func splitFrontmatter(content []byte, start int) (fm frontmatter, found, unclosed bool) {
	open, next, hasNewline := lineAt(content, start)
	if !hasNewline || !isDelimiter(open, "---") {
		return frontmatter{}, false, false
	}
	for i, n := next, 2; i < len(content); n++ {
		line, after, _ := lineAt(content, i)
		if isDelimiter(line, "---") || isDelimiter(line, "...") {
			return frontmatter{yaml: content[next:i], start: next, lines: n, end: after}, true, false
		}
		i = after
	}
	return frontmatter{}, false, true
}

// lineAt returns the line starting at i without its "\n", the offset of the
// next line, and whether the line ended in "\n".
func lineAt(content []byte, i int) (line []byte, next int, hasNewline bool) {
	n := bytes.IndexByte(content[i:], '\n')
	if n < 0 {
		return content[i:], len(content), false
	}
	return content[i : i+n], i + n + 1, true
}

// isDelimiter reports whether line is mark followed only by spaces, tabs and
// the "\r" of a CRLF ending.
func isDelimiter(line []byte, mark string) bool {
	return string(bytes.TrimRight(line, " \t\r")) == mark
}

// fileLine converts a 1-based line of the YAML text, which starts on the
// file's second line, to a line of the file.
func fileLine(yamlLine int) int {
	return 1 + yamlLine
}

// yamlErrorLine finds the "line N" that yaml error messages carry.
var yamlErrorLine = LazyRegexp(`^yaml: line (\d+): `)

// yamlParserErrors are the messages of yaml's parser, as opposed to its
// scanner. The parser reports the 0-based line where the failing construct
// started, the scanner a 1-based line.
var yamlParserErrors = map[string]bool{
	"did not find expected ',' or ']'":       true,
	"did not find expected ',' or '}'":       true,
	"did not find expected '-' indicator":    true,
	"did not find expected <document start>": true,
	"did not find expected <stream-start>":   true,
	"did not find expected key":              true,
	"did not find expected node content":     true,
	"found duplicate %TAG directive":         true,
	"found duplicate %YAML directive":        true,
	"found incompatible YAML document":       true,
	"found undefined tag handle":             true,
}

// decodeFrontmatter fills p's fields from the frontmatter's YAML text,
// which starts at offset start of the file, recording a Problem for every
// part that cannot be used.
func decodeFrontmatter(text []byte, start int, p *Parsed) {
	root, simple := simpleFrontmatter(text)
	if !simple {
		var doc yaml.Node
		// yaml rejects invalid UTF-8 outright; replacing it keeps one stray
		// byte in a title from discarding every field, and leaves line
		// numbers intact.
		if err := yaml.Unmarshal(bytes.ToValidUTF8(text, []byte("\uFFFD")), &doc); err != nil {
			p.addYAMLError(err)
			return
		}
		if len(doc.Content) == 0 {
			return
		}
		root = doc.Content[0]
	}
	if root == nil || isNullNode(root) {
		return
	}
	if root.Kind != yaml.MappingNode {
		p.problem(fileLine(root.Line), "frontmatter-not-map",
			"frontmatter must be a map of fields, not %s", describeNode(root))
		return
	}
	d := fieldDecoder{p: p, yaml: text, start: start}
	for i := 0; i+1 < len(root.Content); i += 2 {
		d.field(root.Content[i], resolveAlias(root.Content[i+1]))
	}
	d.finish()
}

// addYAMLError reports err on the line it names, or on the opening
// delimiter's line when it names none.
func (p *Parsed) addYAMLError(err error) {
	msg := err.Error()
	line := 1
	if m := yamlErrorLine().FindStringSubmatch(msg); m != nil {
		n, _ := strconv.Atoi(m[1])
		msg = msg[len(m[0]):]
		if yamlParserErrors[msg] {
			n++
		}
		line = fileLine(n)
	}
	msg = strings.TrimPrefix(msg, "yaml: ")
	p.problem(line, "frontmatter-yaml", "frontmatter is not valid YAML: %s", msg)
}

func (p *Parsed) problem(line int, rule, format string, args ...any) {
	msg := validUTF8(fmt.Sprintf(format, args...))
	p.Problems = append(p.Problems, Problem{Line: line, Rule: rule, Message: msg})
}

// fieldDecoder carries the fields that are only settled once every key has
// been seen.
type fieldDecoder struct {
	p              *Parsed
	yaml           []byte // the YAML, and where the file has it
	start          int
	title          string
	dated, created Date
}

// field decodes one field. Keys that are not scalars have an empty Value,
// which names no field.
func (d *fieldDecoder) field(key, value *yaml.Node) {
	name, line := key.Value, fileLine(key.Line)
	p := d.p
	switch name {
	case "title":
		d.title = d.text(name, line, value)
	case "type":
		p.Type = strings.ToLower(d.text(name, line, value))
	case "source":
		p.Source = d.text(name, line, value)
	case "key":
		p.DeclaredKey = d.text(name, line, value)
	case "retracted_reason":
		p.RetractedReason = d.text(name, line, value)
	case "description", "desc", "summary":
		// One sentence saying what the note is about, as Dendron and many
		// static-site tools write it: indexed with the note's words.
		p.Description = d.text(name, line, value)
	case "recorded":
		p.Recorded = d.dateField(name, line, value)
	case "date":
		d.dated = d.dateField(name, line, value)
	case "created":
		d.created = d.dateField(name, line, value)
	case "retracted":
		p.Retracted = d.dateField(name, line, value)
	case "aliases", "alias":
		p.Aliases = append(p.Aliases, d.list(name, line, value, nil)...)
	case "tags", "tag":
		tags := d.list(name, line, value, splitTags)
		p.Tags = append(p.Tags, tags...)
		if len(tags) > 0 {
			d.tagLinks(value)
		}
	case "answers":
		p.Answers = append(p.Answers, d.list(name, line, value, nil)...)
	}
}

func (d *fieldDecoder) finish() {
	if d.title != "" {
		d.p.Title = d.title
	}
	switch {
	case d.dated != "":
		d.p.Dated, d.p.DatedField = d.dated, "date"
	case d.created != "":
		d.p.Dated, d.p.DatedField = d.created, "created"
	}
}

// tagLinks adds the tags of a tags field as links where the file writes
// them: Dendron's tags: [a.b, c] link to tags.a.b and tags.c as #a.b and #c
// do, and Logseq's name pages. A tag is found on its scalar's line; one
// that is not (a scalar folded over lines) is a tag but no link.
func (d *fieldDecoder) tagLinks(n *yaml.Node) {
	items := []*yaml.Node{n}
	if n.Kind == yaml.SequenceNode {
		items = n.Content
	}
	lines := newLineStarts(d.yaml)
	for _, item := range items {
		item = resolveAlias(item)
		if item.Kind != yaml.ScalarNode || item.Line < 1 || item.Line > len(lines) {
			continue
		}
		lineStart := lines[item.Line-1]
		line, _, _ := lineAt(d.yaml, lineStart)
		at := runeOffset(line, item.Column-1)
		for _, tag := range splitTags(scalarText(item)) {
			i := bytes.Index(line[at:], []byte(tag))
			if i < 0 {
				break
			}
			start := d.start + lineStart + at + i
			d.p.Links = append(d.p.Links, Link{Kind: TagLink, Target: tag, Start: start, End: start + len(tag), Line: fileLine(item.Line)})
			at += i + len(tag)
		}
	}
}

// runeOffset is the byte offset of the n-th character of line (yaml counts
// columns in characters), or the line's length.
func runeOffset(line []byte, n int) int {
	at := 0
	for ; n > 0 && at < len(line); n-- {
		_, size := utf8.DecodeRune(line[at:])
		at += size
	}
	return at
}

// text reads a single-valued field. Any scalar is accepted as text, so that
// `title: 1984` is a title; null means the field is absent.
func (d *fieldDecoder) text(name string, line int, n *yaml.Node) string {
	if n.Kind != yaml.ScalarNode {
		d.p.problem(line, "field-type", "field %q must be a string, not %s", name, describeNode(n))
		return ""
	}
	return scalarText(n)
}

// dateField reads a date field; an empty field is absent rather than
// invalid, since note templates often leave dates blank.
func (d *fieldDecoder) dateField(name string, line int, n *yaml.Node) Date {
	if isNullNode(n) {
		return ""
	}
	if date, ok := nodeDate(n); ok {
		return date
	}
	value := describeNode(n)
	if n.Kind == yaml.ScalarNode {
		value = strconv.Quote(n.Value)
	}
	d.p.problem(line, "invalid-date", "field %q is not a valid date: %s", name, value)
	return ""
}

// nodeDate reads text and timestamps as written and numbers as Unix times.
func nodeDate(n *yaml.Node) (Date, bool) {
	if n.Kind != yaml.ScalarNode {
		return "", false
	}
	switch n.ShortTag() {
	case "!!str", "!!timestamp":
		return ParseDateText(n.Value)
	case "!!int", "!!float":
		var v float64
		if err := n.Decode(&v); err != nil {
			return "", false
		}
		return epochDate(v)
	}
	return "", false
}

// list reads a field that holds one string or a list of them. split, when
// given, breaks a lone string into several values.
func (d *fieldDecoder) list(name string, line int, n *yaml.Node, split func(string) []string) []string {
	if n.Kind == yaml.ScalarNode {
		if split != nil {
			return split(scalarText(n))
		}
		return nonEmptyTrimmed(scalarText(n))
	}
	if n.Kind != yaml.SequenceNode {
		d.listProblem(name, line, describeNode(n))
		return nil
	}
	var out []string
	for _, item := range n.Content {
		item = resolveAlias(item)
		if item.Kind != yaml.ScalarNode {
			d.listProblem(name, line, "a list containing "+describeNode(item))
			return nil
		}
		out = append(out, nonEmptyTrimmed(scalarText(item))...)
	}
	if split != nil {
		return cleanTags(out)
	}
	return out
}

func (d *fieldDecoder) listProblem(name string, line int, found string) {
	d.p.problem(line, "field-type", "field %q must be a string or a list of strings, not %s", name, found)
}

// splitTags breaks a tags string such as "#a, b c" into its tags.
func splitTags(s string) []string {
	return cleanTags(strings.FieldsFunc(s, func(r rune) bool { return r == ',' || unicode.IsSpace(r) }))
}

// cleanTags drops the '#' that marks a tag in the body, and tags left empty.
func cleanTags(tags []string) []string {
	var out []string
	for _, t := range tags {
		out = append(out, nonEmptyTrimmed(strings.TrimPrefix(t, "#"))...)
	}
	return out
}

func nonEmptyTrimmed(s string) []string {
	if s = strings.TrimSpace(s); s == "" {
		return nil
	}
	return []string{s}
}

// scalarText returns a scalar's trimmed value, "" for null.
func scalarText(n *yaml.Node) string {
	if isNullNode(n) {
		return ""
	}
	return validUTF8(strings.TrimSpace(n.Value))
}

func isNullNode(n *yaml.Node) bool {
	return n.Kind == yaml.ScalarNode && n.ShortTag() == "!!null"
}

// resolveAlias follows one alias; anchors cannot refer to themselves, so a
// single step reaches the anchored node.
func resolveAlias(n *yaml.Node) *yaml.Node {
	if n.Kind == yaml.AliasNode && n.Alias != nil {
		return n.Alias
	}
	return n
}

// describeNode names the shape of a node for messages.
func describeNode(n *yaml.Node) string {
	switch n.Kind {
	case yaml.SequenceNode:
		return "a list"
	case yaml.MappingNode:
		return "a map"
	}
	return "the value " + strconv.Quote(n.Value)
}
