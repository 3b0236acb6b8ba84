// Package template writes new notes from templates: omh's own, one per
// type, or a repository's under TemplatesDir.
package template

import (
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"strings"

	"github.com/omh-notes/omh/internal/safefile"
	"github.com/omh-notes/omh/vault"
	"go.yaml.in/yaml/v3"
)

// maxTemplateBytes bounds a repository's template, as a config file is bounded.
const maxTemplateBytes = 1 << 20

// TemplatesDir holds a repository's own templates, one per type
// (<type>.md), which replace the built-in ones.
const TemplatesDir = ".omh/templates"

//go:embed templates/*.md
var builtinTemplates embed.FS

// LoadTemplate returns the template for notes of type t: the working
// tree's TemplatesDir/<t>.md under root when there is one, else omh's own.
// from says which: the file's path relative to root, or "built-in".
func LoadTemplate(root, t string) (text, from string, err error) {
	rel := TemplatesDir + "/" + t + vault.NoteExt
	b, err := safefile.ReadInside(root, rel, maxTemplateBytes)
	switch {
	case err == nil:
		return string(b), rel, nil
	case !errors.Is(err, fs.ErrNotExist):
		return "", "", fmt.Errorf("the template: %w", err) // err names the file
	}
	b, err = builtinTemplates.ReadFile("templates/" + t + vault.NoteExt)
	if err != nil {
		return "", "", fmt.Errorf("omh has no template for notes of type %q", t)
	}
	return string(b), "built-in", nil
}

// Draft is a note about to be written from a template.
type Draft struct {
	Type     string
	Title    string
	Key      string
	Recorded vault.Date
	Source   string
	Body     string      // markdown placed where the template says {{body}}
	Answers  []string    // the questions the note answers
	Links    []DraftLink // notes it links to
}

// DraftLink is one link of a draft: a plain link when Verb is "".
type DraftLink struct {
	Verb, Key string
	Text      string // the link as the vault's dialect writes it; "" writes [[Key]]
}

// placeholder matches the fields a template can name: {{type}},
// {{title}}, {{key}}, {{recorded}}, {{source}}, {{body}}, {{answers}}
// and {{links}}. Anything else in double braces is left as written.
var placeholder = vault.LazyRegexp(`\{\{\s*(type|title|key|recorded|source|body|answers|links)\s*\}\}`)

// fieldLine matches a frontmatter line that holds nothing but one field
// set to one placeholder.
var fieldLine = vault.LazyRegexp(`^\s*[^\s:#][^:]*:\s*\{\{\s*(\w+)\s*\}\}\s*$`)

// RenderNote fills a template with a draft. In the frontmatter, values are
// written as YAML scalars (a field whose value is empty is left out); in
// the body they are written as markdown, the answers and links as lists.
// A line holding only a placeholder with nothing to put there is dropped.
// The body's own sections fill the template's (see mergeBody). The result always has frontmatter with the type, recorded date
// and (when known) source, and a title, whatever the template forgot.
func RenderNote(template string, d Draft) ([]byte, error) {
	template = strings.TrimPrefix(strings.ReplaceAll(template, "\r\n", "\n"), "\uFEFF")
	fmText, body, hasFM := "", template, false
	fmYAML, fmEnd, found, unclosed := vault.SplitFrontmatter([]byte(template))
	switch {
	case unclosed:
		return nil, errors.New(`the template's frontmatter is never closed by a "---" line`)
	case found:
		fmText, body, hasFM = string(fmYAML), template[fmEnd:], true
	}
	values := d.bodyValues()
	body = renderChunks(mergeBody(body, d.Body, oneLine(d.Title), vault.RequiredSections(d.Type), values), values)
	body = strings.TrimLeft(body, "\n")
	body = strings.TrimRight(body, " \t\n") + "\n"
	var out strings.Builder
	if hasFM {
		out.WriteString("---\n")
		out.WriteString(d.expandFrontmatter(fmText))
		out.WriteString("---\n")
	}
	out.WriteString(body)
	return d.complete([]byte(out.String()))
}

// bodyValues are the markdown each placeholder stands for in the body.
func (d Draft) bodyValues() map[string]string {
	var answers, links []string
	for _, q := range d.Answers {
		if q = oneLine(q); q != "" {
			answers = append(answers, "- "+q)
		}
	}
	for _, l := range d.Links {
		text := l.Text
		if text == "" {
			text = "[[" + l.Key + "]]"
		}
		item := "- " + text
		if l.Verb != "" {
			item = "- " + l.Verb + " " + text
		}
		links = append(links, item)
	}
	return map[string]string{
		"type": d.Type, "title": oneLine(d.Title), "key": d.Key, "recorded": string(d.Recorded),
		"source": oneLine(d.Source), "body": strings.TrimRight(strings.TrimLeft(d.Body, "\n"), " \t\n"),
		"answers": strings.Join(answers, "\n"), "links": strings.Join(links, "\n"),
	}
}

// oneLine joins the lines of s with spaces and trims it.
func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

