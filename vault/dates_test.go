package vault

import (
	"math"
	"testing"
	"time"
)

func TestDateValidAcceptsOnlyRealCalendarDates(t *testing.T) {
	tests := []struct {
		date Date
		want bool
	}{
		{"2026-03-01", true},
		{"2024-02-29", true},  // leap year
		{"2025-02-29", false}, // not a leap year
		{"1900-02-29", false}, // century, not a leap year
		{"2000-02-29", true},  // divisible by 400
		{"2026-02-30", false},
		{"2026-04-31", false},
		{"2026-13-01", false},
		{"2026-00-10", false},
		{"2026-01-00", false},
		{"0001-01-01", true},
		{"9999-12-31", true},
		{"0000-01-01", false},
		{"", false},
		{"2026-3-01", false},
		{"2026/03/01", false},
		{"2026-03-01 ", false},
		{"+026-03-01", false},
		{"２０２６-03-01", false},
	}
	for _, tt := range tests {
		if got := tt.date.Valid(); got != tt.want {
			t.Errorf("Date(%q).Valid() = %v, want %v", tt.date, got, tt.want)
		}
	}
}

func TestDateOfUsesTheTimesOwnLocation(t *testing.T) {
	newYork := time.FixedZone("EST", -5*3600)
	tests := []struct {
		name string
		t    time.Time
		want Date
	}{
		{"late evening west of UTC", time.Date(2026, 3, 1, 23, 30, 0, 0, newYork), "2026-03-01"},
		{"same instant in UTC", time.Date(2026, 3, 1, 23, 30, 0, 0, newYork).UTC(), "2026-03-02"},
		{"first representable year", time.Date(1, 1, 1, 0, 0, 0, 0, time.UTC), "0001-01-01"},
		{"year zero is out of range", time.Date(0, 12, 31, 0, 0, 0, 0, time.UTC), ""},
		{"year 10000 is out of range", time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC), ""},
	}
	for _, tt := range tests {
		if got := DateOf(tt.t); got != tt.want {
			t.Errorf("%s: DateOf(%v) = %q, want %q", tt.name, tt.t, got, tt.want)
		}
	}
}

func TestParseDateText(t *testing.T) {
	valid := []struct{ in, want string }{
		{"2026-03-01", "2026-03-01"},
		{"  2026-03-01\t", "2026-03-01"},
		{"2026-03-01T10:20", "2026-03-01"},
		{"2026-03-01t10:20", "2026-03-01"},
		{"2026-03-01 10:20", "2026-03-01"},
		{"2026-03-01   10:20:30", "2026-03-01"},
		{"2026-03-01T10:20:30.123456789", "2026-03-01"},
		{"2026-03-01T23:59:60Z", "2026-03-01"}, // leap second
		{"2026-03-01T10:20:30z", "2026-03-01"},
		{"2026-03-01T23:30:00-05:00", "2026-03-01"}, // the date as written, not UTC's
		{"2026-03-01T00:30:00+0900", "2026-03-01"},
		{"2026-03-01T00:30:00+09", "2026-03-01"},
		{"2026-03-01 00:30:00 +09:00", "2026-03-01"},
		{"2026-03-01 00:30:00 Z", "2026-03-01"},
		{"2024-02-29", "2024-02-29"},
	}
	for _, tt := range valid {
		got, ok := ParseDateText(tt.in)
		if !ok || got != Date(tt.want) {
			t.Errorf("ParseDateText(%q) = %q, %v; want %q, true", tt.in, got, ok, tt.want)
		}
	}
	invalid := []string{
		"",
		"yesterday",
		"2026-02-30",
		"2026-13-01",
		"2025-02-29",
		"2026-3-1",
		"01/03/2026",
		"2026-03-01x",
		"2026-03-01T",
		"2026-03-01T10",
		"2026-03-01T1:20",
		"2026-03-01T24:00",
		"2026-03-01T10:60",
		"2026-03-01T10:20:61",
		"2026-03-01T10:20:30.",
		"2026-03-01T10:20:30.5x",
		"2026-03-01T10:20Zulu",
		"2026-03-01T10:20+5",
		"2026-03-01T10:20+05:",
		"2026-03-01T10:20+05:60",
		"2026-03-01T10:20+24:00",
		"2026-03-01T10:20+05:00:00",
		"2026-03-01 T10:20",
		"2026-03-01\n10:20",
	}
	for _, in := range invalid {
		if got, ok := ParseDateText(in); ok || got != "" {
			t.Errorf("ParseDateText(%q) = %q, %v; want invalid", in, got, ok)
		}
	}
}

func TestEpochDateReadsSecondsOrMillisecondsInUTC(t *testing.T) {
	tests := []struct {
		name string
		in   float64
		want Date
		ok   bool
	}{
		{"seconds", 1650000000, "2022-04-15", true},
		{"milliseconds", 1650000000000, "2022-04-15", true},
		{"fractional seconds", 1650000000.75, "2022-04-15", true},
		{"zero is the epoch", 0, "1970-01-01", true},
		{"negative seconds", -86400, "1969-12-31", true},
		{"last second of 1969", -0.5, "1969-12-31", true},
		{"largest seconds below the millisecond threshold", 99999999999, "5138-11-16", true},
		{"negative milliseconds", -1e11, "1966-10-31", true},
		{"beyond year 9999", 1e15, "", false},
		{"before year 1", -1e15, "", false},
		{"not a number", math.NaN(), "", false},
		{"infinite", math.Inf(1), "", false},
	}
	for _, tt := range tests {
		got, ok := epochDate(tt.in)
		if got != tt.want || ok != tt.ok {
			t.Errorf("%s: epochDate(%v) = %q, %v; want %q, %v", tt.name, tt.in, got, ok, tt.want, tt.ok)
		}
	}
}
