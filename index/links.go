package index

import (
	"hash/fnv"
	"strings"
)

// link is one resolved link of a document: the key it reaches and, for a
// typed link, its verb.
type link struct {
	verb, key string
}

// encodeLinks stores a document's links one per line as "verb<TAB>key".
func encodeLinks(links []link) string {
	var b strings.Builder
	for i, l := range links {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(l.verb)
		b.WriteByte('\t')
		b.WriteString(l.key)
	}
	return b.String()
}

func decodeLinks(s string) ([]link, error) {
	if s == "" {
		return nil, nil
	}
	lines := strings.Split(s, "\n")
	out := make([]link, 0, len(lines))
	for _, line := range lines {
		verb, key, ok := strings.Cut(line, "\t")
		if !ok {
			return nil, errDamaged
		}
		out = append(out, link{verb, key})
	}
	return out, nil
}

// linkedKeys lists the keys links reach, each once, in order.
func linkedKeys(links []link) []string {
	var out []string
	seen := map[string]bool{}
	for _, l := range links {
		if !seen[l.key] {
			seen[l.key] = true
			out = append(out, l.key)
		}
	}
	return out
}

// nameHash is how the rawlink table holds a name links are resolved by: 8
// bytes rather than the name, which spells out once more every key a store
// links to (a tenth of the cache at 10,000 notes). Two names with one hash
// only make a refresh resolve again links that resolve as before.
func nameHash(name string) int64 {
	h := fnv.New64a()
	h.Write([]byte(name))
	return int64(h.Sum64())
}
