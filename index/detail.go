package index

import (
	"database/sql"
	"fmt"
	"sort"
	"strings"

	"github.com/omh-notes/omh/vault"
	"github.com/omh-notes/omh/vault/corpus"
)

// Content returns a note's bytes as indexed, up to the indexing limit: the
// blob the snapshot names, never a file changed since (safefile.ErrChangedSince).
func (s *Snapshot) Content(doc uint32, n corpus.Note) ([]byte, error) {
	return s.repo.ReadIndexed(n.Layer, n.Path, n.Blob, maxNoteBytes)
}

// Detail returns where a note's body starts and its links both ways, each
// end with its own layer and date, links in in name order (the linking
// note's key, layer and path, then the verb).
func (s *Snapshot) Detail(doc uint32) (corpus.Detail, error) {
	d, key, err := s.body(doc)
	if err != nil {
		return d, err
	}
	if none, err := s.unreached(doc, key); none || err != nil {
		return d, err
	}
	rows, err := s.tx.Query(`SELECT b.src, d.key, b.verb FROM backlink b JOIN doc d ON d.snap = b.snap AND d.ord = b.src
		WHERE b.snap = ? AND b.target = ? ORDER BY d.key, d.layer, d.path, b.verb`, s.row.id, key)
	if err != nil {
		return d, fmt.Errorf("reading links to %s: %w", key, err)
	}
	defer rows.Close()
	for rows.Next() {
		var src uint32
		var ref corpus.Ref
		if err := rows.Scan(&src, &ref.Key, &ref.Verb); err != nil {
			return d, err
		}
		info := s.Info(src)
		if src == doc || !info.Present {
			continue
		}
		ref.Doc, ref.Layer, ref.Date = src, info.Layer, vault.DateFromNumber(info.Day)
		d.In = append(d.In, ref)
	}
	return d, rows.Err()
}

// CardDetail is Detail as a card reads it, without the links in: LinksIn
// reads those as far as the card shows them.
func (s *Snapshot) CardDetail(doc uint32) (corpus.Detail, error) {
	d, _, err := s.body(doc)
	return d, err
}

// LinksIn lists the links into a note from present notes other than
// itself, as Detail does but without the linking notes' keys (KeyRefs adds
// them to the few a card shows), in the same name order, which the packed
// info gives (NameRank): the plain links if plain, the typed ones if
// typed. n counts every link in either way. vba-docs'
// includes/feedback-boilerplate has 38,176 links in, and reading each,
// joined to its note's row to sort by key, was 80% of building cards: a
// linked note's card only counts them.
func (s *Snapshot) LinksIn(doc uint32, plain, typed bool) (in []corpus.Ref, n int, err error) {
	key, err := s.key(doc)
	if err != nil {
		return nil, 0, err
	}
	if none, err := s.unreached(doc, key); none || err != nil {
		return nil, 0, err
	}
	absent := s.absentDocs()
	if plain || len(absent) > keysBatch {
		all, err := s.linksIn(doc, key, "")
		for _, r := range all {
			if (r.Verb == "" && plain) || (r.Verb != "" && typed) {
				in = append(in, r)
			}
		}
		return in, len(all), err
	}
	c, err := s.countLinksIn(doc, key, absent)
	if err != nil {
		return nil, 0, fmt.Errorf("counting links to %s: %w", key, err)
	}
	if c.rows == 0 {
		return nil, 0, nil
	}
	if typed {
		in, err = s.linksIn(doc, key, " AND verb != ''")
	}
	return in, c.notes, err
}

// hubLinksIn is how many notes linking to a key make it a hub, whose
// links in are counted by three seeks rather than one pass that tests each
// row: vba-docs' includes/feedback-boilerplate has 38,176, and the pass
// took 7-12 ms of every reply whose cards name it (a bare count 3).
const hubLinksIn = 512

