package store

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/omh-notes/omh/reply"
	"github.com/omh-notes/omh/retrieve"
	"github.com/omh-notes/omh/union"
	"github.com/omh-notes/omh/vault"
	"github.com/omh-notes/omh/vault/gitrepo"
)

// A store answers with the other stores its config lists (stores:, the
// team's: a handbook repository beside the project) and those the user adds
// for themself (git config omh.store.NAME: their own notes). Each keeps its
// own cache, refreshed as any command refreshes one; the answer reads their
// snapshots as one store (union). The team's stores answer with their team
// layer only: what their commits hold, not the uncommitted edits or
// private notes a clone of them has on this machine, so an answer does not
// depend on another repository's work in progress. The user's own answer
// with both layers, as the store omh runs in does, and never in a
// team-only answer (--layer team) unless named with --store.

// member is another store an answer may read.
type member struct {
	vault.StoreRef        // as configured
	dir            string // the folder it names, absolute
	personal       bool   // the user's own (git config)
	store          *Store // open; nil when it could not be opened
	problem, code  string // why it does not answer
}

// Scope is which stores answer a request: Stores names them (the store
// omh runs in as "."), all of them when empty; a team-only request leaves
// the user's own stores out unless it names them.
type Scope struct {
	Stores []string
	Layer  vault.Layer
	// NoWorktree leaves out uncommitted working copies.
	NoWorktree bool
}

// answersHome reports whether the store omh runs in answers.
func (sc Scope) answersHome() bool {
	return len(sc.Stores) == 0 || slices.Contains(sc.Stores, vault.HomeStore)
}

// members lists the stores the config and the user's git config name,
// each opened (once for the Store's life) or with why it cannot answer,
// narrowed to the scope. A name the scope asks for that no setting gives
// is refused.
func (s *Store) members(sc Scope) ([]*member, error) {
	cfg, err := s.config()
	if err != nil {
		return nil, err
	}
	var all []*member
	named := map[string]bool{}
	for _, ref := range cfg.Stores {
		named[ref.Name] = true
		all = append(all, &member{StoreRef: ref, dir: filepath.Join(s.Repo.Root, filepath.FromSlash(ref.Path))})
	}
	for _, p := range s.Repo.PersonalStores() {
		if named[p.Name] {
			s.warn("git config omh.store.%s names a store %s already lists; the config's answers", p.Name, ConfigPath)
			continue
		}
		m := &member{StoreRef: p.StoreRef, dir: p.Path, personal: true, problem: p.Problem}
		if p.Problem != "" {
			m.code = reply.BadConfig
		}
		named[p.Name] = true
		all = append(all, m)
	}
	for _, name := range sc.Stores {
		if name != vault.HomeStore && !named[name] {
			known := []string{vault.HomeStore}
			for _, m := range all {
				known = append(known, m.Name)
			}
			return nil, refuse(reply.UnknownStore, fmt.Errorf("no store is named %s; the stores are %s (%s lists the team's, git config omh.store.NAME adds your own)",
				name, strings.Join(known, ", "), ConfigPath))
		}
	}
	var out []*member
	seen := map[string]string{s.realRoot(): vault.HomeStore}
	for _, m := range all {
		asked := slices.Contains(sc.Stores, m.Name)
		if len(sc.Stores) > 0 && !asked || m.personal && sc.Layer == vault.Team && !asked {
			continue
		}
		if m.problem == "" {
			s.openMember(m, seen)
		}
		out = append(out, m)
	}
	return out, nil
}

// storeNames are the names the settings give other stores, usable or not:
// a link qualified by one is no dangling link here.
func (s *Store) storeNames(cfg vault.Config) []string {
	var out []string
	for _, ref := range cfg.Stores {
		out = append(out, ref.Name)
	}
	for _, p := range s.Repo.PersonalStores() {
		out = append(out, p.Name)
	}
	return out
}

// realRoot is the repository's working tree with its symbolic links
// resolved, which tells two names of one repository apart from two.
func (s *Store) realRoot() string {
	if r, err := filepath.EvalSymlinks(s.Repo.Root); err == nil {
		return r
	}
	return s.Repo.Root
}

