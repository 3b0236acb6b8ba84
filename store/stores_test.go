package store_test

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/omh-notes/omh/reply"
	"github.com/omh-notes/omh/retrieve"
	"github.com/omh-notes/omh/store"
	"github.com/omh-notes/omh/vault"
	"github.com/omh-notes/omh/vault/vaulttest"
)

// storeWords are the words the split vault's notes are written in: few
// enough that questions meet many notes, so rarity, length and ties all
// decide something.
var storeWords = strings.Fields(`cache index refresh commit branch merge token credential mount sandbox volume
	build deploy release rollback schema query latency budget retry timeout socket proxy certificate rotate
	secret vault policy audit review onboarding handbook runbook incident outage alert pager metric trace
	log span sample quota limit shard replica backup restore snapshot migrate upgrade patch kernel driver`)

// splitVault writes the same notes into one repository (whole) and into
// three (a/ in home, b/ in bee, c/ in sea), committed on the same days.
// Links stay within a folder; two notes in different folders have the
// same text and date, so their order falls to their names. Each member
// store also has notes that must not count: a private note and an
// uncommitted edit (the team's stores answer with their team layer).
func splitVault(t *testing.T) (whole, home string, questions []string) {
	t.Helper()
	rng := rand.New(rand.NewPCG(36, 1))
	parent := t.TempDir()
	repos := map[string]*vaulttest.Repo{}
	wholeRepo := vaulttest.New(t)
	for _, name := range []string{"home", "bee", "sea"} {
		r := vaulttest.New(t)
		dir := filepath.Join(parent, name)
		if err := os.Rename(r.Dir, dir); err != nil {
			t.Fatal(err)
		}
		r.Dir = dir
		repos[name] = r
	}
	folderRepo := map[string]string{"a": "home", "b": "bee", "c": "sea"}
	words := func(n int) string {
		out := make([]string, n)
		for i := range out {
			out[i] = storeWords[rng.IntN(len(storeWords))]
		}
		return strings.Join(out, " ")
	}
	for _, folder := range []string{"a", "b", "c"} {
		for i := range 25 {
			key := fmt.Sprintf("%s/n%02d", folder, i)
			var b strings.Builder
			if i%3 == 0 {
				fmt.Fprintf(&b, "---\ndate: 2026-0%d-1%d\n---\n", 1+rng.IntN(8), rng.IntN(9))
			}
			fmt.Fprintf(&b, "# %s\n\n%s.\n", words(1+rng.IntN(3)), words(3+rng.IntN(120)))
			if i%4 == 1 {
				fmt.Fprintf(&b, "\n## %s\n\n%s.\n", words(2), words(10+rng.IntN(30)))
			}
			if i%5 == 2 {
				fmt.Fprintf(&b, "\nSee [[%s/n%02d]] and [[%s/n%02d]].\n", folder, rng.IntN(25), folder, rng.IntN(25))
			}
			wholeRepo.Write(key+".md", b.String())
			repos[folderRepo[folder]].Write(key+".md", b.String())
		}
		twin := "# duplicate twin\n\nretry timeout socket proxy twin.\n"
		wholeRepo.Write(folder+"/twin.md", twin)
		repos[folderRepo[folder]].Write(folder+"/twin.md", twin)
	}
	wholeRepo.Write(vault.ConfigPath, plainConfig)
	repos["bee"].Write(vault.ConfigPath, plainConfig)
	repos["sea"].Write(vault.ConfigPath, plainConfig)
	wholeRepo.Commit("2026-02-01T10:00:00Z", "notes")
	for _, r := range repos {
		r.Commit("2026-02-01T10:00:00Z", "notes")
	}
	// What the team's stores hold beyond their commits counts nowhere.
	vaulttest.WriteFile(t, filepath.Join(repos["bee"].Private, "mine.md"), "# cache cache cache\n\ncache index refresh token.\n")
	repos["sea"].Write("c/n01.md", "# rewritten\n\ncache index refresh token kernel driver.\n")
	repos["home"].Write(".omh/config.yaml", "stores:\n  - name: bee\n    path: ../bee\n  - name: sea\n    path: ../sea\n")
	repos["home"].Commit("2026-02-01T10:00:00Z", "the stores")
	for range 30 {
		questions = append(questions, words(1+rng.IntN(4)))
	}
	questions = append(questions, "duplicate twin", "retry timeout", "kernel driver cache")
	return wholeRepo.Dir, repos["home"].Dir, questions
}

