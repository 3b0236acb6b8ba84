package find

import (
	"strings"
	"testing"
)

// Each markdown construct prints as the text a reader sees.
func TestPassagesPrintTextNotMarkdown(t *testing.T) {
	tests := []struct{ name, src, want string }{
		{"emphasis", "a **bold** and *light* and __strong__ and _soft_ and ~~gone~~ and ==marked== word", "a bold and light and strong and soft and gone and marked word"},
		{"emphasis inside a word, and a lone star", "snake_case_name stays, 2 * 3 stays, un*frigging*believable", "snake_case_name stays, 2 * 3 stays, unfriggingbelievable"},
		{"code keeps its backticks and its markup", "run `a *b* [c](d)` now", "run `a *b* [c](d)` now"},
		{"Obsidian wiki link with a label", "see [[Obsidian Sync/Security and privacy#Encryption|end-to-end encrypted]] here", "see end-to-end encrypted here"},
		{"Dendron wiki link with the label first", "a [[stub|dendron://dendron.dendron-site/dendron.concepts#stubs]] note", "a stub note"},
		{"wiki link to a heading", "see [[Tabs#Close a tab]] and [[#Below]]", "see Tabs › Close a tab and Below"},
		{"wiki link to a folder's note and a block", "see [[folder/Note name]] and [[Note^abc]] and [[Other#^block]]", "see Note name and Note and Other"},
		{"embeds print nothing", "before ![[picture.png]] ![[Other note#Part|Label]] after", "before after"},
		{"markdown links and images", "a [label](https://x.y/z_(1)) and ![alt text](p.png) and [ref][r] and [plain]", "a label and alt text and ref and plain"},
		{"a footnote reference", "a claim[^1] stands", "a claim stands"},
		{"autolinks, tags and a comparison", "mail <https://a.b/c> <b>bold</b><br> a < b", "mail https://a.b/c bold a < b"},
		{"escapes", `a \*star\* and a \| pipe and \[x\]`, "a *star* and a | pipe and [x]"},
		{"quotes unnested over lines", "first line\n> > > second line\n>\tthird", "first line second line third"},
		{"callout type and block id", "[!abstract]- Sync regions ^sync-geo", "Sync regions"},
		{"task box", "[ ] do laundry", "do laundry"},
		{"multi-byte text", "Le **café** est _fermé_ — 3 €", "Le café est fermé — 3 €"},
		{"CRLF lines", "one line\r\n> two", "one line two"},
		{"a DocFX include prints nothing", "Sub End · [!include[Support and feedback](~/includes/feedback-boilerplate.md)] and [!INCLUDE [x](y.md)]", "Sub End · and"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := plainLines(tt.src); got != tt.want {
				t.Errorf("plainLines(%q) = %q, want %q", tt.src, got, tt.want)
			}
		})
	}
}

// A table row reads "header: cell; header: cell", empty cells left out,
// pipes in code and escaped pipes kept as text.
func TestTableRowsNameTheirColumns(t *testing.T) {
	tests := []struct{ header, row, want string }{
		{"| Switch To | MacOS | Windows/Linux |", "| **Recently closed tab** | `⌘`+`⇧`+`t` | `Ctrl`+`Shift`+`t` |",
			"Switch To: Recently closed tab; MacOS: `⌘`+`⇧`+`t`; Windows/Linux: `Ctrl`+`Shift`+`t`"},
		{"|Option|Description|", "|`a|b`|either \\| or|", "Option: `a|b`; Description: either | or"},
		{"| | Value |", "| name | |", "name"},
		{"| a |", "| x | y |", "a: x; y"},
	}
	for _, tt := range tests {
		if got := clipCells(rowCells(tt.header, tt.row), rowRunes, func(string) bool { return false }); got != tt.want {
			t.Errorf("row %q under %q reads %q, want %q", tt.row, tt.header, got, tt.want)
		}
	}
}

// A wide row is clipped by its cells: the first, which names the row, and
// those holding a question's word, "…" where cells were left out; a row
// within the bound reads whole. Catches: a 700-character row quoted whole
// to hand an agent one cell.
func TestAWideRowKeepsItsNameAndTheCellsThatAnswer(t *testing.T) {
	cells := []string{"Name: task-todo", "Description: " + strings.Repeat("pad ", 40), "Example: task-todo:call", "Note: " + strings.Repeat("more ", 40), "Since: 1.0"}
	wants := func(c string) bool { return strings.Contains(c, "call") }
	if got, want := clipCells(cells, 300, wants), "Name: task-todo; …; Example: task-todo:call; …"; got != want {
		t.Errorf("clipped to %q, want %q", got, want)
	}
	if got := clipCells(cells[:1], 10, wants); got != cells[0] {
		t.Errorf("a row of one cell reads %q", got)
	}
	short := []string{"a: 1", "b: 2"}
	if got := clipCells(short, 300, wants); got != "a: 1; b: 2" {
		t.Errorf("a short row reads %q", got)
	}
}
