package fts5

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"

	"go.yaml.in/yaml/v3"
	"golang.org/x/text/unicode/norm"
)

// maxNoteBytes is where omh stops reading a note.
const maxNoteBytes = 4 << 20

// Note is one row of the table.
type Note struct {
	// Key is the note's path from the folder, without .md, in Unicode NFC:
	// omh's key when the folder is the notes root, and the path gold files
	// name notes by.
	Key         string
	Title, Body string
}

// ReadNotes reads every note under root, as the table holds them.
func ReadNotes(root string) ([]Note, error) {
	var notes []Note
	var rerr error
	err := walkNotes(root, func(rel string, _ fs.FileInfo) {
		if rerr != nil {
			return
		}
		n, ok, err := readNote(filepath.Join(root, filepath.FromSlash(rel)), rel)
		if ok {
			notes = append(notes, n)
		}
		rerr = err
	})
	if err == nil {
		err = rerr
	}
	return notes, err
}

// walkNotes calls fn with the path from root (slash-separated) of each
// regular *.md file under root, git's folders left out, as omh leaves out
// symbolic links.
func walkNotes(root string, fn func(rel string, info fs.FileInfo)) error {
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && d.Name() == ".git" {
			return filepath.SkipDir
		}
		if d.IsDir() || !d.Type().IsRegular() || !strings.HasSuffix(p, ".md") {
			return nil
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(root, p)
		if err != nil {
			return err
		}
		fn(filepath.ToSlash(rel), info)
		return nil
	})
	if err != nil {
		return fmt.Errorf("walking %s: %w", root, err)
	}
	return nil
}

// readNote reads the note file at p (rel from the folder); a binary file
// (a NUL byte in its first 8000, as git tells) is no note.
func readNote(p, rel string) (Note, bool, error) {
	content, err := os.ReadFile(p)
	if err != nil {
		return Note{}, false, err
	}
	if bytes.IndexByte(content[:min(len(content), 8000)], 0) >= 0 {
		return Note{}, false, nil
	}
	content = content[:min(len(content), maxNoteBytes)]
	key := norm.NFC.String(strings.TrimSuffix(rel, ".md"))
	title, body := splitNote(content, path.Base(key))
	return Note{Key: key, Title: title, Body: body}, true, nil
}

// splitNote returns a note's title and body. The title is the frontmatter
// title, else the first level-1 ATX heading (whose line then leaves the
// body), else the file name; frontmatter aliases join the title column,
// since omh scores them as titles. The body is the rest, without the
// frontmatter block.
func splitNote(content []byte, fileName string) (string, string) {
	text := strings.TrimPrefix(string(content), "\uFEFF")
	title, aliases, text := frontmatter(text)
	if title == "" {
		var h1 string
		h1, text = takeH1(text)
		title = h1
	}
	if title == "" {
		title = fileName
	}
	if len(aliases) > 0 {
		title += "\n" + strings.Join(aliases, "\n")
	}
	return title, text
}

// frontmatter splits a leading YAML block off text and reads its title and
// aliases; a block that does not parse still leaves the body.
func frontmatter(text string) (title string, aliases []string, body string) {
	first, rest, ok := strings.Cut(text, "\n")
	if !ok || strings.TrimRight(first, " \t\r") != "---" {
		return "", nil, text
	}
	offset := 0
	for offset < len(rest) {
		line, _, _ := strings.Cut(rest[offset:], "\n")
		end := offset + len(line) + 1
		if t := strings.TrimRight(line, " \t\r"); t == "---" || t == "..." {
			block, body := rest[:offset], rest[min(end, len(rest)):]
			var fields map[string]any
			if yaml.Unmarshal([]byte(block), &fields) == nil {
				title = scalar(fields["title"])
				for _, name := range []string{"aliases", "alias"} {
					switch v := fields[name].(type) {
					case []any:
						for _, a := range v {
							if s := scalar(a); s != "" {
								aliases = append(aliases, s)
							}
						}
					default:
						if s := scalar(v); s != "" {
							aliases = append(aliases, s)
						}
					}
				}
			}
			return title, aliases, body
		}
		offset = end
	}
	return "", nil, text // never closed: not frontmatter
}

func scalar(v any) string {
	switch v.(type) {
	case nil, []any, map[string]any:
		return ""
	}
	return strings.TrimSpace(fmt.Sprint(v))
}

// takeH1 finds the first non-empty level-1 ATX heading outside fenced code
// and returns its text and the body without its line.
func takeH1(text string) (string, string) {
	fence := ""
	offset := 0
	for offset < len(text) {
		line, _, _ := strings.Cut(text[offset:], "\n")
		end := min(offset+len(line)+1, len(text))
		t := strings.TrimLeft(line, " ")
		switch {
		case fence != "":
			if strings.HasPrefix(t, fence) {
				fence = ""
			}
		case strings.HasPrefix(t, "```"), strings.HasPrefix(t, "~~~"):
			fence = t[:3]
		case len(line)-len(t) <= 3 && (strings.HasPrefix(t, "# ") || strings.HasPrefix(t, "#\t")):
			h := strings.TrimSpace(strings.TrimRight(strings.TrimSpace(t[2:]), "#"))
			if h != "" {
				return h, text[:offset] + text[end:]
			}
		}
		offset = end
	}
	return "", text
}
