// Package union reads several stores' snapshots as one store, so a question
// asked of a project, its team's handbook and a person's own notes gets one
// ranking, as if one repository held them all: rarity is counted over every
// store's notes together (counts summed, posting lists concatenated), and a
// note's score is the one it would have there. Each store keeps its own
// cache; the union reads them through the same interfaces ranking, the
// proof lifecycle and cards declare (retrieve.Corpus, proof.Snapshot,
// find.Snapshot), numbering each store's notes after the stores before it,
// and merges nothing.
//
// A note of a store other than the first (the one omh runs in) is named
// with its store's name before its key, "handbook:topic/x"
// (vault.Qualify), in every note and link end the union gives, so replies
// and the keys they hand back to omh show and omh links say which store
// each note is of. Links stay within their store, and cross to another
// where written qualified by the name the linking note's own store gives
// it ([[handbook:topic/x]]).
package union

import (
	"cmp"
	"slices"
	"strings"

	"github.com/omh-notes/omh/token"
	"github.com/omh-notes/omh/vault"
	"github.com/omh-notes/omh/vault/corpus"
)

// Part is one store's snapshot as the union reads it: what ranking, the
// proof lifecycle and cards read, what omh show and omh links read, and its
// links to and from other stores.
type Part interface {
	Count() int
	Words() int64
	Span() int
	Postings(term string) ([]token.Posting, error)
	Info(doc uint32) corpus.DocInfo
	DocWords(doc uint32) int
	Note(doc uint32) (corpus.Note, error)
	Links(doc uint32) ([]uint32, error)
	LinksIn(doc uint32, plain, typed bool) ([]corpus.Ref, int, error)
	KeyRefs(refs []corpus.Ref) error
	Content(doc uint32, n corpus.Note) ([]byte, error)
	CardDetail(doc uint32) (corpus.Detail, error)
	Detail(doc uint32) (corpus.Detail, error)
	LinksOut(doc uint32, limit int) (int, error)
	Find(key string, layer vault.Layer) ([]uint32, error)
	// Foreign lists a note's links qualified by another store's name that
	// no note of the part holds, in order.
	Foreign(doc uint32) ([]corpus.Foreign, error)
	// LinksInKey lists the links into a key no note of the part holds (a
	// qualified one), as LinksIn does.
	LinksInKey(key string, plain, typed bool) ([]corpus.Ref, int, error)
}

// Member is one store of a union.
type Member struct {
	// Name is the store's name in replies: "" (or vault.HomeStore) for
	// the store omh runs in, whose keys stay unqualified.
	Name string
	Part Part
	// TeamOnly answers with the store's team layer only (its committed
	// notes): its private notes neither answer nor count for rarity.
	TeamOnly bool
	// Names maps the names this store's own notes qualify links with to
	// the members they mean (an index into the union's members).
	Names map[string]int
}

// Union is several stores' snapshots read as one.
type Union struct {
	members []Member
	base    []uint32 // each member's first number in the union
	span    int
	count   int
	words   int64
	// hidden marks, per TeamOnly member, its notes that do not answer.
	hidden [][]bool
	// namedBy lists, per member, the members whose notes link into it
	// and the name they write it with.
	namedBy [][]naming
	names   map[uint32]name // ByName's reads, kept for the union's life
}

type naming struct {
	from int
	name string
}

// name is what orders notes by name: NameRank's (key, layer, path).
type name struct {
	key   string
	layer vault.Layer
	path  string
}

// New reads the members as one store, in their order: the first is
// normally the store omh runs in.
func New(members []Member) *Union {
	u := &Union{members: members, base: make([]uint32, len(members)), hidden: make([][]bool, len(members)),
		namedBy: make([][]naming, len(members))}
	for i, m := range members {
		u.base[i] = uint32(u.span)
		u.span += m.Part.Span()
		if !m.TeamOnly {
			u.count += m.Part.Count()
			u.words += m.Part.Words()
		} else {
			u.hidden[i] = make([]bool, m.Part.Span())
			for d := range uint32(m.Part.Span()) {
				info := m.Part.Info(d)
				if !info.Present {
					continue
				}
				if info.Layer != vault.Team {
					u.hidden[i][d] = true
					continue
				}
				u.count++
				u.words += int64(info.Words)
			}
		}
		for n, to := range m.Names {
			if to >= 0 && to < len(members) && to != i {
				u.namedBy[to] = append(u.namedBy[to], naming{from: i, name: n})
			}
		}
	}
	for _, by := range u.namedBy {
		slices.SortFunc(by, func(a, b naming) int { return cmp.Or(cmp.Compare(a.from, b.from), strings.Compare(a.name, b.name)) })
	}
	return u
}

