package retrieve

import (
	"fmt"
	"sort"
	"strings"

	"github.com/omh-notes/omh/token"
	"github.com/omh-notes/omh/vault"
	"github.com/omh-notes/omh/vault/corpus"
)

// memNote is a note for ranking tests: links name target keys exactly.
type memNote struct {
	key     string
	layer   vault.Layer
	date    vault.Date
	typ     string
	body    string
	answers []string
	links   []string
	// scaffold marks a template's bare scaffolding, as the cache does from
	// the note's parse.
	scaffold bool
}

// memCorpus implements Corpus over a slice, the way the cache does over
// SQLite, so the ranking rules can be tested without a repository.
type memCorpus struct {
	notes    []memNote
	postings map[string][]token.Posting
	info     []corpus.DocInfo
}

func newCorpus(notes ...memNote) *memCorpus {
	c := &memCorpus{notes: notes, postings: map[string][]token.Posting{}, info: make([]corpus.DocInfo, len(notes))}
	for i, n := range notes {
		fields := map[string]token.Field{}
		tf := map[string]uint32{}
		add := func(text string, f token.Field) {
			token.EachToken(text, func(_, _ int, term string) {
				fields[term] |= f
				if f == token.InBody {
					tf[term]++
				}
			})
		}
		folders, name := vault.SplitKey(n.key)
		add(folders, token.InFolder)
		add(name, token.InKey)
		add(n.body, token.InBody)
		for _, a := range n.answers {
			add(a, token.InAnswers)
		}
		terms := make([]string, 0, len(fields))
		for t := range fields {
			terms = append(terms, t)
		}
		sort.Strings(terms)
		for _, t := range terms {
			c.postings[t] = append(c.postings[t], token.Posting{Doc: uint32(i), TF: tf[t], Fields: fields[t]})
		}
		typ := n.typ
		if typ == "" {
			typ = "note"
		}
		words := 0
		token.EachToken(n.body, func(_, _ int, _ string) { words++ })
		c.info[i] = corpus.DocInfo{Present: true, Layer: n.layer, Type: typ, Day: n.date.Number(), Words: words, Scaffold: n.scaffold}
	}
	// Inbound: distinct notes linking to a key, never a note to its own key.
	for i := range notes {
		for _, src := range notes {
			if src.key == notes[i].key {
				continue
			}
			for _, l := range src.links {
				if l == notes[i].key {
					c.info[i].Inbound++
					break
				}
			}
		}
	}
	order := make([]int, len(notes))
	for i := range order {
		order[i] = i
	}
	sort.Slice(order, func(a, b int) bool {
		x, y := notes[order[a]], notes[order[b]]
		if x.key != y.key {
			return x.key < y.key
		}
		return x.layer < y.layer
	})
	for rank, i := range order {
		c.info[i].NameRank = rank
	}
	return c
}

func (c *memCorpus) Count() int { return len(c.notes) }
func (c *memCorpus) Words() int64 {
	var n int64
	for _, i := range c.info {
		n += int64(i.Words)
	}
	return n
}
func (c *memCorpus) Span() int { return len(c.notes) }
func (c *memCorpus) Postings(term string) ([]token.Posting, error) {
	return c.postings[term], nil
}
func (c *memCorpus) Info(doc uint32) corpus.DocInfo { return c.info[doc] }
func (c *memCorpus) DocWords(doc uint32) int        { return c.info[doc].Words }
func (c *memCorpus) Note(doc uint32) (corpus.Note, error) {
	n := c.notes[doc]
	return corpus.Note{
		Key: n.key, Layer: n.layer, Date: n.date, DateSource: vault.FromRecorded,
		Path: fmt.Sprintf("%s/%s.md", n.layer, n.key), Title: n.key, Type: c.info[doc].Type,
	}, nil
}
func (c *memCorpus) Links(doc uint32) ([]uint32, error) {
	var out []uint32
	seen := map[uint32]bool{}
	for _, target := range c.notes[doc].links {
		// Both layers of a key, team first, as the cache orders them.
		for _, layer := range []vault.Layer{vault.Team, vault.Local} {
			for i, n := range c.notes {
				if n.key == target && n.layer == layer && !seen[uint32(i)] {
					seen[uint32(i)] = true
					out = append(out, uint32(i))
				}
			}
		}
	}
	return out, nil
}

// surprise builds a note whose body carries no accidental common words: the
// single-letter filler of an early fixture made every note match every
// question.
func surprise(layer vault.Layer, key string, date vault.Date, links ...string) memNote {
	var b strings.Builder
	fmt.Fprintf(&b, "# %s\n\n## Expected\nsomething predictable\n\n## Observed\nsomething else\n\n## Evidence\nthe recorded output\n", key)
	if len(links) > 0 {
		b.WriteString("\n## Related\n\n")
		for _, l := range links {
			fmt.Fprintf(&b, "- [[%s]]\n", l)
		}
	}
	return memNote{key: key, layer: layer, date: date, body: b.String(), links: links}
}

// asking builds a note that declares the questions it answers.
func asking(key string, date vault.Date, prose string, answers ...string) memNote {
	return memNote{key: key, layer: vault.Local, date: date, answers: answers,
		body: "# " + key + "\n\n## Observed\n" + prose + "\n"}
}
