package culture

import (
	"fmt"
	"time"
)

const dayLayout = "2006-01-02"

// LocalDay is the calendar day of t in loc (UTC when loc is nil), as YYYY-MM-DD.
//
//	LocalDay(time.Date(2026, 11, 23, 23, 30, 0, 0, time.UTC), tokyo) == "2026-11-24"
func LocalDay(t time.Time, loc *time.Location) string {
	if loc == nil {
		loc = time.UTC
	}
	return t.In(loc).Format(dayLayout)
}

// UTCDay is the UTC day of t: the day the server checks windows against (rule 4).
func UTCDay(t time.Time) string { return LocalDay(t, time.UTC) }

// ParseDay checks that s is a real YYYY-MM-DD date.
func ParseDay(s string) (string, error) {
	t, err := time.Parse(dayLayout, s)
	if err != nil || t.Format(dayLayout) != s {
		return "", fmt.Errorf("%w: %q", ErrDay, s)
	}
	return s, nil
}

// AddDays moves a YYYY-MM-DD day by n days.
func AddDays(day string, n int) string {
	t, err := time.Parse(dayLayout, day)
	if err != nil {
		return day
	}
	return t.AddDate(0, 0, n).Format(dayLayout)
}

// Contains reports whether day is inside the window, bounds included.
func (w Window) Contains(day string) bool { return w.From <= day && day <= w.To }

// IsActiveOn reports whether an entry is active on day: entries without
// windows (lasting, and regional ones without dates) always are; others
// when a window contains the day (inclusive bounds).
func IsActiveOn(e Entry, day string) bool {
	if len(e.Windows) == 0 {
		return e.Kind == KindLasting || e.Kind == KindRegional
	}
	for _, w := range e.Windows {
		if w.Contains(day) {
			return true
		}
	}
	return false
}
