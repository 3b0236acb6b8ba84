package vault

import "fmt"

// Layer says where a note was read from, never what the note claims: team
// notes come from HEAD's tree (committed and reviewed), local notes from this
// machine only (the private folder, or a working copy that differs from HEAD).
type Layer uint8

const (
	Team Layer = iota + 1
	Local
)

func (l Layer) String() string {
	switch l {
	case Team:
		return "team"
	case Local:
		return "local"
	}
	return fmt.Sprintf("layer(%d)", uint8(l))
}

// ParseLayer accepts the names String prints.
func ParseLayer(s string) (Layer, error) {
	switch s {
	case "team":
		return Team, nil
	case "local":
		return Local, nil
	}
	return 0, fmt.Errorf("unknown layer %q (want team or local)", s)
}

// DateSource says which rule gave a note its date.
type DateSource uint8

const (
	FromRecorded    DateSource = iota + 1 // frontmatter `recorded`
	FromFrontmatter                       // frontmatter `date` or `created`
	FromGit                               // author date of the last first-parent commit that changed the file
	FromMtime                             // modification time of a local file, in UTC
)

func (s DateSource) String() string {
	switch s {
	case FromRecorded:
		return "recorded"
	case FromFrontmatter:
		return "frontmatter"
	case FromGit:
		return "git"
	case FromMtime:
		return "mtime"
	}
	return fmt.Sprintf("date-source(%d)", uint8(s))
}

// Number is the date as the integer YYYYMMDD, which orders as the date does;
// 0 when d is not a valid date.
func (d Date) Number() int {
	if !d.Valid() {
		return 0
	}
	n := 0
	for _, c := range string(d) {
		if c != '-' {
			n = n*10 + int(c-'0')
		}
	}
	return n
}

// DateFromNumber turns a YYYYMMDD number back into a date; 0 is no date.
func DateFromNumber(n int) Date {
	if n <= 0 {
		return ""
	}
	return Date(fmt.Sprintf("%04d-%02d-%02d", n/10000, n/100%100, n%100))
}