// PartError is a failure reading one member's snapshot, so that the store
// which opened it can tell damage to its own cache from another's.
type PartError struct {
	Member int
	Err    error
}

func (e *PartError) Error() string { return e.Err.Error() }
func (e *PartError) Unwrap() error { return e.Err }

// fail ties a member's failure to it; nil stays nil.
func fail(member int, err error) error {
	if err == nil {
		return nil
	}
	return &PartError{Member: member, Err: err}
}

// Locate gives the member a note of the union is of, and its number there.
func (u *Union) Locate(doc uint32) (member int, local uint32) {
	i := len(u.base) - 1
	for i > 0 && doc < u.base[i] {
		i--
	}
	return i, doc - u.base[i]
}

// Doc is the union's number of a member's note.
func (u *Union) Doc(member int, local uint32) uint32 { return u.base[member] + local }

// answers reports whether a member's note answers: always, but for the
// private notes of a TeamOnly member.
func (u *Union) answers(member int, local uint32) bool {
	h := u.hidden[member]
	return h == nil || int(local) >= len(h) || !h[local]
}

func (u *Union) Count() int   { return u.count }
func (u *Union) Words() int64 { return u.words }
func (u *Union) Span() int    { return u.span }

// Postings concatenates the members' lists, each note numbered in the
// union; a TeamOnly member's private notes are left out.
func (u *Union) Postings(term string) ([]token.Posting, error) {
	if len(u.members) == 1 && u.hidden[0] == nil {
		list, err := u.members[0].Part.Postings(term)
		return list, fail(0, err)
	}
	lists := make([][]token.Posting, len(u.members))
	n := 0
	for i, m := range u.members {
		list, err := m.Part.Postings(term)
		if err != nil {
			return nil, fail(i, err)
		}
		lists[i] = list
		n += len(list)
	}
	if n == 0 {
		return nil, nil
	}
	out := make([]token.Posting, 0, n)
	for i, list := range lists {
		for _, p := range list {
			if u.answers(i, p.Doc) {
				p.Doc += u.base[i]
				out = append(out, p)
			}
		}
	}
	return out, nil
}

func (u *Union) Info(doc uint32) corpus.DocInfo {
	i, local := u.Locate(doc)
	info := u.members[i].Part.Info(local)
	if !u.answers(i, local) {
		info.Present = false
	}
	return info
}

func (u *Union) DocWords(doc uint32) int {
	i, local := u.Locate(doc)
	return u.members[i].Part.DocWords(local)
}

// Note is the member's note, its key qualified by the member's name.
func (u *Union) Note(doc uint32) (corpus.Note, error) {
	i, local := u.Locate(doc)
	n, err := u.members[i].Part.Note(local)
	if err != nil {
		return n, fail(i, err)
	}
	n.Store = u.storeName(i)
	n.Key = vault.Qualify(n.Store, n.Key)
	return n, nil
}

// storeName is member i's name in notes and link ends: "" for the store omh
// runs in.
func (u *Union) storeName(i int) string {
	if n := u.members[i].Name; n != vault.HomeStore {
		return n
	}
	return ""
}

// ByName orders two notes by name as NameRank would in one store holding
// both: by key (as the note's own store names it), layer and path, then by
// member. retrieve breaks its last ties by it (retrieve.Parted).
func (u *Union) ByName(a, b uint32) int {
	ia, la := u.Locate(a)
	ib, lb := u.Locate(b)
	if ia == ib {
		return cmp.Compare(u.members[ia].Part.Info(la).NameRank, u.members[ib].Part.Info(lb).NameRank)
	}
	na, errA := u.nameOf(ia, la, a)
	nb, errB := u.nameOf(ib, lb, b)
	if errA != nil || errB != nil {
		return cmp.Compare(ia, ib)
	}
	return cmp.Or(strings.Compare(na.key, nb.key), cmp.Compare(na.layer, nb.layer), strings.Compare(na.path, nb.path), cmp.Compare(ia, ib))
}

func (u *Union) nameOf(member int, local, doc uint32) (name, error) {
	if n, ok := u.names[doc]; ok {
		return n, nil
	}
	note, err := u.members[member].Part.Note(local)
	if err != nil {
		return name{}, err
	}
	if u.names == nil {
		u.names = map[uint32]name{}
	}
	n := name{key: note.Key, layer: note.Layer, path: note.Path}
	u.names[doc] = n
	return n, nil
}

