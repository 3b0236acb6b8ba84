package vault

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"
)

var kindNames = map[UnitKind]string{SentenceUnit: "sentence", ItemUnit: "item", HeaderUnit: "header", RowUnit: "row",
	DefinitionUnit: "definition", CodeUnit: "code"}

// describe lists units as "kind Lfirst-last lead N: text", for comparing.
func describe(content []byte, p Parsed) []string {
	var out []string
	for _, u := range p.Units {
		out = append(out, fmt.Sprintf("%s L%d-%d lead %d: %s", kindNames[u.Kind], u.Line, u.EndLine, u.Lead, content[u.Start:u.End]))
	}
	return out
}

// The excerpts in testdata/units are real notes, cut short: each shape a
// note's structure takes, with the units it must be quoted by.
func TestUnitsFollowTheStructureOfRealNotes(t *testing.T) {
	tests := []struct {
		file, source string
		want         []string
	}{
		{"early-access.md", "obsidian-help-en 54e1d53, en/Obsidian/Early access versions.md lines 49-60: a nested ordered list", []string{
			"sentence L3-3 lead -1: To disable early access versions and revert to your last installed public version on desktop:",
			"item L5-5 lead -1: Disable early access versions.",
			"item L6-6 lead 1: Open **[[Settings]]**.",
			"item L7-7 lead 1: In the sidebar, select **General**.",
			"item L8-8 lead 1: Under **App**, disable **Receive early access versions**.",
			"item L9-9 lead -1: Close Obsidian.",
			"item L10-10 lead -1: Delete the `obsidian-VERSION.asar` file, where `VERSION` is the Obsidian version.",
			"item L11-11 lead 6: Windows: `%APPDATA%\\obsidian\\obsidian-VERSION.asar`",
			"item L12-12 lead 6: Mac: `~/Library/Application Support/obsidian/obsidian-VERSION.asar`",
		}},
		{"security-faq.md", "obsidian-help-en 54e1d53, en/Obsidian Sync/Security and privacy.md lines 47-58: a run of headings, each with its first sentence", []string{
			"sentence L3-3 lead -1: Yes. See our guide, [how to verify Obsidian Sync's end-to-end encryption](https://obsidian.md/blog/verify-obsidian-sync-encryption/).",
			"sentence L3-3 lead -1: This guide provide step-by-step instructions for you to trustlessly verify the end-to-end encryption of your data when it is sent and received via Sync servers.",
			"sentence L7-7 lead -1: Yes. Obsidian has been independently audited.",
			"sentence L7-7 lead -1: Visit our [Security page](https://obsidian.md/security) to view audit reports.",
			"sentence L7-7 lead -1: Regular audits by third-party security firms ensure that Obsidian code and procedures meet the highest security standards.",
			"sentence L11-11 lead -1: If you ever lose or forget the encryption password, you won't be able to connect additional vaults to your remote vault.",
			"sentence L11-11 lead -1: Since the encryption password isn't saved anywhere, it's forever lost.",
		}},
		{"sync-regions.md", "obsidian-help-en 54e1d53, en/Obsidian Sync/Security and privacy.md lines 72-83: definitions in a callout, a block id", []string{
			"sentence L3-3 lead -1: Obsidian Sync servers are hosted by [DigitalOcean](https://www.digitalocean.com) in the following regional locations:",
			"sentence L5-5 lead -1: [!abstract] Sync regions",
			"definition L6-6 lead -1: **Automatic**: Your data center is chosen based on your IP location, at the time when you first set it up.",
			"definition L8-8 lead -1: **Asia**: Singapore",
			"definition L9-9 lead -1: **Europe**: Frankfurt, Germany",
			"definition L10-10 lead -1: **North America**: San Francisco, USA",
			"definition L11-11 lead -1: **Oceania**: Sydney, Australia",
		}},
		{"tabs.md", "obsidian-help-en 54e1d53, en/User interface/Tabs.md lines 86-99: a table", []string{
			"sentence L1-1 lead -1: To pin or unpin a tab in the sidebar, see [[Sidebar#Pin tabs|pinning tabs in the sidebar]].",
			"sentence L5-5 lead -1: Select a tab to switch to it.",
			"sentence L5-5 lead -1: Or, use a keyboard shortcut:",
			"header L7-7 lead -1: | Switch To                 | MacOS            | Windows/Linux        |",
			"row L9-9 lead 3: | **Next tab**              | `⌃`+`⇥`         | `Ctrl`+`Tab`         |",
			"row L10-10 lead 3: | **Previous tab**          | `⌃`+`⇧`+`⇥`    | `Ctrl`+`Shift`+`Tab` |",
			"row L11-11 lead 3: | **First tab on the left** | `⌘`+`1`          | `Ctrl`+`1`           |",
			"row L12-12 lead 3: | **2nd to 8th tab**        | `⌘`+`2`..`8`     | `Ctrl`+`2`..`8`      |",
			"row L13-13 lead 3: | **Last tab on the right** | `⌘`+`9`          | `Ctrl`+`9`           |",
			"row L14-14 lead 3: | **Recently closed tab**   | `⌘`+`⇧`+`t`     | `Ctrl`+`Shift`+`t`   |",
		}},
		{"template-helpers.md", "dendron-site 251c4c98, vault/dendron.topic.templates.template-helpers.md lines 39-56: code after the item that says what it is, nested items", []string{
			"item L3-3 lead -1: return: number, day of week",
			"code L6-7 lead 0: {{! returns 2 since 2022-05-31 was a tuesday}}\n{{ getDayOfWeek (fnameToDate) }}",
			"sentence L10-10 lead -1: Given a day, return the day of the week.",
			"sentence L10-10 lead -1: This is the same as [javascript getDay](https://www.w3schools.com/jsref/jsref_getday.asp) method (0 = sunday, 6 = saturday)",
			"item L12-12 lead -1: NOTE: be sure to add parenthesis `()` when using with `fnameToDate` due to how handlebars handles [subexpressions](https://handlebarsjs.com/guide/expressions.html#subexpressions)",
			"item L15-15 lead -1: parameters:",
			"item L16-16 lead 5: text: text where pattern will be applied against",
			"item L17-17 lead 5: pattern: pattern to capture",
			"item L18-18 lead -1: return: capture text or `false`",
		}},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			content, err := os.ReadFile("testdata/units/" + tt.file)
			if err != nil {
				t.Fatal(err)
			}
			p := Parse(content)
			if got := describe(content, p); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("%s: units\n%s\nwant\n%s", tt.source, strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
			}
			checkUnits(t, content, p)
		})
	}
}

