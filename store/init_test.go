package store

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/omh-notes/omh/eval"
	"github.com/omh-notes/omh/vault"
	"github.com/omh-notes/omh/vault/vaulttest"
)

// An Obsidian vault kept in en/, as obsidian-help is: omh init writes the
// notes root and the dialect it detected and says why; a --dialect asked
// for wins over detection; run again it keeps the config, and a --dialect
// that disagrees with it is refused.
func TestInitWritesTheNotesRootAndDialectItDetects(t *testing.T) {
	t.Parallel()
	r := vaulttest.New(t)
	r.Write("en/Home.md", "# Home\n\n![[Sync/Security]] and [[Security|s]]\n")
	r.Write("en/Sync/Security.md", "# Security\n")
	r.Commit("2026-01-02T10:00:00Z", "vault")
	s, _ := open(t, r.Dir)
	rep, err := s.Init("", "", true)
	if err != nil {
		t.Fatal(err)
	}
	if rep.NotesRoot.Path != "en" || rep.Dialect.Name != vault.DialectObsidian || len(rep.Detected) != 2 || !rep.Changed {
		t.Errorf("%+v", rep)
	}
	cfg, err := vault.LoadConfig(r.Dir)
	if err != nil || cfg.Notes != "en" || cfg.Dialect.String() != vault.DialectObsidian || len(cfg.Warnings) > 0 {
		t.Errorf("%+v %v", cfg, err)
	}
	if links, err := s.Links("Home", 0, LinksOut, Page{}); err != nil || len(*links.Notes[0].Links) != 1 || (*links.Notes[0].Links)[0].Key != "Sync/Security" {
		t.Errorf("links of Home under the detected config: %+v %v", links, err)
	}
	again, err := s.Init("", "", true)
	if err != nil || again.Changed || again.Config.Change != "kept" || len(again.Detected) != 0 {
		t.Errorf("%+v %v", again, err)
	}
	if _, err := s.Init("", vault.DialectDendron, true); code(err) != "config_differs" {
		t.Errorf("a --dialect that disagrees: %v", err)
	}

	r2 := vaulttest.New(t)
	r2.Write("en/Home.md", "![[x]]\n")
	s2, _ := open(t, r2.Dir)
	if rep, err := s2.Init("", vault.DialectZk, true); err != nil || rep.Dialect.Name != vault.DialectZk || rep.NotesRoot.Path != "en" {
		t.Errorf("--dialect zk: %+v %v", rep, err)
	}
	if _, err := s2.Init("", "roam", true); err == nil {
		t.Error("an unknown dialect was accepted")
	}
}