// Links are the notes a note links to within its store, in the order its
// links first appear, then those of other stores its qualified links name,
// in theirs.
func (u *Union) Links(doc uint32) ([]uint32, error) {
	i, local := u.Locate(doc)
	links, err := u.members[i].Part.Links(local)
	if err != nil {
		return nil, fail(i, err)
	}
	out := u.docs(i, links)
	foreign, err := u.foreign(i, local)
	if err != nil {
		return nil, err
	}
	for _, f := range foreign {
		if !slices.Contains(out, f.Doc) {
			out = append(out, f.Doc)
		}
	}
	return out, nil
}

// foreign resolves a member's note's qualified links in the members they
// name (by the names the note's own store gives them), as link ends with
// the union's numbers and qualified keys; a name no member holds, or a key
// its store lacks, reaches nothing, as a dangling link does.
func (u *Union) foreign(member int, local uint32) ([]corpus.Ref, error) {
	if len(u.members) == 1 || len(u.members[member].Names) == 0 {
		return nil, nil
	}
	links, err := u.members[member].Part.Foreign(local)
	if err != nil {
		return nil, fail(member, err)
	}
	var out []corpus.Ref
	for _, l := range links {
		to, ok := u.members[member].Names[l.Store]
		if !ok || to < 0 || to >= len(u.members) {
			continue
		}
		docs, err := u.members[to].Part.Find(l.Key, 0)
		if err != nil {
			return nil, fail(to, err)
		}
		for _, d := range docs {
			if !u.answers(to, d) {
				continue
			}
			info := u.members[to].Part.Info(d)
			out = append(out, corpus.Ref{Doc: u.base[to] + d, Key: vault.Qualify(u.storeName(to), l.Key), Layer: info.Layer,
				Date: vault.DateFromNumber(info.Day), Verb: l.Verb, Store: u.storeName(to)})
		}
	}
	return out, nil
}

// LinksIn lists the links into a note from its own store, in name order,
// then from each other store whose notes link to it qualified.
func (u *Union) LinksIn(doc uint32, plain, typed bool) ([]corpus.Ref, int, error) {
	i, local := u.Locate(doc)
	in, n, err := u.linksIn(i, func(p Part, want bool) ([]corpus.Ref, int, error) {
		return p.LinksIn(local, plain || want, typed || want)
	}, plain, typed)
	if err != nil || len(u.namedBy[i]) == 0 {
		return in, n, err
	}
	note, err := u.members[i].Part.Note(local)
	if err != nil {
		return nil, 0, fail(i, err)
	}
	for _, by := range u.namedBy[i] {
		key := vault.Qualify(by.name, note.Key)
		more, m, err := u.linksIn(by.from, func(p Part, want bool) ([]corpus.Ref, int, error) {
			return p.LinksInKey(key, plain || want, typed || want)
		}, plain, typed)
		if err != nil {
			return nil, 0, err
		}
		in, n = append(in, more...), n+m
	}
	return in, n, nil
}

// linksIn reads links into a note from member i's notes with read,
// numbering them in the union. From a TeamOnly member every link is read,
// so the count leaves out those from notes that do not answer.
func (u *Union) linksIn(i int, read func(p Part, all bool) ([]corpus.Ref, int, error), plain, typed bool) ([]corpus.Ref, int, error) {
	all := u.hidden[i] != nil
	refs, n, err := read(u.members[i].Part, all)
	if err != nil {
		return nil, 0, fail(i, err)
	}
	out := refs[:0]
	kept := 0
	for _, r := range refs {
		if !u.answers(i, r.Doc) {
			continue
		}
		kept++
		if all && !(r.Verb == "" && plain || r.Verb != "" && typed) {
			continue
		}
		r.Doc += u.base[i]
		r.Store = u.storeName(i)
		out = append(out, r)
	}
	if all {
		n = kept
	}
	return out, n, nil
}