// A question asked of three stores answers as one repository holding all
// their notes does: every ranked and linked note, its score, coverage,
// layer and date, in the same order, the counts and the verdict; keys
// differ only by the store's name before them. Catches: rarity counted per
// store (each store's df and n), a length norm from one store's average,
// ties broken by each store's own name order, a member's private notes or
// uncommitted edits counted, postings numbered into the wrong store.
func TestFederatedFindRanksAsOneRepositoryHoldingEveryStore(t *testing.T) {
	t.Parallel()
	whole, home, questions := splitVault(t)
	one, _ := openStore(t, whole)
	three, _ := openStore(t, home)
	for _, ranker := range []retrieve.Ranker{retrieve.TunedRanker, retrieve.BaselineRanker} {
		for _, text := range questions {
			q := withRoots(question(text), 20)
			q.Ranker, q.Cards = ranker, false
			want, err := one.Ask(q)
			if err != nil {
				t.Fatal(err)
			}
			got, err := three.Ask(q)
			if err != nil {
				t.Fatal(err)
			}
			w, g := want.JSON(), got.JSON()
			if len(g.Stores) != 2 || g.Stores[0].Name != "bee" || g.Stores[1].Name != "sea" || g.Stores[0].Commit == nil || g.Stores[1].Commit == nil {
				t.Fatalf("%q: stores %+v, want bee and sea with their commits", text, g.Stores)
			}
			hits := g.Answer.Hits
			for i := range hits {
				store, key := splitStore(hits[i].Key)
				if store != hits[i].Store || store != wantStore(key) {
					t.Errorf("%q: hit %s names the store %s, want %s", text, hits[i].Key, hits[i].Store, wantStore(key))
				}
				hits[i].Key, hits[i].Store = key, "."
				_, hits[i].Parent = splitStore(hits[i].Parent)
			}
			if d := diffAnswers(w.Answer, g.Answer); d != "" {
				t.Errorf("%s %q: the three stores answer otherwise than the one repository: %s", ranker, text, d)
			}
		}
	}
}

// splitStore takes a qualified key apart; "." for a key of the store omh
// runs in.
func splitStore(key string) (string, string) {
	if store, k, ok := vault.SplitQualified(key); ok {
		return store, k
	}
	return ".", key
}

// wantStore is the store of the split vault a key's folder went to.
func wantStore(key string) string {
	return map[string]string{"a": ".", "b": "bee", "c": "sea"}[key[:1]]
}

// diffAnswers says how two answers differ in what ranking decides, hit by
// hit; "" when they agree.
func diffAnswers(want, got reply.Answer) string {
	if want.Omitted != got.Omitted || want.Verdict != got.Verdict || !slices.Equal(want.Uncovered, got.Uncovered) || want.StoreEmpty != got.StoreEmpty {
		return fmt.Sprintf("omitted %d/%d, verdict %s/%s, uncovered %v/%v", want.Omitted, got.Omitted, want.Verdict, got.Verdict, want.Uncovered, got.Uncovered)
	}
	if len(want.Hits) != len(got.Hits) {
		return fmt.Sprintf("%d hits, want %d: %v / %v", len(got.Hits), len(want.Hits), hitKeys(got.Hits), hitKeys(want.Hits))
	}
	for i, w := range want.Hits {
		wj, _ := json.Marshal(w)
		gj, _ := json.Marshal(got.Hits[i])
		if string(wj) != string(gj) {
			return fmt.Sprintf("hit %d is %s, want %s", i, gj, wj)
		}
	}
	return ""
}

func hitKeys(hits []reply.Hit) []string {
	var out []string
	for _, h := range hits {
		out = append(out, h.Key)
	}
	return out
}

// storesConfig writes home's config listing stores by name and path.
func storesConfig(t *testing.T, r *vaulttest.Repo, stores ...[2]string) {
	t.Helper()
	var b strings.Builder
	b.WriteString("stores:\n")
	for _, s := range stores {
		fmt.Fprintf(&b, "  - name: %s\n    path: %s\n", s[0], s[1])
	}
	r.Write(".omh/config.yaml", b.String())
}

// sibling is a repository in parent named name, with one note.
func sibling(t *testing.T, parent, name, note string) *vaulttest.Repo {
	t.Helper()
	r := vaulttest.New(t)
	dir := filepath.Join(parent, name)
	if err := os.Rename(r.Dir, dir); err != nil {
		t.Fatal(err)
	}
	r.Dir = dir
	r.Write(name+"/note.md", note)
	r.Write(vault.ConfigPath, plainConfig)
	r.Commit("2026-02-01T10:00:00Z", "a note")
	return r
}