// Any command in a vault without a config that omh finds was written for
// another tool reads it by what it detected and says so once, naming omh
// init; nothing is written into the working tree. omh's own notes get no
// note (the defaults are what it would detect). Either way the look is
// remembered in the cache folder. Catches: omh find writing
// .omh/config.yaml into a vault it was only asked to read.
func TestTheFirstCommandReadsAnotherToolsVaultAsDetectedWithoutWritingInIt(t *testing.T) {
	t.Parallel()
	dendron := "---\nid: a\ntitle: A\nupdated: 1\ncreated: 1\n---\n"
	r := vaulttest.New(t)
	r.Write("vault/careers.md", dendron+"# Careers\n")
	r.Write("vault/careers.mission.md", dendron+"# Mission\n\n[[Careers|dendron://site/careers]]\n")
	r.Commit("2026-01-02T10:00:00Z", "vault")
	before := vaulttest.Files(t, r.Dir)
	s, warnings := open(t, r.Dir)
	if _, err := s.Lint(nil, false); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Lint(nil, false); err != nil {
		t.Fatal(err)
	}
	vaulttest.SameTree(t, "a command in another tool's vault", before, vaulttest.Files(t, r.Dir))
	cfg, err := s.Repo.LoadConfig()
	if err != nil || cfg.Notes != "vault" || cfg.Dialect.String() != vault.DialectDendron || cfg.Dialect.Vaults["site"] != "." {
		t.Errorf("%+v %v", cfg, err)
	}
	if len(*warnings) != 1 || !strings.Contains((*warnings)[0], vault.ConfigPath) || !strings.Contains((*warnings)[0], "omh init") {
		t.Errorf("warnings %q", *warnings)
	}
	if links, err := s.Links("careers.mission", 0, LinksOut, Page{}); err != nil || len(*links.Notes[0].Links) != 1 {
		t.Errorf("%+v %v", links, err)
	}
	// A later command reads what was detected without looking again or
	// saying it again.
	again, later := open(t, r.Dir)
	if links, err := again.Links("careers.mission", 0, LinksOut, Page{}); err != nil || len(*links.Notes[0].Links) != 1 {
		t.Errorf("a later command: %+v %v", links, err)
	}
	if len(*later) != 0 {
		t.Errorf("a later command warned %q", *later)
	}

	own := vaulttest.New(t)
	own.Write("topic/a.md", "---\ntype: topic\n---\n# A\n\n![[b]]\n")
	own.Write("topic/b.md", "---\nrecorded: 2026-01-01\n---\n# B\n")
	own.Commit("2026-01-02T10:00:00Z", "notes")
	before = vaulttest.Files(t, own.Dir)
	s2, warnings2 := open(t, own.Dir)
	if _, err := s2.Lint(nil, false); err != nil {
		t.Fatal(err)
	}
	vaulttest.SameTree(t, "a command in a store of omh's notes", before, vaulttest.Files(t, own.Dir))
	if len(*warnings2) != 0 {
		t.Errorf("warnings %q", *warnings2)
	}
	c, err := s2.openCache()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(c.Dir, detectedConfig)); err != nil {
		t.Errorf("the look was not remembered: %v", err)
	}
}

// The record of detected settings an earlier omh kept (the settings alone,
// without the header that now guards them) was called damaged on the first
// run of a newer omh. It is looked at again without a word.
func TestAnEarlierOmhsRecordOfDetectedSettingsIsNotCalledDamaged(t *testing.T) {
	t.Parallel()
	r := vaulttest.New(t)
	r.Write(".obsidian/app.json", "{}\n")
	r.Write("vault/sync.md", "# Sync\n\nThe sync fails on mount.\n")
	r.Commit("2026-01-02T10:00:00Z", "vault")
	s, _ := open(t, r.Dir)
	if _, err := s.Status(); err != nil {
		t.Fatal(err)
	}
	s.Close()
	vaulttest.WriteFile(t, filepath.Join(r.Dir, ".git", "omh", detectedConfig), "dialect: obsidian\n")
	again, warnings := open(t, r.Dir)
	if _, err := again.Links("vault/sync", 0, LinksOut, Page{}); err != nil {
		t.Fatal(err)
	}
	for _, w := range *warnings {
		if strings.Contains(w, "damaged") {
			t.Errorf("an earlier omh's record called damaged: %q", w)
		}
	}
}

