package vault

import (
	"bytes"
	"strings"
	"testing"
)

func TestSetRetractedAddsTwoLinesAndKeepsEveryOtherByte(t *testing.T) {
	for _, tc := range []struct{ name, in, want string }{
		{"lf",
			"---\ntype: finding\ntitle: Cold start\n---\n# Cold start\n\nBody.\n",
			"---\ntype: finding\ntitle: Cold start\nretracted: 2026-11-30\nretracted_reason: \"wrong logs\"\n---\n# Cold start\n\nBody.\n"},
		{"crlf",
			"---\r\ntype: finding\r\n---\r\nBody.\r\n",
			"---\r\ntype: finding\r\nretracted: 2026-11-30\r\nretracted_reason: \"wrong logs\"\r\n---\r\nBody.\r\n"},
		{"dots close the block",
			"---\ntype: finding\n...\nBody\n",
			"---\ntype: finding\nretracted: 2026-11-30\nretracted_reason: \"wrong logs\"\n...\nBody\n"},
		{"empty block",
			"---\n---\nBody\n",
			"---\nretracted: 2026-11-30\nretracted_reason: \"wrong logs\"\n---\nBody\n"},
		{"no frontmatter",
			"# A finding\n\nBody\n",
			"---\nretracted: 2026-11-30\nretracted_reason: \"wrong logs\"\n---\n# A finding\n\nBody\n"},
		{"byte order mark stays first",
			"\ufeff---\ntype: blob\n---\nx\n",
			"\ufeff---\ntype: blob\nretracted: 2026-11-30\nretracted_reason: \"wrong logs\"\n---\nx\n"},
		{"entries already there are replaced where they stand, block scalars and all",
			"---\nretracted: 2020-01-01\ntype: finding\nretracted_reason: >\n  an old\n  reason\n\ntags: [a]\n---\nBody\n",
			"---\nretracted: 2026-11-30\ntype: finding\nretracted_reason: \"wrong logs\"\ntags: [a]\n---\nBody\n"},
		{"an indented key of a nested map is not the entry",
			"---\ntype: finding\nextra:\n  retracted: no\n---\nBody\n",
			"---\ntype: finding\nextra:\n  retracted: no\nretracted: 2026-11-30\nretracted_reason: \"wrong logs\"\n---\nBody\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := SetRetracted([]byte(tc.in), "2026-11-30", "wrong logs")
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tc.want {
				t.Errorf("got\n%q\nwant\n%q", got, tc.want)
			}
		})
	}
}

func TestSetRetractedReasonsReadBackExactly(t *testing.T) {
	for _, reason := range []string{
		`quotes " and 'single' and \ backslash`,
		"key: value # not a comment",
		"two\nlines",
		"tab\tand ünïcödé and 日本語",
		"- looks like a list",
		"{looks: like a map}",
		"&anchor *alias !tag",
		"line\u2028separator",
	} {
		got, err := SetRetracted([]byte("---\ntype: finding\n---\nBody\n"), "2026-01-02", reason)
		if err != nil {
			t.Fatalf("%q: %v", reason, err)
		}
		p := Parse(got)
		if p.RetractedReason != reason || p.Retracted != "2026-01-02" || p.Type != "finding" {
			t.Errorf("%q read back as %q %q %q", reason, p.RetractedReason, p.Retracted, p.Type)
		}
	}
}

func TestSetRetractedRefusesWhatItCannotEditSafely(t *testing.T) {
	for name, in := range map[string]string{
		"unclosed":    "---\ntype: finding\nBody\n",
		"not yaml":    "---\ntype: [finding\n---\nBody\n",
		"not a map":   "---\n- a\n- b\n---\nBody\n",
		"flow inline": "---\n{type: finding}\n---\nBody\n",
	} {
		if out, err := SetRetracted([]byte(in), "2026-01-02", "r"); err == nil {
			t.Errorf("%s: want a refusal, got %q", name, out)
		}
	}
	if _, err := SetRetracted([]byte("---\n---\n"), "2026-02-30", "r"); err == nil {
		t.Error("an impossible date was accepted")
	}
}

// FuzzSetRetracted holds the edit to its promise on any input: either a
// refusal, or a note that reads back retracted with the reason, whose
// lines other than the retraction entries are the original's, byte for
// byte.
func FuzzSetRetracted(f *testing.F) {
	for _, s := range []string{
		"---\ntype: finding\n---\nBody\n", "---\r\ntype: finding\r\n---\r\n", "# no frontmatter\n", "",
		"---\nretracted: 2020-01-01\nretracted_reason: |\n  x\n---\n", "\ufeff---\n...\n",
	} {
		f.Add([]byte(s), "a reason")
	}
	f.Fuzz(func(t *testing.T, content []byte, reason string) {
		out, err := SetRetracted(content, "2026-03-04", reason)
		if err != nil {
			return
		}
		p := Parse(out)
		if p.Retracted != "2026-03-04" || p.RetractedReason != reason {
			t.Fatalf("read back %q %q", p.Retracted, p.RetractedReason)
		}
		bom := 0
		if bytes.HasPrefix(content, byteOrderMark) {
			bom = len(byteOrderMark)
		}
		if _, found, _ := splitFrontmatter(content, bom); !found {
			// A block was added on top: the rest is the original.
			if !bytes.HasPrefix(out, content[:bom]) || !bytes.HasSuffix(out, content[bom:]) {
				t.Fatalf("the original bytes are not kept around the new block:\n%q\n%q", content, out)
			}
			return
		}
		if !bytes.Contains(content, []byte("retracted")) {
			// Two lines were added: without them, the original.
			var kept []string
			for _, line := range strings.SplitAfter(string(out), "\n") {
				if !strings.HasPrefix(line, "retracted: 2026-03-04") && !strings.HasPrefix(line, "retracted_reason: ") {
					kept = append(kept, line)
				}
			}
			if strings.Join(kept, "") != string(content) {
				t.Fatalf("bytes other than the two entries changed:\n%q\n%q", content, out)
			}
		}
	})
}
