package index

import (
	"github.com/omh-notes/omh/vault"
	"github.com/omh-notes/omh/vault/corpus"
)

// Foreign lists a note's links to notes of other stores, in the order
// they first appear: those written qualified by a store's name
// ([[handbook:topic/x]]) that no note of this snapshot holds. Which store
// the name means is the stores answering together's to say.
func (s *Snapshot) Foreign(doc uint32) ([]corpus.Foreign, error) {
	decoded, err := s.storedLinks(doc)
	if err != nil {
		return nil, err
	}
	var qualified []link
	var keys []string
	for _, l := range decoded {
		if _, _, ok := vault.SplitQualified(l.key); ok {
			qualified = append(qualified, l)
			keys = append(keys, l.key)
		}
	}
	if len(qualified) == 0 {
		return nil, nil
	}
	held, err := s.ordsOfKeys(keys)
	if err != nil {
		return nil, err
	}
	var out []corpus.Foreign
	for _, l := range qualified {
		if len(held[l.key]) > 0 {
			continue // a note here has that very key: the link is to it
		}
		store, key, _ := vault.SplitQualified(l.key)
		out = append(out, corpus.Foreign{Store: store, Key: key, Verb: l.verb})
	}
	return out, nil
}

// LinksInKey lists the links from present notes to a key no note of this
// snapshot holds: a note of another store, as this store's notes write it
// (vault.Qualify). The refs carry no keys (KeyRefs adds them), in name
// order; n counts them all, as LinksIn's does.
func (s *Snapshot) LinksInKey(key string, plain, typed bool) (in []corpus.Ref, n int, err error) {
	all, err := s.linksIn(noDoc, key, "")
	for _, r := range all {
		if (r.Verb == "" && plain) || (r.Verb != "" && typed) {
			in = append(in, r)
		}
	}
	return in, len(all), err
}

// noDoc is a document number no snapshot holds.
const noDoc = ^uint32(0)
