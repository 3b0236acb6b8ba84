package main

import (
	"bytes"
	"fmt"
	"math"
	"strings"
	"time"
)

// content writes one note: frontmatter, title, paragraphs, sections,
// sometimes a list or a code block, and zero to six wiki-links. self is
// the note's index, so it does not link to itself.
func (g *generator) content(note *genNote, self int) []byte {
	var b bytes.Buffer
	b.WriteString("---\n")
	fmt.Fprintf(&b, "type: %s\n", g.noteType())
	if g.r.IntN(2) == 0 { // the other half take their date from git
		day := time.Date(2019, 1, 1, 0, 0, 0, 0, time.UTC).AddDate(0, 0, g.r.IntN(5*365))
		fmt.Fprintf(&b, "recorded: %s\n", day.Format("2006-01-02"))
	}
	if g.r.IntN(8) == 0 {
		fmt.Fprintf(&b, "aliases: [%s]\n", g.phrase(2+g.r.IntN(2)))
	}
	if g.r.IntN(3) == 0 {
		fmt.Fprintf(&b, "tags: [%s, %s]\n", g.tags[g.r.IntN(len(g.tags))], g.tags[g.r.IntN(len(g.tags))])
	}
	b.WriteString("---\n\n")
	fmt.Fprintf(&b, "# %s\n\n", capital(strings.ReplaceAll(note.slug, "-", " ")))
	blocks := g.blocks(g.noteSize() - b.Len())
	g.addLinks(blocks, self)
	for i, bl := range blocks {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(bl.text)
	}
	return b.Bytes()
}

// noteSize draws a target size from a log-normal law, kept within
// 0.45–2.5 KB; the last block overshoots the target by some 200 bytes, so
// notes come out at 0.5–3 KB with a median near 1.2 KB.
func (g *generator) noteSize() int {
	size := math.Exp(math.Log(900) + 0.45*g.r.NormFloat64())
	return int(min(2500, max(450, size)))
}

// block is a piece of a note's body; each ends with a newline.
type block struct {
	kind byte // 'p' paragraph, 'h' heading, 'l' list, 'c' code
	text string
}

// blocks fills about budget bytes: an opening paragraph, a "##" section
// straight after it, then paragraphs, further sections, at most one list and
// at most one code block.
func (g *generator) blocks(budget int) []block {
	var out []block
	size := 0
	add := func(kind byte, text string) {
		out = append(out, block{kind, text})
		size += len(text) + 1
	}
	add('p', g.paragraph())
	sections := 1 + g.r.IntN(3)
	list := g.r.IntN(10) < 3
	code := g.r.IntN(100) < 15
	for size < budget {
		x := g.r.IntN(6)
		switch {
		case sections > 0 && (x < 2 || len(out) == 1):
			add('h', "## "+capital(g.phrase(2+g.r.IntN(3)))+"\n")
			add('p', g.paragraph())
			sections--
		case list && x == 2:
			add('l', g.list())
			list = false
		case code && x == 3:
			add('c', g.code())
			code = false
		default:
			add('p', g.paragraph())
		}
	}
	return out
}

// addLinks puts zero to six wiki-links into paragraphs and lists: half by
// full key, most others by the last path segment, a few with a label.
// Targets follow a Zipf law, so some notes are linked to from many others.
func (g *generator) addLinks(blocks []block, self int) {
	var spots []int
	for i, bl := range blocks {
		if bl.kind == 'p' || bl.kind == 'l' {
			spots = append(spots, i)
		}
	}
	for range g.r.IntN(7) {
		t := int(g.pick.Uint64())
		if t == self || t >= len(g.notes) {
			continue
		}
		target := g.notes[t]
		var link string
		switch x := g.r.IntN(10); {
		case x < 5:
			link = "[[" + target.key + "]]"
		case x < 9:
			link = "[[" + target.slug + "]]"
		default:
			link = "[[" + target.key + "|" + g.phrase(2) + "]]"
		}
		i := spots[g.r.IntN(len(spots))]
		if blocks[i].kind == 'l' {
			blocks[i].text += "- see " + link + "\n"
		} else {
			blocks[i].text = strings.TrimSuffix(blocks[i].text, "\n") + " See " + link + ".\n"
		}
	}
}

func (g *generator) phrase(n int) string { return g.words.phrase(n) }

// sentence is 6–18 Zipf-drawn words, capitalised, with a full stop.
func (g *generator) sentence() string {
	s := g.phrase(6 + g.r.IntN(13))
	if g.r.IntN(4) == 0 { // a comma now and then, as prose has
		if i := strings.IndexByte(s[len(s)/2:], ' '); i > 0 {
			cut := len(s)/2 + i
			s = s[:cut] + "," + s[cut:]
		}
	}
	return capital(s) + "."
}

func (g *generator) paragraph() string {
	n := 2 + g.r.IntN(4)
	parts := make([]string, n)
	for i := range parts {
		parts[i] = g.sentence()
	}
	return strings.Join(parts, " ") + "\n"
}

func (g *generator) list() string {
	var b strings.Builder
	for range 2 + g.r.IntN(4) {
		b.WriteString("- " + g.phrase(3+g.r.IntN(6)) + "\n")
	}
	return b.String()
}

func (g *generator) code() string {
	return fmt.Sprintf("```sh\n%s --%s %s\n%s %s\n```\n",
		g.words.next(), g.words.next(), g.words.next(), g.words.next(), g.words.next())
}

func capital(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
