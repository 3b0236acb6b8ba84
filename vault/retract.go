package vault

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
)

// SetRetracted returns content with `retracted: DAY` and
// `retracted_reason: "REASON"` in its frontmatter and every other byte as it
// was. Entries already there, with their continuation lines, are replaced
// where they stand; missing ones are added just before the closing
// delimiter, in the file's own line ending. A note without frontmatter gets
// a block of its own. The result is parsed back, and an edit that would not
// read as intended is refused rather than written.
func SetRetracted(content []byte, day Date, reason string) ([]byte, error) {
	if !day.Valid() {
		return nil, fmt.Errorf("%q is not a date", day)
	}
	start := 0
	if bytes.HasPrefix(content, byteOrderMark) {
		start = len(byteOrderMark)
	}
	before := Parse(content)
	if p, bad := structuralProblem(before); bad {
		return nil, fmt.Errorf("the frontmatter cannot be edited safely: %s", p.Message)
	}
	quoted, err := yamlString(reason)
	if err != nil {
		return nil, err
	}
	entries := [][]byte{[]byte("retracted: " + string(day)), []byte("retracted_reason: " + quoted)}
	var out []byte
	fm, found, _ := splitFrontmatter(content, start)
	if !found {
		eol := lineEnding(content)
		out = append(out, content[:start]...)
		out = append(out, "---"+eol...)
		for _, e := range entries {
			out = append(append(out, e...), eol...)
		}
		out = append(out, "---"+eol...)
		out = append(out, content[start:]...)
	} else {
		out = editEntries(content, fm, start, entries)
	}
	after := Parse(out)
	_, bad := structuralProblem(after)
	if bad || after.Retracted != day || after.RetractedReason != reason || !reflect.DeepEqual(otherFields(before), otherFields(after)) {
		return nil, errors.New("the edited frontmatter would not read back as written; edit it by hand")
	}
	return out, nil
}

// structuralProblem finds a problem that makes a frontmatter block unsafe
// to edit as text: it is unclosed, not YAML, or not a map.
func structuralProblem(p Parsed) (Problem, bool) {
	for _, pr := range p.Problems {
		switch pr.Rule {
		case "frontmatter-unclosed", "frontmatter-yaml", "frontmatter-not-map":
			return pr, true
		}
	}
	return Problem{}, false
}

// otherFields is what a note says besides its retraction, to check an
// edit changed nothing else.
func otherFields(p Parsed) Parsed {
	return Parsed{Title: p.Title, TitleFromH1: p.TitleFromH1, Type: p.Type, Source: p.Source, Description: p.Description,
		DeclaredKey: p.DeclaredKey, Recorded: p.Recorded, Dated: p.Dated, DatedField: p.DatedField,
		Aliases: p.Aliases, Tags: p.Tags, PageTags: p.PageTags, Answers: p.Answers}
}

// editEntries replaces or adds top-level entries in the frontmatter block
// fm of content. Each entry's key is the text before its first ':'.
func editEntries(content []byte, fm frontmatter, start int, entries [][]byte) []byte {
	_, yamlStart, _ := lineAt(content, start)
	yamlEnd := yamlStart + len(fm.yaml)
	eol := lineEnding(content[start:])
	var out []byte
	out = append(out, content[:yamlStart]...)
	written := make([]bool, len(entries))
	for i := yamlStart; i < yamlEnd; {
		line, next, _ := lineAt(content, i)
		which := -1
		for j, e := range entries {
			key := e[:bytes.IndexByte(e, ':')]
			if isEntryOf(line, key) {
				which = j
			}
		}
		if which < 0 {
			out = append(out, content[i:next]...)
			i = next
			continue
		}
		// The entry's value may run on over indented or blank lines (a
		// block scalar); they go with it.
		for next < yamlEnd {
			l, n, _ := lineAt(content, next)
			if len(bytes.TrimSpace(l)) > 0 && l[0] != ' ' && l[0] != '\t' {
				break
			}
			next = n
		}
		if !written[which] {
			out = append(append(out, entries[which]...), lineEndingOf(content[i:next], eol)...)
			written[which] = true
		}
		i = next
	}
	for j, e := range entries {
		if !written[j] {
			out = append(append(out, e...), eol...)
		}
	}
	return append(out, content[yamlEnd:]...)
}

// isEntryOf reports whether a frontmatter line starts the top-level entry key.
func isEntryOf(line, key []byte) bool {
	rest, ok := bytes.CutPrefix(line, key)
	if !ok {
		return false
	}
	rest = bytes.TrimLeft(rest, " \t")
	return len(rest) > 0 && rest[0] == ':'
}

// lineEnding is the ending of content's first line: "\r\n" or "\n".
func lineEnding(content []byte) string {
	if i := bytes.IndexByte(content, '\n'); i > 0 && content[i-1] == '\r' {
		return "\r\n"
	}
	return "\n"
}

// lineEndingOf keeps the ending a replaced run of lines had.
func lineEndingOf(lines []byte, fallback string) string {
	switch {
	case bytes.HasSuffix(lines, []byte("\r\n")):
		return "\r\n"
	case bytes.HasSuffix(lines, []byte("\n")):
		return "\n"
	}
	return fallback
}

// yamlString writes s as a YAML double-quoted scalar. JSON's escapes are
// a subset of YAML's, so a JSON string is one.
func yamlString(s string) (string, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(s); err != nil {
		return "", err
	}
	return string(bytes.TrimSuffix(b.Bytes(), []byte("\n"))), nil
}
