package vault

import (
	"bytes"
	"unicode"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"
)

// Most notes' frontmatter is a flat list of fields, each a one-line value
// or a list of one-line values: `title: Range.Find method (Excel)`,
// `tags: [a, b]`, `f1_keywords:` then `- vbaxl10.chm144128`. Parsing that
// with the YAML library took a seventh of a first build's parsing at
// vba-docs. simpleFrontmatter reads exactly that shape into the nodes the
// library would give; anything else, or anything it is not sure of, goes to
// the library.

// simpleFrontmatter reads frontmatter text made only of top-level fields
// whose values are simple one-line scalars, flow lists of plain words, or
// block lists of simple scalars, as the mapping node yaml.Unmarshal gives.
// root is nil for text with no field at all. ok is false when the text is
// of any other shape.
func simpleFrontmatter(text []byte) (root *yaml.Node, ok bool) {
	if !plainText(text) {
		return nil, false
	}
	lines := bytes.Split(text, []byte("\n"))
	var seq *yaml.Node // the block list being read, under the last field
	seqIndent := -1
	for i, line := range lines {
		n := i + 1
		if len(line) == 0 {
			continue
		}
		if indent := bytes.IndexByte(line, '-'); seq != nil && indent >= 0 && isSpaces(line[:indent]) {
			// An item of the block list under the last field.
			if seqIndent >= 0 && indent != seqIndent || !bytes.HasPrefix(line[indent:], []byte("- ")) {
				return nil, false
			}
			item, ok := simpleScalar(line[indent+2:], n, indent+3)
			if !ok {
				return nil, false
			}
			if seqIndent < 0 {
				seqIndent = indent
				seq.Line, seq.Column = n, indent+1
			}
			seq.Content = append(seq.Content, item)
			continue
		}
		if seq != nil && len(seq.Content) == 0 {
			return nil, false // a field left empty: yaml's null, placed where it finds it
		}
		seq, seqIndent = nil, -1
		key, rest, ok := fieldKey(line)
		if !ok {
			return nil, false
		}
		if root == nil {
			root = &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Line: n, Column: 1}
		}
		keyNode := &yaml.Node{Kind: yaml.ScalarNode, Value: string(key), Line: n, Column: 1}
		keyNode.Tag = keyNode.ShortTag()
		var value *yaml.Node
		switch {
		case len(rest) == 0:
			seq = &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq"}
			value = seq
		case rest[0] != ' ':
			return nil, false
		case rest[1] == '[':
			value, ok = flowList(rest[1:], n, len(key)+3)
		default:
			value, ok = simpleScalar(rest[1:], n, len(key)+3)
		}
		if !ok {
			return nil, false
		}
		root.Content = append(root.Content, keyNode, value)
	}
	if seq != nil && len(seq.Content) == 0 {
		return nil, false
	}
	return root, true
}

// plainText reports whether text is valid UTF-8 of characters YAML takes as
// they are: printable, no tab, carriage return, or line break other than
// \n (YAML also breaks lines at U+0085, U+2028 and U+2029), no byte order mark.
func plainText(text []byte) bool {
	for i := 0; i < len(text); {
		c := text[i]
		if c < utf8.RuneSelf {
			if c != '\n' && (c < 0x20 || c == 0x7f) {
				return false
			}
			i++
			continue
		}
		r, size := utf8.DecodeRune(text[i:])
		switch {
		case r == utf8.RuneError, r < 0xa0, r == 0x2028, r == 0x2029, r == 0xfeff,
			0xd800 <= r && r <= 0xdfff, r == 0xfffe, r == 0xffff:
			return false
		}
		i += size
	}
	return true
}

func isSpaces(b []byte) bool {
	for _, c := range b {
		if c != ' ' {
			return false
		}
	}
	return true
}

// fieldKey splits a top-level `key:` line into its key, a word of ASCII
// letters, digits, '_', '.' and '-' starting with a letter or '_' (YAML
// looks no further than 1,024 characters for a key's colon), and the rest
// after the colon.
func fieldKey(line []byte) (key, rest []byte, ok bool) {
	colon := bytes.IndexByte(line, ':')
	if colon < 1 || colon > 128 {
		return nil, nil, false
	}
	for i, c := range line[:colon] {
		letter := 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || c == '_'
		if !letter && (i == 0 || !('0' <= c && c <= '9' || c == '.' || c == '-')) {
			return nil, nil, false
		}
	}
	rest = line[colon+1:]
	if len(rest) == 1 { // "key: " with nothing after
		return nil, nil, false
	}
	return line[:colon], rest, true
}

// simpleScalar reads a one-line value at line n, column col (in characters,
// as YAML counts them): a plain scalar that cannot be taken for anything
// but one, or a quoted one with nothing to unescape.
func simpleScalar(v []byte, n, col int) (*yaml.Node, bool) {
	if len(v) == 0 {
		return nil, false
	}
	node := &yaml.Node{Kind: yaml.ScalarNode, Line: n, Column: col}
	switch q := v[0]; q {
	case '"', '\'':
		if len(v) < 2 || v[len(v)-1] != q {
			return nil, false
		}
		inner := v[1 : len(v)-1]
		if bytes.IndexByte(inner, q) >= 0 || bytes.IndexByte(inner, '\\') >= 0 {
			return nil, false
		}
		node.Tag, node.Value, node.Style = "!!str", string(inner), yaml.DoubleQuotedStyle
		if q == '\'' {
			node.Style = yaml.SingleQuotedStyle
		}
		return node, true
	}
	first, _ := utf8.DecodeRune(v)
	if !unicode.IsLetter(first) && !unicode.IsDigit(first) && first != '/' && first != '(' && first != '.' && first != '$' {
		return nil, false // an indicator, a space, or what might be one
	}
	last := v[len(v)-1]
	if last == ' ' || last == ':' || bytes.Contains(v, []byte(": ")) || bytes.Contains(v, []byte(" #")) {
		return nil, false
	}
	node.Value = string(v)
	node.Tag = node.ShortTag()
	return node, true
}

// flowList reads a `[a, b]` list of plain words at line n, column col.
func flowList(v []byte, n, col int) (*yaml.Node, bool) {
	if len(v) < 3 || v[len(v)-1] != ']' {
		return nil, false
	}
	list := &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq", Style: yaml.FlowStyle, Line: n, Column: col}
	at := col + 1
	for _, item := range bytes.Split(v[1:len(v)-1], []byte(", ")) {
		if len(item) == 0 {
			return nil, false
		}
		first, _ := utf8.DecodeRune(item)
		if !unicode.IsLetter(first) && !unicode.IsDigit(first) {
			return nil, false
		}
		for _, r := range string(item) {
			if !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '_' && r != '-' && r != '.' && r != '/' {
				return nil, false
			}
		}
		node := &yaml.Node{Kind: yaml.ScalarNode, Value: string(item), Line: n, Column: at}
		node.Tag = node.ShortTag()
		list.Content = append(list.Content, node)
		at += utf8.RuneCount(item) + 2
	}
	return list, true
}