// plainConfig is a config that reads the notes from the repository root,
// whatever detection would make of a vault whose notes share one folder.
const plainConfig = "worktree: true\n"

// A store the config lists that is missing, a plain folder, a folder
// inside another repository, or this repository itself is named in the
// reply, in the tree, the cards and JSON, with why; the answer comes from
// the stores that could answer, and never from a folder that is not a
// repository of its own. Catches: an answer silently from fewer stores, a
// whole answer failing for one store, a committed path making omh read a
// part of a repository (or the project twice).
func TestAStoreThatIsMissingOrNoRepositoryIsNamedAndTheRestAnswer(t *testing.T) {
	t.Parallel()
	parent := t.TempDir()
	home := sibling(t, parent, "home", "# Home\n\nthe sandbox mount fails\n")
	sibling(t, parent, "good", "# Good\n\nthe sandbox mount works with a volume\n")
	plain := filepath.Join(parent, "plain")
	vaulttest.WriteFile(t, filepath.Join(plain, "plain/note.md"), "# Plain\n\nsandbox mount in a plain folder\n")
	inner := sibling(t, parent, "outer", "# Outer\n\nsandbox mount outer\n")
	vaulttest.WriteFile(t, filepath.Join(inner.Dir, "inner/note.md"), "# Inner\n\nsandbox mount inner\n")
	storesConfig(t, home, [2]string{"gone", "../gone"}, [2]string{"good", "../good"}, [2]string{"plain", "../plain"},
		[2]string{"inner", "../outer/inner"}, [2]string{"self", "."})
	home.Commit("2026-02-01T10:00:00Z", "stores")

	s, _ := openStore(t, home.Dir)
	ans, err := s.Ask(question("sandbox mount"))
	if err != nil {
		t.Fatal(err)
	}
	j := ans.JSON()
	want := map[string]string{"gone": reply.NoSuchFolder, "good": "", "plain": reply.NotARepository, "inner": reply.NotARepository, "self": reply.NotARepository}
	var names []string
	for _, src := range j.Stores {
		names = append(names, src.Name)
		code, ok := want[src.Name]
		switch {
		case !ok:
			t.Errorf("the reply names a store %s no config lists", src.Name)
		case src.Code != code || (code == "") != (src.Problem == "") || (code == "") != (src.Commit != nil):
			t.Errorf("store %s: code %q, problem %q, commit %v; want code %q", src.Name, src.Code, src.Problem, src.Commit, code)
		}
	}
	if !slices.Equal(names, []string{"gone", "good", "plain", "inner", "self"}) {
		t.Errorf("the reply names the stores %v, want every one the config lists, in its order", names)
	}
	var keys []string
	for _, h := range j.Hits {
		keys = append(keys, h.Key)
	}
	slices.Sort(keys)
	if !slices.Equal(keys, []string{"good:good/note", "home/note"}) {
		t.Errorf("answered from %v, want the home store and good only", keys)
	}
	tree, err := retrieve.ParseTree(ans.Tree())
	if err != nil {
		t.Fatalf("the tree does not read back: %v\n%s", err, ans.Tree())
	}
	var problems []string
	for _, src := range tree.Stores {
		if src.Problem != "" {
			problems = append(problems, src.Name)
		}
	}
	if !slices.Equal(problems, []string{"gone", "plain", "inner", "self"}) {
		t.Errorf("the tree names the stores that did not answer as %v:\n%s", problems, ans.Tree())
	}
	cards := ans.Cards()
	for _, name := range []string{"gone", "plain", "inner", "self"} {
		if !strings.Contains(cards, "\n! "+name+": ") {
			t.Errorf("the cards do not name %s:\n%s", name, cards)
		}
	}
}