// openMember opens a member's repository, keeping it open for the Store's
// later answers, or says why it cannot answer: a folder that is missing,
// is no git repository's working tree (a folder inside one included, so a
// path in a committed config cannot make omh read a part of a repository
// as a store), or is a store already answering.
func (s *Store) openMember(m *member, seen map[string]string) {
	fail := func(code, format string, args ...any) {
		m.problem, m.code, m.store = fmt.Sprintf(format, args...), code, nil
	}
	fi, err := os.Stat(m.dir)
	switch {
	case errors.Is(err, os.ErrNotExist):
		fail(reply.NoSuchFolder, "%s does not exist", m.dir)
		return
	case err != nil:
		fail(reply.NoSuchFolder, "%s cannot be read: %v", m.dir, err)
		return
	case !fi.IsDir():
		fail(reply.NoSuchFolder, "%s is a file, not a folder", m.dir)
		return
	}
	real, err := filepath.EvalSymlinks(m.dir)
	if err != nil {
		fail(reply.NoSuchFolder, "%s cannot be read: %v", m.dir, err)
		return
	}
	if other, ok := seen[real]; ok {
		what := "another name of " + other
		if other == vault.HomeStore {
			what = "this repository itself"
		}
		fail(reply.NotARepository, "%s is %s", m.dir, what)
		return
	}
	if s.others == nil {
		s.others = map[string]*Store{}
	}
	st, ok := s.others[real]
	if !ok {
		st, err = openStore(real, s.memberOptions(m))
		if err != nil {
			if errors.Is(err, gitrepo.ErrNotRepository) || Code(err) == reply.NotARepository {
				fail(reply.NotARepository, "%s is not a git repository", m.dir)
			} else {
				fail(Code(err), "%s cannot be opened: %v", m.dir, err)
			}
			return
		}
		if root, _ := filepath.EvalSymlinks(st.Repo.Root); root != real {
			st.Close()
			fail(reply.NotARepository, "%s is not a git repository of its own: it lies inside %s", m.dir, st.Repo.Root)
			return
		}
		s.others[real] = st
	}
	seen[real] = m.Name
	m.store = st
}

// memberOptions are a member's: its notes for people name it, and only
// the user's own store watches its working tree (the team's are read
// without theirs).
func (s *Store) memberOptions(m *member) Options {
	opt := s.opt
	opt.Watch = s.opt.Watch && m.personal
	if warn := s.opt.Warn; warn != nil {
		opt.Warn = func(msg string) { warn(m.Name + ": " + msg) }
	}
	return opt
}

// source is a member as an answer names it.
func (m *member) source(commit string) retrieve.Source {
	return retrieve.Source{Name: m.Name, Path: m.dir, Commit: commit, Personal: m.personal, Problem: m.problem, Code: m.code}
}

// across is the stores answering one request, read as one: the union of
// their snapshots, with each one's view and store in the union's order.
type across struct {
	home    *view // the store omh runs in, answering or not
	views   []*view
	members []*member // nil for the store omh runs in
	union   *union.Union
	sources []retrieve.Source
}

// readAcross brings every answering store's cache up to date (or opens its
// snapshot at asOf) and runs fn on them as one. A member that cannot be
// read is named in the answer's sources with why, and the answer comes
// from the rest.
func (s *Store) readAcross(asOf string, sc Scope, fn func(*across) error) error {
	members, err := s.members(sc)
	if err != nil {
		return err
	}
	err = s.read(asOf, s.readOptions(sc.NoWorktree), func(v *view) error {
		a := &across{home: v}
		if sc.answersHome() {
			a.add(nil, v)
		}
		return own(s.readMembers(a, members, asOf, sc, fn), 0, sc.answersHome())
	})
	err = unpass(err)
	var pe *union.PartError
	if errors.As(err, &pe) {
		return classify(pe.Err)
	}
	return err
}

// add puts a store's view in the union.
func (a *across) add(m *member, v *view) {
	a.views, a.members = append(a.views, v), append(a.members, m)
}

// readMembers reads the members left, each inside the read of the one
// before, and runs fn when every one is open. A failure while answering
// that is a member's own (its cache found damaged) goes back to that
// member's read, which rebuilds its cache and answers again; any other
// passes through it untouched.
func (s *Store) readMembers(a *across, left []*member, asOf string, sc Scope, fn func(*across) error) error {
	if len(left) == 0 {
		a.union = union.New(a.unionMembers())
		return fn(a)
	}
	m := left[0]
	if m.problem != "" {
		a.sources = append(a.sources, m.source(""))
		return s.readMembers(a, left[1:], asOf, sc, fn)
	}
	views, sources := len(a.views), len(a.sources)
	entered := false
	err := m.store.read(asOf, m.store.readOptions(sc.NoWorktree || !m.personal), func(v *view) error {
		entered = true
		// A retry after a rebuild starts this member again.
		a.views, a.members, a.sources = a.views[:views], a.members[:views], a.sources[:sources]
		a.sources = append(a.sources, m.source(v.snap.Commit()))
		a.add(m, v)
		return own(s.readMembers(a, left[1:], asOf, sc, fn), views, true)
	})
	var pass passThrough
	switch {
	case errors.As(err, &pass):
		return pass.err
	case err != nil && !entered:
		src := m.source("")
		src.Problem, src.Code = memberProblem(m, err, asOf), Code(err)
		a.sources = append(a.sources, src)
		return s.readMembers(a, left[1:], asOf, sc, fn)
	}
	return err
}

