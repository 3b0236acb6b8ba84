package find

import "github.com/omh-notes/omh/retrieve"

// meaningful lists the question's terms that count on cards, choosing
// passages and filling the matched line: those the ranker found meaningful
// in the question's language (that a note lacks "me" or "why" says nothing
// about it), or every term of a question made only of function words,
// which the ranker scores on them too.
func meaningful(terms []retrieve.QueryTerm) map[string]bool {
	out := map[string]bool{}
	for _, t := range terms {
		if t.Meaningful {
			out[t.Term] = true
		}
	}
	if len(out) == 0 {
		for _, t := range terms {
			out[t.Term] = true
		}
	}
	return out
}