func placeholderName(m string) string {
	return placeholder().FindStringSubmatch(m)[1]
}

// expand replaces every placeholder with its value.
func expand(s string, values map[string]string) string {
	return placeholder().ReplaceAllStringFunc(s, func(m string) string { return values[placeholderName(m)] })
}

// removeEmptyPlaceholderLines drops the lines that hold only placeholders
// with nothing to put there, then folds the blank lines this leaves into
// one. Only the template's own text is folded: values are put in later.
func removeEmptyPlaceholderLines(s string, values map[string]string) string {
	var kept []string
	for _, line := range strings.Split(s, "\n") {
		if strings.TrimSpace(line) != "" && strings.TrimSpace(expand(line, values)) == "" &&
			strings.TrimSpace(placeholder().ReplaceAllString(line, "")) == "" {
			if len(kept) > 0 && strings.TrimSpace(kept[len(kept)-1]) == "" {
				continue // the blank line before it already separates
			}
			kept = append(kept, "")
			continue
		}
		if strings.TrimSpace(line) == "" && len(kept) > 0 && strings.TrimSpace(kept[len(kept)-1]) == "" {
			continue
		}
		kept = append(kept, line)
	}
	return strings.Join(kept, "\n")
}

// expandFrontmatter fills the frontmatter's placeholders with YAML values
// and leaves out fields whose value is empty.
func (d Draft) expandFrontmatter(text string) string {
	var out strings.Builder
	for _, line := range strings.SplitAfter(text, "\n") {
		if line == "" {
			continue
		}
		if m := fieldLine().FindStringSubmatch(strings.TrimRight(line, "\n")); m != nil && d.yamlValue(m[1]) == "" {
			if _, known := d.bodyValues()[m[1]]; known {
				continue
			}
		}
		out.WriteString(placeholder().ReplaceAllStringFunc(line, func(m string) string { return d.yamlValue(placeholderName(m)) }))
	}
	s := out.String()
	if s != "" && !strings.HasSuffix(s, "\n") {
		s += "\n"
	}
	return s
}

// yamlValue is a placeholder's value written as YAML: "" when empty.
func (d Draft) yamlValue(name string) string {
	switch name {
	case "type":
		return d.Type
	case "recorded":
		return string(d.Recorded)
	case "answers":
		var qs []string
		for _, q := range d.Answers {
			if q = oneLine(q); q != "" {
				qs = append(qs, yamlScalar(q))
			}
		}
		if len(qs) == 0 {
			return ""
		}
		return "[" + strings.Join(qs, ", ") + "]"
	case "links":
		var ks []string
		for _, l := range d.Links {
			ks = append(ks, yamlScalar(l.Key))
		}
		if len(ks) == 0 {
			return ""
		}
		return "[" + strings.Join(ks, ", ") + "]"
	}
	v := d.bodyValues()[name]
	if v == "" {
		return ""
	}
	return yamlScalar(v)
}

// yamlScalar writes s as a YAML string on one line, quoted only where
// YAML would otherwise read it as something else.
func yamlScalar(s string) string {
	n := yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: s}
	if strings.ContainsAny(s, "\n\r") {
		n.Style = yaml.DoubleQuotedStyle
	}
	b, err := yaml.Marshal(&n)
	if err != nil || strings.Count(strings.TrimRight(string(b), "\n"), "\n") > 0 {
		n.Style = yaml.DoubleQuotedStyle
		b, _ = yaml.Marshal(&n)
	}
	return strings.TrimRight(string(b), "\n")
}

// complete adds to a rendered note the frontmatter fields and title its
// template left out, and refuses a template that contradicts the draft.
func (d Draft) complete(note []byte) ([]byte, error) {
	p := vault.Parse(note)
	for _, pr := range p.Problems {
		return nil, fmt.Errorf("the note the template makes is not valid: line %d: %s", pr.Line, pr.Message)
	}
	var add []string
	if p.Type == "" {
		add = append(add, "type: "+d.Type)
	} else if p.Type != d.Type {
		return nil, fmt.Errorf("the template sets type %q, not %q", p.Type, d.Type)
	}
	if p.Recorded == "" {
		add = append(add, "recorded: "+string(d.Recorded))
	} else if p.Recorded != d.Recorded {
		return nil, fmt.Errorf("the template sets recorded to %s; leave it to {{recorded}}", p.Recorded)
	}
	if p.Source == "" && oneLine(d.Source) != "" {
		add = append(add, "source: "+yamlScalar(oneLine(d.Source)))
	}
	if p.Title == "" && oneLine(d.Title) != "" {
		add = append(add, "title: "+yamlScalar(oneLine(d.Title)))
	}
	if len(add) == 0 {
		return note, nil
	}
	fields := strings.Join(add, "\n") + "\n"
	if p.FrontmatterLines == 0 {
		return []byte("---\n" + fields + "---\n" + string(note)), nil
	}
	first := strings.IndexByte(string(note), '\n') + 1
	return []byte(string(note[:first]) + fields + string(note[first:])), nil
}