// A store that disappears or moves while a Store (a server) holds it open
// is named on the next answer, which comes from the rest; when it comes
// back, it answers again. Catches: a kept-open member answering from its
// old snapshot, or failing every answer after.
func TestAStoreThatMovesWhileOpenIsNamedOnTheNextAnswer(t *testing.T) {
	t.Parallel()
	parent := t.TempDir()
	home := sibling(t, parent, "home", "# Home\n\nrotate the certificate\n")
	sibling(t, parent, "hand", "# Hand\n\nrotate the certificate yearly\n")
	storesConfig(t, home, [2]string{"hand", "../hand"})
	home.Commit("2026-02-01T10:00:00Z", "stores")
	s, _ := openStore(t, home.Dir)
	hits := func() ([]string, []reply.Source) {
		t.Helper()
		ans, err := s.Ask(question("rotate certificate"))
		if err != nil {
			t.Fatal(err)
		}
		var keys []string
		for _, h := range ans.JSON().Hits {
			keys = append(keys, h.Key)
		}
		slices.Sort(keys)
		return keys, ans.JSON().Stores
	}
	if keys, _ := hits(); !slices.Equal(keys, []string{"hand:hand/note", "home/note"}) {
		t.Fatalf("before the move: %v", keys)
	}
	if err := os.Rename(filepath.Join(parent, "hand"), filepath.Join(parent, "moved")); err != nil {
		t.Fatal(err)
	}
	keys, stores := hits()
	if !slices.Equal(keys, []string{"home/note"}) || len(stores) != 1 || stores[0].Code != reply.NoSuchFolder {
		t.Errorf("after the move: %v, stores %+v; want the home note and hand named missing", keys, stores)
	}
	if err := os.Rename(filepath.Join(parent, "moved"), filepath.Join(parent, "hand")); err != nil {
		t.Fatal(err)
	}
	if keys, stores := hits(); !slices.Equal(keys, []string{"hand:hand/note", "home/note"}) || stores[0].Problem != "" {
		t.Errorf("back again: %v, stores %+v", keys, stores)
	}
}

// A link qualified by a store's name reaches that store's note: one hop
// under the ranked note, in show's and links' lists both ways, and the
// note it reaches lists it among its links in. Catches: qualified links
// left dangling, links in from another store missing, keys not qualified
// in link ends (an answer from another store alone included).
func TestQualifiedLinksCrossStores(t *testing.T) {
	t.Parallel()
	parent := t.TempDir()
	home := sibling(t, parent, "home", "# Home\n\nhow the pager alert works: see [[hand:hand/pager]]\n")
	hand := sibling(t, parent, "hand", "# Hand\n\nunrelated\n")
	hand.Write("hand/pager.md", "# Pager\n\nescalation policy\n")
	hand.Write("hand/index.md", "# Index\n\n[[hand/pager]]\n")
	hand.Commit("2026-02-01T10:00:00Z", "pager")
	storesConfig(t, home, [2]string{"hand", "../hand"})
	home.Commit("2026-02-01T10:00:00Z", "stores")
	s, _ := openStore(t, home.Dir)
	ans, err := s.Ask(question("alert works"))
	if err != nil {
		t.Fatal(err)
	}
	j := ans.JSON()
	if len(j.Hits) < 2 || j.Hits[0].Key != "home/note" || j.Hits[1].Key != "hand:hand/pager" || j.Hits[1].Depth != 1 || j.Hits[1].Store != "hand" {
		t.Fatalf("hits %+v, want home/note with hand:hand/pager one hop under it", hitKeys(j.Answer.Hits))
	}
	linked, err := s.Links("hand:hand/pager", store.Scope{}, store.BothWays, store.Page{})
	if err != nil {
		t.Fatal(err)
	}
	var in []string
	for _, r := range *linked.Notes[0].In {
		in = append(in, r.Key)
	}
	if n := linked.Notes; len(n) != 1 || n[0].Store != "hand" || !slices.Equal(in, []string{"hand:hand/index", "home/note"}) {
		t.Errorf("links of hand:hand/pager: %+v, in %v", n, in)
	}
	// Asked of hand alone, a card's link ends are still qualified.
	q := question("escalation")
	q.Stores = []string{"hand"}
	alone, err := s.Ask(q)
	if err != nil {
		t.Fatal(err)
	}
	if h := alone.JSON().Hits; len(h) == 0 || h[0].Key != "hand:hand/pager" || len(h[0].In) != 1 || h[0].In[0].Key != "hand:hand/index" || h[0].In[0].Store != "hand" {
		t.Errorf("--store hand: %+v", h)
	}
	out, err := s.Links("home/note", store.Scope{}, store.LinksOut, store.Page{})
	if err != nil {
		t.Fatal(err)
	}
	if l := *out.Notes[0].Links; len(l) != 1 || l[0].Key != "hand:hand/pager" || l[0].Store != "hand" {
		t.Errorf("links out of home/note: %+v", l)
	}
	shown, err := s.Show("hand:hand/pager", store.Scope{}, store.Lines{}, store.DefaultShowChars)
	if err != nil {
		t.Fatal(err)
	}
	if n := shown.Notes; len(n) != 1 || n[0].Store != "hand" || !strings.Contains(n[0].Content, "escalation policy") || n[0].Path != "hand/pager.md" {
		t.Errorf("show hand:hand/pager: %+v", n)
	}
	if _, err := s.Show("hand:hand/none", store.Scope{}, store.Lines{}, store.DefaultShowChars); store.Code(err) != reply.NotFound ||
		!strings.Contains(err.Error(), "hand:hand/none") {
		t.Errorf("an unknown qualified key: %v", err)
	}
}

