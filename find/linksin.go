package find

import (
	"sort"

	"github.com/omh-notes/omh/retrieve"
	"github.com/omh-notes/omh/vault"
	"github.com/omh-notes/omh/vault/corpus"
)

// inRank ranks a link in by its verb: verdicts first, then derivations,
// citations and attachments, then plain links, then a verb omh
// does not know.
func inRank(verb string) int {
	if verb == "" {
		return vault.PlainLinkRank
	}
	if v, ok := vault.LookupVerb(verb); ok {
		return v.InRank
	}
	return vault.PlainLinkRank + 1
}

// OrderIn sorts links in for showing: by verb rank, then newest first,
// then by name.
func OrderIn(in []corpus.Ref) []corpus.Ref {
	out := append([]corpus.Ref(nil), in...)
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i], out[j]
		ra, rb := inRank(a.Verb), inRank(b.Verb)
		if ra != rb {
			return ra < rb
		}
		if a.Date != b.Date {
			return a.Date > b.Date
		}
		if a.Key != b.Key {
			return a.Key < b.Key
		}
		return a.Layer < b.Layer
	})
	return out
}

// headIn picks from links in, given in name order, every typed link and
// the newest n plain links, in OrderIn's order, without sorting them all:
// OrderIn's order is name order sorted stably by verb rank and date. cut
// is the index in head where the plain links left out would go, -1 when
// none was.
func headIn(in []corpus.Ref, n int) (head []corpus.Ref, cut int) {
	var newest []int // the newest plain links so far, newest first, ties in name order
	plain := 0
	for i, ref := range in {
		if ref.Verb != "" {
			continue
		}
		plain++
		at := sort.Search(len(newest), func(j int) bool { return in[newest[j]].Date < ref.Date })
		if at < n {
			newest = append(newest[:at], append([]int{i}, newest[at:min(len(newest), n-1)]...)...)
		}
	}
	picked := make([]bool, len(in))
	for _, i := range newest {
		picked[i] = true
	}
	for i, ref := range in {
		if ref.Verb != "" || picked[i] {
			head = append(head, ref)
		}
	}
	sort.SliceStable(head, func(i, j int) bool {
		a, b := head[i], head[j]
		if ra, rb := inRank(a.Verb), inRank(b.Verb); ra != rb {
			return ra < rb
		}
		return a.Date > b.Date
	})
	if plain == len(newest) {
		return head, -1
	}
	for cut < len(head) && inRank(head[cut].Verb) <= vault.PlainLinkRank {
		cut++
	}
	return head, cut
}

// shownIn is what the first card's in: line shows of its links in (see
// hubsLast): head, the card's own (cut as headIn's), unless tables of
// contents among the newest plain links push the line past them, when
// more are read.
func shownIn(head []corpus.Ref, cut int, in []corpus.Ref, snap Snapshot) ([]corpus.Ref, error) {
	for n := refsShown; ; n *= 2 {
		out, ok, err := hubsLast(head, cut, snap)
		if ok || err != nil {
			return out, err
		}
		head, cut = headIn(in, 2*n)
		if err := keyRefs(head, isPlain, snap); err != nil {
			return nil, err
		}
	}
}

// hubsLast moves plain links in from tables of contents (notes linking to
// more than retrieve.HubLinks notes) after the other links in, as far as
// the line shows them: such a note links every note and says nothing
// about this one. vba-docs' api/TOC sorted among the first two of every
// api note's links in. Only the links the line could show are counted.
// in may leave plain links out at index cut (headIn); ok is false when the
// line would have looked that far.
func hubsLast(in []corpus.Ref, cut int, snap Snapshot) (out []corpus.Ref, ok bool, err error) {
	var kept, hubs []corpus.Ref
	for i, ref := range in {
		if len(kept) > maxRefs {
			kept = append(kept, in[i:]...)
			return append(kept, hubs...), true, nil
		}
		if i == cut {
			return nil, false, nil
		}
		if ref.Verb == "" {
			n, err := snap.LinksOut(ref.Doc, retrieve.HubLinks+1)
			if err != nil {
				return nil, false, err
			}
			if n > retrieve.HubLinks {
				hubs = append(hubs, ref)
				continue
			}
		}
		kept = append(kept, ref)
	}
	return append(kept, hubs...), cut != len(in), nil
}

// keyRefs gives the refs that want admits their keys, in one call.
func keyRefs(refs []corpus.Ref, want func(corpus.Ref) bool, snap Snapshot) error {
	var need []corpus.Ref
	var at []int
	for i, r := range refs {
		if want(r) {
			need, at = append(need, r), append(at, i)
		}
	}
	if len(need) == 0 {
		return nil
	}
	if err := snap.KeyRefs(need); err != nil {
		return err
	}
	for j, i := range at {
		refs[i].Key = need[j].Key
	}
	return nil
}

func isTyped(r corpus.Ref) bool { return r.Verb != "" }
func isPlain(r corpus.Ref) bool { return r.Verb == "" }
