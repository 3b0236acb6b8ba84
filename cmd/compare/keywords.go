package main

import (
	"fmt"
	"os"
	"strings"

	"github.com/omh-notes/omh/token"
)

// keywordCheck holds what -keywords found on one data set: whether a
// question written as a sentence ranks its expected note no worse than the
// same question with its function words removed.
type keywordCheck struct {
	Compared int      `json:"compared"` // answerable questions holding a function word
	Worse    []string `json:"worse"`    // ids whose whole sentence ranked the note lower
	Better   []string `json:"better"`
}

// keywords is text without its function words: the words of text whose
// terms are not function words of its language, joined by spaces (a
// hyphenated "T-cell" keeps "cell" and loses the "t" that English lists
// for contractions).
func keywords(text string) string {
	lang := token.QuestionLanguage(token.Terms(text))
	var kept []string
	token.EachToken(text, func(start, end int, term string) {
		if !token.IsFunctionWord(lang, term) {
			kept = append(kept, text[start:end])
		}
	})
	return strings.Join(kept, " ")
}

// checkKeywords asks omh find the keyword form of every answerable question
// that has function words, as deep as the whole sentence was ranked, and
// compares the expected note's rank.
func checkKeywords(o options, t tools, vault string, qs []question, whole []scores, depth int) (keywordCheck, error) {
	c := keywordCheck{Worse: []string{}, Better: []string{}}
	fmt.Fprintf(os.Stderr, "keywords: asking %d questions without their function words …\n", len(qs))
	for i, q := range qs {
		bare := question{ID: q.ID, Question: keywords(q.Question)}
		for _, a := range q.Also {
			bare.Also = append(bare.Also, keywords(a))
		}
		if len(token.Terms(bare.Question)) == len(token.Terms(q.Question)) || bare.Question == "" {
			continue // no function word to take out, or nothing but
		}
		keys, _, err := omhRanked(t.omh, vault, rankDefault, bare, depth)
		if err != nil {
			return c, err
		}
		c.Compared++
		sentence, kw := whole[i].Rank, score(q.ID, q.gain(), keys).Rank
		switch {
		case kw > 0 && (sentence == 0 || sentence > kw):
			c.Worse = append(c.Worse, q.ID)
		case sentence > 0 && (kw == 0 || kw > sentence):
			c.Better = append(c.Better, q.ID)
		}
	}
	return c, nil
}