// KeyRefs gives each link end its note's key, qualified by its store.
func (u *Union) KeyRefs(refs []corpus.Ref) error {
	if len(u.members) == 1 && u.storeName(0) == "" {
		return fail(0, u.members[0].Part.KeyRefs(refs))
	}
	byMember := make([][]int, len(u.members))
	for j, r := range refs {
		i, _ := u.Locate(r.Doc)
		byMember[i] = append(byMember[i], j)
	}
	for i, idx := range byMember {
		if len(idx) == 0 {
			continue
		}
		local := make([]corpus.Ref, len(idx))
		for k, j := range idx {
			local[k] = refs[j]
			local[k].Doc -= u.base[i]
		}
		if err := u.members[i].Part.KeyRefs(local); err != nil {
			return fail(i, err)
		}
		for k, j := range idx {
			refs[j].Key = vault.Qualify(u.storeName(i), local[k].Key)
			refs[j].Store = u.storeName(i)
		}
	}
	return nil
}

// Content is the note's bytes, read from its own store.
func (u *Union) Content(doc uint32, n corpus.Note) ([]byte, error) {
	i, local := u.Locate(doc)
	b, err := u.members[i].Part.Content(local, n)
	return b, fail(i, err)
}

// CardDetail is the note's detail but its links in, its links out
// numbered in the union (those to other stores after its own store's).
func (u *Union) CardDetail(doc uint32) (corpus.Detail, error) {
	i, local := u.Locate(doc)
	d, err := u.members[i].Part.CardDetail(local)
	if err != nil {
		return d, fail(i, err)
	}
	return d, u.linksOut(i, local, &d)
}

// Detail is the note's detail with its links both ways, as CardDetail's
// and LinksIn's with their keys.
func (u *Union) Detail(doc uint32) (corpus.Detail, error) {
	i, local := u.Locate(doc)
	d, err := u.members[i].Part.Detail(local)
	if err != nil {
		return d, fail(i, err)
	}
	if err := u.linksOut(i, local, &d); err != nil {
		return d, err
	}
	d.In = u.refs(i, d.In)
	if len(u.namedBy[i]) == 0 {
		return d, nil
	}
	note, err := u.members[i].Part.Note(local)
	if err != nil {
		return d, fail(i, err)
	}
	for _, by := range u.namedBy[i] {
		key := vault.Qualify(by.name, note.Key)
		more, _, err := u.linksIn(by.from, func(p Part, _ bool) ([]corpus.Ref, int, error) { return p.LinksInKey(key, true, true) }, true, true)
		if err != nil {
			return d, err
		}
		if err := u.KeyRefs(more); err != nil {
			return d, err
		}
		d.In = append(d.In, more...)
	}
	return d, nil
}

// linksOut numbers a detail's links out in the union and adds those to
// other stores.
func (u *Union) linksOut(i int, local uint32, d *corpus.Detail) error {
	links := u.refs(i, d.Links)
	foreign, err := u.foreign(i, local)
	d.Links = append(links, foreign...)
	return err
}

// refs numbers member i's link ends in the union, in place, each keyed as
// the union names it, leaving out those that do not answer.
func (u *Union) refs(i int, refs []corpus.Ref) []corpus.Ref {
	out := refs[:0]
	for _, r := range refs {
		if u.answers(i, r.Doc) {
			r.Doc += u.base[i]
			r.Store = u.storeName(i)
			r.Key = vault.Qualify(r.Store, r.Key)
			out = append(out, r)
		}
	}
	return out
}

// LinksOut counts the notes a note links to, up to limit, those of other
// stores included.
func (u *Union) LinksOut(doc uint32, limit int) (int, error) {
	i, local := u.Locate(doc)
	n, err := u.members[i].Part.LinksOut(local, limit)
	return n, fail(i, err)
}

// Find lists the notes holding a key (of one layer, when layer is not 0):
// a key qualified by a member's name in that member only, else in every
// member, the first first.
func (u *Union) Find(key string, layer vault.Layer) ([]uint32, error) {
	if store, k, ok := vault.SplitQualified(key); ok {
		for i := range u.members {
			if u.storeName(i) == store {
				return u.find(i, k, layer)
			}
		}
	}
	var out []uint32
	for i := range u.members {
		docs, err := u.find(i, key, layer)
		if err != nil {
			return nil, err
		}
		out = append(out, docs...)
	}
	return out, nil
}

func (u *Union) find(i int, key string, layer vault.Layer) ([]uint32, error) {
	docs, err := u.members[i].Part.Find(key, layer)
	if err != nil {
		return nil, fail(i, err)
	}
	return u.docs(i, docs), nil
}

// docs numbers a member's notes in the union, leaving out those that do
// not answer.
func (u *Union) docs(i int, local []uint32) []uint32 {
	out := make([]uint32, 0, len(local))
	for _, d := range local {
		if u.answers(i, d) {
			out = append(out, u.base[i]+d)
		}
	}
	return out
}