// countLinksIn counts the backlink rows of doc's key, and of them those
// from notes present (not absent, not past the span) other than doc, inside
// SQLite. How many notes link to the key as the info has it chooses the
// way; a hub's counts are kept with the snapshot's row, for the answers
// after.
func (s *Snapshot) countLinksIn(doc uint32, key string, absent []uint32) (hubCount, error) {
	left := append([]uint32{doc}, absent...)
	in := `src IN (?` + strings.Repeat(", ?", len(left)-1) + `)`
	var n, gone, past int
	if getInfo(s.info, doc).inboundAll < hubLinksIn {
		err := s.tx.QueryRow(`SELECT count(*), coalesce(sum(`+in+`), 0), coalesce(sum(src >= ?), 0)
			FROM backlink WHERE snap = ? AND target = ?`,
			append(anys(left), s.Span(), s.row.id, key)...).Scan(&n, &gone, &past)
		return hubCount{rows: n, notes: n - gone - past}, err
	}
	k := hubKey{doc: doc, noWorktree: s.noWorktree}
	if c, ok := s.row.derived.hub(k); ok {
		return c, nil
	}
	for _, c := range []struct {
		where string
		args  []any
		n     *int
	}{
		{"", nil, &n},
		{" AND " + in, anys(left), &gone},
		{" AND src >= ?", []any{s.Span()}, &past},
	} {
		if err := s.tx.QueryRow(`SELECT count(*) FROM backlink WHERE snap = ? AND target = ?`+c.where,
			append([]any{s.row.id, key}, c.args...)...).Scan(c.n); err != nil {
			return hubCount{}, err
		}
	}
	c := hubCount{rows: n, notes: n - gone - past}
	s.row.derived.keepHub(k, c)
	return c, nil
}

// absentDocs lists the numbers below Span that no present note holds,
// read from the packed info once per snapshot row (a server's answers
// share the row while it is kept: see derived).
func (s *Snapshot) absentDocs() []uint32 {
	return s.row.derived.absentDocs(s.noWorktree, func() []uint32 {
		absent := []uint32{}
		for d := range uint32(s.Span()) {
			if !getInfo(s.info, d).shown(s.noWorktree) { // as Info's Present, without its copy
				absent = append(absent, d)
			}
		}
		return absent
	})
}

func anys(ords []uint32) []any {
	out := make([]any, len(ords))
	for i, o := range ords {
		out[i] = o
	}
	return out
}

// body reads what Detail and CardDetail share: the body's start, units and
// headings, and the links out, each linked key's notes looked up in
// batches (a table of contents links to thousands).
func (s *Snapshot) body(doc uint32) (corpus.Detail, string, error) {
	var d corpus.Detail
	var meta []byte
	var key, links string
	err := s.tx.QueryRow(`SELECT d.key, d.links, b.meta FROM doc d JOIN blob b ON b.id = d.blob WHERE d.snap = ? AND d.ord = ?`,
		s.row.id, doc).Scan(&key, &links, &meta)
	if err != nil {
		return d, "", fmt.Errorf("reading note #%d: %w", doc, err)
	}
	s.keepKey(doc, key)
	m, err := decodeMeta(meta)
	if err != nil {
		return d, "", err
	}
	d.BodyStart, d.Units, d.Headings = m.BodyStart, m.Units, m.Headings
	out, err := decodeLinks(links)
	if err != nil {
		return d, "", err
	}
	held, err := s.ordsOfKeys(linkedKeys(out))
	if err != nil {
		return d, "", err
	}
	for _, l := range out {
		if o, ok := s.reached(held[l.key]); ok {
			info := s.Info(o)
			d.Links = append(d.Links, corpus.Ref{Doc: o, Key: l.key, Layer: info.Layer, Date: s.date(info.Day), Verb: l.verb})
		}
	}
	return d, key, nil
}

// reached is the note a link to a key reaches, of the present documents
// holding it (ords): the working copy of a committed note when there is one
// (the note as it stands; the committed version is the same note), else
// the team note, else a local one. A link is one link: listed once, and
// a private note under a team note's key never takes the team note's links.
func (s *Snapshot) reached(ords []uint32) (uint32, bool) {
	best, rank := uint32(0), 0
	for _, o := range ords {
		info := s.Info(o)
		if !info.Present {
			continue
		}
		r := 1
		switch {
		case getInfo(s.info, o).worktree:
			r = 3
		case info.Layer == vault.Team:
			r = 2
		}
		if r > rank {
			best, rank = o, r
		}
	}
	return best, rank > 0
}

// unreached reports whether doc, holding key, is a private note that links
// to key do not reach: a team note (or an uncommitted file) holds the key
// too. Such a note has no links in, so it never takes another note's
// standing (superseded by a record that names the team note).
func (s *Snapshot) unreached(doc uint32, key string) (bool, error) {
	if d := getInfo(s.info, doc); vault.Layer(d.layer) != vault.Local || d.worktree {
		return false, nil
	}
	held, err := s.ordsOfKeys([]string{key})
	if err != nil {
		return false, err
	}
	o, ok := s.reached(held[key])
	return ok && o != doc, nil
}