// Each unit knows the heading it is under.
func TestUnitsNameTheirHeading(t *testing.T) {
	content, err := os.ReadFile("testdata/units/security-faq.md")
	if err != nil {
		t.Fatal(err)
	}
	p := Parse(content)
	var got []string
	for _, u := range p.Units {
		got = append(got, p.Headings[u.Heading].Text)
	}
	want := []string{"Can I verify that my data is end-to-end encrypted?", "Can I verify that my data is end-to-end encrypted?",
		"Has Obsidian completed a third-party security audit?", "Has Obsidian completed a third-party security audit?",
		"Has Obsidian completed a third-party security audit?", "What happens if I forget my encryption password?",
		"What happens if I forget my encryption password?"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("headings %q, want %q", got, want)
	}
	if p := Parse([]byte("Before any heading.\n")); len(p.Units) != 1 || p.Units[0].Heading != -1 {
		t.Errorf("a unit before the first heading: %+v", p.Units)
	}
}

func TestSentencesSplitWhereASentenceEnds(t *testing.T) {
	tests := []struct {
		name, body string
		want       []string
	}{
		{"full stops, question and exclamation marks", "It works well in this folder. Does it work in that one? It does, truly and always!\n",
			[]string{"It works well in this folder.", "Does it work in that one?", "It does, truly and always!"}},
		{"a short sentence joins the next", "Yes. Obsidian has been independently audited.\n",
			[]string{"Yes. Obsidian has been independently audited."}},
		{"names, numbers and abbreviations do not end one", "Call os.Rename on version 1.5 first, e.g. at start. Then stop here for good.\n",
			[]string{"Call os.Rename on version 1.5 first, e.g. at start.", "Then stop here for good."}},
		{"ex. before an example does not end one", "Tags avoid issue numbers (ex. `#6778`), so tags do not start with a number. All tags start with a letter.\n",
			[]string{"Tags avoid issue numbers (ex. `#6778`), so tags do not start with a number.", "All tags start with a letter."}},
		{"a lower-case word after a full stop goes on", "This is the config. file that the tool reads on every start.\n",
			[]string{"This is the config. file that the tool reads on every start."}},
		{"wrapped lines read as one run", "The first sentence runs on\nacross a line break. And a second one follows it.\n",
			[]string{"The first sentence runs on\nacross a line break.", "And a second one follows it."}},
		{"Chinese and Japanese stops", "这是第一句话，它足够长了，可以单独成为一个单元。这是第二句话，也同样足够长，可以独立存在。\n",
			[]string{"这是第一句话，它足够长了，可以单独成为一个单元。", "这是第二句话，也同样足够长，可以独立存在。"}},
		{"a closing quote stays with its sentence", "He said \"the password is lost.\" Nothing more can be done about it.\n",
			[]string{"He said \"the password is lost.\"", "Nothing more can be done about it."}},
		{"wrapped prose with a colon is not a definition", "One thing to remember: you can't include spaces,\nquestion marks in hashtags. It is a rule of the tool.\n",
			[]string{"One thing to remember: you can't include spaces,\nquestion marks in hashtags.", "It is a rule of the tool."}},
		{"a term and its definition", "Vault\n: A folder of notes on your disk.\n",
			[]string{"Vault\n: A folder of notes on your disk."}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := Parse([]byte(tt.body))
			var got []string
			for _, u := range p.Units {
				got = append(got, tt.body[u.Start:u.End])
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("units %q, want %q", got, tt.want)
			}
			checkUnits(t, []byte(tt.body), p)
		})
	}
}

