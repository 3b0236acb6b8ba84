package vault

import (
	"errors"
	"reflect"
	"strings"
	"testing"
)

// The config's stores: list reads each {name, path}, in order, and refuses
// what would make a store unnameable or a path another machine's: a name
// that is no store name, a name given twice, no path, an absolute path,
// fields it does not know. Catches: a malformed list read as no stores at
// all, an absolute path from a committed config followed on every clone.
func TestConfigReadsTheStoresItAnswersWith(t *testing.T) {
	t.Parallel()
	cfg, err := LoadConfig(writeConfig(t, "stores:\n  - name: handbook\n    path: ../handbook\n  - {name: wiki-2, path: vendor/wiki}\n"))
	want := []StoreRef{{Name: "handbook", Path: "../handbook"}, {Name: "wiki-2", Path: "vendor/wiki"}}
	if err != nil || !reflect.DeepEqual(cfg.Stores, want) || len(cfg.Warnings) != 0 {
		t.Errorf("got %+v %v, want stores %+v", cfg, err, want)
	}
	for content, says := range map[string]string{
		"stores: ../handbook\n":                                           "list",
		"stores:\n  - ../handbook\n":                                      "name: NAME",
		"stores:\n  - {name: Handbook, path: ../h}\n":                     "Handbook",
		"stores:\n  - {name: a:b, path: ../h}\n":                          "a:b",
		"stores:\n  - {name: ., path: ../h}\n":                            `"."`,
		"stores:\n  - {name: h, path: ../h}\n  - {name: h, path: ../i}\n": "twice",
		"stores:\n  - {name: h}\n":                                        "no path",
		"stores:\n  - {name: h, path: /srv/h}\n":                          "absolute",
		"stores:\n  - {name: h, path: ../h, url: x}\n":                    "url",
	} {
		_, err := LoadConfig(writeConfig(t, content))
		if !errors.Is(err, ErrBadConfig) || !strings.Contains(err.Error(), "stores") || !strings.Contains(err.Error(), says) {
			t.Errorf("%q: error %v should name stores and %s", content, err, says)
		}
	}
}

// A qualified key is a store's name, ":", and a key; anything else is not
// one, so a URL, Dendron's vault prefix or a key holding ":" after a path
// is read as it always was. Catches: "dendron://vault/x" or "C:/x" taken
// for a store's note.
func TestSplitQualifiedReadsOnlyAStoreNameAndAKey(t *testing.T) {
	t.Parallel()
	for in, want := range map[string][3]string{
		"handbook:topic/x":    {"handbook", "topic/x", "ok"},
		"handbook:topic/x.md": {"handbook", "topic/x", "ok"},
		"h-2:a":               {"h-2", "a", "ok"},
		"dendron://vault/x":   {},
		"http://example.com":  {},
		"C:/x":                {},
		"topic/x":             {},
		"handbook:":           {},
		"handbook:/abs":       {},
		"handbook:a/../b":     {},
		"a/b:c":               {},
		"2fa:x":               {},
	} {
		store, key, ok := SplitQualified(in)
		got := [3]string{store, key, ""}
		if ok {
			got[2] = "ok"
		}
		if got != want {
			t.Errorf("SplitQualified(%q) = %q, want %q", in, got, want)
		}
		if ok && Qualify(store, key) != strings.TrimSuffix(in, ".md") {
			t.Errorf("Qualify(%q, %q) = %q, want %q back", store, key, Qualify(store, key), in)
		}
	}
	if Qualify(HomeStore, "a") != "a" || Qualify("", "a") != "a" {
		t.Error("a key of the store omh runs in is written unqualified")
	}
}
