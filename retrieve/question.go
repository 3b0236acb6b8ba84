package retrieve

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/omh-notes/omh/token"
)

// Question is a question and its other phrasings parsed once: the text
// asked, the distinct terms of all of it, and each phrasing's own terms
// with how often it writes them. Ranking, the verdict, explanations and
// passages read it; none tokenizes the question again.
type Question struct {
	// Phrasings are the question, then its other phrasings, as asked, cut
	// where the distinct term past MaxQueryTerms begins.
	Phrasings []string
	// Terms are the distinct terms of every phrasing, in order of first
	// appearance. DF is 0 until Search counts the notes holding each.
	Terms []QueryTerm
	// Uses are, by phrasing, its distinct terms in order of first
	// appearance.
	Uses [][]TermUse
	// Language is the language whose function words the phrasings use
	// most (token.QuestionLanguage), "" for none.
	Language string
	// Cut is set when the phrasings held more than MaxQueryTerms distinct
	// terms and the text from the first one past it was left out.
	Cut bool
}

// TermUse is a term as one phrasing writes it.
type TermUse struct {
	Term  int // index into Question.Terms
	Count int // how many times the phrasing writes it
}

// MaxQueryTerms bounds the distinct terms of a question and its phrasings
// that are looked up: a question of a million distinct words took a minute
// and 900 MB, one lookup each. Real questions, extras included, hold a few
// dozen.
const MaxQueryTerms = 256

// ParseQuestion tokenizes the phrasings once. Past MaxQueryTerms distinct
// terms it cuts the phrasing where the next new term begins and drops the
// phrasings after it, so that every later pass (scoring, coverage,
// passages, the echo of the question in a reply) reads a bounded text: a
// million-word question cut only at the lookups still took 3.6 s and 300 MB
// to hash its words over and over, and its reply echoed 10 MB back. A
// phrasing left without a term by the cut is dropped.
func ParseQuestion(phrasings []string) Question {
	var q Question
	at := make(map[string]int, MaxQueryTerms)
	for n, p := range phrasings {
		var uses []TermUse
		in := map[int]int{} // term → index into uses
		end := -1
		token.EachToken(p, func(start, stop int, term string) {
			if end >= 0 {
				return
			}
			i, known := at[term]
			if !known {
				if len(q.Terms) == MaxQueryTerms {
					end = start
					return
				}
				i = len(q.Terms)
				at[term] = i
				q.Terms = append(q.Terms, QueryTerm{Term: term, Word: p[start:stop]})
			}
			if n == 0 && isName(p, start, stop) {
				q.Terms[i].Name = true
			}
			if k, ok := in[i]; ok {
				uses[k].Count++
				return
			}
			in[i] = len(uses)
			uses = append(uses, TermUse{Term: i, Count: 1})
		})
		if end >= 0 {
			q.Cut = true
			if p = strings.TrimSpace(p[:end]); p != "" {
				q.Phrasings, q.Uses = append(q.Phrasings, p), append(q.Uses, uses)
			}
			break
		}
		q.Phrasings, q.Uses = append(q.Phrasings, p), append(q.Uses, uses)
	}
	all := make([]string, len(q.Terms))
	for i, t := range q.Terms {
		all[i] = t.Term
	}
	q.Language = token.QuestionLanguage(all)
	for i := range q.Terms {
		q.Terms[i].Meaningful = !token.IsFunctionWord(q.Language, q.Terms[i].Term)
	}
	return q
}

// everyPhrasingWrites reports whether every phrasing writes term t.
func (q Question) everyPhrasingWrites(t int) bool {
	for _, uses := range q.Uses {
		if !slices.ContainsFunc(uses, func(u TermUse) bool { return u.Term == t }) {
			return false
		}
	}
	return true
}

// isName reports whether the word at text[start:end] is written as a
// name: a capital letter inside it (WebDAV, iPhone, OCR), or a capital first
// letter past the start of a sentence (Nextcloud in "sync with
// Nextcloud"). A word with a digit is not a name (40mg, 3D, v2): in
// questions such words are units, versions and compounds more often than
// things the notes would name. A capital at a sentence's start says
// nothing.
func isName(text string, start, end int) bool {
	word := text[start:end]
	if strings.ContainsFunc(word, unicode.IsDigit) {
		return false
	}
	for i, r := range word {
		if unicode.IsUpper(r) && i > 0 {
			return true
		}
	}
	first, _ := utf8.DecodeRuneInString(word)
	if !unicode.IsUpper(first) {
		return false
	}
	before := strings.TrimRightFunc(text[:start], func(r rune) bool {
		return unicode.IsSpace(r) || unicode.Is(unicode.Pi, r) || unicode.Is(unicode.Ps, r) || r == '"' || r == '\''
	})
	last, _ := utf8.DecodeLastRuneInString(before)
	return before != "" && !strings.ContainsRune(".?!:;", last)
}

// Counting lists, by term, whether it counts: the meaningful terms, or
// every term of a question made only of function words, which still
// deserves the notes that hold them. Ranking scores these, and cards weigh
// and list them.
func (q Question) Counting() []bool { return q.scoring(false) }

// scoring lists, by term, whether it scores: Counting's terms, or every
// term with every (the baseline ranker knows no function words).
func (q Question) scoring(every bool) []bool {
	out := make([]bool, len(q.Terms))
	some := false
	for i, t := range q.Terms {
		out[i] = t.Meaningful || every
		some = some || out[i]
	}
	if !some {
		for i := range out {
			out[i] = true
		}
	}
	return out
}

// Own lists the terms the question itself writes, by index into Terms,
// in order: its first phrasing's.
func (q Question) Own() []int {
	if len(q.Uses) == 0 {
		return nil
	}
	out := make([]int, len(q.Uses[0]))
	for i, u := range q.Uses[0] {
		out[i] = u.Term
	}
	return out
}