// linksIn lists the links to key of present notes other than doc, keyless,
// in name order: read from the backlink table's primary key alone. where
// narrows the rows.
func (s *Snapshot) linksIn(doc uint32, key, where string) ([]corpus.Ref, error) {
	rows, err := s.tx.Query(`SELECT src, verb FROM backlink WHERE snap = ? AND target = ?`+where, s.row.id, key)
	if err != nil {
		return nil, fmt.Errorf("reading links to %s: %w", key, err)
	}
	defer rows.Close()
	var in []corpus.Ref
	var names []int // each link's NameRank, to sort by
	for rows.Next() {
		var src uint32
		var verb sql.RawBytes
		if err := rows.Scan(&src, &verb); err != nil {
			return nil, fmt.Errorf("reading links to %s: %w", key, err)
		}
		info := s.Info(src)
		if src == doc || !info.Present {
			continue
		}
		in = append(in, corpus.Ref{Doc: src, Layer: info.Layer, Date: s.date(info.Day), Verb: verbOf(verb)})
		names = append(names, info.NameRank)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("reading links to %s: %w", key, err)
	}
	sort.Sort(byName{in, names})
	return in, nil
}

// date is vault.DateFromNumber, formatted once per day a snapshot holds:
// a hub's thousands of links in share a few.
func (s *Snapshot) date(day int) vault.Date {
	d, ok := s.dates[day]
	if !ok {
		if s.dates == nil {
			s.dates = map[int]vault.Date{}
		}
		d = vault.DateFromNumber(day)
		s.dates[day] = d
	}
	return d
}

// verbOf copies a verb out of the driver's buffer; a plain link, by far
// the most common, allocates nothing.
func verbOf(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	return string(b)
}

// byName sorts links in by their notes' NameRank, then verb.
type byName struct {
	refs  []corpus.Ref
	names []int
}

func (b byName) Len() int { return len(b.refs) }
func (b byName) Less(i, j int) bool {
	if b.names[i] != b.names[j] {
		return b.names[i] < b.names[j]
	}
	return b.refs[i].Verb < b.refs[j].Verb
}
func (b byName) Swap(i, j int) {
	b.refs[i], b.refs[j] = b.refs[j], b.refs[i]
	b.names[i], b.names[j] = b.names[j], b.names[i]
}

// KeyRefs gives each link end its note's key, keysBatch notes a query.
func (s *Snapshot) KeyRefs(refs []corpus.Ref) error {
	keys := map[uint32]string{}
	for start := 0; start < len(refs); start += keysBatch {
		batch := refs[start:min(len(refs), start+keysBatch)]
		n := slots(len(batch))
		args := make([]any, 1+n)
		args[0] = s.row.id
		for i := range n {
			args[1+i] = batch[min(i, len(batch)-1)].Doc // the last repeated: one statement for every batch
		}
		query := `SELECT ord, key FROM doc WHERE snap = ? AND ord IN (?` + strings.Repeat(", ?", n-1) + `)`
		if err := s.readKeys(query, args, keys); err != nil {
			return err
		}
	}
	for i := range refs {
		refs[i].Key = keys[refs[i].Doc]
	}
	return nil
}

func (s *Snapshot) readKeys(query string, args []any, out map[uint32]string) error {
	rows, err := s.tx.Query(query, args...)
	if err != nil {
		return fmt.Errorf("reading the keys of linking notes: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var o uint32
		var key string
		if err := rows.Scan(&o, &key); err != nil {
			return fmt.Errorf("reading the keys of linking notes: %w", err)
		}
		out[o] = key
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("reading the keys of linking notes: %w", err)
	}
	return nil
}

// LinksOut counts the notes a note links to, up to limit: enough to tell
// a table of contents. It reads the note's own row, as Links does: the
// backlink table has no index by source any more, and counting there
// scanned it for every link in of every card (35% of an answer at 10,000
// notes).
func (s *Snapshot) LinksOut(doc uint32, limit int) (int, error) {
	var links string
	if err := s.tx.QueryRow(`SELECT links FROM doc WHERE snap = ? AND ord = ?`, s.row.id, doc).Scan(&links); err != nil {
		return 0, fmt.Errorf("counting the links of note #%d: %w", doc, err)
	}
	decoded, err := decodeLinks(links)
	if err != nil {
		return 0, err
	}
	return min(len(linkedKeys(decoded)), limit), nil
}