// own is an answer's failure as the read of union member i sees it: the
// failure of its own snapshot (answering) as it is, so the read rebuilds a
// damaged cache and answers again, any other carried through untouched.
func own(err error, i int, answering bool) error {
	var pe *union.PartError
	switch {
	case err == nil:
		return nil
	case answering && errors.As(err, &pe) && pe.Member == i:
		return pe.Err
	}
	return passThrough{err}
}

// unpass takes a failure carried through a read back out.
func unpass(err error) error {
	var pass passThrough
	if errors.As(err, &pass) {
		return pass.err
	}
	return err
}

// passThrough carries a failure through a store's read without that read
// taking it for its own: it unwraps neither to a damaged cache nor to an
// *Error.
type passThrough struct{ err error }

func (p passThrough) Error() string { return p.err.Error() }

// memberProblem says why a member could not be read.
func memberProblem(m *member, err error, asOf string) string {
	switch {
	case errors.Is(err, gitrepo.ErrBeforeHistory):
		return fmt.Sprintf("%s did not exist yet on %s", m.dir, asOf)
	case errors.Is(err, gitrepo.ErrPastShallow):
		return fmt.Sprintf("the history of %s at %s is not in its clone: it is shallow", m.dir, asOf)
	}
	return fmt.Sprintf("%s could not be read: %v", m.dir, err)
}

// unionMembers are the views as the union reads them, each with the
// names its own store's notes qualify links with.
func (a *across) unionMembers() []union.Member {
	out := make([]union.Member, len(a.views))
	for i, v := range a.views {
		m := a.members[i]
		out[i] = union.Member{Part: v.snap, Name: vault.HomeStore, Names: a.namesOf(v.store, i)}
		if m != nil {
			out[i].Name, out[i].TeamOnly = m.Name, !m.personal
		}
	}
	return out
}

// namesOf maps the names a store's own settings give other stores to the
// union's members they mean: the store omh runs in by its own config's and
// the user's names; another by its own config's, matched by the folder
// they name.
func (a *across) namesOf(s *Store, self int) map[string]int {
	if len(a.views) == 1 {
		return nil
	}
	byDir := map[string]int{}
	for i, v := range a.views {
		if i != self {
			byDir[v.store.realRoot()] = i
		}
	}
	cfg, err := s.config()
	if err != nil {
		return nil
	}
	names := map[string]int{}
	add := func(name, dir string) {
		if real, err := filepath.EvalSymlinks(dir); err == nil {
			if i, ok := byDir[real]; ok {
				names[name] = i
			}
		}
	}
	for _, ref := range cfg.Stores {
		add(ref.Name, filepath.Join(s.Repo.Root, filepath.FromSlash(ref.Path)))
	}
	for _, p := range s.Repo.PersonalStores() {
		if _, taken := names[p.Name]; !taken && p.Problem == "" {
			add(p.Name, p.Path)
		}
	}
	return names
}

// alone is a store answering by itself, as omh eval asks it: eval
// measures one store.
func (v *view) alone() *across {
	a := &across{home: v}
	a.add(nil, v)
	a.union = union.New(a.unionMembers())
	return a
}

// storeSaid names the store a request's failure in member i's own terms
// came from (a --since commit only the store omh runs in holds), when it
// is another store.
func (a *across) storeSaid(i int, err error) error {
	m := a.members[i]
	if m == nil {
		return err
	}
	var se *Error
	if errors.As(err, &se) {
		return &Error{Kind: se.Kind, Code: se.Code, Err: fmt.Errorf("the store %s: %w", m.Name, se.Err)}
	}
	return fmt.Errorf("the store %s: %w", m.Name, err)
}

// locate gives the view a note of the union is of, and its number there.
func (a *across) locate(doc uint32) (*view, uint32) {
	i, local := a.union.Locate(doc)
	return a.views[i], local
}

// closeMembers closes the stores a Store opened to answer with.
func (s *Store) closeMembers() {
	for _, st := range s.others {
		st.Close()
	}
	s.others = nil
}
