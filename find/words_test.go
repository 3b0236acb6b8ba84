package find

import (
	"reflect"
	"testing"

	"github.com/omh-notes/omh/retrieve"
)

// A question made only of function words ("the of and") is scored on them
// by the ranker, so its matched line counts them too, rather than saying
// nothing was asked. Catches: cards of such a question reading "matched
// 0/0" while the ranking used every word.
func TestAQuestionOfFunctionWordsCountsThemAll(t *testing.T) {
	terms := []retrieve.QueryTerm{{Term: "the", Word: "the"}, {Term: "of", Word: "of"}, {Term: "and", Word: "and"}}
	held, lacked := matchedWords(terms, []string{"of"})
	if !reflect.DeepEqual(held, []string{"of"}) || !reflect.DeepEqual(lacked, []string{"the", "and"}) {
		t.Errorf("held %v lacked %v", held, lacked)
	}
}