// Offsets and lines count the bytes of the file itself: a frontmatter, a
// byte order mark, carriage returns and multi-byte characters included.
func TestUnitSpansAndLinesCountTheFileItself(t *testing.T) {
	lf := "---\ntitle: Café\n---\n# Café\n\nLe café est fermé le dimanche. Il ouvre à 8 h le lundi.\n\n- Thé vert : 3 €\n- Thé noir : 2,50 €\n"
	crlf := "\uFEFF" + strings.ReplaceAll(lf, "\n", "\r\n")
	for name, content := range map[string]string{"LF": lf, "CRLF with a byte order mark": crlf} {
		t.Run(name, func(t *testing.T) {
			p := Parse([]byte(content))
			var got []string
			for _, u := range p.Units {
				got = append(got, fmt.Sprintf("L%d %s", u.Line, content[u.Start:u.End]))
			}
			want := []string{"L6 Le café est fermé le dimanche.", "L6 Il ouvre à 8 h le lundi.", "L8 Thé vert : 3 €", "L9 Thé noir : 2,50 €"}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("units %q, want %q", got, want)
			}
			checkUnits(t, []byte(content), p)
		})
	}
}

// A unit's lines, as sed prints them, hold the unit.
func TestSedPrintsAUnitsLines(t *testing.T) {
	sed, err := exec.LookPath("sed")
	if err != nil {
		t.Skip("no sed")
	}
	for _, file := range []string{"early-access.md", "tabs.md", "template-helpers.md", "sync-regions.md"} {
		path := "testdata/units/" + file
		content, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		for _, u := range Parse(content).Units {
			out, err := exec.Command(sed, "-n", strconv.Itoa(u.Line)+","+strconv.Itoa(u.EndLine)+"p", path).Output()
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Contains(out, content[u.Start:u.End]) {
				t.Errorf("%s: sed -n %d,%dp prints %q, which lacks %q", file, u.Line, u.EndLine, out, content[u.Start:u.End])
			}
		}
	}
}

func TestUnitsSurviveTheirStoredForm(t *testing.T) {
	for _, s := range parseSeeds {
		units := Parse([]byte(s)).Units
		got, err := DecodeUnits(AppendUnits(nil, units))
		if err != nil || !reflect.DeepEqual(got, units) && len(units) > 0 {
			t.Errorf("%q: units %+v came back as %+v (%v)", s, units, got, err)
		}
	}
	// Cut anywhere, the stored form is the units before the cut when the
	// cut falls between two of them, and damaged anywhere else.
	units := Parse([]byte("One sentence that is long enough. Another sentence that is long enough.\n\n- item\n  - nested\n")).Units
	stored := AppendUnits(nil, units)
	boundary := map[int]int{}
	for k := range units {
		boundary[len(AppendUnits(nil, units[:k]))] = k
	}
	for cut := 0; cut < len(stored); cut++ {
		got, err := DecodeUnits(stored[:cut])
		k, between := boundary[cut]
		switch {
		case between && (err != nil || len(got) != k):
			t.Errorf("cut at %d, between units: %d units, %v; want %d", cut, len(got), err, k)
		case !between && err == nil:
			t.Errorf("cut at %d, inside a unit, decoded", cut)
		}
	}
	if _, err := DecodeUnits([]byte{1, 0, 5, 1, 0, 0, 9}); err == nil {
		t.Error("a lead past the first unit decoded")
	}
	if _, err := DecodeUnits([]byte{1, 0x80}); err == nil {
		t.Error("a cut varint decoded")
	}
}

// checkUnits holds what every note's units must: in order, apart, inside
// the body, on character boundaries, their lines those of their ends,
// leads before them, headings among the note's.
func checkUnits(t *testing.T, content []byte, p Parsed) {
	t.Helper()
	lines := newLineStarts(content)
	prevEnd := p.BodyStart
	for i, u := range p.Units {
		if u.Start < prevEnd || u.End <= u.Start || u.End > len(content) {
			t.Fatalf("unit %d %+v: span outside the body or before the unit ahead (ends %d)", i, u, prevEnd)
		}
		prevEnd = u.End
		if utf8.Valid(content) && (!utf8.RuneStart(content[u.Start]) || u.End < len(content) && !utf8.RuneStart(content[u.End])) {
			t.Fatalf("unit %d %+v cuts a character", i, u)
		}
		if u.Line != lines.line(u.Start) || u.EndLine != lines.line(u.End-1) {
			t.Fatalf("unit %d %+v: lines %d-%d, want %d-%d", i, u, u.Line, u.EndLine, lines.line(u.Start), lines.line(u.End-1))
		}
		if u.Lead >= i || u.Lead < -1 || u.Heading >= len(p.Headings) || u.Heading < -1 {
			t.Fatalf("unit %d %+v: lead or heading out of range", i, u)
		}
		if isWhite(content[u.Start]) || isWhite(content[u.End-1]) {
			t.Fatalf("unit %d %+v starts or ends with white space", i, u)
		}
	}
	got, err := DecodeUnits(AppendUnits(nil, p.Units))
	if err != nil || len(got) != len(p.Units) || len(got) > 0 && !reflect.DeepEqual(got, p.Units) {
		t.Fatalf("units do not survive their stored form: %v", err)
	}
}
