package find

import "github.com/omh-notes/omh/retrieve"

// isFunctionWord reports whether a question term is a word that carries no
// meaning of its own ("how", "do", "I", "the"): such words neither choose
// passages nor count on a card's matched line. The ranking issue decides
// which words these are for ranking too; this list, English only, is what
// cards use until then, so the rule can be pointed at the ranker's in one
// place.
func isFunctionWord(term string) bool {
	return functionWords[term]
}

// functionWords are English closed-class words as the tokenizer writes
// them (lower case, stemmed: "does" is "doe", "was" is "wa").
var functionWords = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range []string{
		"a", "an", "the", "this", "that", "these", "those", "some", "any", "each",
		"i", "me", "my", "mine", "we", "us", "our", "you", "your", "he", "him", "his", "she", "her",
		"it", "its", "they", "them", "their",
		"is", "am", "are", "was", "were", "be", "been", "being", "do", "does", "did", "doing",
		"have", "has", "had", "can", "could", "will", "would", "shall", "should", "may", "might", "must",
		"what", "which", "who", "whom", "whose", "when", "where", "why", "how",
		"of", "in", "on", "at", "to", "from", "by", "for", "with", "about", "into", "as", "than",
		"so", "if", "or", "and", "but", "there", "here",
		// What is left of a contraction: "what's", "don't", "I'll".
		"s", "t", "ll", "re", "ve", "d", "m", "don", "doesn", "didn", "isn", "aren", "wasn", "won", "couldn", "shouldn", "wouldn",
	} {
		m[retrieve.Term(w)] = true
	}
	return m
}()