// A person's own store (git config omh.store.NAME) answers with both its
// layers, and never in a team-only answer, not even by name in the
// reply's stores, unless --store names it. Catches: private notes leaking
// into an answer meant for a pull request.
func TestAPersonalStoreStaysOutOfTeamOnlyAnswers(t *testing.T) {
	t.Parallel()
	parent := t.TempDir()
	home := sibling(t, parent, "home", "# Home\n\nthe kernel driver patch\n")
	mine := sibling(t, parent, "mine", "# Mine\n\nmy kernel driver notes\n")
	mine.Write("mine/draft.md", "# Draft\n\nkernel driver draft, uncommitted\n")
	home.Git("config", "omh.store.mine", mine.Dir)
	s, _ := openStore(t, home.Dir)
	keysOf := func(layer vault.Layer, stores ...string) ([]string, []string) {
		t.Helper()
		q := question("kernel driver")
		q.Layer, q.Stores = layer, stores
		ans, err := s.Ask(q)
		if err != nil {
			t.Fatal(err)
		}
		var keys, names []string
		for _, h := range ans.JSON().Hits {
			keys = append(keys, h.Key)
		}
		for _, src := range ans.JSON().Stores {
			names = append(names, src.Name)
		}
		slices.Sort(keys)
		return keys, names
	}
	if keys, names := keysOf(0); !slices.Equal(keys, []string{"home/note", "mine:mine/draft", "mine:mine/note"}) || !slices.Equal(names, []string{"mine"}) {
		t.Errorf("both layers: %v from %v", keys, names)
	}
	if keys, names := keysOf(vault.Team); !slices.Equal(keys, []string{"home/note"}) || len(names) != 0 {
		t.Errorf("team only: %v from %v, want the home note alone and no store named", keys, names)
	}
	if keys, _ := keysOf(vault.Team, "mine"); !slices.Equal(keys, []string{"mine:mine/note"}) {
		t.Errorf("team only, --store mine: %v", keys)
	}
}

// --store narrows an answer to the stores it names ("." this one), and a
// name no setting gives is refused, naming the stores there are.
// Catches: a misspelt store answering from every store, silently.
func TestStoreFlagNarrowsAndRefusesUnknownNames(t *testing.T) {
	t.Parallel()
	parent := t.TempDir()
	home := sibling(t, parent, "home", "# Home\n\naudit log review\n")
	sibling(t, parent, "hand", "# Hand\n\naudit log policy\n")
	storesConfig(t, home, [2]string{"hand", "../hand"})
	home.Commit("2026-02-01T10:00:00Z", "stores")
	s, _ := openStore(t, home.Dir)
	for _, c := range []struct {
		stores []string
		want   []string
	}{
		{nil, []string{"hand:hand/note", "home/note"}},
		{[]string{"."}, []string{"home/note"}},
		{[]string{"hand"}, []string{"hand:hand/note"}},
		{[]string{"hand", "."}, []string{"hand:hand/note", "home/note"}},
	} {
		q := question("audit log")
		q.Stores = c.stores
		ans, err := s.Ask(q)
		if err != nil {
			t.Fatal(err)
		}
		var keys []string
		for _, h := range ans.JSON().Hits {
			keys = append(keys, h.Key)
		}
		slices.Sort(keys)
		if !slices.Equal(keys, c.want) {
			t.Errorf("--store %v: %v, want %v", c.stores, keys, c.want)
		}
	}
	q := question("audit log")
	q.Stores = []string{"hnad"}
	if _, err := s.Ask(q); store.Code(err) != reply.UnknownStore || !strings.Contains(err.Error(), "hand") {
		t.Errorf("--store hnad: %v, want unknown_store naming hand", err)
	}
}