// Every byte of every file in the cache folder flipped: a command reads the
// vault as it did before (detecting its settings again and rebuilding the
// cache), and no message blames a config the user never wrote. With the
// folder's record of its repository intact, status, which rebuilds
// nothing, names the damaged cache and what rebuilds it, and a command
// names the damaged settings it looks at again; with the record damaged
// too, the folder cannot be said to be this repository's and is emptied,
// saying so. Catches: every command failing with "bad_config:
// .omh/config.yaml: the top level must be a mapping" because the settings
// detected and kept in the cache folder were read, damaged, as the user's
// config.
func TestADamagedCacheFolderIsDetectedAgainNotReadAsTheConfig(t *testing.T) {
	t.Parallel()
	for _, recordDamaged := range []bool{false, true} {
		r := vaulttest.New(t)
		r.Write(".obsidian/app.json", "{}\n")
		r.Write("vault/sync.md", "# Sync\n\nThe sync fails on mount. [[other]]\n")
		r.Write("vault/other.md", "# Other\n\n[[sync]]\n")
		r.Commit("2026-01-02T10:00:00Z", "vault")
		s, _ := open(t, r.Dir)
		before, err := s.Links("vault/sync", 0, LinksOut, Page{})
		if err != nil {
			t.Fatal(err)
		}
		s.Close()
		cacheDir := filepath.Join(r.Dir, ".git", "omh")
		entries, err := os.ReadDir(cacheDir)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range entries {
			if e.Name() == "made-for.json" && !recordDamaged {
				continue
			}
			path := filepath.Join(cacheDir, e.Name())
			b, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			for i := range b {
				b[i] ^= 0x5a
			}
			if err := os.WriteFile(path, b, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		st, statusWarnings := open(t, r.Dir)
		_, err = st.Status()
		var se *Error
		if !recordDamaged && (!errors.As(err, &se) || se.Code != "damaged_cache" || !strings.Contains(err.Error(), cacheDir) || strings.Contains(err.Error(), vault.ConfigPath)) {
			t.Errorf("status of a damaged cache: %v", err)
		}
		again, warnings := open(t, r.Dir)
		after, err := again.Links("vault/sync", 0, LinksOut, Page{})
		if err != nil {
			t.Fatalf("a command after the cache folder was damaged: %v", err)
		}
		if !reflect.DeepEqual(before, after) {
			t.Errorf("links before %+v, after %+v", before, after)
		}
		said := append(*statusWarnings, *warnings...)
		for _, w := range said {
			if strings.Contains(w, "bad config") || strings.Contains(w, "must be a mapping") {
				t.Errorf("warning blames the config: %q", w)
			}
		}
		named := filepath.Join(cacheDir, detectedConfig)
		if recordDamaged {
			named = cacheDir + " "
		}
		if !strings.Contains(strings.Join(said, "\n"), named) {
			t.Errorf("record damaged %v: no warning names %s: %q", recordDamaged, named, said)
		}
		cfg, err := again.Repo.LoadConfig()
		if err != nil || cfg.Dialect.String() != vault.DialectObsidian {
			t.Errorf("settings after the damage: %+v %v", cfg, err)
		}
	}
}

// Status, index and a rebuild read a vault without a config by what was
// detected, as find does. Catches: omh status calling the store not fresh
// right after omh index (it compared the snapshot with omh's defaults), and
// a rebuild reading Dendron links as omh's.
func TestStatusAndRebuildReadTheDetectedConfig(t *testing.T) {
	t.Parallel()
	dendron := "---\nid: a\ntitle: A\nupdated: 1\ncreated: 1\n---\n"
	r := vaulttest.New(t)
	r.Write("vault/careers.md", dendron+"# Careers\n")
	r.Write("vault/careers.mission.md", dendron+"# Mission\n\n[[Careers|dendron://site/careers]]\n")
	r.Commit("2026-01-02T10:00:00Z", "vault")
	s, _ := open(t, r.Dir)
	if _, err := s.Index(false); err != nil {
		t.Fatal(err)
	}
	later, _ := open(t, r.Dir)
	if st, err := later.Status(); err != nil || !st.Fresh {
		t.Errorf("status right after index: fresh %v, %v", st.Fresh, err)
	}
	rebuilt, _ := open(t, r.Dir)
	if _, err := rebuilt.Index(true); err != nil {
		t.Fatal(err)
	}
	if st, err := rebuilt.Status(); err != nil || !st.Fresh || st.NotesRoot != "vault" {
		t.Errorf("status after a rebuild: %+v, %v", st, err)
	}
	if links, err := rebuilt.Links("careers.mission", 0, LinksOut, Page{}); err != nil || len(*links.Notes[0].Links) != 1 {
		t.Errorf("after a rebuild: %+v %v", links, err)
	}
}

// Gold questions name the notes they expect by their paths from the
// repository root, as the vaults' gold files do; under a notes root such
// as en/ the same note's key has no en/, and eval must still find it.
func TestEvalFindsExpectedNotesUnderANotesRoot(t *testing.T) {
	t.Parallel()
	r := vaulttest.New(t)
	r.Write(".omh/config.yaml", "notes: en\n")
	r.Write("en/Sync/Walrus tusks.md", "# Walrus tusks\n\nWalruses grow tusks all their lives.\n")
	r.Write("en/Other.md", "# Other\n\nNothing here.\n")
	r.Commit("2026-01-02T10:00:00Z", "vault")
	s, _ := open(t, r.Dir)
	golds := []eval.Gold{{ID: "a", Question: "walrus tusks", Expect: []string{"en/Sync/Walrus tusks"}, Gains: map[string]float64{"en/Sync/Walrus tusks": 2}}}
	rep, err := s.Eval(GoldQuestions{golds}, EvalOptions{Split: "all", Roots: 5, MaxChars: 6000})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Questions) != 1 || rep.Questions[0].Rank != 1 || rep.Questions[0].NDCG10 != 1 {
		t.Errorf("%+v", rep.Questions)
	}
}

// The dialect is part of the config the cache's snapshot is keyed by:
// changing it resolves every link again.
func TestChangingTheDialectResolvesLinksAgain(t *testing.T) {
	t.Parallel()
	r := vaulttest.New(t)
	r.Write(".omh/config.yaml", "dialect: omh\n")
	r.Write("careers.md", "# Careers\n")
	r.Write("careers.mission.md", "# Mission\n\n[[Careers page|careers]]\n")
	r.Commit("2026-01-02T10:00:00Z", "vault")
	s, _ := open(t, r.Dir)
	outKeys := func() []string {
		links, err := s.Links("careers.mission", 0, LinksOut, Page{})
		if err != nil {
			t.Fatal(err)
		}
		var keys []string
		for _, l := range *links.Notes[0].Links {
			keys = append(keys, l.Key)
		}
		return keys
	}
	if got := outKeys(); len(got) != 0 {
		t.Errorf("omh's rules read the label first: %q", got)
	}
	r.Write(".omh/config.yaml", "dialect: dendron\n")
	if got := outKeys(); len(got) != 1 || got[0] != "careers" {
		t.Errorf("after dialect: dendron: %q", got)
	}
}

// omh eval asks a gold question with its extra phrasings and without, and
// reports both when asked both ways: the figures with extras, the bare ones
// beside. Catches: extras dropped, or the bare figures taken from the
// replies with extras.
func TestEvalReportsQuestionsWithAndWithoutTheirExtras(t *testing.T) {
	t.Parallel()
	r := vaulttest.New(t)
	r.Write("Walrus tusks.md", "# Walrus tusks\n\nWalruses grow tusks all their lives.\n")
	r.Write("Ivory.md", "# Ivory\n\nIvory grows slowly and is traded.\n")
	r.Commit("2026-01-02T10:00:00Z", "vault")
	s, _ := open(t, r.Dir)
	golds := []eval.Gold{{ID: "a", Question: "what keeps them so long", Also: []string{"walrus tusks lifelong"}, Expect: []string{"Walrus tusks"}}}
	hit := func(also string) (float64, *eval.Totals) {
		rep, err := s.Eval(GoldQuestions{golds}, EvalOptions{Split: "all", Roots: 5, MaxChars: 6000, Also: also})
		if err != nil {
			t.Fatal(err)
		}
		return rep.Total.Hit1, rep.Bare
	}
	if with, bare := hit(eval.WithAlso); with != 1 || bare != nil {
		t.Errorf("with extras: hit@1 %v, bare %+v", with, bare)
	}
	if without, bare := hit(eval.WithoutAlso); without != 0 || bare != nil {
		t.Errorf("without extras: hit@1 %v, bare %+v", without, bare)
	}
	if with, bare := hit(eval.BothAlso); with != 1 || bare == nil || bare.Hit1 != 0 {
		t.Errorf("both ways: hit@1 %v, bare %+v", with, bare)
	}
}
