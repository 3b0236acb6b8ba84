package vault

import (
	"math"
	"strings"
	"time"
)

// Date is a calendar date written "YYYY-MM-DD"; the empty Date means none.
// The fixed-width form makes lexical order chronological.
type Date string

// Valid reports whether d names a real calendar date in years 0001-9999.
func (d Date) Valid() bool {
	s := string(d)
	if len(s) != 10 || s[4] != '-' || s[7] != '-' {
		return false
	}
	year, ok1 := asciiNumber(s[0:4])
	month, ok2 := asciiNumber(s[5:7])
	day, ok3 := asciiNumber(s[8:10])
	if !ok1 || !ok2 || !ok3 || year < 1 || month < 1 || month > 12 || day < 1 {
		return false
	}
	// Day 0 of the next month normalises to the last day of this one.
	last := time.Date(year, time.Month(month)+1, 0, 0, 0, 0, 0, time.UTC).Day()
	return day <= last
}

// DateOf returns the calendar date of t in t's own location, or "" when t
// falls outside the years a Date can name.
func DateOf(t time.Time) Date {
	if t.Year() < 1 || t.Year() > 9999 {
		return ""
	}
	return Date(t.Format(time.DateOnly))
}

// ParseDateText reads a date, or an instant whose calendar date is taken as
// written: "YYYY-MM-DD", optionally followed by "T", "t" or blanks and a time
// "HH:MM[:SS[.fraction]]", optionally followed by "Z" or a UTC offset.
func ParseDateText(s string) (Date, bool) {
	s = strings.TrimSpace(s)
	if len(s) < 10 {
		return "", false
	}
	d := Date(s[:10])
	if !d.Valid() || !validTimeSuffix(s[10:]) {
		return "", false
	}
	return d, true
}

// validTimeSuffix checks what may follow the date in ParseDateText. The time
// is validated even though it never changes the date, so that garbage after
// a plausible date is not silently accepted.
func validTimeSuffix(rest string) bool {
	switch {
	case rest == "":
		return true
	case rest[0] == 'T' || rest[0] == 't':
		rest = rest[1:]
	case rest[0] == ' ' || rest[0] == '\t':
		rest = strings.TrimLeft(rest, " \t")
	default:
		return false
	}
	rest, ok := clockTime(rest)
	return ok && validZone(strings.TrimLeft(rest, " \t"))
}

// clockTime consumes "HH:MM[:SS[.fraction]]" and returns what follows it.
func clockTime(s string) (string, bool) {
	s, ok := twoDigits(s, 23)
	if !ok || !strings.HasPrefix(s, ":") {
		return s, false
	}
	if s, ok = twoDigits(s[1:], 59); !ok || !strings.HasPrefix(s, ":") {
		return s, ok
	}
	if s, ok = twoDigits(s[1:], 60); !ok || !strings.HasPrefix(s, ".") {
		return s, ok
	}
	rest := strings.TrimLeft(s[1:], "0123456789")
	return rest, len(rest) < len(s)-1
}

// validZone accepts "", "Z", "z" or an offset "±HH", "±HHMM" or "±HH:MM".
func validZone(s string) bool {
	switch {
	case s == "" || s == "Z" || s == "z":
		return true
	case s[0] != '+' && s[0] != '-':
		return false
	}
	rest, ok := twoDigits(s[1:], 23)
	if !ok || rest == "" {
		return ok
	}
	rest, ok = twoDigits(strings.TrimPrefix(rest, ":"), 59)
	return ok && rest == ""
}

// twoDigits consumes exactly two digits whose value is at most limit.
func twoDigits(s string, limit int) (string, bool) {
	if len(s) < 2 {
		return s, false
	}
	n, ok := asciiNumber(s[:2])
	return s[2:], ok && n <= limit
}

// asciiNumber parses a string made only of ASCII digits.
func asciiNumber(s string) (int, bool) {
	n := 0
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return 0, false
		}
		n = n*10 + int(s[i]-'0')
	}
	return n, len(s) > 0
}

// Bounds of the instants whose UTC date a Date can name.
var (
	minEpoch = float64(time.Date(1, 1, 1, 0, 0, 0, 0, time.UTC).Unix())
	maxEpoch = float64(time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC).Unix())
)

// epochDate reads a Unix time as seconds, or as milliseconds when its
// magnitude is at least 1e11 (seconds that large are beyond year 5000, while
// milliseconds that small are before 1973), and returns its UTC date.
func epochDate(v float64) (Date, bool) {
	if math.Abs(v) >= 1e11 {
		v /= 1000
	}
	// The negated comparison also rejects NaN.
	if !(v >= minEpoch && v < maxEpoch) {
		return "", false
	}
	return DateOf(time.Unix(int64(math.Floor(v)), 0).UTC()), true
}