// Filters and omh changes read every store answering: a tag or a folder
// admits the notes of each store that match it, --since a commit of this
// repository reads the other stores from the day it was made, and omh
// changes lists each store's commits, keys qualified, merged newest first.
// Catches: a filter read against this repository's notes only (another
// store's notes all filtered out), --since COMMIT refused by a store that
// does not hold it, changes of other stores missing.
func TestFiltersAndChangesReadEveryStore(t *testing.T) {
	t.Parallel()
	parent := t.TempDir()
	home := sibling(t, parent, "home", "---\ntags: [ops]\n---\n# Home\n\nthe backup runbook\n")
	hand := sibling(t, parent, "hand", "---\ntags: [ops]\n---\n# Hand\n\nthe backup policy\n")
	hand.Write("hand/old.md", "# Old\n\nthe backup of old, untagged\n")
	hand.Commit("2026-02-01T11:00:00Z", "old")
	storesConfig(t, home, [2]string{"hand", "../hand"})
	mark := home.Commit("2026-03-01T10:00:00Z", "stores")
	hand.Write("hand/new.md", "# New\n\nthe backup since March\n")
	hand.Commit("2026-03-02T10:00:00Z", "new")
	home.Write("home/later.md", "# Later\n\nthe backup later\n")
	home.Commit("2026-03-03T10:00:00Z", "later")
	s, _ := openStore(t, home.Dir)
	keys := func(f store.Filter) []string {
		t.Helper()
		q := question("backup")
		q.Filter = f
		ans, err := s.Ask(q)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, h := range ans.JSON().Hits {
			if h.Depth == 0 {
				out = append(out, h.Key)
			}
		}
		slices.Sort(out)
		return out
	}
	if got := keys(store.Filter{Tags: []string{"ops"}}); !slices.Equal(got, []string{"hand:hand/note", "home/note"}) {
		t.Errorf("--tag ops: %v", got)
	}
	if got := keys(store.Filter{Path: "hand"}); !slices.Equal(got, []string{"hand:hand/new", "hand:hand/note", "hand:hand/old"}) {
		t.Errorf("--path hand: %v", got)
	}
	if got := keys(store.Filter{Since: mark}); !slices.Equal(got, []string{"hand:hand/new", "home/later"}) {
		t.Errorf("--since %s (a commit of home only): %v", mark, got)
	}
	changes, err := s.Changes(mark, store.Scope{}, store.Page{})
	if err != nil {
		t.Fatal(err)
	}
	var listed []string
	for _, c := range changes.List {
		listed = append(listed, c.Key+" "+string(c.Kind)+" "+c.Store)
	}
	if want := []string{"home/later added ", "hand:hand/new added hand"}; !slices.Equal(listed, want) || len(changes.Stores) != 1 || changes.Stores[0].Commit == nil {
		t.Errorf("changes since %s: %v, stores %+v; want %v", mark, listed, changes.Stores, want)
	}
}

// promote never stages a note of a person's own store: asked for one by
// its qualified key, a committed note or one of the store's private
// notes, it refuses naming the store, and neither repository nor the
// private folder changes. Catches: promote copying another store's note
// into this repository's team layer, or refusing with no word of why.
func TestPromoteNeverStagesAPersonalStoresNote(t *testing.T) {
	t.Parallel()
	parent := t.TempDir()
	home := sibling(t, parent, "home", "# Home\n\nthe kernel driver patch\n")
	mine := sibling(t, parent, "mine", "# Mine\n\nmy kernel driver notes\n")
	vaulttest.WriteFile(t, filepath.Join(mine.Private, "secret.md"), "# Secret\n\nkernel driver secret\n")
	home.Git("config", "omh.store.mine", mine.Dir)
	statusOf := func() string { return home.Git("status", "--porcelain", "--untracked-files=all") }
	before, mineBefore, privateBefore := statusOf(), vaulttest.Tree(t, filepath.Join(mine.Dir, "mine")), vaulttest.Tree(t, mine.Private)
	s, _ := openStore(t, home.Dir)
	for _, key := range []string{"mine:mine/note", "mine:secret"} {
		_, err := s.Promote([]string{key})
		if store.Code(err) != reply.NotFound || !strings.Contains(err.Error(), "a note of the store mine") {
			t.Errorf("promote %s: %v, want not_found naming the store mine", key, err)
		}
	}
	if after := statusOf(); after != before {
		t.Errorf("home's status changed:\n%s\nwas\n%s", after, before)
	}
	vaulttest.SameTree(t, "mine's notes", mineBefore, vaulttest.Tree(t, filepath.Join(mine.Dir, "mine")))
	vaulttest.SameTree(t, "mine's private folder", privateBefore, vaulttest.Tree(t, mine.Private))
}
